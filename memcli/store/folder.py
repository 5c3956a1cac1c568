"""The one reader of a store folder: what is in it, read once, parsed as far as needed.

Every command that looks at a store starts here: `list_store` sorts a folder's entries into
kinds without reading them, `read_note` reads and parses one note file (both in
:mod:`memcli.store.folder_files`), and `load_store`
builds the :class:`StoreState` the commands and the writer work with. lint builds its own
checks on the same listing and the same reads, so that "what is in this store" has one
answer everywhere.

A state keeps, for every readable note, only what the index and name lookups need (a
:class:`NoteHead`); the bytes of a note are kept only when the command may need its body,
and a :class:`Note` is parsed from them when asked for.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Final

from memcli.errors import BrokenNoteError, StoreError
from memcli.store.anchors import CITES, Anchor, anchors_of
from memcli.store.folder_files import (
    MAX_INDEX_BYTES,
    StoreEntry,
    TooLargeError,
    list_store,
    read_bytes,
    read_note,
    title_as_written,
)
from memcli.store.freshness import EXPIRES, REVIEW_AFTER, as_text, is_past
from memcli.store.index import (
    IndexEntry,
    is_written_as,
    not_utf8,
    ordered,
    own_lines,
    parse_line,
    render_index,
    render_line,
    split_index,
)
from memcli.store.names import INDEX_NAME, NOTE_TYPES, parse_note_name
from memcli.store.notes import Note, decode_note, parse_note_text
from memcli.value_types import FrozenRecord, Record

# --------------------------------------------------------------------------- the state


class NoteHead(FrozenRecord):
    """What commands need of every readable note without its body (one per note)."""

    __slots__ = __match_args__ = ("entry", "title", "expires", "review_after", "cites")
    entry: Final[IndexEntry]  # the index line the note implies
    title: Final[str]  # the frontmatter's title as written ("" when missing or not text)
    expires: Final[str]  # freshness dates as written (memcli.store.freshness reads them)
    review_after: Final[str]
    cites: Final[tuple[Anchor, ...]]  # its anchors into the repository (memcli.store.anchors)

    def __init__(self, entry: IndexEntry, title: str, expires: str = "",
                 review_after: str = "", cites: tuple[Anchor, ...] = ()) -> None:
        self.entry = entry
        self.title = title
        self.expires = expires
        self.review_after = review_after
        self.cites = cites


def head_of(level: str, note: Note) -> NoteHead:
    # The meta's values read once each, here rather than through Note's properties: every
    # command that reads a store builds one head per note.
    meta = note.meta
    title, expires, review_after = meta.get("title"), meta.get(EXPIRES), meta.get(REVIEW_AFTER)
    return NoteHead(entry_for(level, note), title if isinstance(title, str) else "",
                    "" if expires is None else as_text(expires),
                    "" if review_after is None else as_text(review_after),
                    anchors_of(meta) if CITES in meta else ())


class StoreState(Record):
    """One store as read under its lock; the in-memory view a batch is validated against."""

    __slots__ = __match_args__ = ("level", "path", "exists", "heads", "broken",
                                  "broken_titles", "unsafe", "stray", "index_bytes", "raw")
    _unshown = frozenset({"raw"})

    def __init__(self, level: str, path: Path, exists: bool, *,
                 heads: dict[str, NoteHead] | None = None,
                 broken: dict[str, str] | None = None,
                 broken_titles: dict[str, str] | None = None,
                 unsafe: dict[str, str] | None = None, stray: list[str] | None = None,
                 index_bytes: bytes | None = None,
                 raw: dict[str, bytes] | None = None) -> None:
        self.level = level
        self.path = path
        self.exists = exists
        self.heads: dict[str, NoteHead] = {} if heads is None else heads  # readable notes
        self.broken: dict[str, str] = {} if broken is None else broken  # file name -> why
        # The `title:` line of each broken note that has one, so that `show TITLE` finds it.
        self.broken_titles: dict[str, str] = {} if broken_titles is None else broken_titles
        # Symlinks and other non-files; files that are not notes.
        self.unsafe: dict[str, str] = {} if unsafe is None else unsafe
        self.stray: list[str] = [] if stray is None else stray
        self.index_bytes = index_bytes
        self.raw: dict[str, bytes] = {} if raw is None else raw  # note bytes, when kept

    def replace(self, *, heads: dict[str, NoteHead],
                broken: dict[str, str] | None = None) -> StoreState:
        """A copy of this state with other notes (and broken ones): the store as a batch of
        changes would leave it. The other fields are shared, not copied."""
        return StoreState(self.level, self.path, self.exists, heads=heads,
                          broken=self.broken if broken is None else broken,
                          broken_titles=self.broken_titles, unsafe=self.unsafe,
                          stray=self.stray, index_bytes=self.index_bytes, raw=self.raw)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.index_bytes)

    @property
    def index_text(self) -> str | None:
        """MEMORY.md as text, decoded when asked: `context` never needs it, and held decoded
        a 100,000-note index costs twice its bytes again."""
        return None if self.index_bytes is None else self.index_bytes.decode("utf-8", "replace")

    @property
    def notes(self) -> NoteMap:
        """Every readable note, parsed when looked up."""
        return NoteMap(self)

    def bytes_of(self, filename: str) -> bytes:
        """A note's bytes as read; read again when the state did not keep them."""
        kept = self.raw.get(filename)
        if kept is not None:
            return kept
        try:
            return read_bytes(os.path.join(self.path, filename))
        except OSError as exc:
            raise StoreError(f"cannot read {self.path / filename}: {exc.strerror}") from None

    def entries(self) -> list[IndexEntry]:
        """Index entries of every readable note, plus the old lines of broken notes."""
        return [head.entry for head in self.heads.values()] + self._lines_of_broken()

    def _lines_of_broken(self) -> list[IndexEntry]:
        if not self.broken or self.index_text is None:
            return []
        kept: list[IndexEntry] = []
        for line in split_index(self.index_text).entry_lines:
            entry = parse_line(line, self.level)
            if entry is not None and entry.filename in self.broken:
                kept.append(entry)
        return kept

    def expired(self, now: datetime) -> set[str]:
        """The notes whose ``expires`` date is over."""
        return {name for name, head in self.heads.items()
                if head.expires and is_past(head.expires, now)}

    @property
    def index_problem(self) -> str:
        """Why MEMORY.md cannot be read as text ('' when it can): read paths warn with it."""
        return not_utf8(INDEX_NAME, self.index_bytes)

    def rendered_index(self) -> str:
        """The MEMORY.md the notes call for; refused for a MEMORY.md that is not UTF-8."""
        try:  # decoded once, strictly: a rewrite would replace the bytes that are not UTF-8
            text = None if self.index_bytes is None else self.index_bytes.decode("utf-8")
        except UnicodeDecodeError:
            raise BrokenNoteError(f"{self.level} store: {self.index_problem}; memcli will not "
                                  "rewrite it until then, nothing was changed") from None
        return render_index(text, self.entries())

    def index_is_fresh(self) -> bool:
        """Whether MEMORY.md holds exactly what :meth:`rendered_index` would write."""
        if self.index_bytes is None:
            return False
        try:
            text = self.index_bytes.decode("utf-8")
        except UnicodeDecodeError:
            return False  # no rewrite equals bytes that are not UTF-8
        wanted = ordered(self.entries())
        lines = [render_line(e) for e in wanted]
        # The lines the notes render to are entries without parsing them (most are).
        frame = split_index(text, entries=False, known=own_lines(zip(wanted, lines, strict=True)))
        return is_written_as(self.index_bytes, frame, lines)


