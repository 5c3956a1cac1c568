"""memcli uses typer through its public names only, so that a typer release that moves what
it keeps private (typer vendors click as ``typer._click``, "subject to change") cannot
break memcli: no module imports a private typer name, and what memcli calls on the objects
typer builds is click's documented interface, checked here by name."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Annotated

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

import memcli
from memcli.cli import app, app_for

PACKAGE = Path(memcli.__file__).parent
# The one typer module below the top level memcli may import from, and what: the base class
# that the documented `cls=` parameter of typer.Typer names for a custom command group.
ALLOWED_BELOW_TOP = {"typer.core": {"TyperGroup"}}
# Public-looking names that typer documents as no longer supported (0.26's release notes:
# "extracting the Click app ... is no longer supported").
UNSUPPORTED = {"typer.main.get_command", "typer.main.get_group"}


def _private_typer_uses(tree: ast.AST) -> list[str]:
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "typer":
            module = node.module or ""
            for alias in node.names:
                name = f"{module}.{alias.name}"
                if (any(part.startswith("_") for part in name.split("."))
                        or name in UNSUPPORTED
                        or (module != "typer"
                            and alias.name not in ALLOWED_BELOW_TOP.get(module, ()))):
                    found.append(name)
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names
                      if alias.name.startswith("typer.") and alias.name != "typer"]
        elif isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            if dotted.startswith("typer.") and (
                    any(part.startswith("_") for part in dotted.split("."))
                    or dotted in UNSUPPORTED or dotted.count(".") > 1):
                found.append(dotted)
    return found


def _dotted(node: ast.expr) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""


def test_no_module_of_memcli_uses_a_private_typer_name() -> None:
    offenders = {str(path.relative_to(PACKAGE)): names for path in sorted(PACKAGE.rglob("*.py"))
                 if (names := _private_typer_uses(ast.parse(path.read_text("utf-8"))))}
    assert offenders == {}, (
        "memcli imports what typer keeps private or no longer supports; use typer's public "
        f"names (typer.X) or click's documented interface on the objects typer builds: "
        f"{offenders}")


@pytest.mark.parametrize(("source", "private"), [
    ("from typer._click.exceptions import UsageError", ["typer._click.exceptions.UsageError"]),
    ("from typer.main import get_command", ["typer.main.get_command"]),
    ("from typer.core import TyperOption", ["typer.core.TyperOption"]),
    ("import typer._completion_classes", ["typer._completion_classes"]),
    ("import typer\nx = typer._click.Command", ["typer._click.Command", "typer._click"]),
    ("from typer.core import TyperGroup\nimport typer\ntyper.Exit(2)", []),
])
def test_the_check_sees_each_way_of_reaching_inside_typer(source: str,
                                                          private: list[str]) -> None:
    assert _private_typer_uses(ast.parse(source)) == private


# click's documented interface that memcli calls on what typer builds: the command group
# (help listing, usage errors, TAB completion) and its contexts (typer.Context is click's).
GROUP_METHODS = ("main", "make_context", "get_command", "list_commands", "get_params",
                 "shell_complete", "format_usage", "format_help_text", "format_commands",
                 "format_help")
CONTEXT_METHODS = ("get_help", "get_parameter_source", "find_root")


@pytest.mark.parametrize(("owner", "names"), [
    (TyperGroup, GROUP_METHODS), (typer.Context, CONTEXT_METHODS)])
def test_the_click_interface_memcli_calls_is_there(owner: type, names: tuple[str, ...]
                                                   ) -> None:
    missing = [name for name in names if not callable(getattr(owner, name, None))]
    assert not missing, (f"typer {typer.__version__}'s {owner.__qualname__} has no "
                         f"{', '.join(missing)}; memcli.cli calls it (_app.py, "
                         "completion_answers.py)")


# ... and on the parameters of a command (memcli.cli.completion_answers), and the contexts.
PARAMETER_ATTRIBUTES = {"option": ("opts", "is_flag", "nargs", "name", "shell_complete"),
                        "argument": ("nargs", "name", "shell_complete")}


def test_the_click_parameter_interface_memcli_reads_is_there() -> None:
    """On a group typer builds for a documented `cls=`, as memcli's is built."""
    seen: dict[str, object] = {}

    class Probe(TyperGroup):
        def main(self, *args: object, **kwargs: object) -> int:
            seen["group"] = self
            return 0

    probe = typer.Typer(cls=Probe)

    @probe.command()
    def one(level: Annotated[str | None, typer.Option("--level")] = None,
            dry_run: bool = False, name: Annotated[str, typer.Argument()] = "") -> None:
        """A command with an option, a flag and an argument."""

    @probe.command()
    def two() -> None:
        """Another."""

    CliRunner().invoke(probe, [])
    group: object = seen["group"]
    ctx = group.make_context("probe", ["one"], resilient_parsing=True)  # type: ignore[attr-defined]
    command = group.get_command(ctx, "one")  # type: ignore[attr-defined]
    sub = command.make_context("one", ["--level"], parent=ctx, resilient_parsing=True)
    params = command.get_params(sub)
    missing = sorted({f"{type(p).__name__}.{name}" for p in params
                      for name in PARAMETER_ATTRIBUTES.get(getattr(p, "param_type_name", ""),
                                                           ("param_type_name",))
                      if not hasattr(p, name)}
                     | {f"Context.{name}" for name in ("params", "get_parameter_source")
                        if not hasattr(sub, name)})
    assert not missing, (f"typer {typer.__version__} has no {', '.join(missing)}; "
                         "memcli.cli.completion_answers reads it at TAB time")
    kinds = sorted(p.param_type_name for p in params)
    assert kinds == ["argument", "option", "option", "option"]  # --help is an option too
    source = sub.get_parameter_source("name")
    assert getattr(source, "name", None) != "COMMANDLINE"


