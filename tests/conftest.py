"""Shared fixtures.

Everything memcli could touch lives under pytest's tmp_path: the one autouse fixture points
HOME and MEMCLI_HOME at a temporary folder (and drops store overrides inherited from the
shell), so no test can reach the real home folder or a real store. The rest is opt-in:

* ``memenv``: a project store and a user store in tmp_path, a fixed clock (MEMCLI_NOW; TZ
  is UTC for every test),
  NO_COLOR, the working directory in a fresh "repo" folder; methods to run memcli in
  process (``invoke``, ``apply``; ``call``, which answers as ``run`` does) or as a
  subprocess (``run``, only where the process boundary is what is tested: exit statuses of
  a real process, signals, stdin and terminals, hooks), to write notes by hand and to
  snapshot a folder tree byte for byte.
* ``run_memcli``: ``memenv.run``, the subprocess helper (``python -m memcli``).
* ``cli``: ``memenv.invoke``, the in-process helper (``invoke_memcli``: typer's CliRunner on
  the app `memcli` runs for the command line, ``memcli.cli.app_for``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cpu_report
import pytest
import tiers
from typer.testing import CliRunner, Result


def _cache_bytecode() -> None:
    """Bytecode cached even under PYTHONDONTWRITEBYTECODE, in .pytest_cache/pycache.

    Without a cache every xdist worker rewrites and compiles every test module again (about
    8 s of CPU each), and every memcli the tests start as a subprocess compiles the modules
    it imports (about 40 % of a short command's CPU). An installed memcli has its bytecode
    compiled at install time; benchmarks/run.py gives its children the same private cache.
    The checkout gets no __pycache__ folder: the prefix puts every file under pytest's own
    (git-ignored) cache folder, for this process and the processes it starts.
    """
    if not sys.dont_write_bytecode:
        return
    prefix = str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache")
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix


_cache_bytecode()

FIXED_NOW = "2026-11-29T10:00:00Z"
# Variables that would point memcli at a real store or change its timing.
_INHERITED = ("MEMCLI_USER_STORE", "MEMCLI_PROJECT_STORE", "MEMCLI_LOCK_TIMEOUT", "MEMCLI_NOW")


@pytest.fixture(scope="session")
def _temporary_folders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this process's per-test temporary folders (in pytest's base folder)."""
    return tmp_path_factory.mktemp("tests", numbered=False)


def _temporary_folder(parent: Path, name: str) -> Path:
    """A new folder in PARENT, its name led by NAME. pytest's own (``mktemp``) numbers each
    one by listing every folder made before it: two a test, 4 ms a test by the end of a
    worker's 2,300 tests, about 16 s of the fast tier's CPU; mkdtemp's random names need no
    listing. The same mode (0o700) and place, kept after the run as pytest keeps its own."""
    return Path(tempfile.mkdtemp(prefix=re.sub(r"[\W]", "_", name)[:30] + "-", dir=parent))


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, _temporary_folders: Path) -> Path:
    """pytest's ``tmp_path`` (a new folder for each test), made by ``_temporary_folder``."""
    return _temporary_folder(_temporary_folders, request.node.name)


