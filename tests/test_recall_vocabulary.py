"""search and recall the way people ask: paraphrase, other languages, recall as search's best.

A store of coding notes as memcli writes them; prompts that share few or none of a note's
words ("preview the docs site" for `mkdocs serve`, "ship it" for the deploy note, a Chinese
prompt for an English note), prompts about nothing the store holds, and the rule that
`recall` hands over a prefix of search's ranking.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from note_sets import recalled, searched, write_project_notes

from memcli.render.output import INDEX_PROGRESS_FROM, IndexProgress, Output
from memcli.search.analyze import query_terms
from memcli.search.engine import search_states
from memcli.store.folder import StoreState, head_of
from memcli.store.note_bytes import render_new_note
from memcli.store.notes import parse_note

NOTES: dict[str, tuple[str, str, str]] = {
    # file name: (title, summary, body)
    "project_knowledge_developer-docs.md": (
        "Developer docs", "The docs are an MkDocs site.",
        "The developer docs live in docs/ and build with MkDocs; `mkdocs serve` serves them "
        "on port 8000 with live reload. Each page is one Markdown file."),
    "project_knowledge_deploys.md": (
        "Deploys", "Ansible playbook deploys to the web servers.",
        "Deploy with `ansible-playbook deploy.yml -l prod` after CI is green; never deploy on "
        "a Friday afternoon."),
    "project_knowledge_test-command.md": (
        "Test command", "Run the unit tests with make test.",
        "Run the unit tests with `make test`; it wraps `pytest -q tests/unit`."),
    "project_knowledge_slow-product-page.md": (
        "Product page performance", "Profile before caching.",
        "When a page is slow, profile it with django-silk first, then cache the query results "
        "in Redis for five minutes."),
    "project_knowledge_数据库备份.md": (
        "数据库备份", "生产数据库每天凌晨备份。",
        "生产 Postgres 每天凌晨 3 点用 pg_dump 备份到 S3，保留 30 天。"),
    "user_preference_branch-names.md": (
        "Branch names", "initials/ticket-short-desc.",
        "Name branches `<initials>/<ticket>-<short-desc>` and write the ticket in the title."),
    "user_preference_shell.md": (
        "Shell", "fish, not bash.",
        "My shell is fish: write `set -x VAR value`, not `export VAR=value`."),
}


@pytest.fixture
def store(memenv: Any) -> Any:
    return write_project_notes(memenv, NOTES)


PARAPHRASES = [
    ("how can I look at the docs site on my machine?", "project_knowledge_developer-docs.md"),
    ("ship it to prod", "project_knowledge_deploys.md"),
    ("the product listing takes ages to load", "project_knowledge_slow-product-page.md"),
    ("run the test suite", "project_knowledge_test-command.md"),
]


@pytest.mark.parametrize(("prompt", "note"), PARAPHRASES)
def test_a_paraphrased_prompt_finds_the_note(store: Any, prompt: str, note: str) -> None:
    assert searched(store, prompt)[:1] == [note]
    assert recalled(store, prompt)[:1] == [note]


CROSS = [
    ("怎么运行测试？", "project_knowledge_test-command.md"),  # Chinese prompt, English note
    ("怎么发布到生产环境？", "project_knowledge_deploys.md"),
    ("ドキュメントをローカルで見るには？", "project_knowledge_developer-docs.md"),  # Japanese
    ("¿cómo ejecuto las pruebas?", "project_knowledge_test-command.md"),  # Spanish
    ("как запустить тесты?", "project_knowledge_test-command.md"),  # Russian
    ("how often is the database backed up?", "project_knowledge_数据库备份.md"),  # the reverse
]


@pytest.mark.parametrize(("prompt", "note"), CROSS)
def test_a_prompt_in_another_language_finds_the_note(store: Any, prompt: str,
                                                     note: str) -> None:
    assert note in searched(store, prompt)[:3]
    assert note in recalled(store, prompt)


UNRELATED = [
    "write a haiku about autumn",  # `write` is in two notes
    "what's a good name for a cat?",  # `name` is in the branch-names note
    "explain the difference between a list and a tuple",
    "今天晚饭吃什么好？",
    "summarize this file",  # `file` is a generic word, and all the note shares with it
]


@pytest.mark.parametrize("prompt", UNRELATED)
def test_recall_stays_quiet_when_only_generic_words_match(store: Any, prompt: str) -> None:
    assert recalled(store, prompt) == []


PROMPTS = [p for p, _ in PARAPHRASES] + [p for p, _ in CROSS] + UNRELATED + [
    "deploy the docs", "cache the test results", "make test in fish", "backup before deploy"]


@pytest.mark.parametrize("prompt", PROMPTS)
def test_recall_never_leaves_out_a_note_that_ranks_above_one_it_keeps(store: Any,
                                                                      prompt: str) -> None:
    ranking = searched(store, prompt)
    kept = recalled(store, prompt)
    assert kept == ranking[: len(kept)]


def _state(notes: int) -> StoreState:
    state = StoreState("project", Path("big"), exists=True)
    for number in range(notes):
        name = f"project_knowledge_note-{number}.md"
        data = render_new_note({"type": "project_knowledge", "title": f"Note {number}",
                                "summary": "A note.", "created": "2026-11-29T10:00:00Z",
                                "updated": "2026-11-29T10:00:00Z"},
                               f"Deploy step {number} runs the migrations.")
        state.heads[name] = head_of("project", parse_note(name, data))
        state.raw[name] = data
    return state


def test_building_an_index_reports_its_progress() -> None:
    heard: list[tuple[str, int, int]] = []
    search_states([_state(1200)], "deploy", None,
                  progress=lambda level, done, total: heard.append((level, done, total)))
    assert heard[0] == ("project", 0, 1200) and len(heard) >= 2
    assert all(total == 1200 and done < total for _, done, total in heard)


def _output(terminal: bool) -> tuple[Output, io.StringIO]:
    err = io.StringIO()
    return Output(out=io.StringIO(), err=err, err_color=terminal,
                  err_is_terminal=terminal), err


def test_index_progress_is_shown_on_a_terminal_only_and_wiped() -> None:
    output, err = _output(terminal=True)
    with IndexProgress(output) as progress:
        progress.update("project", 500, INDEX_PROGRESS_FROM * 2)
    assert "indexing the project notes for search: 500/" in err.getvalue()
    assert err.getvalue().endswith("\r\033[K")
    output, err = _output(terminal=False)
    with IndexProgress(output) as progress:
        progress.update("project", 500, INDEX_PROGRESS_FROM * 2)
    assert err.getvalue() == ""
    output, err = _output(terminal=True)  # a small store: over before it could be read
    with IndexProgress(output) as progress:
        progress.update("project", 5, INDEX_PROGRESS_FROM - 1)
    assert err.getvalue() == ""


def test_foreign_function_words_do_not_count_as_the_prompts_topic() -> None:
    assert query_terms("¿cómo ejecuto las pruebas?").words == ["ejecuto", "prueba"]
    assert "kdeploy" in query_terms("배포는 어떻게 해?").concepts
    assert "kdocs" in query_terms("preview the docs site").concepts


def test_an_edited_note_is_searched_as_it_is_now(store: Any) -> None:
    name = "project_knowledge_orchestrator.md"
    store.write_note("project", name, {"type": "project_knowledge", "title": "Orchestrator",
                                       "summary": "Kubernetes runs the jobs."},
                     "The jobs run on Kubernetes.\n")
    assert searched(store, "kubernetes")[:1] == [name]
    store.write_note("project", name, {"type": "project_knowledge", "title": "Orchestrator",
                                       "summary": "Nomad runs the jobs."},
                     "The jobs run on Nomad.\n")
    assert name not in searched(store, "kubernetes")  # the old terms left the index
    assert searched(store, "nomad")[:1] == [name]


DEV_SET = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "recall-dev.json"


def _scoped_states(data: dict[str, Any], project: str | None) -> list[StoreState]:
    states = []
    for level, wanted in (("project", project), ("user", None)):
        if level == "project" and project is None:
            continue
        state = StoreState(level, Path(f"{level}-{wanted}"), exists=True)
        for note in (n for n in data["notes"] if n["project"] == wanted):
            raw = render_new_note({"type": note["type"], "title": note["title"],
                                   "summary": note["summary"], "created": "2026-11-29T10:00:00Z",
                                   "updated": "2026-11-29T10:00:00Z"}, note["body"])
            state.heads[note["file"]] = head_of(level, parse_note(note["file"], raw))
            state.raw[note["file"]] = raw
        states.append(state)
    return states


def test_recall_is_a_prefix_of_search_on_every_prompt_of_the_development_set() -> None:
    from memcli.search.recall import select

    data = json.loads(DEV_SET.read_text("utf-8"))
    scopes = {p["project"]: _scoped_states(data, p["project"]) for p in data["prompts"]}
    for prompt in data["prompts"]:
        found = search_states(scopes[prompt["project"]], prompt["text"], None, limit=None)
        ranking = [h.filename for h in found.hits if not h.expired]
        kept = [h.filename for h in select(found).notes]
        assert kept == ranking[: len(kept)], prompt["text"]
