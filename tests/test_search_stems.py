"""Snowball's stems kept between commands beside the search cache (memcli.search.stems)."""

from __future__ import annotations

import marshal
from collections.abc import Iterator
from pathlib import Path

import pytest
import snowballstemmer

from memcli.search import analyze, index_terms, stems
from memcli.search.engine import search_states
from memcli.store.folder import StoreState, head_of
from memcli.store.note_bytes import render_new_note
from memcli.store.notes import parse_note

NOTES = {"project_knowledge_deploys.md": "Deploying the queues retries twice; rollbacks wait.",
         "project_knowledge_docs.md": "The documentation site is served by mkdocs locally."}


@pytest.fixture(autouse=True)
def _as_a_new_command() -> Iterator[None]:
    """Each test as a command of its own: a stem another test of this worker kept (in the
    process's memory) is not new to this one, and would not be written to its file. A token
    another test analysed is remembered with its stems (the analysers' per-token caches),
    so this one would not ask for them either: those caches start empty too."""
    saved = (dict(analyze._kept_stems), dict(analyze._new_stems), set(stems._loaded))
    analyze._latin.cache_clear()
    index_terms._record.cache_clear()
    analyze._kept_stems.clear()
    analyze._new_stems.clear()
    stems._loaded.clear()
    yield
    for live, old in zip((analyze._kept_stems, analyze._new_stems, stems._loaded), saved,
                         strict=True):
        live.clear()
        live.update(old)


def _state(folder: Path) -> StoreState:
    state = StoreState("project", folder, exists=True)
    for name, body in NOTES.items():
        data = render_new_note({"type": "project_knowledge", "title": name, "summary": body,
                                "created": "2026-11-20T10:00:00Z"}, body)
        state.heads[name] = head_of("project", parse_note(name, data))
        state.raw[name] = data
    return state


def _ranked(cache: Path, query: str) -> list[tuple[str, float]]:
    found = search_states([_state(cache.parent / "s")], query, cache, limit=None)
    return [(h.filename, h.score) for h in found.hits]


def test_a_search_keeps_the_stems_it_worked_out(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _ranked(cache, "how are deployments rolled back?")
    path = stems.memo_path(cache)
    assert path is not None and path.exists()
    kept = marshal.loads(path.read_bytes())
    snowball = snowballstemmer.stemmer("english").stemWord
    # The notes' words and the prompt's, each as Snowball stems it.
    for word in ("deploying", "queues", "rollbacks", "deployments", "documentation"):
        assert kept[word] == snowball(word)


def test_a_search_ranks_the_same_with_the_stems_kept_or_not(tmp_path: Path) -> None:
    query = "deploying queue retries and the docs site"
    first = _ranked(tmp_path / "a" / "cache", query)
    assert first and first == _ranked(tmp_path / "a" / "cache", query)
    assert first == _ranked(tmp_path / "b" / "cache", query)


def test_a_file_of_stems_that_cannot_be_read_is_replaced(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    path = stems.memo_path(cache)
    assert path is not None
    cache.mkdir()
    expected = _ranked(tmp_path / "other" / "cache", "rollbacks of deployments")
    for broken in (b"not marshal data", marshal.dumps({"deploying": 7}), marshal.dumps([1])):
        path.write_bytes(broken)
        stems._loaded.clear()  # as a new command would
        assert _ranked(cache, "rollbacks of deployments") == expected
    stems._loaded.clear()
    path.write_bytes(b"not marshal data")
    _ranked(cache, "a zeppelin overhead")  # a word never stemmed before: the file is written
    kept = marshal.loads(path.read_bytes())
    assert kept["zeppelin"] == "zeppelin"


def test_only_words_of_a_word_s_length_are_kept(tmp_path: Path) -> None:
    """A store of long "words" (hashes, blobs, a hostile repository's) never grows the file
    of stems past what a vocabulary of real words makes."""
    cache = tmp_path / "cache"
    blob = "deploy" + "x" * 5000
    _ranked(cache, f"{blob} and the quokkas")  # (a word no other test stems: the file is written)
    path = stems.memo_path(cache)
    assert path is not None
    kept = marshal.loads(path.read_bytes())
    assert blob not in kept and "quokkas" in kept
    assert all(len(word) <= stems.MAX_WORD for word in kept)
