"""The review inbox (issue 30): proposals held instead of written, accepted or rejected."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from conftest import MemEnv

from memcli.errors import ConfigError
from memcli.settings.review import parse_review
from memcli.store.names import inbox_folder

TURN = ("\n".join(json.dumps(m) for m in (
    {"role": "user", "content": "We use pytest with -p no:randomly to run tests in this repo. "
                                "I prefer short answers without emojis."},
    {"role": "assistant", "content": "Noted."})) + "\n")
BODY = ("The deploy goes through the staging cluster first, then production after the smoke "
        "tests pass; rollbacks use the previous image tag and never rebuild.")


def proposals(memenv: MemEnv, level: str = "project") -> list[dict[str, object]]:
    folder = inbox_folder(memenv.store(level))
    if not folder.is_dir():
        return []
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


def extract(memenv: MemEnv, *flags: str, review: str | None = None) -> None:
    env = {"MEMCLI_REVIEW": review} if review else None
    result = memenv.invoke("extract", "--provider", "rules", *flags, input=TURN, env=env)
    assert result.exit_code == 0, result.output


def test_the_setting_reads_none_all_and_types() -> None:
    assert parse_review("none") == frozenset()
    assert parse_review("ALL") == frozenset({"all"})
    assert parse_review("project_knowledge, correction_feedback") == {
        "project_knowledge", "correction_feedback"}
    assert parse_review(["user_preference"]) == {"user_preference"}
    with pytest.raises(ConfigError):
        parse_review("project-knowledge!")


def test_a_reviewed_type_waits_and_the_rest_is_written(memenv: MemEnv) -> None:
    extract(memenv, "--apply", review="project_knowledge")
    held = proposals(memenv)
    assert len(held) == 1 and {o["type"] for o in held[0]["operations"]} == {"project_knowledge"}
    assert "pytest" in held[0]["evidence"] and held[0]["source"]["provider"] == "rules"
    assert held[0]["base"]
    assert memenv.notes("project") == []  # nothing of the reviewed type written
    assert any("user_preference" in n for n in memenv.notes("user"))
    # Never in context or recall before it is accepted.
    assert "pytest" not in memenv.invoke("context").output
    assert "pytest" not in memenv.invoke("recall", "how are tests run").output


def test_accept_writes_through_apply_records_the_source_and_never_twice(memenv: MemEnv) -> None:
    extract(memenv, "--apply", review="all")
    ids = [p["id"] for p in proposals(memenv) + proposals(memenv, "user")]
    assert len(ids) == 2 and memenv.notes("project") == []
    listed = json.loads(memenv.invoke("review", "--list", "--json").output)
    assert {p["id"] for p in listed["proposals"]} == set(ids)
    assert all(p["applies"] and "+++ b/" in p["diff"] for p in listed["proposals"])
    first = memenv.invoke("review", "--accept", *ids)
    assert first.exit_code == 0, first.output
    assert memenv.notes("project") and proposals(memenv) == []
    log = json.loads(memenv.invoke("log", "--json").output)
    runs = log["transactions"] if isinstance(log, dict) else log
    sources = [t["source"] for t in runs if t["command"] == "review"]
    assert {s["proposal"] for s in sources} == set(ids)
    assert all(s["provider"] == "rules" for s in sources)
    snapshot = memenv.stores_snapshot()
    again = memenv.invoke("review", "--accept", ids[0])
    assert again.exit_code == 1 and "gone" in again.output
    assert memenv.stores_snapshot() == snapshot


def test_reject_takes_it_out_and_writes_no_note(memenv: MemEnv) -> None:
    extract(memenv, "--propose")
    assert proposals(memenv)
    result = memenv.invoke("review", "--reject", "--all")
    assert result.exit_code == 0 and "rejected" in result.output
    assert proposals(memenv) == [] and memenv.notes("project") == []


def test_a_proposal_that_no_longer_applies_stays_and_says_why(memenv: MemEnv) -> None:
    extract(memenv, "--propose")
    extract(memenv, "--apply")  # the same notes written meanwhile, then edited by hand:
    for level in ("project", "user"):  # the creates are duplicates of notes that differ
        for name in memenv.notes(level):  # (the same words again would be "unchanged")
            path = memenv.store(level) / name
            path.write_text(path.read_text("utf-8") + "Edited since.\n", "utf-8")
    pid = proposals(memenv)[0]["id"]
    result = memenv.invoke("review", "--accept", str(pid))
    assert result.exit_code == 1 and "no longer applies" in result.output
    assert proposals(memenv)  # still waiting: the person decides


def test_unattended_deletes_and_gutting_updates_wait_instead_of_being_refused(
        memenv: MemEnv) -> None:
    from memcli.mcp import tools
    from memcli.settings.resolve import Flags, resolve
    from memcli.settings.zone import UTC

    memenv.write_note("project", "project_knowledge_deploy.md", {"title": "Deploy"}, BODY)
    ops = json.dumps([{"action": "update", "level": "project",
                       "filename": "project_knowledge_deploy.md", "content": "."},
                      {"action": "delete", "level": "project",
                       "filename": "project_knowledge_deploy.md"}])
    env = {**os.environ, **memenv.env}
    off = resolve(Flags(), env, memenv.repo, clock=lambda: None)  # type: ignore[arg-type,return-value]
    # Every operation refused: a failed call to the model (issue 34), naming both.
    with pytest.raises(tools.RefusedError, match=r"#1 update rejected: .*#2 delete rejected"):
        tools.apply(off, ops)  # type: ignore[arg-type]
    on = resolve(Flags(), {**env, "MEMCLI_REVIEW": "user_preference"}, memenv.repo,
                 clock=lambda: None, zone=UTC)  # type: ignore[arg-type,return-value]
    answer = tools.apply(on, ops)
    assert len(answer["proposed"]) == 1 and not answer["rejected"]  # type: ignore[arg-type]
    assert BODY in (memenv.project / "project_knowledge_deploy.md").read_text()
    held = proposals(memenv)[0]
    assert [o["action"] for o in held["operations"]] == ["update", "delete"]
    assert held["source"]["via"] == "mcp:_"


def test_mcp_propose_can_submit_to_the_inbox(memenv: MemEnv) -> None:
    from memcli.mcp import tools
    from memcli.settings.resolve import Flags, resolve

    ops = json.dumps([{"action": "create", "level": "project", "type": "project_knowledge",
                       "title": "Make", "content": "Run make check before a commit."}])
    settings = resolve(Flags(), {**os.environ, **memenv.env}, memenv.repo,
                       clock=lambda: None)  # type: ignore[arg-type,return-value]
    answer = tools.propose(settings, ops, inbox=True, client="claude")
    assert answer["proposals"] and memenv.notes("project") == []
    assert proposals(memenv)[0]["source"]["via"] == "mcp:claude"


def test_status_and_session_start_count_and_old_ones_expire(memenv: MemEnv) -> None:
    extract(memenv, "--propose")
    status = json.loads(memenv.invoke("status", "--json").output)
    counts = {lv["level"]: lv["awaiting_review"] for lv in status["levels"]}
    assert counts == {"project": 1, "user": 1}
    hook = memenv.run("hook", "claude-code", input=json.dumps(
        {"hook_event_name": "SessionStart", "session_id": "s1", "cwd": str(memenv.repo)}))
    assert "2 memories await the person's review" in hook.stdout, hook.stderr
    later = {"MEMCLI_NOW": "2027-01-15T00:00:00Z"}
    listed = memenv.invoke("review", "--list", env=later)
    assert "expired" in listed.output and proposals(memenv) == []


def test_the_expiry_is_a_setting_of_the_user_config(memenv: MemEnv) -> None:
    # It was read from MEMCLI_REVIEW_EXPIRY_DAYS alone: a person could not keep it.
    extract(memenv, "--propose")
    home = Path(memenv.env["MEMCLI_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("review_expiry_days = 90\n", "utf-8")
    later = {"MEMCLI_NOW": "2027-01-15T00:00:00Z"}  # 45 days on: kept under 90
    kept = memenv.invoke("review", "--list", env=later)
    assert "expired" not in kept.output and len(proposals(memenv)) == 1, kept.output
    shown = json.loads(memenv.invoke("config", "--json").stdout)
    assert shown["review_expiry_days"] == {"value": "90", "source": "user config"}
    gone = memenv.invoke("review", "--list", env={**later, "MEMCLI_REVIEW_EXPIRY_DAYS": "7"})
    assert "expired" in gone.output and proposals(memenv) == []


@pytest.mark.parametrize("value", ['"soon"', "0", "-3", "true", "1.5", '"²"', "1000000000"])
def test_a_bad_expiry_is_one_error_for_review_only(memenv: MemEnv, value: str) -> None:
    home = Path(memenv.env["MEMCLI_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f"review_expiry_days = {value}\n", "utf-8")
    failed = memenv.invoke("review", "--list")
    assert failed.exit_code != 0
    assert "config.toml:1: review_expiry_days must be a whole number of days" in failed.stderr
    extract(memenv, "--propose")  # extract and the hooks do not read it


def test_an_untrusted_repository_cannot_shorten_the_expiry(memenv: MemEnv) -> None:
    extract(memenv, "--propose")
    config = memenv.repo / ".memcli" / "config.toml"
    config.write_text("review_expiry_days = 1\n", "utf-8")
    later = {"MEMCLI_NOW": "2026-12-20T00:00:00Z"}
    listed = memenv.invoke("review", "--list", env=later)
    assert "expired" not in listed.output, listed.output
    assert len(proposals(memenv)) == 1 and len(proposals(memenv, "user")) == 1


def test_interactive_review_in_a_pseudo_terminal(memenv: MemEnv, tmp_path: Path) -> None:
    import pty
    import select
    import subprocess

    extract(memenv, "--propose")
    editor = tmp_path / "editor.py"
    editor.write_text("import json, sys\np = sys.argv[1]\nops = json.load(open(p))\n"
                      "ops[0]['content'] = 'Edited by the person.'\n"
                      "json.dump(ops, open(p, 'w'))\n")
    leader, follower = pty.openpty()
    env = {**os.environ, **memenv.env, "EDITOR": f"{sys.executable} {editor}"}
    proc = subprocess.Popen([sys.executable, "-m", "memcli", "review"], stdin=follower,
                            stdout=follower, stderr=follower, cwd=memenv.repo, env=env)
    os.close(follower)
    seen = b""
    answers = [b"e\n", b"r\n"]
    while True:
        ready, _, _ = select.select([leader], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        if seen.count(b"[q]uit? ") > 2 - len(answers) and answers:
            os.write(leader, answers.pop(0))
    proc.wait(timeout=30)
    text = seen.decode("utf-8", "replace")
    assert "[1/2]" in text and "the turn's words" in text and "accepted" in text
    assert "rejected" in text and proc.returncode == 0
    notes = memenv.notes("project") + memenv.notes("user")
    assert len(notes) == 1
    written = [p for lvl in ("project", "user") for p in memenv.store(lvl).glob("*_*.md")]
    assert "Edited by the person." in written[0].read_text()
    assert proposals(memenv) == [] and proposals(memenv, "user") == []


def test_hooks_install_review_sets_the_config_and_refuses_an_unknown_type(
        memenv: MemEnv) -> None:
    config = memenv.repo / ".memcli" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("# mine\n[hooks]\ntimeout = 30\n")
    done = memenv.invoke("hooks", "install", "--agent", "claude-code",
                         "--review", "project_knowledge,correction_feedback")
    assert done.exit_code == 0, done.output
    text = config.read_text()
    assert text.startswith("# mine\n[hooks]\n")
    assert 'review = "correction_feedback,project_knowledge"' in text and "timeout = 30" in text
    shown = memenv.invoke("config").output
    assert "correction_feedback,project_knowledge" in shown and "not a memcli setting" not in shown
    bad = memenv.invoke("hooks", "install", "--agent", "claude-code", "--review", "nonsense")
    assert bad.exit_code != 0 and "not a note type" in bad.output
    assert 'review = "correction_feedback,project_knowledge"' in config.read_text()


def test_the_memory_tool_holds_a_delete_for_review_when_review_is_on(memenv: MemEnv) -> None:
    def tool(review: str | None = None, **tool_input: object) -> tuple[int, str]:
        done = memenv.call("memory-tool", input=json.dumps(tool_input),
                           env={"MEMCLI_REVIEW": review} if review else None)
        return done.returncode, done.stdout

    status, text = tool(command="create", path="/memories/project/deploy.md",
                        file_text=f"# Deploy\n\n{BODY}\n")
    assert status == 0, text
    path = "/memories/project/project_knowledge_deploy.md"
    status, text = tool(command="delete", path=path)
    assert status == 1 and "MEMCLI_TRUST_WRITES=memory-tool" in text  # review off: refused
    status, text = tool("user_preference", command="delete", path=path)
    assert status == 1 and "held for the person's review" in text, text
    assert memenv.notes("project") == ["project_knowledge_deploy.md"]
    assert [o["action"] for o in proposals(memenv)[0]["operations"]] == ["delete"]


def test_a_planted_batch_cannot_write_outside_the_inbox(memenv: MemEnv) -> None:
    """A checkout can hold a committed-looking batch folder: its inbox part names only plain
    proposal file names, or the whole batch is discarded."""
    memenv.invoke("add", "--level", "project", "--title", "Seed", "A seed note for the store.")
    inbox_folder(memenv.project).mkdir(mode=0o700)
    txn = memenv.project / ".memcli-txn-0123456789abcdef"
    (txn / "files").mkdir(parents=True)
    (txn / "files" / "0").write_text("planted")
    manifest = {"id": "0123456789abcdef", "primary": str(memenv.project.resolve()),
                "stores": [str(memenv.project.resolve())], "writes": {}, "deletes": [],
                "inbox": {"writes": {"../../planted.json": "0"}, "deletes": []}}
    (txn / "manifest.json").write_text(json.dumps(manifest))
    (txn / "COMMITTED").write_text("")
    assert memenv.invoke("review", "--list").exit_code == 0
    assert not txn.exists()
    assert not list(memenv.root.rglob("planted.json"))
