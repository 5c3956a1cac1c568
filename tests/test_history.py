"""History records (written with each transaction), `memcli log` and `memcli undo`."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.conftest import FIXED_NOW, MemEnv, snapshot_tree

HISTORY = ".memcli-history"


def records(store: Path) -> list[dict[str, Any]]:
    folder = store / HISTORY
    if not folder.is_dir():
        return []
    return [json.loads(p.read_bytes()) for p in sorted(folder.glob("*.json"))]


def visible(store: Path) -> dict[str, Any]:
    """A store's files, its history left out (an undo adds a record by design)."""
    return {k: v for k, v in snapshot_tree(store).items() if not k.startswith(HISTORY)}


def create(level: str, title: str, content: str, **extra: Any) -> dict[str, Any]:
    note_type = "project_knowledge" if level == "project" else "user_preference"
    return {"action": "create", "level": level, "type": note_type, "title": title,
            "content": content, **extra}


def test_apply_records_operations_reasons_and_contents_in_each_store(memenv: MemEnv) -> None:
    ops = [create("project", "Build", "Run go test.", reason="the user said so"),
           create("user", "Shell", "Use fish.")]
    assert memenv.apply(ops).exit_code == 0
    (project,) = records(memenv.project)
    (user,) = records(memenv.user)
    assert project["id"] == user["id"] and project["levels"] == ["project", "user"]
    assert project["command"] == "apply" and project["time"] == FIXED_NOW
    assert project["operations"] == [{
        "action": "create", "level": "project", "file": "project_knowledge_build.md",
        "reason": "the user said so", "message": "create project/project_knowledge_build.md"}]
    files = {f["file"]: f for f in project["files"]}
    note = memenv.project / "project_knowledge_build.md"
    assert files["project_knowledge_build.md"]["before"] is None
    assert files["project_knowledge_build.md"]["after"] == note.read_text("utf-8")
    assert files["MEMORY.md"]["change"] == "created"
    assert [f["file"] for f in user["files"]] == ["user_preference_shell.md", "MEMORY.md"]


def test_history_is_private_hidden_and_ignored_by_git(memenv: MemEnv) -> None:
    assert memenv.apply([create("user", "Shell", "Use fish.")]).exit_code == 0
    folder = memenv.user / HISTORY
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for path in folder.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
    assert (folder / ".gitignore").read_text() == "*\n"
    show = json.loads(memenv.invoke("show", "--json").stdout)
    assert [e["file"] for e in show] == ["user_preference_shell.md"]
    assert memenv.invoke("lint").exit_code == 0


def test_a_dry_run_or_a_noop_writes_no_record(memenv: MemEnv) -> None:
    ops = [create("project", "Build", "Run go test.")]
    assert memenv.apply(ops, "--dry-run").exit_code == 0
    assert records(memenv.project) == []
    assert memenv.apply(ops).exit_code == 0
    same = [{"action": "update", "level": "project", "filename": "project_knowledge_build.md",
             "content": "Run go test."}]
    assert memenv.apply(same).exit_code == 0
    assert len(records(memenv.project)) == 1


def test_every_writing_command_is_recorded_with_its_source(memenv: MemEnv) -> None:
    assert memenv.invoke("add", "Deploy with make ship.", "--title", "Deploy").exit_code == 0
    turn = json.dumps({"role": "user", "content": "Remember that the staging host is st1."})
    result = memenv.invoke("extract", "--apply", "--session-id", "sess-42", "--via",
                           "hook", "--transcript", "turn.jsonl", input=turn + "\n")
    assert result.exit_code == 0, result.stderr
    assert memenv.invoke("rm", "--yes", "Deploy").exit_code == 0
    (memenv.project / "MEMORY.md").write_text("stale\n")
    assert memenv.invoke("index").exit_code == 0
    newest_first = json.loads(memenv.invoke("log", "--json").stdout)["transactions"]
    assert [t["command"] for t in newest_first] == [
        "index", "rm", "hook", "add"]
    hook = newest_first[2]
    assert hook["source"] == {"session": "sess-42", "transcript": "turn.jsonl",
                              "provider": "rules", "via": "hook"}
    # Every write says where it came from (issue 25): here the command line.
    assert [t["source"]["via"] for t in newest_first] == ["cli", "cli", "hook", "cli"]
    assert [t["seq"] for t in newest_first] == [4, 3, 2, 1]


