"""Startup discipline: what the CLI module, --help, --version and TAB completion may load.

memcli starts on every commit hook, every agent turn and every TAB key press, so these
paths must cost little more than ``import typer``. Each heavy library is imported by the
command that needs it, never at the top of the CLI module. The check runs in a fresh
subprocess, because this test process has long since imported everything.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from coverage_env import unmeasured

# Libraries that only some commands need (each costs 10-160 ms to import): network,
# validation, YAML, locking, retries, and rich (whose console alone costs about 60 ms).
HEAVY = ("httpx", "httpx_sse", "httpcore", "rich", "yaml", "frontmatter", "pydantic",
         "pydantic_core", "filelock", "stamina", "tenacity")
# What --help, --version and completion must never load, at the very least.
NEVER_FOR_HELP = ("httpx", "pydantic", "yaml")

# Runs the CLI the way the console script does, then writes what was imported, whatever
# the exit (typer ends every command with SystemExit). json is imported only afterwards, so
# that it is in the list only when memcli imported it.
RUNNER = """\
import sys
out = sys.argv[1]
sys.argv = ["memcli", *sys.argv[2:]]
status = None
try:
    from memcli.cli import main
    main()
except SystemExit as exc:
    status = exc.code
finally:
    modules = sorted(sys.modules)
    import json
    with open(out, "w") as handle:
        json.dump({"modules": modules, "status": status}, handle)