class NoteMap(Mapping[str, Note]):
    """A state's readable notes by file name; each is parsed from its bytes when looked up."""

    def __init__(self, state: StoreState) -> None:
        self._state = state

    def __getitem__(self, filename: str) -> Note:
        if filename not in self._state.heads:
            raise KeyError(filename)
        data = self._state.bytes_of(filename)
        try:
            return parse_note_text(filename, decode_note(data)[0], data)
        except BrokenNoteError as exc:  # changed on disk since it was read: not the same note
            raise StoreError(f"{exc}; it changed while memcli read it, run again") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._state.heads)

    def __len__(self) -> int:
        return len(self._state.heads)

    def __contains__(self, filename: object) -> bool:
        return filename in self._state.heads


def fingerprint(index_bytes: bytes | None) -> str:
    import hashlib  # only a command that writes or proposes needs a fingerprint

    return "sha256:" + hashlib.sha256(index_bytes or b"").hexdigest()


# One string per note type: a store's heads hold a type each, 100,000 of them.
_TYPES = {name: name for name in NOTE_TYPES}


def entry_for(level: str, note: Note) -> IndexEntry:
    meta = note.meta
    note_type, title = meta.get("type"), meta.get("title")
    summary, updated = meta.get("summary"), meta.get("updated")
    note_type = _TYPES.get(note_type, note_type) if isinstance(note_type, str) else ""
    title = title if isinstance(title, str) else ""
    if not note_type or not title:  # the file name fills in what the frontmatter lacks
        parsed = parse_note_name(note.filename)
        note_type = note_type or (parsed.type if parsed else "")
        title = title or (parsed.slug if parsed else note.filename)
    return IndexEntry(level, note_type, title, summary if isinstance(summary, str) else "",
                      note.filename, updated if isinstance(updated, str) else "")


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Reading a store allocates small objects that live as long as the command (a head, an
    index entry, a few strings per note) and makes no reference cycles: the cyclic garbage
    collector would only walk them again and again (on 100,000 notes a level, 4 % of lint's
    time). Paused while a store is read, and resumed as it was."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def load_store(level: str, path: Path, *, bodies: bool = True) -> StoreState:
    """Read every note of a store; never creates anything.

    Without BODIES only the notes' heads are kept (what `context`, `show` and `index`
    need), so a large store is never held in memory whole.
    """
    with collector_paused():
        listing = list_store(level, path)
        if not listing.exists:
            return StoreState(level, path, exists=False)
        if listing.problem == "not a folder":
            raise not_a_folder(level, path)
        if listing.problem:
            raise unlistable(level, path, listing.reason)
        state = StoreState(level, path, exists=True)
        for entry in listing.entries:
            _load_entry(state, entry, bodies)
        return state


