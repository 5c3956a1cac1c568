"""Stores in git, with real git: the MEMORY.md merge driver and `memcli sync`.

The merge test runs `git merge` of two branches that each add and delete notes; the sync
tests use two user stores on two "machines" (two homes) and a bare repository on disk.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXED_NOW, MemEnv, run_memcli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_CONFIG_NOSYSTEM": "1"}


def git(folder: Path, *args: str, env: dict[str, str] | None = None,
        check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV, **(env or {})}, check=check)


def add(memenv: MemEnv, title: str, *, env: dict[str, str] | None = None,
        level: str = "project") -> None:
    done = memenv.call("add", f"{title} is how we do it here.", "--title", title,
                      "--level", level, "--type", "project_knowledge", env=env)
    assert done.returncode == 0, done.stderr


def entry_files(index: str) -> list[str]:
    return [line.rsplit("(", 1)[1].rstrip(")") for line in index.splitlines()
            if line.startswith("- [")]


# --------------------------------------------------------------------------- merge driver


def test_merge_driver_merges_two_branches_that_add_and_delete_notes(memenv: MemEnv) -> None:
    env = {**GIT_ENV, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    git(memenv.repo, "init", "-q", "-b", "main")
    for title in ("Alpha", "Bravo", "Charlie"):
        add(memenv, title)
    installed = memenv.call("hooks", "install", "--agent", "git", env=env)
    assert installed.returncode == 0, installed.stderr
    assert (memenv.repo / ".gitattributes").read_text() == ".memcli/memory/MEMORY.md merge=memcli\n"
    assert git(memenv.repo, "config", "merge.memcli.driver").stdout.strip() == \
        "memcli merge-index %O %A %B %P"
    again = memenv.call("hooks", "install", "--agent", "git", env=env)
    assert "nothing changed" in again.stdout
    git(memenv.repo, "add", "-A")
    git(memenv.repo, "commit", "-qm", "base")

    git(memenv.repo, "checkout", "-qb", "left")
    add(memenv, "Delta")
    assert memenv.call("rm", "project/project_knowledge_alpha.md").returncode == 0
    git(memenv.repo, "add", "-A")
    git(memenv.repo, "commit", "-qm", "left: add delta, drop alpha")

    git(memenv.repo, "checkout", "-q", "main")
    add(memenv, "Echo")
    assert memenv.call("rm", "project/project_knowledge_charlie.md").returncode == 0
    git(memenv.repo, "add", "-A")
    git(memenv.repo, "commit", "-qm", "main: add echo, drop charlie")

    # Without the driver, git's line merge conflicts on these two sides.
    plain = git(memenv.repo, "-c", "merge.memcli.driver=false", "merge", "--no-edit", "left",
                check=False)
    assert plain.returncode != 0 and "MEMORY.md" in plain.stdout
    git(memenv.repo, "merge", "--abort")

    merged = git(memenv.repo, "merge", "--no-edit", "left", env=env, check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    index = memenv.index("project")
    assert "<<<<<<<" not in index
    assert sorted(entry_files(index)) == ["project_knowledge_bravo.md",
                                          "project_knowledge_delta.md",
                                          "project_knowledge_echo.md"]
    # The merge is what memcli would write from the merged notes.
    check = memenv.call("index", "--check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert memenv.call("lint").returncode == 0


def test_merge_index_keeps_a_person_header_and_each_sides_change(tmp_path: Path) -> None:
    header = "# Our memory\n\nHand-written words.\n\n"
    line = "- [project_knowledge] {t} — {s} (project_knowledge_{f}.md)\n"
    base = header + line.format(t="A", s="old", f="a") + line.format(t="B", s="b", f="b")
    ours = header + line.format(t="A", s="new on ours", f="a") + line.format(t="B", s="b", f="b")
    theirs = (header + "- [correction_feedback] Use pnpm — never npm "
              "(correction_feedback_use-pnpm.md)\n" + line.format(t="A", s="old", f="a"))
    files = []
    for name, text in (("O", base), ("A", ours), ("B", theirs)):
        (tmp_path / name).write_text(text, "utf-8")
        files.append(str(tmp_path / name))
    done = run_memcli("merge-index", *files, "MEMORY.md")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "A").read_text("utf-8") == (
        header + "- [correction_feedback] Use pnpm — never npm (correction_feedback_use-pnpm.md)\n"
        + line.format(t="A", s="new on ours", f="a"))


def test_merge_index_on_a_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    # It crashed (status 5, a crash log) when run by hand on a name that is not a file.
    ours = tmp_path / "ours.md"
    ours.write_text("# Memory index\n", "utf-8")
    done = run_memcli("merge-index", str(tmp_path / "missing.md"), str(ours), str(ours))
    assert done.returncode == 2
    assert done.stderr.startswith("memcli: error: cannot read ") and done.stderr.count("\n") == 1
    assert ours.read_text("utf-8") == "# Memory index\n"


# --------------------------------------------------------------------------- sync


@pytest.fixture
def machines(memenv: MemEnv, tmp_path: Path) -> tuple[dict[str, str], dict[str, str], Path]:
    """Two machines' environments (own home, own user store) and a bare remote."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    envs = []
    for name in ("laptop", "desktop"):
        home = tmp_path / name
        home.mkdir()
        envs.append({**GIT_ENV, "HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"),
                     "MEMCLI_NOW": FIXED_NOW})
    return envs[0], envs[1], remote


