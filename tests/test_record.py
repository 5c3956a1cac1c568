"""Records (memcli.value_types) behave as the dataclasses they replaced: compared field by
field, hashed when frozen, shown as ``Name(field=value)``, encoded to JSON in field order."""

from __future__ import annotations

from pathlib import Path

import pytest

from memcli.json_values import to_json
from memcli.store.folder import StoreState
from memcli.store.index import IndexEntry
from memcli.store.notes import parse_note


def _entry(**changed: str) -> IndexEntry:
    fields = {"level": "project", "type": "project_knowledge", "title": "Build",
              "summary": "How.", "filename": "project_knowledge_build.md",
              "updated": "2026-11-02T10:00:00Z", **changed}
    return IndexEntry(**fields)


def test_records_compare_field_by_field_and_only_with_their_own_kind() -> None:
    assert _entry() == _entry()
    assert _entry() != _entry(updated="")
    assert _entry() != ("project", "project_knowledge", "Build", "How.",
                        "project_knowledge_build.md", "2026-11-02T10:00:00Z")
    assert len({_entry(), _entry(), _entry(title="Other")}) == 2
    state = StoreState("user", Path("u"), exists=True)
    assert state == StoreState("user", Path("u"), exists=True)
    assert state != StoreState("user", Path("u"), exists=False)
    with pytest.raises(TypeError):
        hash(state)  # a state changes as a store is read: not hashable, as before


def test_a_record_is_shown_as_its_dataclass_was() -> None:
    assert repr(IndexEntry("user", "user_preference", "T", "S", "f.md")) == (
        "IndexEntry(level='user', type='user_preference', title='T', summary='S', "
        "filename='f.md', updated='')")
    note = parse_note("n.md", b"---\ntitle: T\n---\nbody\n")
    assert repr(note) == ("Note(filename='n.md', meta={'title': 'T'}, frontmatter='title: T\\n', "
                          "body='body\\n', newline='\\n', bom=False)")  # raw left out


def test_replace_changes_only_what_it_names() -> None:
    entry = _entry()
    assert entry.replace(summary="Short.") == _entry(summary="Short.")
    assert entry.replace(title="T", summary="S") == _entry(title="T", summary="S")
    note = parse_note("n.md", b"---\ntitle: T\n---\nbody\n")
    changed = note.replace(body="other\n")
    assert (changed.body, changed.meta, changed.raw) == ("other\n", note.meta, note.raw)
    state = StoreState("project", Path("p"), exists=True, stray=["x.txt"], index_bytes=b"i")
    view = state.replace(heads={}, broken={"b.md": "why"})
    assert (view.broken, view.stray, view.index_bytes, state.broken) == (
        {"b.md": "why"}, ["x.txt"], b"i", {})


def test_records_are_encoded_field_by_field_in_order() -> None:
    # `memcli status --json` prints the entries its budget cut this way.
    assert list(to_json(_entry()).items()) == [  # type: ignore[union-attr]
        ("level", "project"), ("type", "project_knowledge"), ("title", "Build"),
        ("summary", "How."), ("filename", "project_knowledge_build.md"),
        ("updated", "2026-11-02T10:00:00Z")]
