"""Startup discipline: what the CLI module, --help, --version and TAB completion may load.

memcli starts on every commit hook, every agent turn and every TAB key press, so these
paths must cost little more than ``import typer``. Each heavy library is imported by the
command that needs it, never at the top of the CLI module. The check runs in a fresh
subprocess, because this test process has long since imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Libraries that only some commands need (each costs 10-160 ms to import): network,
# validation, YAML, locking, retries, and rich (whose console alone costs about 60 ms).
HEAVY = ("httpx", "httpx_sse", "httpcore", "rich", "yaml", "frontmatter", "pydantic",
         "pydantic_core", "filelock", "stamina", "tenacity")
# What --help, --version and completion must never load, at the very least.
NEVER_FOR_HELP = ("httpx", "pydantic", "yaml")

# Runs the CLI the way the console script does, then writes what was imported, whatever
# the exit (typer ends every command with SystemExit).
RUNNER = """\
import json, sys
out = sys.argv[1]
sys.argv = ["memcli", *sys.argv[2:]]
status = None
try:
    from memcli.cli import main
    main()
except SystemExit as exc:
    status = exc.code
finally:
    with open(out, "w") as handle:
        json.dump({"modules": sorted(sys.modules), "status": status}, handle)
"""


def _env(tmp_path: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("_MEMCLI_COMPLETE")}
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
    allowed = {"memcli.errors", "memcli.completions"}
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
