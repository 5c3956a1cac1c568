"""The files-and-processes campaign (issue 12): odd files, folders, clocks and disks.

Each case builds fresh stores in a temporary folder, runs real ``memcli`` processes and
checks what they did: file modes, one-line errors (``memcli: error: ...``, the right exit
status, nothing written), notes that cannot be read, a YAML alias bomb, links planted in
another tool's folder, a bad ``MEMCLI_NOW`` and a full disk. A case's problems are listed
in the figures; ``unhandled`` counts outputs that show a traceback or memcli's crash line.

The full disk is a 512 KiB tmpfs in a mount namespace of the campaign's own (root, or an
unprivileged user namespace); where neither exists the case is reported as not run. The
other "disk full" case needs nothing: RLIMIT_FSIZE=0 makes every write to a file fail with
EFBIG, as a full disk would.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from coverage_env import unmeasured
from hostile_env import (
    alias_bomb,
    no_file_growth,
    run_on_full_disk,
    unshare_prefix,
    without_root_file_access,
)
from reliability_campaigns import DROPPED_ENV, workdir

NOW = "2026-11-29T10:00:00Z"
SECRET = "machine example.com password hunter2\n"
READ_ONLY = (["show"], ["context"], ["lint"], ["search", "make ship"], ["log"], ["status"])


@dataclass
class Space:
    root: Path
    repo: Path
    home: Path
    env: dict[str, str]
    unhandled: list[str] = field(default_factory=list)  # runs that crashed

    @property
    def project(self) -> Path:
        return self.repo / ".memcli" / "memory"

    @property
    def user(self) -> Path:
        return self.home / ".memcli" / "memory"

    def run(self, *args: str, data: bytes | None = None, env: dict[str, str] | None = None,
            cwd: Path | None = None, preexec: Callable[[], None] | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([sys.executable, "-m", "memcli", *args], input=data,
                              capture_output=True, env={**self.env, **(env or {})},
                              cwd=cwd or self.repo, preexec_fn=preexec, timeout=timeout,
                              check=False)
        done = subprocess.CompletedProcess(proc.args, proc.returncode,
                                           proc.stdout.decode("utf-8", "replace"),
                                           proc.stderr.decode("utf-8", "replace"))
        if "Traceback" in done.stderr or "memcli: internal error" in done.stderr:
            self.unhandled.append(f"{' '.join(args)}: {done.stderr.strip()[-200:]}")
        return done

    def apply(self, ops: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
        return self.run("apply", "--json", "-", data=json.dumps(ops).encode())


def _space(root: Path) -> Space:
    repo, home = root / "repo", root / "home"
    (repo / ".git").mkdir(parents=True)
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    env.update({"HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"), "NO_COLOR": "1",
                "MEMCLI_NOW": NOW, "XDG_CACHE_HOME": str(root / "cache"),
                "MEMCLI_LOCK_TIMEOUT": "20"})
    return Space(root, repo, home, env)


def _seed(space: Space) -> None:
    done = space.apply([
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Deploy with make ship", "content": "Run make ship."},
        {"action": "create", "level": "user", "type": "user_preference",
         "title": "Always uv", "content": "Use uv for Python."}])
    if done.returncode != 0:
        raise RuntimeError(f"seeding failed: {done.stderr}")


def _one_line(proc: subprocess.CompletedProcess[str], status: int, *words: str) -> list[str]:
    lines = proc.stderr.splitlines()
    problems = []
    if proc.returncode != status:
        problems.append(f"exit {proc.returncode}, not {status}: {proc.stderr.strip()[:200]}")
    if len(lines) != 1 or not lines[0].startswith("memcli: error: "):
        problems.append(f"not one error line: {proc.stderr.strip()[:200]}")
    problems += [f"the error does not say {w!r}" for w in words if w not in proc.stderr]
    return problems


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


# --------------------------------------------------------------------------- the cases


def case_modes(space: Space) -> list[str]:
    old = os.umask(0o022)
    try:
        _seed(space)
        note = next(space.project.glob("project_knowledge_*.md"))
        note.chmod(0o600)
        done = space.apply([{"action": "update", "level": "project", "filename": note.name,
                             "content": "Run make ship, then tag."}])
    finally:
        os.umask(old)
    problems = [] if done.returncode == 0 else [f"update failed: {done.stderr}"]
    wanted = {space.user: 0o700, space.user.parent: 0o700, note: 0o600,
              space.user / "MEMORY.md": 0o600, space.project / "MEMORY.md": 0o644}
    wanted.update({p: 0o600 for p in space.user.glob("*.md")})
    problems += [f"{p.name} is {oct(_mode(p))}, not {oct(m)}" for p, m in wanted.items()
                 if _mode(p) != m]
    return problems


def case_endless_input(space: Space) -> list[str]:
    return (_one_line(space.run("apply", "/dev/zero"), 2, "64 MiB")
            + _one_line(space.run("apply", str(space.root)), 2, "directory")
            + _one_line(space.run("apply", "-", data=b"[\xff\xfe]"), 2, "UTF-8"))


def case_export_nowhere(space: Space) -> list[str]:
    _seed(space)
    blocker = space.root / "a-file"
    blocker.write_text("x\n")
    return (_one_line(space.run("export", "claude-code", str(blocker / "sub")), 3, "a-file")
            + _one_line(space.run("export", "codex", str(blocker / "sub")), 2, "a-file")
            + _one_line(space.run("export", "gemini", str(blocker / "sub" / "G.md")), 2,
                        "a-file"))


def case_deleted_cwd(space: Space) -> list[str]:
    gone = space.root / "gone"
    gone.mkdir()
    code = ("import os, runpy, shutil, sys; os.chdir(sys.argv[1]); shutil.rmtree(sys.argv[1]);"
            " sys.argv = ['memcli', 'context']; runpy.run_module('memcli', run_name='__main__')")
    proc = subprocess.run([sys.executable, "-c", code, str(gone)], capture_output=True,
                          text=True, env=space.env, timeout=60, check=False)
    return _one_line(proc, 2, "working folder")


def case_proc_lock(space: Space) -> list[str]:
    if not Path("/proc/self").is_dir():
        return []
    # Named as the configured store: a folder given only as a lint path that holds no note
    # and no MEMORY.md is refused before any lock (a usage error).
    proc = space.run("lint", "/proc/self", env={"MEMCLI_LOCK_TIMEOUT": "30",
                                               "MEMCLI_PROJECT_STORE": "/proc/self"})
    problems = _one_line(proc, 3, "cannot lock")
    return problems + (["reported a lock timeout"] if "another memcli" in proc.stderr else [])


def case_bad_clock(space: Space) -> list[str]:
    problems = []
    for value in ("0001-01-01T00:00:00+01:00", "2026-W48-1", "20261129T100000Z", "tomorrow"):
        for command in (["add", "Tag every release"], ["status"]):
            problems += _one_line(space.run(*command, env={"MEMCLI_NOW": value}), 2,
                                  "MEMCLI_NOW")
    return problems + (["a store was written"] if space.project.exists() else [])


def _bad_notes(space: Space) -> None:
    _seed(space)
    locked = space.project / "project_knowledge_locked.md"
    locked.write_text("---\ntype: project_knowledge\ntitle: Locked\nsummary: s\n---\nx\n")
    locked.chmod(0)
    (space.project / "project_knowledge_folder.md").mkdir()
    (space.project / "project_knowledge_latin1.md").write_bytes(
        b"---\ntype: project_knowledge\ntitle: Caf\xe9\nsummary: s\n---\nx\n")
    (space.project / "project_knowledge_dangling.md").symlink_to(space.root / "nowhere")
    os.mkfifo(space.project / "project_knowledge_fifo.md")


def case_unreadable_notes(space: Space) -> list[str]:
    _bad_notes(space)
    problems = []
    preexec = without_root_file_access if os.geteuid() == 0 else None
    for command in (["show"], ["context"], ["show", "Deploy with make ship"], ["index"]):
        proc = space.run(*command, preexec=preexec, timeout=30)
        if proc.returncode != 0:
            problems.append(f"{' '.join(command)}: exit {proc.returncode}: {proc.stderr[:200]}")
        elif command != ["index"] and "make ship" not in proc.stdout.lower():
            problems.append(f"{' '.join(command)}: the readable note is missing")
        if command in (["show"], ["context"]) and "locked.md" not in proc.stderr:
            problems.append(f"{' '.join(command)}: the unreadable note is not reported")
    done = space.run("apply", "-", preexec=preexec, data=json.dumps([
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Tag releases", "content": "Tag each release."}]).encode())
    if done.returncode != 0:
        problems.append(f"apply beside bad notes: {done.stderr[:200]}")
    (space.project / "project_knowledge_locked.md").chmod(0o644)
    return problems


BOMB_COMMANDS = (["show", "project_knowledge_bomb.md", "--json"], ["show", "--json"],
                 ["context"], ["index"], ["lint"], ["search", "bomb"], ["status"])


def case_alias_bomb(space: Space, figures: dict[str, Any]) -> list[str]:
    _seed(space)
    problems = []
    slowest = 0.0
    for command in BOMB_COMMANDS:
        plain = _timed(space, command)
        (space.project / "project_knowledge_bomb.md").write_text(alias_bomb())
        began = time.monotonic()
        proc = space.run(*command, timeout=60)
        spent = time.monotonic() - began
        (space.project / "project_knowledge_bomb.md").unlink()
        slowest = max(slowest, spent - plain)
        if proc.returncode not in (0, 1) or len(proc.stdout) > 100_000:
            problems.append(f"{' '.join(command)}: exit {proc.returncode}, "
                            f"{len(proc.stdout)} bytes out")
        if command[0] in ("show", "lint") and "YAML aliases" not in proc.stdout + proc.stderr:
            problems.append(f"{' '.join(command)}: the bomb is not reported")
    figures["bomb_overhead_ms"] = round(max(slowest, 0.0) * 1000)
    if slowest > 1.0:
        problems.append(f"a command took {slowest:.1f} s longer with the bomb")
    return problems


def _timed(space: Space, command: list[str]) -> float:
    began = time.monotonic()
    space.run(*command)
    return time.monotonic() - began


def case_planted_links(space: Space) -> list[str]:
    _seed(space)
    secret = space.root / "netrc"
    secret.write_text(SECRET)
    out = space.root / "claude"
    out.mkdir()
    for name in ("project_deploy-with-make-ship.md", "MEMORY.md"):
        (out / f".{name}.memcli-tmp").symlink_to(secret)
    problems = []
    proc = space.run("export", "claude-code", str(out))
    if proc.returncode != 0:
        problems.append(f"export beside planted links: {proc.stderr[:200]}")
    linked = space.root / "linked"
    linked.mkdir()
    (linked / "MEMORY.md").symlink_to(secret)
    problems += _one_line(space.run("export", "claude-code", str(linked)), 2, "symbolic link")
    source = space.root / "source"
    source.mkdir()
    (source / "MEMORY.md").symlink_to(secret)
    problems += _one_line(space.run("import", "claude-code", str(source)), 2, "symbolic link")
    if secret.read_text() != SECRET:
        problems.append("the file a link pointed at changed")
    stored = [p.read_text() for store in (space.project, space.user) for p in store.glob("*")
              if p.is_file()]
    return problems + (["the secret reached a store"] if any("hunter2" in t for t in stored)
                       else [])


def case_no_file_growth(space: Space) -> list[str]:
    _seed(space)
    problems = []
    # A process that may write no file cannot write coverage's data file either.
    growthless = replace(space, env=unmeasured(space.env), unhandled=space.unhandled)
    for command in READ_ONLY:
        proc = growthless.run(*command, preexec=no_file_growth)
        if proc.returncode != 0 or "memcli: error" in proc.stderr:
            problems.append(f"{' '.join(command)}: exit {proc.returncode}: {proc.stderr[:200]}")
    return problems


def case_full_disk(space: Space, figures: dict[str, Any]) -> list[str]:
    prefix = unshare_prefix()
    if prefix is None:
        figures["full_disk"] = "not run (no mount namespace)"
        return []
    try:
        result = run_on_full_disk(prefix, space.root, space.env, READ_ONLY)
    except AssertionError as exc:
        return [str(exc)]
    figures["full_disk"] = "run"
    return [f"{' '.join(run['args'])}: exit {run['status']}: {run['stderr'][:200]}"
            for run in result["setup"] + result["runs"]
            if run["status"] != 0 or "memcli: error" in run["stderr"]]


CASES: dict[str, Callable[..., list[str]]] = {
    "modes": case_modes, "endless input": case_endless_input,
    "export nowhere": case_export_nowhere, "deleted working folder": case_deleted_cwd,
    "lock in /proc": case_proc_lock, "bad MEMCLI_NOW": case_bad_clock,
    "unreadable notes": case_unreadable_notes, "alias bomb": case_alias_bomb,
    "planted links": case_planted_links, "no file may grow": case_no_file_growth,
    "full disk": case_full_disk,
}
_WITH_FIGURES = {"alias bomb", "full disk"}


def odd_files(*, folder: Path | None = None) -> dict[str, Any]:
    """Run every case once; figures: cases, failed, unhandled, the bomb's cost, problems."""
    figures: dict[str, Any] = {"cases": len(CASES), "failed": 0, "unhandled": 0,
                               "problems": {}}
    started = time.monotonic()
    with workdir(folder, "odd-files") as root:
        for number, (name, case) in enumerate(CASES.items()):
            space = _space(root / f"case-{number}")
            try:
                found = case(space, figures) if name in _WITH_FIGURES else case(space)
            except Exception as exc:  # a case that cannot even run is a failure, said as such
                found = [f"{type(exc).__name__}: {exc}"]
            figures["unhandled"] += len(space.unhandled)
            found += space.unhandled
            if found:
                figures["failed"] += 1
                figures["problems"][name] = found[:5]
    figures["seconds"] = round(time.monotonic() - started, 1)
    return figures
