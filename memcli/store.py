"""Reading a store: its notes, what is broken in it, and the index they imply."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from memcli.errors import BrokenNoteError, StoreError
from memcli.index import IndexEntry, parse_line, render_index, split_index
from memcli.names import INDEX_NAME, parse_note_name
from memcli.notes import Note, parse_note


@dataclass
class StoreState:
    """One store as read under its lock; the in-memory view a batch is validated against."""

    level: str
    path: Path
    exists: bool
    notes: dict[str, Note] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)  # file name -> why
    unsafe: dict[str, str] = field(default_factory=dict)  # symlinks and other non-files
    stray: list[str] = field(default_factory=list)  # files that are not notes
    index_text: str | None = None
    index_bytes: bytes | None = None

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.index_bytes)

    def entries(self) -> list[IndexEntry]:
        """Index entries of every readable note, plus the old lines of broken notes."""
        found = [entry_for(self.level, note) for note in self.notes.values()]
        return found + self._lines_of_broken()

    def _lines_of_broken(self) -> list[IndexEntry]:
        if not self.broken or self.index_text is None:
            return []
        kept: list[IndexEntry] = []
        for line in split_index(self.index_text).entry_lines:
            entry = parse_line(line, self.level)
            if entry is not None and entry.filename in self.broken:
                kept.append(entry)
        return kept

    def rendered_index(self) -> str:
        return render_index(self.index_text, self.entries())


def fingerprint(index_bytes: bytes | None) -> str:
    return "sha256:" + hashlib.sha256(index_bytes or b"").hexdigest()


def entry_for(level: str, note: Note) -> IndexEntry:
    parsed = parse_note_name(note.filename)
    note_type = note.type or (parsed.type if parsed else "")
    title = note.title or (parsed.slug if parsed else note.filename)
    return IndexEntry(level, note_type, title, note.summary, note.filename, note.updated)


def load_store(level: str, path: Path) -> StoreState:
    """Read every note of a store; never creates anything."""
    if not path.exists():
        return StoreState(level, path, exists=False)
    if not path.is_dir():
        raise StoreError(f"the {level} store {path} is not a folder; fix the store setting")
    state = StoreState(level, path, exists=True)
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError as exc:
        raise StoreError(f"cannot read the {level} store {path}: {exc.strerror}") from None
    for entry in entries:
        _load_entry(state, entry)
    return state


def _load_entry(state: StoreState, entry: os.DirEntry[str]) -> None:
    name = entry.name
    if name.startswith("."):
        return
    if name == INDEX_NAME:
        if entry.is_file(follow_symlinks=False):
            state.index_bytes = _read(entry)
            state.index_text = state.index_bytes.decode("utf-8", "replace")
        else:
            state.unsafe[name] = "MEMORY.md is not a regular file"
        return
    if parse_note_name(name) is None:
        if name.endswith(".md") or entry.is_file(follow_symlinks=False):
            state.stray.append(name)
        return
    if entry.is_symlink():
        state.unsafe[name] = "a symlink; memcli never follows links out of a store"
        return
    if not entry.is_file(follow_symlinks=False):
        state.unsafe[name] = "not a regular file"
        return
    try:
        state.notes[name] = parse_note(name, _read(entry))
    except BrokenNoteError as exc:
        state.broken[name] = str(exc)


def _read(entry: os.DirEntry[str]) -> bytes:
    try:
        with open(entry.path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise StoreError(f"cannot read {entry.path}: {exc.strerror}") from None