def test_lint_fix_is_recorded(memenv: MemEnv) -> None:
    assert memenv.invoke("add", "Deploy with make ship.", "--title", "Deploy").exit_code == 0
    (memenv.project / "MEMORY.md").write_text("# Memory index\n")
    result = memenv.invoke("lint", "--fix", "--format", "json")
    assert json.loads(result.stdout)["fixed"]
    newest = records(memenv.project)[-1]
    assert newest["command"] == "lint --fix"
    assert newest["operations"] and all(o["action"] == "fix" for o in newest["operations"])
    assert [f["file"] for f in newest["files"]] == ["MEMORY.md"]


def test_log_of_one_note_shows_its_diffs_newest_first(memenv: MemEnv) -> None:
    memenv.apply([create("project", "Build", "Run go test.")])
    memenv.apply([create("project", "Other", "Unrelated.")])
    memenv.apply([{"action": "update", "level": "project",
                   "filename": "project_knowledge_build.md", "content": "Run go vet too.",
                   "reason": "corrected in session"}])
    result = memenv.invoke("log", "Build")
    assert result.exit_code == 0
    text = result.stdout
    assert text.index("-Run go test.") < text.index("+Run go test.")  # the update comes first
    assert "+Run go vet too." in text and "Unrelated" not in text
    assert "(corrected in session)" in text
    data = json.loads(memenv.invoke("log", "project_knowledge_build.md", "--json").stdout)
    assert len(data["transactions"]) == 2
    assert "+Run go vet too." in data["transactions"][0]["diff"]


def test_log_of_a_name_that_is_no_note_and_has_no_history_is_not_found(memenv: MemEnv) -> None:
    memenv.apply([create("project", "Build", "Run go test.")])
    for args in (("log", "Biuld"), ("log", "Biuld", "--json")):
        result = memenv.call(*args)
        assert result.returncode == 1, result
        assert result.stdout == ""
        assert result.stderr.splitlines() == [
            "memcli: error: no note or history matches 'Biuld'; did you mean 'Build'? see "
            "`memcli show` for the notes and `memcli log` for the history"]
    # in an empty store too: the name is the mistake, not the missing history
    assert memenv.invoke("log", "Build", "--level", "user").exit_code == 1


def test_log_names_a_note_as_show_does(memenv: MemEnv) -> None:
    memenv.apply([create("project", "Build workflow", "Run go test.")])
    # what memcli prints (project/NAME.md), a path into the store, a title typed with its stop
    for name in ("project/project_knowledge_build-workflow.md", "Build workflow.",
                 str(memenv.project / "project_knowledge_build-workflow.md")):
        data = json.loads(memenv.invoke("log", name, "--json").stdout)
        assert len(data["transactions"]) == 1, name
    assert memenv.invoke("log", "user/project_knowledge_build-workflow.md").exit_code == 1


def test_log_of_a_note_written_by_hand_says_it_has_no_history(memenv: MemEnv) -> None:
    memenv.write_note("project", "project_knowledge_hand.md",
                      {"type": "project_knowledge", "title": "Hand", "summary": "By hand."})
    result = memenv.invoke("log", "Hand")
    assert result.exit_code == 0 and result.stdout == ""
    assert "no history of Hand yet" in result.stderr
    assert json.loads(memenv.invoke("log", "Hand", "--json").stdout)["transactions"] == []


def test_log_level_and_limit(memenv: MemEnv) -> None:
    memenv.apply([create("project", "A", "a.")])
    memenv.apply([create("user", "B", "b.")])
    user_only = json.loads(memenv.invoke("log", "--level", "user", "--json").stdout)
    assert [t["levels"] for t in user_only["transactions"]] == [["user"]]
    one = json.loads(memenv.invoke("log", "-n", "1", "--json").stdout)
    assert len(one["transactions"]) == 1 and one["transactions"][0]["levels"] == ["user"]


