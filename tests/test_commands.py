"""index, context, show, rm, add and apply as commands: happy and error paths, in process
and as subprocesses for the exit statuses (the README's exit-status table)."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

NOW = "2026-11-29T10:00:00Z"


def create(title: str, level: str = "project", note_type: str = "project_knowledge",
           content: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"action": "create", "level": level, "type": note_type, "title": title,
            "content": content or f"{title} matters.", **extra}


@pytest.fixture
def stocked(memenv):  # type: ignore[no-untyped-def]
    ops = [
        create("Build workflow", content="Run `go test ./...` before a release.", slug="build"),
        create("Use pnpm", note_type="correction_feedback", content="Use pnpm, not npm."),
        create("Answer language", "user", "user_preference", "Answer in Chinese."),
        create("Shared", "project", content="Project side."),
        create("Shared", "user", "user_preference", "User side."),
    ]
    assert memenv.apply(ops).exit_code == 0
    return memenv


# --------------------------------------------------------------------------- show


def test_show_lists_every_entry_project_first(stocked) -> None:
    result = stocked.invoke("show")
    assert result.exit_code == 0
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert [r[0] for r in rows] == ["project"] * 3 + ["user"] * 2
    assert rows[0][:3] == ["project", "correction_feedback", "Use pnpm"]
    assert rows[0][4:] == ["correction_feedback_use-pnpm.md", NOW]
    assert "\x1b[" not in result.stdout  # NO_COLOR and not a terminal: no colour


def test_show_json_level_and_paths(stocked) -> None:
    data = json.loads(stocked.invoke("show", "--json").stdout)
    assert {e["file"] for e in data} >= {"project_knowledge_build.md",
                                         "user_preference_answer-language.md"}
    assert set(data[0]) == {"level", "type", "title", "summary", "file", "updated"}
    user = json.loads(stocked.invoke("show", "--json", "--level", "user").stdout)
    assert {e["level"] for e in user} == {"user"} and len(user) == 2
    paths = json.loads(stocked.invoke("show", "--paths", "--json").stdout)
    assert paths == {"project": str(stocked.project), "user": str(stocked.user)}
    text = stocked.invoke("show", "--paths").stdout
    assert text == f"project\t{stocked.project}\nuser\t{stocked.user}\n"


@pytest.mark.parametrize("name", ["project_knowledge_build.md", "build", "BUILD WORKFLOW",
                                  "build workflow", "Project_Knowledge_Build.md"])
def test_show_one_note_by_file_name_slug_or_title(stocked, name: str) -> None:
    result = stocked.invoke("show", name)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (stocked.project / "project_knowledge_build.md").read_text()
    data = json.loads(stocked.invoke("show", name, "--json").stdout)
    assert data["file"] == "project_knowledge_build.md" and data["level"] == "project"
    assert data["meta"]["title"] == "Build workflow"
    assert data["content"] == "Run `go test ./...` before a release."


def test_show_unknown_and_ambiguous_names(stocked) -> None:
    result = stocked.invoke("show", "nothing-like-this")
    assert result.exit_code == 1
    assert "memcli: error: no note matches 'nothing-like-this'" in result.stderr
    result = stocked.invoke("show", "shared")
    assert result.exit_code == 1
    assert "matches several notes" in result.stderr
    assert "project/project_knowledge_shared.md" in result.stderr
    assert "user/user_preference_shared.md" in result.stderr
    result = stocked.invoke("show", "shared", "--level", "user")
    assert result.exit_code == 0 and result.stdout.endswith("User side.\n")
    assert stocked.invoke("show", "--level", "team").exit_code == 2


def test_show_a_broken_note_warns_and_prints_it(stocked) -> None:
    path = stocked.project / "project_knowledge_build.md"
    path.write_bytes(b"---\ntitle: [oops\n---\nbody\n")
    result = stocked.invoke("show", "project_knowledge_build.md")
    assert result.exit_code == 0
    assert "project_knowledge_build.md" in result.stderr and "YAML" in result.stderr
    assert result.stdout == "---\ntitle: [oops\n---\nbody\n"
    listing = stocked.invoke("show")
    assert "warning:" in listing.stderr and "project_knowledge_build.md" in listing.stderr


def test_read_commands_create_nothing(memenv) -> None:
    before = memenv.snapshot()
    for args in (("show",), ("show", "--json"), ("show", "--paths"), ("context",),
                 ("context", "--json"), ("index", "--check"), ("index",), ("show", "x"),
                 ("rm", "--yes", "x")):
        result = memenv.invoke(*args)
        assert result.exit_code in (0, 1), (args, result.output)
    assert memenv.snapshot() == before
    assert not memenv.project.exists() and not memenv.user.exists()


# --------------------------------------------------------------------------- context


def test_context_block(stocked) -> None:
    result = stocked.invoke("context")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:2] == ["## Project Memory", "(notes in .memcli/memory)"]
    assert lines[2].startswith("- [correction_feedback] Use pnpm — Use pnpm, not npm.")
    user_at = lines.index("## User Memory")
    assert lines[user_at + 1] == f"(notes in {_tilde(stocked.user)})"
    assert any("Answer language" in ln for ln in lines[user_at:])
    assert "not shown" not in result.stdout
    data = json.loads(stocked.invoke("context", "--json").stdout)
    from memcli.tokens import TOKENIZER, count_tokens

    assert data == {"text": result.stdout, "shown": 5, "left_out": 0,
                    "tokens": count_tokens(result.stdout), "tokenizer": TOKENIZER}


def test_context_on_empty_stores(memenv) -> None:
    result = memenv.invoke("context")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "## Project Memory", "(notes in .memcli/memory)", "(none)", "",
        "## User Memory", f"(notes in {_tilde(memenv.user)})", "(none)"]


def _note(note_type: str, title: str, summary: str, updated: str) -> str:
    return (f"---\ntype: {note_type}\ntitle: {title}\nsummary: {summary}\n"
            f"created: {updated}\nupdated: {updated}\n---\n{summary}\n")


def test_context_on_a_large_store_keeps_within_budget(memenv) -> None:
    """500 notes with long CJK summaries: at most 200 lines and 25 KiB, valid UTF-8, whole
    lines only, the newest corrections kept and the stalest reference material left out."""
    cjk = "记住这个项目的构建流程和发布步骤，不要忘记。" * 7
    for level in ("project", "user"):
        memenv.store(level).mkdir(parents=True)
    for i in range(470):
        day = f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T00:{i // 60:02d}:{i % 60:02d}Z"
        (memenv.project / f"reference_material_旧资料-{i}.md").write_text(
            _note("reference_material", f"旧资料 {i}", cjk[: 100 + i % 50], day))
    for i in range(10):
        (memenv.project / f"correction_feedback_fix-{i}.md").write_text(
            _note("correction_feedback", f"修正 {i}", cjk[:120], f"2026-11-{10 + i}T00:00:00Z"))
    for i in range(10):
        (memenv.user / f"correction_feedback_user-fix-{i}.md").write_text(
            _note("correction_feedback", f"用户修正 {i}", cjk[:120], f"2026-10-{10 + i}T00:00:00Z"))
    for i in range(10):
        (memenv.user / f"user_preference_pref-{i}.md").write_text(
            _note("user_preference", f"偏好 {i}", cjk[:80], f"2026-09-{10 + i}T00:00:00Z"))
    assert memenv.invoke("index").exit_code == 0

    proc = memenv.invoke("context")
    assert proc.exit_code == 0, proc.stderr
    raw = proc.stdout_bytes
    assert len(raw) <= 25 * 1024
    text = raw.decode("utf-8")  # strict: never cut inside a character
    assert text.count("\n") <= 200 and text.endswith("\n")
    lines = text.splitlines()
    index_lines = set(memenv.index("project").splitlines()) | set(memenv.index("user").splitlines())
    shown = [ln for ln in lines if ln.startswith("- [")]
    assert all(ln in index_lines for ln in shown)  # whole entry lines only
    assert lines.index("## Project Memory") < lines.index("## User Memory")
    for i in range(10):
        assert any(f"修正 {i} —" in ln for ln in shown)
        assert any(f"用户修正 {i} —" in ln for ln in shown)
    assert sum("[user_preference]" in ln for ln in shown) == 10
    left_out = 500 - len(shown)
    assert left_out > 400
    assert lines[-1] == (f"({left_out} more memory entries not shown; run `memcli show` "
                         "to list all)")
    kept_refs = [ln for ln in shown if ln.startswith("- [reference_material]")]
    assert kept_refs, "what fits of the reference material is shown, newest first"
    data = json.loads(memenv.invoke("context", "--json").stdout)
    assert data["text"] == text and data["left_out"] == left_out
    assert data["shown"] == len(shown)


# --------------------------------------------------------------------------- rm


def test_rm_by_title_slug_and_file_name(stocked) -> None:
    result = stocked.invoke("rm", "--yes", "use pnpm", "build",
                            "user_preference_answer-language.md")
    assert result.exit_code == 0, result.output
    assert stocked.notes("project") == ["project_knowledge_shared.md"]
    assert stocked.notes("user") == ["user_preference_shared.md"]
    assert "pnpm" not in stocked.index("project") and "language" not in stocked.index("user")
    assert stocked.invoke("index", "--check").exit_code == 0


def test_rm_ambiguous_or_unknown_removes_nothing(stocked) -> None:
    before = stocked.snapshot()
    result = stocked.invoke("rm", "--yes", "build", "shared")
    assert result.exit_code == 1
    assert "project/project_knowledge_shared.md" in result.stderr
    assert "user/user_preference_shared.md" in result.stderr
    result = stocked.invoke("rm", "--yes", "build", "ghost")
    assert result.exit_code == 1 and "no note matches 'ghost'" in result.stderr
    assert stocked.snapshot() == before
    proc = stocked.run("rm", "--yes", "shared")
    assert proc.returncode == 1
    assert stocked.snapshot() == before
    result = stocked.invoke("rm", "--yes", "--level", "user", "shared")
    assert result.exit_code == 0
    assert stocked.notes("user") == ["user_preference_answer-language.md"]


def test_rm_dry_run_and_json(stocked) -> None:
    before = stocked.snapshot()
    result = stocked.invoke("rm", "--dry-run", "build")
    assert result.exit_code == 0
    assert "--- a/project/project_knowledge_build.md\n+++ /dev/null" in result.stdout
    assert "+++ b/project/MEMORY.md" in result.stdout
    assert stocked.snapshot() == before
    data = json.loads(stocked.invoke("rm", "--yes", "--json", "build").stdout)
    assert data["written"] is True
    assert {(f["file"], f["change"]) for f in data["files"]} == {
        ("project_knowledge_build.md", "deleted"), ("MEMORY.md", "modified")}


def test_rm_needs_a_name(memenv) -> None:
    assert memenv.invoke("rm").exit_code == 2


# --------------------------------------------------------------------------- add


def test_add_one_memory(memenv) -> None:
    result = memenv.invoke("add", "--level", "user", "--type", "user_preference",
                           "Answer in English, briefly. Use metric units.")
    assert result.exit_code == 0, result.output
    path = memenv.user / "user_preference_answer-in-english-briefly.md"
    assert path.read_text() == (
        "---\ntype: user_preference\ntitle: Answer in English, briefly\n"
        "summary: Answer in English, briefly.\n"
        f"created: {NOW}\nupdated: {NOW}\n---\nAnswer in English, briefly. Use metric units.\n")
    assert "(user_preference_answer-in-english-briefly.md)" in memenv.index("user")


def test_add_with_title_summary_from_stdin(memenv) -> None:
    result = memenv.invoke("add", "--type", "feedback", "--title", "Test command",
                           "--summary", "pytest -q", "-", input="Run `pytest -q`, not tox.\n")
    assert result.exit_code == 0, result.output
    text = (memenv.project / "correction_feedback_test-command.md").read_text()
    assert "title: Test command\nsummary: pytest -q\n" in text
    assert text.endswith("---\nRun `pytest -q`, not tox.\n")


def test_add_errors(memenv) -> None:
    assert memenv.invoke("add", "Once.").exit_code == 0
    before = memenv.snapshot()
    # The same memory again changes nothing (exit 0); another under its title conflicts.
    result = memenv.invoke("add", "Once.")
    assert result.exit_code == 0 and "already says this" in result.stdout
    result = memenv.invoke("add", "--title", "Once", "Something else.")
    assert result.exit_code == 1 and "duplicate" in result.stderr
    # A wrong type or level is a usage error (2), as in every other command.
    result = memenv.invoke("add", "--type", "memo", "Something.")
    assert result.exit_code == 2 and "unknown type 'memo'" in result.stderr
    result = memenv.invoke("add", "--level", "team", "Something.")
    assert result.exit_code == 2 and "unknown level 'team'" in result.stderr
    result = memenv.invoke("add", "   ")
    assert result.exit_code == 2 and "empty" in result.stderr
    result = memenv.invoke("add", "-", input="")
    assert result.exit_code == 2
    assert memenv.invoke("add").exit_code == 2
    assert memenv.snapshot() == before
    result = memenv.invoke("add", "--on-conflict", "update", "--title", "Once", "Twice.")
    assert result.exit_code == 0
    assert (memenv.project / "project_knowledge_once.md").read_text().endswith("---\nTwice.\n")


def test_add_dry_run_and_json(memenv) -> None:
    before = memenv.snapshot()
    result = memenv.invoke("add", "--dry-run", "Deploys go through Argo.")
    assert result.exit_code == 0
    assert "+++ b/project/project_knowledge_deploys-go-through-argo.md" in result.stdout
    assert memenv.snapshot() == before
    data = json.loads(memenv.invoke("add", "--json", "Deploys go through Argo.").stdout)
    assert data["applied"][0]["file"] == "project_knowledge_deploys-go-through-argo.md"


# --------------------------------------------------------------------------- exit statuses


def test_exit_0_and_1_as_subprocesses(memenv) -> None:
    ops = json.dumps([create("Fact")])
    proc = memenv.run("apply", "-", input=ops)
    assert proc.returncode == 0, proc.stderr
    proc = memenv.run("apply", "--json", "-", input=json.dumps([create("Fact", content="New.")]))
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["rejected"][0]["message"].startswith("duplicate")
    for args in (("show", "ghost"), ("rm", "--yes", "ghost"), ("show", "fact", "--level", "user")):
        proc = memenv.run(*args)
        assert proc.returncode == 1, args
        assert proc.stderr.startswith("memcli: error:") and proc.stdout == ""
    assert memenv.run("show", "fact").returncode == 0
    assert memenv.run("--version").stdout.startswith("memcli ")


@pytest.mark.parametrize(
    ("args", "stdin", "why"),
    [
        (("apply", "-"), "{not json", "not JSON"),
        (("apply", "-"), "", "empty"),
        (("apply", "-"), '{"operations": 3}', "operations"),
        (("apply", "missing-file.json"), None, "cannot read"),
        (("apply", "--frobnicate", "-"), "[]", "frobnicate"),
        (("apply", "--on-conflict", "merge", "-"), "[]", "on-conflict"),
        (("apply", "-"), b"[\"\xff\xfe\"]", "UTF-8"),
        (("show", "--level", "team"), None, "level"),
        (("context", "extra-arg"), None, ""),
        (("no-such-command",), None, ""),
    ],
)
def test_exit_2_on_usage_or_bad_input(memenv, args: tuple[str, ...], stdin: Any,
                                       why: str) -> None:
    before = memenv.snapshot()
    proc = memenv.run(*args, input=stdin)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert why in proc.stderr
    assert proc.stdout == ""
    assert memenv.snapshot() == before


def test_exit_2_on_a_bad_setting(memenv) -> None:
    proc = memenv.run("show", env={"MEMCLI_LOCK_TIMEOUT": "soon"})
    assert proc.returncode == 2 and "lock_timeout" in proc.stderr


def test_exit_2_on_an_unreadable_file(memenv) -> None:
    folder = memenv.root / "a-folder"
    folder.mkdir()
    proc = memenv.run("apply", str(folder))
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_exit_3_when_a_store_is_not_a_folder(memenv) -> None:
    memenv.project.parent.mkdir(parents=True)
    memenv.project.write_bytes(b"i am a file\n")
    for args, stdin in ((("show",), None), (("context",), None),
                        (("apply", "-"), json.dumps([create("X")]))):
        proc = memenv.run(*args, input=stdin)
        assert proc.returncode == 3, (args, proc.stderr)
        assert "not a folder" in proc.stderr or "cannot create" in proc.stderr
    assert memenv.project.read_bytes() == b"i am a file\n"


def test_exit_3_on_lock_timeout_with_a_clear_message(memenv) -> None:
    from lockholder import held

    assert memenv.apply([create("Fact")]).exit_code == 0
    before = memenv.snapshot()
    try:
        with held(memenv.project / ".memcli.lock"):
            proc = memenv.run("apply", "-", input=json.dumps([create("Other")]),
                              env={"MEMCLI_LOCK_TIMEOUT": "0.5"})
    finally:
        (memenv.project / ".memcli.lock").unlink()
    assert proc.returncode == 3
    assert "another memcli process has held the lock on" in proc.stderr
    assert str(memenv.project) in proc.stderr and "MEMCLI_LOCK_TIMEOUT" in proc.stderr
    # It gave up after the 0.5 s it was given, not memenv's 20 s.
    assert "for 0.5 s;" in proc.stderr
    assert memenv.snapshot() == before
    assert memenv.run("apply", "-", input=json.dumps([create("Other")])).returncode == 0


def test_exit_130_when_interrupted(memenv) -> None:
    """SIGINT while apply waits for its input: exit 130, a one-line message, nothing written."""
    fifo = memenv.root / "ops.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen([sys.executable, "-m", "memcli", "apply", str(fifo)],
                            env={**os.environ, **memenv.env}, cwd=memenv.repo,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    writer = -1
    try:
        while writer < 0:  # succeeds once memcli has opened the FIFO to read it
            try:
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                assert exc.errno == errno.ENXIO
                # Still starting (no clock: a busy machine may take a while), not gone.
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                time.sleep(0.02)
        time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        # The process's end first, then its output: a CI run on a machine loaded to 13 on
        # two cores once took more than 30 s to see both (an exit status is what is tested).
        proc.wait(timeout=90)
        _, err = proc.communicate(timeout=30)
    finally:
        if writer >= 0:
            os.close(writer)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert err.decode().strip() == "memcli: interrupted"
    assert not memenv.project.exists()


def test_data_on_stdout_messages_on_stderr(stocked) -> None:
    proc = stocked.run("apply", "--json", "-", input=json.dumps([create("New one")]))
    assert json.loads(proc.stdout)["written"] is True
    assert proc.stderr == ""
    proc = stocked.run("index", "--check")
    assert proc.stdout == "" and "up to date" in proc.stderr


# --------------------------------------------------------------------------- store discovery


def _tilde(path: Path) -> str:
    """The user store as the context block names it: relative to HOME when inside it."""
    home = Path(os.environ["HOME"])
    return "~/" + str(path.relative_to(home)) if path.is_relative_to(home) else str(path)


def _paths(memenv: Any, *args: str, env: dict[str, Any] | None = None) -> dict[str, str]:
    result = memenv.invoke(*args, "show", "--paths", "--json", env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_store_flags_beat_the_environment(memenv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(memenv.root)
    paths = _paths(memenv, "--project-store", "p", "--user-store", str(memenv.root / "u"),
                   env={"MEMCLI_USER_STORE": str(memenv.root / "env-user")})
    assert paths == {"project": str(memenv.root / "p"), "user": str(memenv.root / "u")}
    paths = _paths(memenv, env={"MEMCLI_USER_STORE": str(memenv.root / "env-user")})
    assert paths["user"] == str(memenv.root / "env-user")  # MEMCLI_USER_STORE beats MEMCLI_HOME
    paths = _paths(memenv, env={"MEMCLI_HOME": str(memenv.root / "mh")})
    assert paths["user"] == str(memenv.root / "mh" / "memory")
    paths = _paths(memenv, env={"MEMCLI_HOME": None, "HOME": str(memenv.root / "h")})
    assert paths["user"] == str(memenv.root / "h" / ".memcli" / "memory")


def test_project_root_discovery(memenv, monkeypatch: pytest.MonkeyPatch) -> None:
    unset = {"MEMCLI_PROJECT_STORE": None}
    top = memenv.root / "work"
    deep = top / "proj" / "src" / "pkg"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert _paths(memenv, env=unset)["project"] == str(deep / ".memcli" / "memory")
    (top / ".git").mkdir()  # a folder named .git is no repository: git needs its HEAD
    assert _paths(memenv, env=unset)["project"] == str(deep / ".memcli" / "memory")
    (top / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    assert _paths(memenv, env=unset)["project"] == str(top / ".memcli" / "memory")
    (top / "proj" / ".memcli").mkdir()
    assert _paths(memenv, env=unset)["project"] == str(top / "proj" / ".memcli" / "memory")
    before = memenv.snapshot()
    assert memenv.invoke("show", env=unset).exit_code == 0
    assert memenv.snapshot() == before  # found, not created


def test_the_users_own_memcli_folder_is_not_a_project_marker(
    memenv, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = memenv.root / "home"
    (home / ".memcli").mkdir(exist_ok=True)
    code = home / "code" / "scratch"
    code.mkdir(parents=True)
    monkeypatch.chdir(code)
    paths = _paths(memenv, env={"MEMCLI_PROJECT_STORE": None})
    assert paths["project"] == str(code / ".memcli" / "memory")
    assert paths["user"] == str(home / ".memcli" / "memory")


# --------------------------------------------------------------------------- terminals


def _on_a_terminal(memenv: Any, *args: str, stdin_tty: bool = False, stdout_tty: bool = False,
                   feed: bytes = b"", env: dict[str, str | None] | None = None,
                   ) -> tuple[int, str, str]:
    """Run memcli with stdin and/or stdout on a pseudo-terminal; (status, stdout, stderr)."""
    import pty
    import select

    full_env = {**os.environ, **memenv.env}
    for key, value in (env or {}).items():
        if value is None:
            full_env.pop(key, None)
        else:
            full_env[key] = value
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "memcli", *args], env=full_env, cwd=memenv.repo,
        stdin=slave if stdin_tty else subprocess.DEVNULL,
        stdout=slave if stdout_tty else subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(slave)
    if feed:
        os.write(master, feed)
    tty_out = b""
    try:
        while stdout_tty:
            ready, _, _ = select.select([master], [], [], 30)
            if not ready:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            tty_out += chunk
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    stdout = tty_out.decode() if stdout_tty else out.decode()
    return proc.returncode, stdout, err.decode()


def test_no_document_on_a_terminal_is_a_usage_error(memenv) -> None:
    code, _, err = _on_a_terminal(memenv, "apply", stdin_tty=True)
    assert code == 2 and "no operations document on stdin" in err


def test_rm_asks_on_a_terminal(stocked) -> None:
    before = stocked.snapshot()
    code, _, err = _on_a_terminal(stocked, "rm", "build", stdin_tty=True, feed=b"n\n")
    assert code == 1
    assert "about to remove" in err and "project/project_knowledge_build.md" in err
    assert stocked.snapshot() == before
    code, _, err = _on_a_terminal(stocked, "rm", "build", stdin_tty=True, feed=b"y\n")
    assert code == 0, err
    assert "project_knowledge_build.md" not in stocked.notes("project")


def test_colour_only_on_a_terminal_and_no_color_never_changes_the_layout(stocked) -> None:
    code, coloured, _ = _on_a_terminal(stocked, "show", stdout_tty=True, env={"NO_COLOR": None})
    assert code == 0
    assert "\x1b[" in coloured
    code, plain, _ = _on_a_terminal(stocked, "show", stdout_tty=True)  # NO_COLOR=1
    assert code == 0
    assert "\x1b[" not in plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    assert "correction  Use pnpm" in plain and "\t" not in plain
    code, piped, _ = _on_a_terminal(stocked, "show", env={"NO_COLOR": None})  # a pipe
    assert code == 0 and "\x1b[" not in piped
    assert "project\tcorrection_feedback\tUse pnpm" in piped


def test_one_folder_for_both_stores_is_refused_and_nothing_is_written(memenv) -> None:
    env = {"MEMCLI_PROJECT_STORE": str(memenv.user)}
    ops = [create("P"), create("U", "user", "user_preference")]
    result = memenv.invoke("apply", "-", input=json.dumps(ops), env=env)
    assert result.exit_code == 2
    assert "same folder" in result.stderr
    assert not memenv.user.exists() or memenv.notes("user") == []


def test_in_the_home_folder_only_the_user_store_is_used(
    memenv, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = memenv.root / "home"
    monkeypatch.chdir(home)
    no_project = {"MEMCLI_PROJECT_STORE": None}
    both = memenv.invoke("show", "--paths", "--json", env=no_project)
    assert both.exit_code == 0, both.output
    assert set(json.loads(both.stdout)) == {"user"}
    project = memenv.invoke("show", "--level", "project", env=no_project)
    assert project.exit_code == 2 and "no project here" in project.stderr
    assert "--level user" in project.stderr


_json_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.one_of(
    st.dictionaries(_json_text, _json_text, max_size=4),
    st.dictionaries(_json_text, st.one_of(st.integers(), st.lists(_json_text, max_size=2)),
                    max_size=3),
    _json_text, st.integers()), max_size=5))
def test_a_streamed_json_list_is_the_same_text_as_one_dump(items: list[object]) -> None:
    """`show --json` writes its listing an item at a time; the bytes are json.dumps's."""
    import io

    from memcli.render.output import Output

    whole, streamed = io.StringIO(), io.StringIO()
    Output(out=whole, err=whole).data(items)
    Output(out=streamed, err=streamed).data_list(iter(items))
    assert streamed.getvalue() == whole.getvalue()