"""


def _env(tmp_path: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    # Unmeasured under the coverage command: its tracer's imports are not memcli's.
    env = {k: v for k, v in unmeasured(os.environ).items()
           if not k.startswith("_MEMCLI_COMPLETE")}
    env.update({"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80",
                "MEMCLI_HOME": str(tmp_path / "home"),
                "MEMCLI_PROJECT_STORE": str(tmp_path / "project"),
                "MEMCLI_USER_STORE": str(tmp_path / "user")})
    env.update(extra or {})
    return env


def _loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in names)


def _run_cli(tmp_path: Path, args: list[str],
             extra_env: dict[str, str] | None = None) -> dict[str, object]:
    out = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", RUNNER, str(out), *args],
                          capture_output=True, text=True, env=_env(tmp_path, extra_env),
                          cwd=tmp_path, stdin=subprocess.DEVNULL, timeout=60, check=False)
    assert out.exists(), proc.stderr
    data: dict[str, object] = json.loads(out.read_text())
    data["stdout"] = proc.stdout
    data["stderr"] = proc.stderr
    return data


def test_importing_the_cli_loads_no_heavy_library(tmp_path: Path) -> None:
    code = "import json, sys; import memcli.cli; print(json.dumps(sorted(sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=_env(tmp_path), cwd=tmp_path, timeout=60, check=True)
    modules = json.loads(proc.stdout)
    assert "memcli.cli" in modules
    assert _loaded(modules, HEAVY) == []
    # Core modules load when their command runs; only the CLI package itself (typer and the
    # standard library) and these small ones may come earlier.
    allowed = {"memcli.errors", "memcli.cli.completion_scripts"}
    early = [m for m in modules if m.startswith("memcli.") and m not in allowed
             and m != "memcli.cli" and not m.startswith("memcli.cli.")]
    assert early == []


@pytest.mark.parametrize("args", [
    ["--help"],
    ["--version"],
    [],  # no_args_is_help
    ["extract", "--help"],
    ["lint", "--help"],
    ["hook", "--help"],
])
def test_help_and_version_load_no_heavy_library(tmp_path: Path, args: list[str]) -> None:
    result = _run_cli(tmp_path, args)
    modules = result["modules"]
    assert isinstance(modules, list)
    assert result["status"] in (0, 2, None), result["stderr"]
    assert _loaded(modules, NEVER_FOR_HELP) == []
    assert _loaded(modules, HEAVY) == []
    # The learned extractor's weights are read when a turn is extracted, never for help.
    assert "memcli.extraction.rules.learned" not in modules
    if args == ["--version"]:
        assert str(result["stdout"]).startswith("memcli ")
    elif args:
        assert "Usage:" in str(result["stdout"])


def test_tab_completion_loads_no_heavy_library(tmp_path: Path) -> None:
    result = _run_cli(tmp_path, [], {"_MEMCLI_COMPLETE": "complete_bash",
                                     "COMP_WORDS": "memcli ex", "COMP_CWORD": "1"})
    modules = result["modules"]
    assert isinstance(modules, list)
    assert result["status"] == 0, result["stderr"]
    assert "extract" in str(result["stdout"]).split()
    assert _loaded(modules, HEAVY) == []


# --------------------------------------------------------------------------- one command
# A run of one command imports the command module that registers it, not the other
# command modules, and typer converts only that module's commands (memcli.cli.main).


def test_command_modules_name_every_registered_command() -> None:
    import importlib

    from memcli.cli import COMMAND_MODULES, register
    from memcli.cli._app import COMMANDS, GROUPS

    register()
    assert set(COMMANDS) | set(GROUPS) == set(COMMAND_MODULES)
    for name, function in COMMANDS.items():
        assert function.__module__.rsplit(".", 1)[1] in COMMAND_MODULES[name], name
    # A group's subcommands may come from several modules: each is listed for the group.
    for name, group in GROUPS.items():
        modules = {function.__module__.rsplit(".", 1)[1] for function in group.commands.values()}
        assert modules == set(COMMAND_MODULES[name]), name
    for modules in COMMAND_MODULES.values():
        for module in modules:
            importlib.import_module(f"memcli.cli.{module}")


@pytest.mark.parametrize(("args", "module"), [
    (["show"], "store_commands"),
    (["--project-store", "p", "context"], "store_commands"),
    (["lint"], "lint_command"),
    (["hook", "--help"], "integration_commands"),
])
def test_a_command_loads_only_its_own_command_module(tmp_path: Path, args: list[str],
                                                     module: str) -> None:
    result = _run_cli(tmp_path, args)
    modules = result["modules"]
    assert isinstance(modules, list)
    assert result["status"] in (0, None), result["stderr"]
    commands = {m.rsplit(".", 1)[1] for m in modules if m.startswith("memcli.cli.")
                and m.rsplit(".", 1)[1][0] != "_"}
    assert commands == {module}


def test_help_still_lists_every_command(tmp_path: Path) -> None:
    from memcli.cli import COMMAND_MODULES

    listed = str(_run_cli(tmp_path, ["--help"])["stdout"])
    for name in COMMAND_MODULES:
        assert re.search(rf"(^  |, ){re.escape(name)}( |,|$)", listed, flags=re.M), name


@pytest.mark.parametrize("args", [["--help"], ["-h"]])
def test_the_help_listing_reads_as_the_whole_applications(tmp_path: Path,
                                                          args: list[str]) -> None:
    # `memcli --help` lists the commands without typer converting their parameters; the
    # listing must be the one typer draws from the whole application, byte for byte.
    from typer.testing import CliRunner

    from memcli.cli import app

    whole = CliRunner().invoke(app, args, env={"COLUMNS": "80"}, prog_name="memcli")
    assert whole.exit_code == 0, whole.output
    listed = _run_cli(tmp_path, args)
    assert listed["status"] in (0, None), listed["stderr"]
    assert listed["stdout"] == whole.stdout
    assert "  extract " in whole.stdout and "  hooks " in whole.stdout
    assert "Plumbing" in whole.stdout


def test_lint_without_fix_loads_no_repair_module(tmp_path: Path) -> None:
    result = _run_cli(tmp_path, ["lint"])
    modules = result["modules"]
    assert isinstance(modules, list)
    assert "memcli.commands.lint" in modules
    assert "memcli.commands.lint._fix" not in modules
    assert _loaded(modules, ("yaml", "pydantic", "httpx", "rich")) == []


# --------------------------------------------------------------------------- store commands
# The reading commands run on every commit hook and agent turn. On a store of plain notes
# they load no locking library (the store locks are the standard library's flock), no
# logging, asyncio or JSON, no extraction provider's types, no trust records when there is
# no project config, no near-duplicate statement matching (memcli.extraction.similarity: lint's M303
# needs the title words only, from memcli.text), no secret token rules (the prefilter's
# gates are tables of their own; the rules load for a text holding one), and lint loads the
# instruction comparison only when the repository has an AGENTS.md, CLAUDE.md or GEMINI.md.
NEVER_FOR_READING = ("filelock", "logging", "asyncio", "json", "yaml", "frontmatter", "rich",
                     "pydantic", "httpx", "stamina")
NOT_WITHOUT_NEED = ("memcli.providers._types", "memcli.settings.trust",
                    "memcli.commands.interop.instructions", "memcli.commands.lint._fix",
                    "memcli.writes.history", "memcli.extraction.similarity",
                    "memcli.writes.transaction", "memcli.safety.redact._tokens",
                    "memcli.safety.redact._catalogue")
# The context block (memcli context's budget): lint's M108 needs it only for a store whose
# entries might not fit it, show never.
NOT_FOR_LINT_OR_SHOW = ("memcli.store.context_block", "memcli.tokens")
# Lint's whole run defines no dataclass: a note, an index entry and a store's state are
# records (memcli.value_types), and a dataclass compiles its methods from source at import (about
# 0.4 ms each, the dataclasses module as much again).
NOT_FOR_LINT = ("dataclasses",)


def _plain_store(tmp_path: Path, notes: int = 6) -> None:
    for level in ("project", "user"):
        folder = tmp_path / level
        folder.mkdir()
        for number in range(notes):
            title = f"Deploy step {number} of the {level} runbook"
            slug = "-".join(title.lower().split())
            (folder / f"project_knowledge_{slug}.md").write_text(
                "---\ntype: project_knowledge\n"
                f"title: {title}\nsummary: Run step {number} before the next one.\n"
                "created: 2026-11-02T10:00:00Z\nupdated: 2026-11-02T10:00:00Z\n---\n"
                f"Step {number} needs the staging key in the vault, not in the repo.\n",
                "utf-8")


@pytest.mark.parametrize("args", [["lint"], ["show"], ["show", "--level", "project"],
                                  ["context"]])
def test_reading_a_store_loads_no_locking_logging_or_json_library(tmp_path: Path,
                                                                  args: list[str]) -> None:
    _plain_store(tmp_path)
    assert _run_cli(tmp_path, ["index"])["status"] in (0, None)
    assert (tmp_path / "project" / "MEMORY.md").is_file()
    result = _run_cli(tmp_path, args)
    modules = result["modules"]
    assert isinstance(modules, list)
    assert result["status"] in (0, None), result["stderr"]
    assert "memcli.writes.locks" in modules  # the stores were read under their locks
    if args == ["lint"]:
        assert "0 errors, 0 warnings (2 stores, 12 notes)" in str(result["stderr"])
    else:
        assert "Deploy step 5 of the project runbook" in str(result["stdout"])
    assert _loaded(modules, NEVER_FOR_READING) == []
    assert [m for m in NOT_WITHOUT_NEED if m in modules] == []
    if args[0] != "context":
        assert [m for m in NOT_FOR_LINT_OR_SHOW if m in modules] == []
    if args == ["lint"]:
        assert [m for m in NOT_FOR_LINT if m in modules] == []


def test_reading_a_store_loads_the_write_path_only_to_finish_a_killed_batch(
        tmp_path: Path) -> None:
    # The transaction module (commit, roll forward) loads when a store holds a batch a
    # killed process left, and the command finishes it first; otherwise it is never loaded.
    _plain_store(tmp_path)
    assert _run_cli(tmp_path, ["index"])["status"] in (0, None)
    batch = tmp_path / "user" / ".memcli-txn-00000000000000aa"
    (batch / "files").mkdir(parents=True)  # no manifest: killed while preparing
    result = _run_cli(tmp_path, ["lint"])
    assert result["status"] in (0, None), result["stderr"]
    assert "memcli.writes.transaction" in result["modules"]
    assert not batch.exists()
    again = _run_cli(tmp_path, ["lint"])
    assert "memcli.writes.transaction" not in again["modules"]


def test_lint_loads_the_instruction_comparison_when_there_is_an_instruction_file(
        tmp_path: Path) -> None:
    _plain_store(tmp_path)
    (tmp_path / ".git").mkdir()  # the project root, where AGENTS.md is looked for
    (tmp_path / "AGENTS.md").write_text("# Agents\n\nNever use npm, use pnpm.\n", "utf-8")
    assert _run_cli(tmp_path, ["index"])["status"] in (0, None)
    result = _run_cli(tmp_path, ["lint"])
    modules = result["modules"]
    assert isinstance(modules, list)
    assert result["status"] in (0, None), result["stderr"]
    assert "memcli.commands.interop.instructions" in modules


# --------------------------------------------------------------------------- regexes
# Patterns compile on first use, and only for a text that passes their gate: compiling the
# secret catalogue alone cost 40 ms on every lint and extract.


def test_a_plain_text_compiles_no_catalogue_row() -> None:
    from memcli.safety.redact import _tokens, find_secrets

    def compiled() -> list[str]:
        return [rule.kind for rule in _tokens.RULES if "pattern" in vars(rule)]

    for rule in _tokens.RULES:
        vars(rule).pop("pattern", None)
    assert find_secrets("title: Run the linters\n\nWe always run ruff before the tests.\n") == []
    assert compiled() == []
    token = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"
    assert [f.kind for f in find_secrets(f"token {token} here")] == ["huggingface-token"]
    assert compiled() == ["huggingface-token"]


def test_structural_patterns_compile_one_by_one() -> None:
    from memcli.safety.redact import _patterns, find_secrets

    _patterns._pats.cache_clear()
    find_secrets("see https://example.com/docs for more")
    compiled = set(vars(_patterns._pats()))
    assert "url" in compiled
    assert not compiled & {"pem_begin", "jwt", "netrc", "aws_key", "github", "cli_user"}
    assert len(_patterns._pats().all()) == len(_patterns._SOURCES[0]) + len(
        _patterns._SOURCES[1])


def test_a_plain_note_compiles_no_fence_pattern() -> None:
    # A frontmatter of "\n"-ended lines closed by a bare `---` (what memcli writes) is split
    # with str.find; the fence patterns (2 ms to compile) are for every other layout.
    from memcli.store import notes

    notes._fence_patterns.cache_clear()
    plain = b"---\ntitle: Build\nsummary: How.\n---\nRun make.\n"
    assert notes.parse_note("a.md", plain).body == "Run make.\n"
    assert notes.parse_note("b.md", plain.replace(b"\n", b"\r\n")).frontmatter == (
        "title: Build\r\nsummary: How.\r\n")
    assert notes._fence_patterns.cache_info().currsize == 0
    spaced = b"---\ntitle: Build\n---  \nRun make.\n"
    assert notes.parse_note("c.md", spaced).body == "Run make.\n"
    assert notes._fence_patterns.cache_info().currsize == 1


def test_ascii_text_never_compiles_the_cjk_class() -> None:
    from memcli import tokens

    tokens._other_runs.cache_clear()
    assert tokens.count_tokens("plain ASCII text, eight tokens or so") == 9
    assert tokens._other_runs.cache_info().currsize == 0
    assert tokens.count_tokens("中文ab") == 3
    assert tokens._other_runs.cache_info().currsize == 1


def test_the_store_modules_load_no_hashing_diffing_or_randomness(tmp_path: Path) -> None:
    # _hashlib (1.5 ms), difflib and secrets (random, base64) were imported by every store
    # command for a value only a write, a diff or a trusted project config needs.
    code = ("import json, sys; import memcli.commands, memcli.store.folder, "
            "memcli.store.names, memcli.settings.trust, memcli.writes.transaction, "
            "memcli.settings.config, memcli.settings.resolve; "
            "print(json.dumps(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=_env(tmp_path), cwd=tmp_path, timeout=60, check=True)
    modules = json.loads(proc.stdout)
    assert _loaded(modules, ("hashlib", "_hashlib", "difflib", "secrets", "random")) == []


# --------------------------------------------------------------------------- validation
# One validator for every operation, in plain Python (memcli.operations.model): pydantic
# costs about 50 ms to import, most of `memcli extract --provider rules` on a short turn.


def test_validating_any_operation_loads_no_pydantic(tmp_path: Path) -> None:
    code = """if True:
        import json, sys
        from memcli.operations.model import validate_item
        from memcli.providers import OPERATIONS_SCHEMA
        item = {"action": "add", "level": "project", "type": "project_knowledge",
                "title": "Build", "content": "Run make before pushing.", "reason": "said so"}
        assert validate_item(1, item).op is not None
        assert validate_item(2, {**item, "title": 3, "expires": "soon"}).error
        assert validate_item(3, {"action": "delete", "level": "user"}).error
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "pydantic_core")))
    """
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=_env(tmp_path), cwd=tmp_path, timeout=60, check=False)
    assert proc.stdout.strip() == "[]", proc.stderr


@pytest.mark.parametrize("args", [
    ["add", "Always run make before pushing.", "--level", "user"],
    ["extract", "--provider", "rules", "--apply", "--input", "turn.jsonl"],
])
def test_add_and_unattended_rules_extraction_load_no_pydantic(tmp_path: Path,
                                                              args: list[str]) -> None:
    turn = {"role": "user", "content": "Remember: we always run the linters before the tests."}
    (tmp_path / "turn.jsonl").write_text(json.dumps(turn) + "\n", "utf-8")
    result = _run_cli(tmp_path, args)
    modules = result["modules"]
    assert isinstance(modules, list)
    assert result["status"] in (0, None), result["stderr"]
    assert "written" in str(result["stderr"]), result["stderr"]
    assert _loaded(modules, ("pydantic", "pydantic_core", "httpx", "rich")) == []