def test_undo_restores_bytes_and_undo_of_undo_redoes(memenv: MemEnv) -> None:
    memenv.apply([create("project", "Build", "Run go test."), create("user", "Shell", "fish")])
    before = (visible(memenv.project), visible(memenv.user))
    memenv.apply([{"action": "update", "level": "project",
                   "filename": "project_knowledge_build.md", "content": "Changed."},
                  {"action": "delete", "level": "user", "filename": "user_preference_shell.md"},
                  create("project", "New", "Brand new.")])
    after = (visible(memenv.project), visible(memenv.user))
    result = memenv.invoke("undo")
    assert result.exit_code == 0, result.stderr
    assert (visible(memenv.project), visible(memenv.user)) == before
    assert memenv.invoke("undo").exit_code == 0
    assert (visible(memenv.project), visible(memenv.user)) == after
    assert memenv.invoke("index", "--check").exit_code == 0
    newest = json.loads(memenv.invoke("log", "--json").stdout)["transactions"]
    assert newest[0]["command"] == "undo" and newest[0]["undoes"] == newest[1]["id"]


def test_undo_dry_run_writes_nothing(memenv: MemEnv) -> None:
    memenv.apply([create("project", "Build", "Run go test.")])
    before = snapshot_tree(memenv.project)
    result = memenv.invoke("undo", "--dry-run")
    assert result.exit_code == 0
    assert "-Run go test." in result.stdout
    assert snapshot_tree(memenv.project) == before


def test_undo_leaves_a_note_changed_since_alone_unless_forced(memenv: MemEnv) -> None:
    memenv.apply([create("project", "Build", "One."), create("project", "Deploy", "Two.")])
    first = records(memenv.project)[0]["id"]
    edited = memenv.project / "project_knowledge_build.md"
    edited.write_text(edited.read_text().replace("One.", "Edited by hand."))
    result = memenv.invoke("undo", first)
    assert result.exit_code == 1
    assert "project/project_knowledge_build.md left alone" in result.stderr
    assert "Edited by hand." in edited.read_text()
    assert not (memenv.project / "project_knowledge_deploy.md").exists()
    assert memenv.invoke("index", "--check").exit_code == 0
    assert memenv.invoke("undo", first, "--force").exit_code == 0
    assert not edited.exists()


def test_undo_by_id_prefix_and_unknown_ids(memenv: MemEnv) -> None:
    memenv.apply([create("project", "Build", "One.")])
    memenv.apply([create("project", "Deploy", "Two.")])
    first = records(memenv.project)[0]["id"]
    assert memenv.invoke("undo", first[:5]).exit_code == 0
    assert not (memenv.project / "project_knowledge_build.md").exists()
    assert (memenv.project / "project_knowledge_deploy.md").exists()
    missing = memenv.invoke("undo", "ffffffff")
    assert missing.exit_code == 1 and "no transaction ffffffff" in missing.stderr
    short = memenv.invoke("undo", "ab")
    assert short.exit_code == 2 and "at least 4 characters" in short.stderr


def test_undo_with_no_history_is_a_clear_error(memenv: MemEnv) -> None:
    result = memenv.invoke("undo")
    assert result.exit_code == 1
    assert result.stderr.startswith("memcli: error: no transaction in the history")


def test_a_secret_is_redacted_from_history_and_not_restored_silently(memenv: MemEnv) -> None:
    token = "ghp_" + "SqdWssjo12ftQyz0HLEvN7TbK47gQcpobB2O"
    memenv.write_note("project", "project_knowledge_keys.md",
                      body=f"The token is {token}.\n")
    assert memenv.invoke("index").exit_code == 0
    assert memenv.invoke("rm", "--yes", "project_knowledge_keys.md").exit_code == 0
    for path in (memenv.project / HISTORY).iterdir():
        assert token not in path.read_text("utf-8")
    rm_record = records(memenv.project)[-1]
    note = next(f for f in rm_record["files"] if f["file"] == "project_knowledge_keys.md")
    assert note["redacted"] is True and "[REDACTED]" in note["before"]
    held = memenv.invoke("undo")
    assert held.exit_code == 1 and "secret redacted" in held.stderr
    assert not (memenv.project / "project_knowledge_keys.md").exists()