@pytest.mark.parametrize(("argv", "status", "last_line"), [
    (["show", "--bogus"], 2, "memcli: error: no such option --bogus (see memcli show --help)"),
    (["show", "--levle", "user"], 2,
     "memcli: error: no such option --levle; did you mean --level? (see memcli show --help)"),
    (["shw"], 2, "memcli: error: no command 'shw'; did you mean `memcli show`? "
                 "(see memcli --help)"),
    (["show", "--level"], 2,
     "memcli: error: option '--level' requires an argument (see memcli --help)"),
    (["hooks"], 2, "memcli: error: missing command (see memcli hooks --help)"),
    (["completion", "tcsh"], 2,
     "memcli: error: unknown shell 'tcsh'; use one of: bash, zsh, fish"),
])
def test_command_line_errors_are_one_line_with_their_status(argv: list[str], status: int,
                                                            last_line: str) -> None:
    """Recognised by click's interface (exit_code, format_message, ctx), not by classes
    typer keeps private."""
    result = CliRunner().invoke(app_for(argv), argv)
    assert (result.exit_code, result.output.strip().splitlines()[-1]) == (status, last_line)


def test_memcli_alone_prints_the_help_and_exits_2() -> None:
    result = CliRunner().invoke(app_for([]), [])
    assert result.exit_code == 2
    assert result.output.startswith("Usage: memcli [OPTIONS] COMMAND [ARGS]...")
    assert "memcli: error" not in result.output


@pytest.mark.parametrize(("env", "reply"), [
    ({"_MEMCLI_COMPLETE": "complete_bash", "COMP_WORDS": "memcli li", "COMP_CWORD": "1"},
     "lint\n"),
    ({"_MEMCLI_COMPLETE": "complete_bash", "COMP_WORDS": "memcli --user-store x hooks in",
      "COMP_CWORD": "4"}, "install\n"),
    ({"_MEMCLI_COMPLETE": "complete_bash", "COMP_WORDS": "memcli show --level=u",
      "COMP_CWORD": "2"}, "user\n"),
    ({"_MEMCLI_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "memcli lint --fo"},
         r"""_arguments '*: :(("--format":"Output format (default\\: text; github for GitHub """
         r"""Actions annotations)."))'""" "\n"),
    ({"_MEMCLI_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "memcli zzz"}, "_files\n"),
    ({"_MEMCLI_COMPLETE": "complete_fish", "_TYPER_COMPLETE_FISH_ACTION": "get-args",
      "_TYPER_COMPLETE_ARGS": "memcli hook co"},
     "codex\tHandle a Codex CLI hook payload on stdin;...\n"
     "copilot\tHandle a GitHub Copilot CLI hook payload...\n"),
])
def test_tab_is_answered_by_memcli(env: dict[str, str], reply: str) -> None:
    """memcli answers its scripts' requests itself (typer registers its shell classes only
    with add_completion=True, which would list --install-completion in every help)."""
    result = CliRunner().invoke(app, [], env=env)
    assert (result.exit_code, result.stdout) == (0, reply)


def test_fish_asks_whether_memcli_completes_the_line() -> None:
    base = {"_MEMCLI_COMPLETE": "complete_fish", "_TYPER_COMPLETE_FISH_ACTION": "is-args"}
    assert CliRunner().invoke(app, [], env={**base, "_TYPER_COMPLETE_ARGS": "memcli sh"}
                              ).exit_code == 0
    assert CliRunner().invoke(app, [], env={**base, "_TYPER_COMPLETE_ARGS": "memcli zzz"}
                              ).exit_code == 1


def test_an_unknown_shell_asking_for_candidates_is_an_error() -> None:
    result = CliRunner().invoke(app, [], env={"_MEMCLI_COMPLETE": "complete_tcsh"})
    assert result.exit_code == 1
    assert result.stderr == "memcli: error: no TAB completion for shell 'tcsh'\n"