def user_store(env: dict[str, str]) -> Path:
    return Path(env["MEMCLI_HOME"]) / "memory"


def sync(memenv: MemEnv, env: dict[str, str], *args: str) -> dict[str, object]:
    done = memenv.call("sync", "--json", *args, env=env)
    assert done.returncode in (0, 1), done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    result["status"] = done.returncode
    return result


def test_sync_carries_notes_both_ways_through_a_bare_repository(
        memenv: MemEnv, machines: tuple[dict[str, str], dict[str, str], Path]) -> None:
    laptop, desktop, remote = machines
    add(memenv, "Laptop fact", env=laptop, level="user")
    first = sync(memenv, laptop, "--init", f"file://{remote}")
    assert first["pushed"] is True and first["committed"] is True

    cloned = sync(memenv, desktop, "--init", f"file://{remote}")
    assert cloned["status"] == 0
    assert (user_store(desktop) / "project_knowledge_laptop-fact.md").exists()
    add(memenv, "Desktop fact", env=desktop, level="user")
    assert sync(memenv, desktop)["pushed"] is True

    add(memenv, "Second laptop fact", env=laptop, level="user")
    back = sync(memenv, laptop)
    assert back["pulled"] == 1 and back["status"] == 0
    names = sorted(p.name for p in user_store(laptop).glob("project_knowledge_*.md"))
    assert names == ["project_knowledge_desktop-fact.md", "project_knowledge_laptop-fact.md",
                     "project_knowledge_second-laptop-fact.md"]
    assert memenv.call("index", "--check", "--level", "user", env=laptop).returncode == 0
    assert git(user_store(laptop), "status", "--porcelain").stdout == ""
    tracked = git(user_store(laptop), "ls-files").stdout.split()
    assert sorted(t for t in tracked if t.startswith(".")) == [".gitattributes", ".gitignore"]
    assert sync(memenv, desktop)["pulled"] >= 1
    assert sorted(p.name for p in user_store(desktop).glob("project_knowledge_*.md")) == names


def test_a_note_changed_on_both_machines_keeps_both_versions(
        memenv: MemEnv, machines: tuple[dict[str, str], dict[str, str], Path]) -> None:
    laptop, desktop, remote = machines
    add(memenv, "Editor", env=laptop, level="user")
    sync(memenv, laptop, "--init", f"file://{remote}")
    sync(memenv, desktop, "--init", f"file://{remote}")
    name = "project_knowledge_editor.md"
    for env, words in ((laptop, "Vim on the laptop."), (desktop, "Emacs on the desktop.")):
        path = user_store(env) / name
        path.write_text(path.read_text("utf-8").replace("Editor is how we do it here.", words),
                        "utf-8")
    assert sync(memenv, laptop)["status"] == 0

    clash = sync(memenv, desktop)
    assert clash["status"] == 1 and clash["pushed"] is True
    assert clash["conflicts"] == [{"note": name,
                                   "kept_as": "project_knowledge_editor-conflict-1.md"}]
    store = user_store(desktop)
    assert "Vim on the laptop." in (store / name).read_text("utf-8")
    copy = (store / "project_knowledge_editor-conflict-1.md").read_text("utf-8")
    assert "Emacs on the desktop." in copy and "sync_conflict: project_knowledge_editor.md" in copy
    lint = memenv.call("lint", str(store), "--json", env=desktop)
    assert "project_knowledge_editor-conflict-1.md" in lint.stdout
    text = memenv.call("sync", env=desktop).stdout
    assert "nothing to do" in text or "pushed" in text
    # The other machine gets both versions too; nothing was lost anywhere.
    sync(memenv, laptop)
    assert "Emacs on the desktop." in (user_store(laptop) /
                                       "project_knowledge_editor-conflict-1.md").read_text()