@pytest.fixture(autouse=True)
def _isolated_home(_temporary_folders: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME and MEMCLI_HOME in a temporary folder, for every test."""
    home = _temporary_folder(_temporary_folders, "home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMCLI_HOME", str(home / ".memcli"))
    # Days are the person's: a fixed clock names the same day on every machine only in a
    # fixed zone (tests of other zones set TZ themselves).
    monkeypatch.setenv("TZ", "UTC")
    for name in _INHERITED:
        monkeypatch.delenv(name, raising=False)
    return home


def run_memcli(*args: str, input: str | bytes | None = None,
               env: Mapping[str, str] | None = None, cwd: Path | str | None = None,
               timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``python -m memcli ARGS`` in a subprocess; text output, never raises on exit status."""
    full_env = {**os.environ, **(env or {})}
    data = input.encode() if isinstance(input, str) else input
    proc = subprocess.run(
        [sys.executable, "-m", "memcli", *args],
        input=data, capture_output=True, env=full_env, cwd=cwd, timeout=timeout,
        check=False,
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode,
        proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"),
    )


def invoke_memcli(*args: str, input: str | bytes | None = None,
                  env: Mapping[str, str | None] | None = None,
                  catch_exceptions: bool = True) -> Result:
    """``memcli ARGS`` in process: typer's CliRunner on the app ``memcli`` itself runs for
    ARGS (``memcli.cli.app_for``: the one command named, converted to click alone).
    Converting the whole app, ``memcli.cli.app``, costs about 10 ms a call; a call of
    `status` or `lint` on an empty store about 1.7 ms in all on the one command (13 ms on
    the whole app), and the tests call memcli thousands of times."""
    from memcli.cli import app_for

    return CliRunner().invoke(app_for(args), list(args), input=input, env=env,
                              catch_exceptions=catch_exceptions)


def call_memcli(*args: str, input: str | bytes | None = None,
                env: Mapping[str, str | None] | None = None,
                cwd: Path | str | None = None) -> subprocess.CompletedProcess[str]:
    """``run_memcli`` in process: the same answer (exit status, stdout, stderr apart) from
    typer's CliRunner, in the folder ``cwd``, with ``env`` over this process's environment.
    For tests where the process boundary is not what is tested: starting Python and memcli
    costs about 0.1-0.3 s of CPU a call, several times the in-process call."""
    previous = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = invoke_memcli(*args, input=input, catch_exceptions=False, env=env)
    finally:
        os.chdir(previous)
    return subprocess.CompletedProcess(["memcli", *args], result.exit_code,
                                       result.stdout, result.stderr)


def snapshot_tree(root: Path) -> dict[str, Any]:
    """Every entry under root: file bytes, 'dir' for folders, ('link', target) for symlinks."""
    found: dict[str, Any] = {}
    if not root.exists():
        return found
    for dirpath, dirnames, filenames in os.walk(root):
        folder = Path(dirpath)
        for name in dirnames + filenames:
            path = folder / name
            key = str(path.relative_to(root))
            if path.is_symlink():
                found[key] = ("link", os.readlink(path))
            elif path.is_dir():
                found[key] = "dir"
            else:
                found[key] = path.read_bytes()
    return found


def note_text(meta: Mapping[str, Any], body: str = "Body.\n") -> str:
    """A note as a person would write it: simple `key: value` lines, then the body."""
    lines = ["---"] + [f"{k}: {v}" for k, v in meta.items()] + ["---"]
    return "\n".join(lines) + "\n" + body


@dataclass
class MemEnv:
    root: Path
    repo: Path
    project: Path
    user: Path
    env: dict[str, str]

    def store(self, level: str) -> Path:
        return self.project if level == "project" else self.user

    # ----------------------------------------------------------------- running memcli

    def run(self, *args: str, input: str | bytes | None = None,
            env: Mapping[str, str] | None = None, cwd: Path | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return run_memcli(*args, input=input, env={**self.env, **(env or {})},
                          cwd=cwd or self.repo, timeout=timeout)

    def call(self, *args: str, input: str | bytes | None = None,
             env: Mapping[str, str | None] | None = None, cwd: Path | None = None,
             timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """``run`` in process (``call_memcli``): the same answer, for tests where the
        process boundary is not what is tested."""
        del timeout  # in process, a hang is pytest's to report
        return call_memcli(*args, input=input, env={**self.env, **(env or {})},
                           cwd=cwd or self.repo)

    def invoke(self, *args: str, input: str | bytes | None = None,
               env: Mapping[str, str] | None = None) -> Result:
        return invoke_memcli(*args, input=input, env={**self.env, **(env or {})},
                             catch_exceptions=False)

    def apply(self, ops: Any, *flags: str, env: Mapping[str, str] | None = None) -> Result:
        """`memcli apply -` in process, with ops (a list or document object) as JSON on stdin."""
        return self.invoke("apply", *flags, "-", input=json.dumps(ops), env=env)

    def apply_json(self, ops: Any, *flags: str) -> tuple[int, dict[str, Any]]:
        result = self.apply(ops, "--json", *flags)
        return result.exit_code, json.loads(result.stdout)

    # ----------------------------------------------------------------- the stores

    def write_note(self, level: str, filename: str, meta: Mapping[str, Any] | None = None,
                   body: str = "Body.\n", *, raw: bytes | None = None) -> Path:
        """Put a note in a store by hand (no memcli involved)."""
        store = self.store(level)
        store.mkdir(parents=True, exist_ok=True)
        path = store / filename
        if raw is None:
            meta = meta if meta is not None else {
                "type": filename.split("_")[0] + "_" + filename.split("_")[1],
                "title": filename, "summary": "A note.", "updated": FIXED_NOW,
            }
            raw = note_text(meta, body).encode()
        path.write_bytes(raw)
        return path

    def snapshot(self, root: Path | None = None) -> dict[str, Any]:
        return snapshot_tree(root or self.root)

    def stores_snapshot(self) -> dict[str, dict[str, Any]]:
        return {"project": snapshot_tree(self.project), "user": snapshot_tree(self.user)}

    def index(self, level: str) -> str:
        return (self.store(level) / "MEMORY.md").read_text("utf-8")

    def notes(self, level: str) -> list[str]:
        store = self.store(level)
        if not store.exists():
            return []
        # The history folder is the store's own record of its changes, not a note.
        return sorted(p.name for p in store.iterdir()
                      if p.name not in ("MEMORY.md", ".memcli-history"))


@pytest.fixture
def memenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemEnv:
    """Two empty (not yet existing) stores in tmp_path and an environment pointing at them."""
    repo = tmp_path / "repo"
    repo.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    project = repo / ".memcli" / "memory"
    user = home / ".memcli" / "memory"
    env = {
        "HOME": str(home),
        "MEMCLI_HOME": str(home / ".memcli"),
        "MEMCLI_PROJECT_STORE": str(project),
        "MEMCLI_NOW": FIXED_NOW,
        "NO_COLOR": "1",
        "MEMCLI_LOCK_TIMEOUT": "20",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(repo)
    return MemEnv(tmp_path, repo, project, user, env)


@pytest.fixture(name="run_memcli")
def run_memcli_fixture(memenv: MemEnv) -> Any:
    """``run_memcli(*args, input=..., env=...)``: memcli as a subprocess on memenv's stores."""
    return memenv.run


@pytest.fixture
def cli(memenv: MemEnv) -> Any:
    """``cli(*args, input=..., env=...)``: memcli in process (CliRunner) on memenv's stores."""
    return memenv.invoke


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many workers `-n auto` (pyproject's addopts) starts: half again the cores. About
    a fifth of the suite's time is spent waiting (for hook workers, deadlines, a model
    server's delays, fsync), not computing; a third worker on two cores computes while the
    other two wait."""
    del config
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, (cores or 1) * 3 // 2)


# `--cpu-report N`: where the suite's CPU goes (tests/cpu_report.py).
def pytest_addoption(parser: pytest.Parser) -> None:
    cpu_report.addoption(parser)


def pytest_configure(config: pytest.Config) -> None:
    cpu_report.configure(config)
    # The fast tier (`-m "not slow"`) runs a quarter of each hypothesis test's examples
    # (tests/tiers.py); the whole suite, the README's command, runs them all. Set before
    # any test module is imported, since their @settings read it.
    if "not slow" in (config.getoption("markexpr") or ""):
        from hypothesis import settings

        tiers.FAST = True
        settings.register_profile("fast-tier", max_examples=tiers.examples(100))
        settings.load_profile("fast-tier")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    cpu_report.runtest_setup(item)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]) -> Any:
    report = yield
    cpu_report.record(item, call, report)
    return report