def test_an_unreadable_record_is_reported_and_skipped(memenv: MemEnv) -> None:
    memenv.apply([create("project", "Build", "One.")])
    (memenv.project / HISTORY / "00000009-20261129100000-deadbeef.json").write_text("{nope")
    result = memenv.invoke("log")
    assert result.exit_code == 0
    assert "deadbeef.json: not a readable history record" in result.stderr
    assert "create project/project_knowledge_build.md" in result.stdout


def test_history_is_bounded_by_age_keeping_the_newest(memenv: MemEnv) -> None:
    from memcli.writes import history

    for i in range(history.MIN_KEPT + 5):
        old = f"2020-01-01T00:00:{i:02d}Z"
        assert memenv.invoke("add", f"Old fact {i}.", env={"MEMCLI_NOW": old}).exit_code == 0
    assert len(records(memenv.project)) == history.MIN_KEPT + 5
    assert memenv.invoke("add", "A new fact.").exit_code == 0
    kept = records(memenv.project)
    assert len(kept) == history.MIN_KEPT
    assert kept[-1]["time"] == FIXED_NOW
    assert kept[0]["seq"] == 7  # the six oldest went, in the same transaction


def test_the_index_is_kept_as_the_lines_that_changed(memenv: MemEnv) -> None:
    memenv.apply([create("project", f"Note {i}", f"Fact number {i}.") for i in range(50)])
    memenv.apply([{"action": "update", "level": "project",
                   "filename": "project_knowledge_note-7.md", "content": "Fact seven."}])
    index = next(f for f in records(memenv.project)[-1]["files"] if f["file"] == "MEMORY.md")
    assert index["trimmed"]["head"] > 0 and index["after"].count("\n") <= 2
    assert "Fact seven." in index["after"] and "Note 30" not in index["after"]


def test_a_committed_batch_left_by_a_kill_is_finished_with_its_record(memenv: MemEnv) -> None:
    from memcli.writes.transaction import COMMITTED, MANIFEST, STAGED, TXN_PREFIX

    memenv.apply([create("project", "Build", "One.")])
    store = memenv.project
    txn = store / f"{TXN_PREFIX}00000000000000aa"
    (txn / STAGED).mkdir(parents=True)
    (txn / STAGED / "0").write_bytes(b"---\ntype: project_knowledge\ntitle: X\n---\nX.\n")
    (txn / STAGED / "1").write_bytes(b'{"memcli_history": 1}\n')
    manifest = {"id": "aa", "primary": str(store), "stores": [str(store)],
                "writes": {"project_knowledge_x.md": "0"}, "deletes": [],
                "history": {"writes": {"00000002-20261129100000-abcd1234.json": "1"},
                            "deletes": []}}
    (txn / MANIFEST).write_text(json.dumps(manifest))
    (txn / COMMITTED).write_bytes(b"")
    assert memenv.invoke("show", "--json").exit_code == 0
    assert (store / "project_knowledge_x.md").exists()
    assert (store / HISTORY / "00000002-20261129100000-abcd1234.json").exists()
    assert not txn.exists()


def test_a_batch_killed_before_its_marker_leaves_neither_change_nor_record(
        memenv: MemEnv) -> None:
    from memcli.writes.transaction import MANIFEST, STAGED, TXN_PREFIX

    memenv.apply([create("project", "Build", "One.")])
    store = memenv.project
    before = snapshot_tree(store)
    txn = store / f"{TXN_PREFIX}00000000000000bb"
    (txn / STAGED).mkdir(parents=True)
    (txn / STAGED / "0").write_bytes(b"record")
    manifest = {"id": "bb", "primary": str(store), "stores": [str(store)],
                "writes": {}, "deletes": ["project_knowledge_build.md"],
                "history": {"writes": {"00000002-20261129100000-abcd1234.json": "0"},
                            "deletes": []}}
    (txn / MANIFEST).write_text(json.dumps(manifest))
    assert memenv.invoke("show", "--json").exit_code == 0
    assert snapshot_tree(store) == before