def test_a_sync_conflict_says_how_to_merge_and_finish_and_lint_has_a_code_for_it(
        memenv: MemEnv, machines: tuple[dict[str, str], dict[str, str], Path]) -> None:
    # Issue 34, item 7: the message says what to do; lint names the copy as what it is.
    laptop, desktop, remote = machines
    add(memenv, "Editor", env=laptop, level="user")
    sync(memenv, laptop, "--init", f"file://{remote}")
    sync(memenv, desktop, "--init", f"file://{remote}")
    name, copy = "project_knowledge_editor.md", "project_knowledge_editor-conflict-1.md"
    for env, words in ((laptop, "Vim on the laptop."), (desktop, "Emacs on the desktop.")):
        path = user_store(env) / name
        path.write_text(path.read_text("utf-8").replace("Editor is how we do it here.", words),
                        "utf-8")
    assert sync(memenv, laptop)["status"] == 0
    clash = memenv.run("sync", env=desktop)
    assert clash.returncode == 1, clash.stderr
    store = user_store(desktop)
    assert f"\n  merge: compare `memcli show user/{name}` with `memcli show user/{copy}` and " \
        f"put what you keep into {store / name}\n" in clash.stdout
    finish = f"memcli rm --yes user/{copy} && memcli sync"
    assert f"  finish: {finish}\n" in clash.stdout
    lint = json.loads(memenv.run("lint", "--level", "user", "--json", env=desktop).stdout)
    codes = {f["code"] for f in lint["findings"]}
    assert "M311" in codes and "M303" not in codes, lint["findings"]
    # Doing what it says: merge by hand, then the finishing line as printed.
    (store / name).write_text((store / name).read_text("utf-8").replace(
        "Vim on the laptop.", "Vim on the laptop, Emacs on the desktop."), "utf-8")
    done = subprocess.run(["bash", "-c", finish.replace("memcli", f"{sys.executable} -m memcli")],
                          capture_output=True, text=True, env={**os.environ, **memenv.env,
                                                              **desktop}, check=False)
    assert done.returncode == 0, done.stderr
    assert not (store / copy).exists()
    lint = json.loads(memenv.run("lint", "--level", "user", "--json", env=desktop).stdout)
    assert not {f["code"] for f in lint["findings"]} & {"M311", "M303"}
    assert sync(memenv, laptop)["status"] == 0
    assert "Emacs on the desktop" in (user_store(laptop) / name).read_text("utf-8")
    assert not (user_store(laptop) / copy).exists()


def test_sync_without_a_repository_is_a_clear_error(
        memenv: MemEnv, machines: tuple[dict[str, str], dict[str, str], Path]) -> None:
    laptop, _, _ = machines
    add(memenv, "Lonely", env=laptop, level="user")
    done = memenv.call("sync", env=laptop)
    assert done.returncode == 2
    assert done.stderr.startswith("memcli: error: ") and "sync --init URL" in done.stderr


def test_a_remote_that_is_not_there_is_named_by_git_s_own_reason(
        memenv: MemEnv, machines: tuple[dict[str, str], dict[str, str], Path],
        tmp_path: Path) -> None:
    # The message once named `git -c user.name=memcli` and quoted the last line of git's
    # advice ("and the repository exists."), not what went wrong.
    laptop, _, _ = machines
    add(memenv, "Lonely", env=laptop, level="user")
    missing = tmp_path / "missing.git"
    done = memenv.call("sync", "--init", f"file://{missing}", env=laptop)
    assert done.returncode == 1
    assert done.stderr == (f"memcli: error: git fetch failed: fatal: '{missing}' does not "
                           "appear to be a git repository\n")


