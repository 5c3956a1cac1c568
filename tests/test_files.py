"""Files and processes (issue 12): modes, odd files and folders, a bad clock, unreadable
notes, YAML that expands without end, and links planted in another tool's folder.

Exit statuses are checked on real processes (``python -m memcli``); file modes and the
stores' contents are read back from disk.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import MemEnv, note_text
from coverage_env import unmeasured
from hostile_env import (
    alias_bomb,
    no_file_growth,
    run_on_full_disk,
    unshare_prefix,
    without_root_file_access,
)

PROJECT_NOTE = "project_knowledge_deploy.md"
USER_NOTE = "user_preference_uv.md"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


@contextmanager
def _umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _create(memenv: MemEnv, level: str, title: str, content: str = "Some content.") -> str:
    code, report = memenv.apply_json([{"action": "create", "level": level,
                                        "type": "project_knowledge" if level == "project"
                                        else "user_preference",
                                        "title": title, "content": content}])
    assert code == 0, report
    return str(report["applied"][0]["file"])


def _update(memenv: MemEnv, level: str, filename: str, content: str) -> None:
    code, report = memenv.apply_json([{"action": "update", "level": level,
                                        "filename": filename, "content": content}])
    assert code == 0, report


# --------------------------------------------------------------------------- 1. modes


def test_the_user_store_is_created_private(memenv: MemEnv) -> None:
    with _umask(0o022):
        name = _create(memenv, "user", "Always uv")
    memcli_home = memenv.user.parent
    assert _mode(memcli_home) == 0o700
    assert _mode(memenv.user) == 0o700
    assert _mode(memenv.user / name) == 0o600
    assert _mode(memenv.user / "MEMORY.md") == 0o600
    history = memenv.user / ".memcli-history"
    assert _mode(history) == 0o700
    assert all(_mode(p) == 0o600 for p in history.iterdir())


def test_an_update_keeps_the_mode_a_person_gave_a_note(memenv: MemEnv) -> None:
    with _umask(0o022):
        project = _create(memenv, "project", "Deploy with make ship")
        user = _create(memenv, "user", "Always uv")
        (memenv.project / project).chmod(0o600)
        (memenv.project / "MEMORY.md").chmod(0o640)  # more than the umask would give
        (memenv.user / user).chmod(0o640)
        _update(memenv, "project", project, "Deploy with make ship, then tag.")
        _update(memenv, "user", user, "Always uv, never pip.")
    assert _mode(memenv.project / project) == 0o600
    assert _mode(memenv.project / "MEMORY.md") == 0o640
    assert _mode(memenv.user / user) == 0o640
    assert "then tag" in (memenv.project / project).read_text()


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o002, 0o664)])
def test_the_project_store_keeps_the_umask_modes_a_checkout_has(
        memenv: MemEnv, mask: int, expected: int) -> None:
    with _umask(mask):
        name = _create(memenv, "project", "Deploy with make ship")
    assert _mode(memenv.project / name) == expected
    assert _mode(memenv.project / "MEMORY.md") == expected
    assert _mode(memenv.project) == 0o777 & ~mask


def test_a_transactions_staged_files_are_private_until_renamed(memenv: MemEnv) -> None:
    from memcli.writes.transaction import MANIFEST, STAGED, Change, _prepare

    _create(memenv, "user", "Always uv")
    with _umask(0o022):
        txn = _prepare(memenv.user, [Change(memenv.user, USER_NOTE, b"new")], "feedface",
                       memenv.user, [memenv.user])
    try:
        assert _mode(txn) == 0o700
        assert _mode(txn / STAGED) == 0o700
        assert _mode(txn / MANIFEST) == 0o600
        assert [_mode(p) for p in (txn / STAGED).iterdir()] == [0o600]
    finally:
        import shutil

        shutil.rmtree(txn)


# --------------------------------------------------------------------------- 2. one-line errors


def _one_line_error(proc: subprocess.CompletedProcess[str], status: int, *words: str) -> None:
    assert proc.returncode == status, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("memcli: error: "), proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    for word in words:
        assert word in lines[0], lines[0]


def test_apply_of_an_endless_file_is_refused_at_the_size_cap(memenv: MemEnv) -> None:
    before = memenv.stores_snapshot()
    _one_line_error(memenv.run("apply", "/dev/zero"), 2, "/dev/zero", "64 MiB")
    assert memenv.stores_snapshot() == before


def test_apply_of_oversized_stdin_is_refused_at_the_size_cap(memenv: MemEnv) -> None:
    document = b"[" + b" " * (64 * 1024 * 1024) + b"]"
    _one_line_error(memenv.run("apply", "-", input=document), 2, "stdin", "64 MiB")


@pytest.mark.parametrize("make", ["folder", "fifo-with-writer"])
def test_apply_of_odd_files_is_one_line(memenv: MemEnv, tmp_path: Path, make: str) -> None:
    if make == "folder":
        _one_line_error(memenv.run("apply", str(tmp_path)), 2, "Is a directory")
        return
    fifo = tmp_path / "ops.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen([sys.executable, "-c",
                               f"open({str(fifo)!r}, 'wb').write(b'\\xff\\xfe not utf-8')"])
    try:
        _one_line_error(memenv.run("apply", str(fifo), timeout=30), 2, "UTF-8")
    finally:
        writer.wait(timeout=30)


@pytest.mark.parametrize("target", [["claude-code", "{x}/sub"], ["codex", "{x}/sub"],
                                    ["gemini", "{x}/sub/GEMINI.md"]])
def test_export_to_a_folder_it_cannot_create_is_one_line(
        memenv: MemEnv, tmp_path: Path, target: list[str]) -> None:
    _create(memenv, "project", "Deploy with make ship")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    where = target[1].format(x=blocker)
    _one_line_error(memenv.run("export", target[0], where), _status_of(target[0]),
                    str(blocker))
    assert blocker.read_text() == "not a folder\n"


def _status_of(fmt: str) -> int:
    # claude-code creates its folder (a store-like write: 3); codex and gemini read the
    # file they merge into first (bad input: 2).
    return 3 if fmt == "claude-code" else 2


def test_a_deleted_working_folder_is_one_line(memenv: MemEnv, tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    # The child enters the folder, which is then removed under it (a shell's cwd deleted).
    proc = subprocess.run(
        [sys.executable, "-c",
         "import os, runpy, shutil, sys; os.chdir(sys.argv[1]); shutil.rmtree(sys.argv[1]);"
         " sys.argv = ['memcli', 'context']; runpy.run_module('memcli', run_name='__main__')",
         str(gone)],
        capture_output=True, text=True, env={**os.environ, **memenv.env}, timeout=60,
        check=False)
    _one_line_error(proc, 2, "working folder", "deleted")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_lint_of_a_folder_that_cannot_hold_a_lock_says_so(memenv: MemEnv) -> None:
    # Configured as the store: a folder that is no store is refused before any lock.
    proc = memenv.run("lint", "/proc/self", env={"MEMCLI_LOCK_TIMEOUT": "30",
                                                "MEMCLI_PROJECT_STORE": "/proc/self"},
                      timeout=20)
    _one_line_error(proc, 3, "/proc/self", "cannot lock")
    assert "another memcli process" not in proc.stderr


# --------------------------------------------------------------------------- 3. MEMCLI_NOW


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00",
                                   "2026-W48-1", "20261129T100000Z", "yesterday", "2026-13-01"])
@pytest.mark.parametrize("command", [["add", "Deploy with make ship"], ["status"], ["lint"],
                                     ["context"]])
def test_a_bad_memcli_now_is_one_line_naming_it(memenv: MemEnv, value: str,
                                                command: list[str]) -> None:
    # In process: the real process's status and stderr are the next test's.
    proc = memenv.call(*command, env={"MEMCLI_NOW": value})
    _one_line_error(proc, 2, "MEMCLI_NOW", repr(value))
    assert not memenv.project.exists()


def test_a_bad_memcli_now_ends_a_real_process_with_one_line_and_status_2(memenv: MemEnv) -> None:
    proc = memenv.run("add", "Deploy with make ship", env={"MEMCLI_NOW": "yesterday"})
    _one_line_error(proc, 2, "MEMCLI_NOW", repr("yesterday"))
    assert not memenv.project.exists()


def test_memcli_now_is_written_as_utc_seconds(memenv: MemEnv) -> None:
    proc = memenv.run("add", "Tag every release", env={"MEMCLI_NOW": "2026-11-29T12:00:00.5+02:00"})
    assert proc.returncode == 0, proc.stderr
    written = [p.read_text() for p in memenv.project.glob("project_knowledge_tag*.md")]
    assert len(written) == 1 and "updated: 2026-11-29T10:00:00Z\n" in written[0]


# --------------------------------------------------------------------------- 4. unreadable notes

def _run_unprivileged(memenv: MemEnv, *args: str, input: str | None = None
                      ) -> subprocess.CompletedProcess[str]:
    preexec: Callable[[], None] | None = None
    if os.geteuid() == 0:
        preexec = without_root_file_access
    proc = subprocess.run([sys.executable, "-m", "memcli", *args], input=input,
                          capture_output=True, text=True, cwd=memenv.repo, timeout=60,
                          env={**os.environ, **memenv.env}, preexec_fn=preexec, check=False)
    if proc.returncode == 97:
        pytest.skip("running as root without CAP_SETPCAP: a mode-000 file stays readable")
    return proc


BAD_NOTES = {
    "project_knowledge_locked.md": "cannot be read",
    "project_knowledge_folder.md": "not a regular file",
    "project_knowledge_latin1.md": "not valid UTF-8",
    "project_knowledge_dangling.md": "symlink",
}


@pytest.fixture
def store_with_bad_notes(memenv: MemEnv) -> Iterator[MemEnv]:
    _create(memenv, "project", "Deploy with make ship", "Run make ship.")
    _create(memenv, "user", "Always uv", "Use uv for Python.")
    locked = memenv.write_note("project", "project_knowledge_locked.md")
    locked.chmod(0)
    (memenv.project / "project_knowledge_folder.md").mkdir()
    memenv.write_note("project", "project_knowledge_latin1.md",
                      raw=note_text({"type": "project_knowledge", "title": "Caf\xe9",
                                     "summary": "s"}).encode("latin-1"))
    (memenv.project / "project_knowledge_dangling.md").symlink_to(memenv.root / "nowhere.md")
    yield memenv
    locked.chmod(0o644)


@pytest.mark.parametrize("command", [["show"], ["context"], ["index"]])
def test_one_bad_note_does_not_take_the_store_down(store_with_bad_notes: MemEnv,
                                                   command: list[str]) -> None:
    proc = _run_unprivileged(store_with_bad_notes, *command)
    assert proc.returncode == 0, proc.stderr
    if command != ["index"]:
        assert "Deploy with make ship" in proc.stdout and "Always uv" in proc.stdout
    for name, why in BAD_NOTES.items():
        if command == ["index"] and why in ("symlink", "not a regular file"):
            continue  # not notes to index at all: lint reports them
        assert any(name in line and why in line for line in proc.stderr.splitlines()), (
            name, proc.stderr)


def test_show_of_a_good_note_and_apply_work_beside_bad_ones(store_with_bad_notes: MemEnv
                                                            ) -> None:
    memenv = store_with_bad_notes
    shown = _run_unprivileged(memenv, "show", "project_knowledge_deploy-with-make-ship.md")
    assert shown.returncode == 0 and "Run make ship." in shown.stdout, shown.stderr
    ops = json.dumps([{"action": "create", "level": "project", "type": "project_knowledge",
                       "title": "Tag releases", "content": "Tag each release."}])
    applied = _run_unprivileged(memenv, "apply", "--json", "-", input=ops)
    assert applied.returncode == 0, applied.stderr
    assert (memenv.project / "project_knowledge_tag-releases.md").exists()
    assert "project_knowledge_tag-releases.md" in memenv.index("project")


def test_lint_reports_each_bad_note_with_a_code(store_with_bad_notes: MemEnv) -> None:
    proc = _run_unprivileged(store_with_bad_notes, "lint", "--json")
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    for name in BAD_NOTES:
        codes = {f["code"] for f in findings if f["path"].endswith(name)}
        assert codes, (name, findings)


# --------------------------------------------------------------------------- 7. YAML alias bomb


BOMB = "project_knowledge_bomb.md"


@pytest.mark.parametrize("command", [["show", BOMB, "--json"], ["show", "--json"],
                                     ["context", "--json"], ["index"], ["search", "bomb"],
                                     ["export", "claude-code", "{out}"], ["status", "--json"]])
def test_a_yaml_alias_bomb_is_a_broken_note_for_every_command(
        memenv: MemEnv, tmp_path: Path, command: list[str]) -> None:
    _create(memenv, "project", "Deploy with make ship")
    memenv.write_note("project", BOMB, raw=alias_bomb().encode())
    args = [a.format(out=tmp_path / "claude") for a in command]
    proc = memenv.run(*args, timeout=30)
    assert proc.returncode in (0, 1), proc.stderr
    assert "internal error" not in proc.stderr
    assert len(proc.stdout) < 100_000  # nothing expanded
    if command[:2] == ["show", BOMB]:
        shown: dict[str, Any] = json.loads(proc.stdout)
        assert shown["meta"] is None and "YAML aliases" in shown["problem"]


def test_an_update_of_an_alias_bomb_is_refused_and_it_is_left_alone(memenv: MemEnv) -> None:
    path = memenv.write_note("project", BOMB, raw=alias_bomb().encode())
    code, report = memenv.apply_json([{"action": "update", "level": "project",
                                        "filename": BOMB, "content": "new"}])
    assert code == 1
    assert "YAML aliases" in json.dumps(report)
    assert path.read_text() == alias_bomb()


# --------------------------------------------------------------------------- 6. planted links


def _export_env(memenv: MemEnv) -> Path:
    _create(memenv, "project", "Deploy with make ship", "Run make ship.")
    secret = memenv.root / "netrc"
    secret.write_text("machine example.com password hunter2\n")
    return secret


def test_export_never_writes_through_a_planted_temporary_file_link(memenv: MemEnv) -> None:
    secret = _export_env(memenv)
    folder = memenv.root / "claude"
    folder.mkdir()
    for name in ("project_deploy-with-make-ship.md", "MEMORY.md"):
        (folder / f".{name}.memcli-tmp").symlink_to(secret)
    proc = memenv.run("export", "claude-code", str(folder))
    assert proc.returncode == 0, proc.stderr
    assert secret.read_text() == "machine example.com password hunter2\n"
    assert "Run make ship." in (folder / "project_deploy-with-make-ship.md").read_text()
    assert not (folder / "MEMORY.md").is_symlink()


@pytest.mark.parametrize("link", ["MEMORY.md", "project_deploy-with-make-ship.md"])
def test_export_refuses_a_target_that_is_a_link_before_writing_anything(
        memenv: MemEnv, link: str) -> None:
    secret = _export_env(memenv)
    folder = memenv.root / "claude"
    folder.mkdir()
    (folder / link).symlink_to(secret)
    before = memenv.snapshot(folder)
    proc = memenv.run("export", "claude-code", str(folder))
    _one_line_error(proc, 2, link, "symbolic link")
    assert memenv.snapshot(folder) == before
    assert secret.read_text() == "machine example.com password hunter2\n"


def test_import_never_follows_a_linked_memory_md(memenv: MemEnv) -> None:
    secret = memenv.root / "netrc"
    secret.write_text("- machine example.com password hunter2\n")
    folder = memenv.root / "claude"
    folder.mkdir()
    (folder / "MEMORY.md").symlink_to(secret)
    (folder / "project_deploy.md").write_text("---\nname: Deploy\ndescription: d\n"
                                              "type: project\n---\nRun make ship.\n")
    proc = memenv.run("import", "claude-code", str(folder))
    _one_line_error(proc, 2, "MEMORY.md", "symbolic link")
    assert not memenv.project.exists() and not memenv.user.exists()


def test_import_leaves_a_linked_note_out(memenv: MemEnv) -> None:
    secret = memenv.root / "netrc"
    secret.write_text("---\nname: Stolen\ndescription: d\ntype: project\n---\nhunter2\n")
    folder = memenv.root / "claude"
    folder.mkdir()
    (folder / "project_stolen.md").symlink_to(secret)
    (folder / "project_deploy.md").write_text("---\nname: Deploy\ndescription: d\n"
                                              "type: project\n---\nRun make ship.\n")
    proc = memenv.run("import", "claude-code", "--json", str(folder))
    assert proc.returncode == 1, proc.stderr
    left_out = {i["file"]: i["reason"] for i in json.loads(proc.stdout)["left_out"]}
    assert "link" in left_out["project_stolen.md"]
    assert all("hunter2" not in p.read_text() for p in memenv.project.glob("*.md"))


# --------------------------------------------------------------------------- 5. a full disk

READ_ONLY = (["show"], ["show", "project_knowledge_deploy-with-make-ship.md"], ["context"],
             ["lint"], ["search", "make ship"], ["recall", "how do we deploy"], ["log"],
             ["status"])


def test_read_only_commands_work_on_a_full_disk(memenv: MemEnv, tmp_path: Path) -> None:
    prefix = unshare_prefix()
    if prefix is None:
        pytest.skip("no mount namespace here (not root, no unprivileged user namespaces)")
    result = run_on_full_disk(prefix, tmp_path, {**os.environ, **memenv.env}, READ_ONLY)
    assert all(run["status"] == 0 for run in result["setup"]), result["setup"]
    for run in result["runs"]:
        assert run["status"] == 0, run
        assert "memcli: error" not in run["stderr"], run
        assert "memcli: warning" not in run["stderr"], run
    shown = {tuple(run["args"]): run["stdout"] for run in result["runs"]}
    assert "Deploy with make ship" in shown[("show",)]
    assert "Always uv" in shown[("context",)]
    assert "make ship" in shown[("search", "make ship")]


@pytest.mark.parametrize("command", READ_ONLY, ids=" ".join)
def test_read_only_commands_work_when_no_file_may_grow(memenv: MemEnv,
                                                       command: list[str]) -> None:
    _create(memenv, "project", "Deploy with make ship", "Run make ship.")
    _create(memenv, "user", "Always uv", "Use uv for Python.")
    before = memenv.stores_snapshot()
    proc = subprocess.run([sys.executable, "-m", "memcli", *command], capture_output=True,
                          text=True, cwd=memenv.repo,
                          env=unmeasured({**os.environ, **memenv.env}),
                          preexec_fn=no_file_growth, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() in ("", "memcli: healthy") or "lint:" in proc.stderr, proc.stderr
    assert memenv.stores_snapshot() == before


def test_hooks_install_never_writes_through_a_planted_temporary_file_link(memenv: MemEnv
                                                                          ) -> None:
    secret = memenv.root / "bashrc"
    secret.write_text("export PATH=/usr/bin\n")
    settings = memenv.repo / ".claude"
    settings.mkdir()
    (settings / ".settings.json.memcli-tmp").symlink_to(secret)
    proc = memenv.run("hooks", "install", "--agent", "claude-code", "--scope", "project")
    assert proc.returncode == 0, proc.stderr
    assert secret.read_text() == "export PATH=/usr/bin\n"
    assert "memcli" in (settings / "settings.json").read_text()