@pytest.mark.parametrize("name", ["../../evil.json", "MEMORY.md", ".x.json", "1-2-zz.json"])
def test_a_planted_history_name_outside_the_pattern_is_never_rolled_forward(
        memenv: MemEnv, name: str) -> None:
    from memcli.writes.transaction import COMMITTED, MANIFEST, STAGED, TXN_PREFIX

    memenv.apply([create("project", "Build", "One.")])
    store = memenv.project
    txn = store / f"{TXN_PREFIX}00000000000000cc"
    (txn / STAGED).mkdir(parents=True)
    (txn / STAGED / "0").write_bytes(b"pwned")
    manifest = {"id": "cc", "primary": str(store), "stores": [str(store)],
                "writes": {}, "deletes": ["project_knowledge_build.md"],
                "history": {"writes": {name: "0"}, "deletes": []}}
    (txn / MANIFEST).write_text(json.dumps(manifest))
    (txn / COMMITTED).write_bytes(b"")
    assert memenv.invoke("show", "--json").exit_code == 0
    assert (store / "project_knowledge_build.md").exists()  # the whole txn was garbage
    assert not txn.exists()
    assert b"pwned" not in b"".join(
        p.read_bytes() for p in memenv.root.rglob("*") if p.is_file())


# --------------------------------------------------------------------------- properties

_TITLES = st.sampled_from(["Build", "Deploy", "Shell", "部署", "Cache", "Review"])
_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                min_size=1, max_size=40).filter(lambda t: t.strip() != "")


@st.composite
def _batch(draw: st.DrawFn) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 5))):
        level = draw(st.sampled_from(["project", "user"]))
        title = draw(_TITLES)
        kind = draw(st.sampled_from(["create", "update", "delete"]))
        note_type = "project_knowledge" if level == "project" else "user_preference"
        name = f"{note_type}_{title.lower()}.md"
        if kind == "create":
            ops.append(create(level, title, draw(_TEXT)))
        elif kind == "update":
            ops.append({"action": "update", "level": level, "filename": name,
                        "content": draw(_TEXT)})
        else:
            ops.append({"action": "delete", "level": level, "filename": name})
    return ops


@st.composite
def _start(draw: st.DrawFn) -> list[dict[str, Any]]:
    titles = draw(st.lists(_TITLES, min_size=1, max_size=6, unique=True))
    return [create(draw(st.sampled_from(["project", "user"])), t, draw(_TEXT)) for t in titles]


@pytest.mark.slow  # a campaign: 40-100 s of generated batches
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
@given(start=_start(), change=_batch(), clock=st.sampled_from([FIXED_NOW,
                                                                "2026-12-01T08:00:00Z"]))
def test_apply_then_undo_is_byte_identical_and_undo_of_undo_redoes(
        memenv: MemEnv, start: list[dict[str, Any]], change: list[dict[str, Any]],
        clock: str) -> None:
    for store in (memenv.project, memenv.user):
        if store.exists():
            for path in sorted(store.rglob("*"), key=lambda p: -len(p.parts)):
                path.rmdir() if path.is_dir() else path.unlink()
    memenv.apply(start)
    before = (visible(memenv.project), visible(memenv.user))
    memenv.apply(change, env={"MEMCLI_NOW": clock})
    after = (visible(memenv.project), visible(memenv.user))
    assume(after != before)  # everything rejected or unchanged: nothing recorded to undo
    assert memenv.invoke("undo").exit_code == 0
    assert (visible(memenv.project), visible(memenv.user)) == before
    assert memenv.invoke("undo").exit_code == 0
    assert (visible(memenv.project), visible(memenv.user)) == after


def test_user_store_records_stay_private_under_a_loose_umask(memenv: MemEnv) -> None:
    old = os.umask(0)
    try:
        assert memenv.apply([create("user", "Shell", "Use fish.")]).exit_code == 0
    finally:
        os.umask(old)
    for path in (memenv.user / HISTORY).iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