def test_init_again_after_a_mistyped_url_syncs_with_the_right_one(
        memenv: MemEnv, machines: tuple[dict[str, str], dict[str, str], Path],
        tmp_path: Path) -> None:
    # The failed first fetch left origin at the typo, and `--init RIGHT` was refused
    # ("already syncs with …"): only a hand-run `git remote set-url` got out of it.
    laptop, _, remote = machines
    add(memenv, "Lonely", env=laptop, level="user")
    typo = tmp_path / "remtoe.git"
    assert memenv.run("sync", "--init", f"file://{typo}", env=laptop).returncode == 1
    fixed = sync(memenv, laptop, "--init", f"file://{remote}")
    assert fixed["status"] == 0 and fixed["pushed"] is True
    assert git(user_store(laptop), "remote", "get-url", "origin").stdout.strip() \
        == f"file://{remote}"
    assert "project_knowledge_lonely.md" in git(remote, "ls-tree", "--name-only",
                                                "main").stdout
    # Once it has synced, another URL is still refused: the store came from that remote.
    other = memenv.run("sync", "--init", f"file://{typo}", env=laptop)
    assert other.returncode == 2 and "already syncs with" in other.stderr


def test_sync_waits_for_the_store_lock_and_writes_nothing_without_it(
        memenv: MemEnv, machines: tuple[dict[str, str], dict[str, str], Path]) -> None:
    from lockholder import held

    laptop, _, remote = machines
    add(memenv, "Locked fact", env=laptop, level="user")
    sync(memenv, laptop, "--init", f"file://{remote}")
    add(memenv, "Second fact", env=laptop, level="user")
    head = git(user_store(laptop), "rev-parse", "HEAD").stdout
    with held(user_store(laptop) / ".memcli.lock"):
        done = memenv.call("sync", env={**laptop, "MEMCLI_LOCK_TIMEOUT": "0.5"})
    assert done.returncode == 3, done.stdout + done.stderr
    assert git(user_store(laptop), "rev-parse", "HEAD").stdout == head
    assert sync(memenv, laptop)["committed"] is True


def test_a_lock_a_killed_git_left_is_removed_and_said(
        memenv: MemEnv, machines: tuple[dict[str, str], dict[str, str], Path]) -> None:
    """Issue 25's sync kill campaign: a `memcli sync` killed with its `git add` left
    .git/index.lock, and every later sync failed until a person removed it."""
    laptop, _, remote = machines
    add(memenv, "Before the kill", env=laptop, level="user")
    sync(memenv, laptop, "--init", f"file://{remote}")
    lock = user_store(laptop) / ".git" / "index.lock"
    lock.write_bytes(b"")
    add(memenv, "After the kill", env=laptop, level="user")
    done = memenv.run("sync", "--json", env=laptop)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["pushed"] is True and not lock.exists()
    assert any("removed .git/index.lock" in w for w in report["warnings"]), report


def test_a_lock_a_running_git_holds_is_left_alone_and_named(
        memenv: MemEnv, machines: tuple[dict[str, str], dict[str, str], Path]) -> None:
    """A git the person runs in the store (its working folder there, the lock open) keeps
    its lock: sync stops with git's reason and what to do."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("no /proc: memcli never removes a lock there, which the test above shows")
    laptop, _, remote = machines
    add(memenv, "Before", env=laptop, level="user")
    sync(memenv, laptop, "--init", f"file://{remote}")
    store = user_store(laptop)
    lock = store / ".git" / "index.lock"
    lock.write_bytes(b"")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; f = open(sys.argv[1]); print(1, flush=True); "
         "time.sleep(60)", str(lock)], cwd=store, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"1"
        add(memenv, "After", env=laptop, level="user")
        done = memenv.run("sync", env=laptop)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert "index.lock': File exists" in done.stderr
        assert f"if no git runs in {store}, remove the file" in done.stderr
        assert lock.exists()
    finally:
        holder.kill()
        holder.wait()
    assert sync(memenv, laptop)["pushed"] is True and not lock.exists()
