"""Two notes of a store with one title ("Database"): written by hand, imported, or merged
by git. A create with that title updated whichever of them the title table kept last (the
other note's content replaced, its type and file name changed); an extractor's "Databases"
updated the first of them in index order; an update keeping a note's own title was refused
as "already used". Now the note of the create's type is the one meant, and when that does
not settle it the create is refused with both names (or, with --on-conflict rename, kept).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

KNOWLEDGE = "project_knowledge_database.md"
REFERENCE = "reference_material_database.md"


@pytest.fixture
def twins(memenv) -> Any:
    for filename, summary in ((KNOWLEDGE, "The production database is Postgres 16."),
                              (REFERENCE, "The schema docs live in docs/schema.md.")):
        memenv.write_note("project", filename, {
            "type": filename.rsplit("_", 1)[0], "title": "Database", "summary": summary,
            "created": "2026-11-01T10:00:00Z", "updated": "2026-11-01T10:00:00Z"},
            summary + "\n")
    assert memenv.invoke("index").exit_code == 0
    return memenv


def _create(note_type: str, title: str = "Database") -> dict[str, Any]:
    return {"action": "create", "level": "project", "type": note_type, "title": title,
            "content": "Never run migrations by hand."}


def test_a_create_of_a_third_type_is_refused_and_names_both_notes(twins) -> None:
    before = twins.snapshot(twins.store("project"))
    result = twins.apply([_create("correction_feedback")], "--on-conflict", "update")
    assert result.exit_code == 1
    assert "2 notes in the project store have the title 'Database'" in result.stderr
    assert KNOWLEDGE in result.stderr and REFERENCE in result.stderr
    assert twins.snapshot(twins.store("project")) == before


def test_a_create_of_one_of_their_types_updates_that_note_only(twins) -> None:
    reference = (twins.store("project") / REFERENCE).read_bytes()
    result = twins.apply([_create("project_knowledge")], "--on-conflict", "update")
    assert result.exit_code == 0, result.stderr
    assert "Never run migrations" in (twins.store("project") / KNOWLEDGE).read_text()
    assert (twins.store("project") / REFERENCE).read_bytes() == reference


def test_with_rename_a_create_keeps_both_and_adds_a_third(twins) -> None:
    result = twins.apply([_create("correction_feedback")], "--on-conflict", "rename")
    assert result.exit_code == 0, result.stderr
    names = sorted(p.name for p in twins.store("project").glob("*_*.md"))
    assert len(names) == 3 and KNOWLEDGE in names and REFERENCE in names


def test_an_update_that_keeps_the_notes_own_shared_title_is_not_refused(twins) -> None:
    update = {"action": "update", "level": "project", "filename": KNOWLEDGE,
              "title": "Database", "content": "The production database is Postgres 17."}
    result = twins.apply([update])
    assert result.exit_code == 0, result.stderr
    assert "Postgres 17" in (twins.store("project") / KNOWLEDGE).read_text()
    # taking a title another note holds is still refused
    other = {"action": "create", "level": "project", "type": "user_preference",
             "title": "Tabs", "content": "Indent with tabs."}
    assert twins.apply([other]).exit_code == 0
    retitle = {"action": "update", "level": "project", "filename": "user_preference_tabs.md",
               "title": "Database", "content": "Indent with tabs."}
    refused = twins.apply([retitle])
    assert refused.exit_code == 1 and "already used by" in refused.stderr


def _extract(memenv, reply_ops: list[dict[str, Any]]) -> Any:
    from fakeserver import FakeServer, Step, openai_stream

    turn = json.dumps({"role": "user", "content": "The database schema docs moved."}) + "\n"
    with FakeServer() as server:
        server.script(Step(body=openai_stream([json.dumps({"operations": reply_ops})])))
        return memenv.invoke("extract", "--json", input=turn, env={
            "MEMCLI_PROVIDER": "openai", "MEMCLI_MODEL": "m",
            "MEMCLI_BASE_URL": server.url + "/v1", "MEMCLI_API_KEY": "sk-test-not-secret"})


def test_a_models_near_repeat_updates_the_twin_of_its_own_type(twins) -> None:
    result = _extract(twins, [_create("reference_material", "Databases")])
    assert result.exit_code == 0, result.stderr
    ops = json.loads(result.stdout)["operations"]
    # it updated the first in index order, the production database note, before
    assert [(op["action"], op.get("filename")) for op in ops] == [("update", REFERENCE)]


def test_a_models_near_repeat_of_neither_type_is_refused_with_both_names(twins) -> None:
    result = _extract(twins, [_create("correction_feedback", "Databases")])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["operations"] == []
    reason = document["rejected"][0]["reason"]
    assert "nearly repeats 2 notes of the project store" in reason
    assert KNOWLEDGE in reason and REFERENCE in reason
