"""Recall, round 5 of issue 28: everyday words, spaced Korean terms, compounds, languages.

Each case failed before (checked by running this file on `main`):

- a vocabulary word that is an everyday word (`explain`, `test`, `build`) counted as a
  coding term the vocabulary knows, so a note holding it alone was recalled for a prompt
  asking for several other things ("explain how TCP handshakes work");
- a Korean term of the vocabulary written with a space (`부하 테스트`, load test) never
  matched a prompt that spaces it, as Korean does;
- a German compound of two words the vocabulary knows (`Datenbankmigrationen`) was one
  word it did not know;
- the testing vocabulary had no Spanish or Russian (nor German, French, Italian) terms for a
  flaky test.

`test_a_tool_name_alone_still_does` passes on `main` too: it guards what the change keeps.
"""

from __future__ import annotations

from typing import Any

import pytest
from note_sets import recalled, searched, write_project_notes

NOTES: dict[str, tuple[str, str, str]] = {
    # file name: (title, summary, body)
    "project_knowledge_slow-queries.md": (
        "Slow queries", "EXPLAIN ANALYZE the query before adding an index.",
        "When an endpoint is slow, run EXPLAIN ANALYZE on its query in psql and look for a "
        "sequential scan before adding an index."),
    "project_knowledge_unit-tests.md": (
        "Unit tests", "make test runs pytest.",
        "Run the unit tests with `make test`; it wraps `pytest -q tests/unit`."),
    "project_knowledge_build.md": (
        "Build", "make build writes dist/.",
        "`make build` compiles the frontend with vite into dist/; CI publishes it."),
    "project_knowledge_flaky.md": (
        "Flaky upload test", "test_upload fails now and then on CI.",
        "test_upload is flaky on CI: it races the thumbnail worker. Re-run it with "
        "`pytest --count 5 -k upload` before blaming your change."),
    "project_knowledge_playwright.md": (
        "Browser tests", "Playwright runs the end-to-end suite.",
        "The end-to-end suite is Playwright: `pnpm e2e` starts the app and runs it headless."),
    "project_knowledge_alembic.md": (
        "Schema changes", "Alembic revisions in db/versions.",
        "Write schema changes as Alembic revisions: `alembic revision --autogenerate -m ...`, "
        "kept in db/versions/; `alembic upgrade head` applies them."),
    "project_knowledge_load.md": (
        "Load tests", "k6 scripts in load/.",
        "k6 scripts in load/ hit staging with 200 virtual users; `k6 run load/checkout.js`."),
    "user_preference_shell.md": (
        "Shell", "fish, not bash.",
        "My shell is fish: write `set -x VAR value`, not `export VAR=value`."),
    "project_knowledge_deploys.md": (
        "Deploys", "Ansible deploys to the web servers.",
        "Deploy with `ansible-playbook deploy.yml -l prod` after CI is green."),
    "project_knowledge_backups.md": (
        "Backups", "pg_dump every night to the backup bucket.",
        "A cron job runs pg_dump at 02:00 and copies the dump to s3://acme-backups."),
    "user_preference_editor.md": (
        "Editor", "Neovim with LazyVim.",
        "I edit in Neovim (LazyVim); suggest keymaps for it, not for VS Code."),
}


@pytest.fixture
def store(memenv: Any) -> Any:
    return write_project_notes(memenv, NOTES)


QUIET = [
    "explain how TCP handshakes work",  # `explain`, which the slow-queries note holds
    "build me a weekly workout plan",  # `build`
]


@pytest.mark.parametrize("prompt", QUIET)
def test_an_everyday_word_alone_does_not_make_a_note_relevant(store: Any, prompt: str) -> None:
    assert searched(store, prompt)  # search still lists what shares a word
    assert recalled(store, prompt) == []


def test_a_tool_name_alone_still_does(store: Any) -> None:
    # `playwright` is a tool the vocabulary knows, and no everyday word: one of three is enough.
    assert recalled(store, "where does playwright save screenshots of the signup form?")[:1] == [
        "project_knowledge_playwright.md"]


FOUND = [
    ("부하 테스트 스크립트는 어디에 있어?", "project_knowledge_load.md"),  # Korean, spaced
    ("¿por qué la prueba inestable falla a veces?", "project_knowledge_flaky.md"),  # Spanish
    ("почему тест нестабильный?", "project_knowledge_flaky.md"),  # Russian
    ("Wo liegen unsere Datenbankmigrationen?", "project_knowledge_alembic.md"),  # a compound
]


@pytest.mark.parametrize(("prompt", "note"), FOUND)
def test_another_language_finds_the_testing_note(store: Any, prompt: str, note: str) -> None:
    assert searched(store, prompt)[:1] == [note]
    assert recalled(store, prompt)[:1] == [note]


def test_the_everyday_list_is_of_vocabulary_words() -> None:
    # everyday.txt is written from vocabulary.txt (benchmarks/make_everyday.py): a word taken
    # out of the vocabulary must leave the list too, or the list no longer says what it did.
    from importlib import resources

    from memcli.search import vocabulary

    terms = {t.strip().lower() for line in vocabulary.text().splitlines()
             if ":" in line and not line.startswith("#")
             for t in line.split(":", 1)[1].split(",")}
    listed = [w for w in resources.files("memcli.search").joinpath("everyday.txt")
              .read_text("utf-8").splitlines() if w and not w.startswith("#")]
    assert len(listed) > 100
    assert [w for w in listed if w not in terms] == []
