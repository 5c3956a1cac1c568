"""The model sees the stored notes the turn may change (issue 27, item 5).

The prompt holds, besides the two indexes, the bodies of the notes memcli's own search finds
most related to the turn, within RELATED_NOTES and RELATED_BUDGET, and asks for an update by
file name; a model (a real local HTTP server) that answers so updates the note in place.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import FIXED_NOW, MemEnv
from fakeserver import SSE_HEADERS, FakeServer, Request, Step, openai_stream

from memcli.extraction.prompt import RELATED_BUDGET, RELATED_NOTES, RelatedNote, within_budget
from memcli.search.related import related_hits
from memcli.settings.resolve import Flags, resolve
from memcli.store.names import LEVELS
from memcli.tokens import count_tokens
from memcli.writes.stores import open_stores

HEROKU = "project_knowledge_deploys-go-to-heroku.md"
MOVE = json.dumps({"type": "user", "message": {"role": "user", "content":
                   "Heads up: we moved the app from Heroku to Fly.io last week, deploys "
                   "now go through `fly deploy` and the Heroku pipeline is gone."}}) + "\n"


def note(memenv: MemEnv, filename: str, title: str, body: str) -> None:
    memenv.write_note("project", filename, {
        "type": "project_knowledge", "title": title, "summary": title + ".",
        "updated": FIXED_NOW}, body)


@pytest.fixture
def store(memenv: MemEnv) -> MemEnv:
    note(memenv, HEROKU, "Deploys go to Heroku",
         "The app is deployed to Heroku with `git push heroku main`; the pipeline promotes "
         "staging to production. Token: ghp_abcdefghijklmnopqrstuvwxyz0123456789\n")
    note(memenv, "project_knowledge_tests-use-pytest.md", "Tests use pytest",
         "Run the tests with `pytest -q`.\n")
    note(memenv, "project_knowledge_css-is-tailwind.md", "CSS is Tailwind",
         "Styles are written with Tailwind utility classes.\n")
    memenv.invoke("index")
    return memenv


def test_the_prompt_shows_the_note_the_turn_changes_and_not_the_others(store: MemEnv) -> None:
    done = store.invoke("extract", "--provider", "openai", "--show-prompt", input=MOVE)
    assert done.exit_code == 0, done.stderr
    related = done.stdout.split("Stored notes this conversation may change", 1)[1]
    related = related.split("<transcript>", 1)[0]
    assert f'<note level="project" filename="{HEROKU}">' in related
    assert "git push heroku main" in related
    assert "tests-use-pytest" not in related and "tailwind" not in related.lower()
    # The body leaves the machine with the prompt: its secret does not.
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in done.stdout
    assert "update of that note, by its level and file name" in done.stdout


def test_a_turn_about_nothing_stored_shows_none(store: MemEnv) -> None:
    turn = json.dumps({"type": "user", "message": {"role": "user",
                                                   "content": "I prefer dark roast coffee."}})
    done = store.invoke("extract", "--provider", "openai", "--show-prompt", input=turn + "\n")
    related = done.stdout.split("Stored notes this conversation may change", 1)[1]
    assert related.split("<transcript>", 1)[0].split(":\n", 1)[1].startswith("(none)")


def test_the_model_s_update_by_file_name_changes_the_note_in_place(store: MemEnv) -> None:
    asked: list[str] = []

    def model(request: Request) -> Step:
        asked.append(request.json()["messages"][1]["content"])
        reply = {"operations": [{
            "action": "update", "level": "project", "filename": HEROKU,
            "summary": "Deploys go to Fly.io with fly deploy.",
            "content": "The app is deployed to Fly.io with `fly deploy` (it moved from Heroku "
                       "in November 2026); the pipeline promotes staging to production.",
            "reason": "the person said the app moved"}]}
        return Step(headers=SSE_HEADERS, body=openai_stream([json.dumps(reply)]))

    with FakeServer() as server:
        server.respond(model)
        done = store.invoke("extract", "--provider", "ollama", "--model", "m", "--base-url",
                            server.url + "/v1", "--apply", input=MOVE)
    assert done.exit_code == 0, done.stderr
    assert HEROKU in asked[0] and "git push heroku main" in asked[0]
    assert store.notes("project") == sorted([HEROKU, "project_knowledge_css-is-tailwind.md",
                                             "project_knowledge_tests-use-pytest.md"])
    text = (store.project / HEROKU).read_text("utf-8")
    assert "fly deploy" in text and "git push heroku" not in text


def test_the_related_notes_stay_within_their_bounds(memenv: MemEnv) -> None:
    long_body = "Deploys use fly deploy to Fly.io from the main branch. " * 60
    for number in range(30):
        note(memenv, f"project_knowledge_deploy-{number:02d}.md", f"Deploy rule {number}",
             long_body)
    settings = resolve(Flags(), os.environ, Path.cwd(), clock=lambda: datetime.now(UTC))
    with open_stores(settings, LEVELS) as stores:
        hits = related_hits(list(stores.values()), "we deploy with fly deploy to Fly.io now",
                            None, limit=30)
    assert len(hits) == 30  # every note is related: the bounds below do the choosing
    found = within_budget([RelatedNote(h.level, h.filename, h.title, h.summary, h.content)
                           for h in hits])
    assert 0 < len(found) <= RELATED_NOTES
    assert sum(count_tokens(n.render()) for n in found) <= RELATED_BUDGET
    assert all("(cut)" in n.render() for n in found)