def _load_entry(state: StoreState, entry: StoreEntry, bodies: bool) -> None:
    if entry.kind == "stray":
        state.stray.append(entry.name)
        return
    if entry.kind == "unsafe":
        state.unsafe[entry.name] = entry.why
        return
    if entry.kind == "index":
        state.index_bytes = _read(entry)
        return
    try:
        data = read_bytes(entry.path)
    except TooLargeError as exc:
        state.broken[entry.name] = f"{entry.name}: {exc.strerror}; split it or move it out"
        return
    except OSError as exc:
        # One note a person cannot read (mode 000, removed while listed) is reported like
        # a note they broke; it does not take the rest of the store down.
        state.broken[entry.name] = (f"{entry.name}: cannot be read ({exc.strerror}); "
                                    "fix its permissions or move it out")
        return
    read = read_note(entry.name, data)
    if read.note is None:
        state.broken[entry.name] = read.problem
        title = title_as_written(read.text)
        if title:
            state.broken_titles[entry.name] = title
        return
    state.heads[entry.name] = head_of(state.level, read.note)
    if bodies:
        state.raw[entry.name] = data


def _read(entry: StoreEntry) -> bytes:
    return read_index_file(entry.path)


def read_index_file(path: str) -> bytes:
    """MEMORY.md's bytes; StoreError when it cannot be read or is too large."""
    try:
        return read_bytes(path, MAX_INDEX_BYTES)
    except TooLargeError as exc:
        raise StoreError(f"{path} is {exc.strerror}; memcli rebuilds it from the notes: "
                         "delete it and run `memcli index`") from None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from None


def not_a_folder(level: str, path: Path) -> StoreError:
    return StoreError(f"the {level} store {path} is not a folder; fix the store setting")


def unlistable(level: str, path: Path, reason: str) -> StoreError:
    return StoreError(f"cannot read the {level} store {path}: {reason}")
