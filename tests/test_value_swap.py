"""A correction that names the old value and the new one replaces only the value, so an
unattended run applies it: the note keeps its subject and its other words, the person's
words are the update's reason, and the unattended guard (an update that removes most of a
note is a delete) passes it on its own rule. A note that merely names the old value, or
that forbids it, is not rewritten unattended.

The phrasings are not rows of the corpus (benchmarks/data/extraction/); each test goes
through `memcli extract --apply` (the hook's unattended run) against a store.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import MemEnv
from tests.extract_turns import notes_in, say


@pytest.mark.parametrize(("first", "then", "kept", "new", "old", "words"), [
    # a tool of a setting (a static site generator), the rest of the note kept
    ("the internal docs site is built with mkdocs and published from the docs branch "
     "every night", "heads up, mkdocs is gone, the docs site moved to Docusaurus last sprint",
     "published from the docs branch every night", "Docusaurus", "mkdocs", "heads up"),
    # the same in Spanish (a message queue)
    ("los trabajos en segundo plano del backend van por RabbitMQ en el servidor viejo",
     "ojo, RabbitMQ ya no está, los trabajos ahora pasan por Kafka",
     "los trabajos en segundo plano del backend", "Kafka", "RabbitMQ", "ya no está"),
    # a tool no setting lists, written as a name
    ("the label printer at the front desk is driven through the ZPL_BRIDGE service",
     "heads up, ZPL_BRIDGE is gone, the printer now talks to PrintNode-Agent",
     "label printer at the front desk", "PrintNode-Agent", "ZPL_BRIDGE", "is gone"),
    # a bare number, the old one named
    ("the grafana agent on the build hosts listens on 12345",
     "it moved to 12400, 12345 clashes with the license server now",
     "grafana agent on the build hosts", "12400", "12345", "clashes"),
], ids=["en-setting", "es-setting", "name", "number"])
def test_a_correction_naming_the_old_and_the_new_value_is_applied_unattended(
        memenv: MemEnv, first: str, then: str, kept: str, new: str, old: str,
        words: str) -> None:
    assert [op["action"] for op in say(memenv, first, "--apply")["operations"]] == ["create"]
    (name,) = notes_in(memenv.project)
    report = say(memenv, then, "--apply")  # exit code 0: nothing refused
    assert report["apply"]["rejected"] == []
    (op,) = report["operations"]
    assert (op["action"], op["filename"]) == ("update", name)
    assert words in op["reason"]  # the person's words are the update's reason
    notes = notes_in(memenv.project)
    assert list(notes) == [name]
    assert kept.casefold() in notes[name].casefold() and new in notes[name]
    assert old not in notes[name]


@pytest.mark.parametrize("stored", [
    # a note that merely names the old value: it is about the keys, not the deploy target
    "Heroku API keys live in the team 1Password vault, ask Dana for access.",
    # a prohibition: "never deploy to Fly.io on Fridays" is no rule anyone said
    "Never deploy to Heroku on Fridays, the on-call rota is thin.",
], ids=["names-it", "forbids-it"])
def test_a_note_that_the_change_does_not_revalue_is_not_rewritten_unattended(
        memenv: MemEnv, stored: str) -> None:
    memenv.write_note("project", "project_knowledge_stored.md",
                      {"type": "project_knowledge", "title": "Stored", "summary": stored,
                       "updated": "2026-01-01T00:00:00Z"}, stored + "\n")
    assert memenv.invoke("index").exit_code == 0
    before = notes_in(memenv.project)["project_knowledge_stored.md"]
    line = json.dumps({"role": "user", "content": "we moved deploys off Heroku to Fly.io"})
    result = memenv.invoke("extract", "--json", "--apply", input=line + "\n")
    # The note is not rewritten by an unattended run: what is proposed for it waits for
    # the person, refused by the guard.
    assert notes_in(memenv.project)["project_knowledge_stored.md"] == before
    rejected = json.loads(result.stdout)["apply"]["rejected"]
    assert all("removes most" in r["message"] for r in rejected)


@pytest.mark.parametrize(("stored", "then"), [
    # a number the change does not name as the old one is another number
    ("The api listens on 8080.", "correction: the cache ttl is 300 seconds now"),
    # two words of one name are not an old tool and a new one
    ("Sim is Gazebo classic 11, launch files are in robot_bringup/launch.",
     "fyi we migrated the whole sim to Gazebo Fortress, classic is uninstalled"),
], ids=["other-number", "one-name"])
def test_a_value_swap_never_writes_a_value_into_the_wrong_place(
        memenv: MemEnv, stored: str, then: str) -> None:
    memenv.write_note("project", "project_knowledge_stored.md",
                      {"type": "project_knowledge", "title": "Stored", "summary": stored,
                       "updated": "2026-01-01T00:00:00Z"}, stored + "\n")
    assert memenv.invoke("index").exit_code == 0
    line = json.dumps({"role": "user", "content": then})
    memenv.invoke("extract", "--json", "--apply", input=line + "\n")
    note = notes_in(memenv.project)["project_knowledge_stored.md"]
    assert "300" not in note and "Fortress classic" not in note


def test_a_change_of_a_value_with_nothing_stored_to_change_is_kept(memenv: MemEnv) -> None:
    # The first statement was never kept (said inside a request, or before memcli ran):
    # the change still says a value that lasts, of a subject.
    ops = say(memenv, "fyi the retro moved to mondays, the PM has a clash on fridays now",
              "--apply")["operations"]
    assert [(op["action"], op["level"]) for op in ops] == [("create", "project")]
    (note,) = notes_in(memenv.project).values()
    assert "retro moved to mondays" in note


@pytest.mark.parametrize("text", [
    "my bad, it's alpine3.20",  # a bare correction: no subject, nothing to correct
    "the build is green now, 214 tests ran",  # a status report
    "can you move the retro to mondays now?",  # a question
])
def test_a_change_with_no_subject_or_no_statement_gives_no_note(memenv: MemEnv,
                                                                 text: str) -> None:
    assert say(memenv, text, "--apply")["operations"] == []


def test_a_value_corrected_in_other_words_keeps_the_note_and_is_applied_unattended(
        memenv: MemEnv) -> None:
    # "Correction: the sprint review is on wednesdays now" would replace most of the note
    # (refused unattended); the day in the note's place is one word.
    say(memenv, "heads up, the sprint review moved to thursdays, same room as before",
        "--apply")
    (name,) = notes_in(memenv.project)
    report = say(memenv, "correction: the sprint review is on wednesdays now", "--apply")
    assert report["apply"]["rejected"] == []
    note = notes_in(memenv.project)[name]
    assert "wednesdays, same room as before" in note and "thursdays" not in note
