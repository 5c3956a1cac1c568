"""typer's private names stay in memcli.cli._typer_internals, and a typer release that moves
one of them fails here with its name, before any command breaks."""

import ast
import importlib
from pathlib import Path

import pytest
import typer

import memcli
from memcli.cli import _typer_internals as typer_internals

PACKAGE = Path(memcli.__file__).parent
# Where each name memcli takes from inside typer lives (typer 0.26 to 0.28).
SOURCES = {
    "typer._click": ("Command",),
    "typer._click.exceptions": ("ClickException", "NoArgsIsHelpError", "NoSuchOption",
                                "UsageError"),
    "typer._click.shell_completion": ("CompletionItem", "add_completion_class",
                                      "get_completion_class"),
    "typer._completion_classes": ("FishComplete", "ZshComplete", "completion_init"),
    "typer.core": ("TyperGroup",),
    "typer.main": ("get_command",),
}


def _inside_typer(module: str) -> bool:
    """A typer module outside its documented top level (typer.X for a public X is fine)."""
    parts = module.split(".")
    return parts[0] == "typer" and len(parts) > 1


def _typer_imports(path: Path) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and _inside_typer(node.module):
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if _inside_typer(alias.name)]
    return found


def test_only_typer_internals_reaches_inside_typer() -> None:
    offenders = {str(path.relative_to(PACKAGE)): modules for path in PACKAGE.rglob("*.py")
                 if path.name != "_typer_internals.py" and (modules := _typer_imports(path))}
    assert offenders == {}, (
        "import typer's inner modules through memcli.cli._typer_internals only, so that one "
        f"module holds what a typer release can break: {offenders}")


def test_the_list_here_is_what_typer_internals_exports() -> None:
    listed = sorted(name for names in SOURCES.values() for name in names)
    assert sorted(typer_internals.__all__) == listed


@pytest.mark.parametrize(("module", "names"), sorted(SOURCES.items()))
def test_each_private_name_is_where_memcli_expects_it(module: str, names: tuple[str, ...]
                                                      ) -> None:
    try:
        found = importlib.import_module(module)
    except ImportError:
        pytest.fail(f"typer {typer.__version__} has no module {module}; memcli.cli._"
                    "typer_internals imports from it (see its docstring for what each is for)")
    missing = [name for name in names if not hasattr(found, name)]
    assert not missing, (f"typer {typer.__version__} moved {module}.{', '.join(missing)}; "
                         "update memcli.cli._typer_internals")


def test_the_group_catches_the_classes_typer_raises() -> None:
    """A usage error typer raises is one of the classes the group catches (not a copy of
    click's from another package, which the group's except clauses would let through)."""
    from typer.testing import CliRunner

    from memcli.cli import app

    result = CliRunner().invoke(app, ["show", "--bogus"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        "memcli: error: no such option --bogus (see memcli show --help)")
    assert issubclass(typer_internals.NoSuchOption, typer_internals.UsageError)
    assert issubclass(typer_internals.UsageError, typer_internals.ClickException)


def test_the_typer_fields_the_dispatch_copies_exist() -> None:
    """memcli.cli copies a typer.Typer to build one command only (``_only``) or the help
    listing (``_listing``): the fields it reads and replaces must still be there."""
    from memcli.cli import app

    assert isinstance(app.registered_commands, list) and app.registered_commands
    assert isinstance(app.registered_groups, list) and app.registered_groups
    info = app.registered_commands[0]
    assert callable(info.callback) and hasattr(info, "name")
    group = app.registered_groups[0]
    assert isinstance(group.typer_instance, typer.Typer) and group.name
