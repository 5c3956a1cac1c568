"""Which notes a person means: the listing of `memcli show`, and the notes a name, a path,
a slug or a title points at (`show NAME`, `rm NAME`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memcli.errors import MemcliError, NotFoundError
from memcli.paths import resolved
from memcli.settings.config import Settings
from memcli.store.folder import StoreState
from memcli.store.index import IndexEntry
from memcli.store.names import name_key, parse_note_name, title_key
from memcli.store.notes import Note
from memcli.writes.stores import (
    levels_for,
    open_stores,
    reading_levels,
    store_path,
    store_problems,
)


@dataclass
class Listing:
    entries: list[IndexEntry]
    paths: dict[str, Path]
    broken: dict[str, list[str]]
    # How the project store lies outside the current repository ('' when it does not).
    outside: str = ""


def list_entries(settings: Settings, level: str | None) -> Listing:
    levels = reading_levels(level, settings)
    with open_stores(settings, levels, bodies=False) as stores:
        entries = [e for lvl in levels for e in stores[lvl].entries()]
        broken = {lvl: store_problems(stores[lvl]) for lvl in levels}
    from memcli.store.index import ordered

    ordered_entries = [e for lvl in levels for e in ordered(x for x in entries if x.level == lvl)]
    outside = settings.outside_repository() if "project" in levels else None
    return Listing(ordered_entries, {lvl: store_path(settings, lvl) for lvl in levels}, broken,
                   outside or "")


@dataclass
class Found:
    level: str
    filename: str
    note: Note | None  # None when the note is broken
    path: Path
    problem: str = ""


def find_notes(stores: dict[str, StoreState], name: str) -> list[Found]:
    """Notes a person may mean by NAME.

    What memcli prints (`project/NAME.md`), a path to the note, its file name with or
    without `.md`, its slug, or its title (any case).
    """
    wanted = NameQuery.of(name, {level: state.path for level, state in stores.items()})
    found: list[Found] = []
    for level, state in stores.items():
        for filename in (*state.heads, *state.broken):
            head = state.heads.get(filename)
            title = head.title if head is not None else state.broken_titles.get(filename)
            if wanted.means(level, filename, title):
                note = state.notes[filename] if head is not None else None
                found.append(Found(level, filename, note, state.path / filename,
                                   state.broken.get(filename, "")))
    return found


@dataclass(frozen=True)
class NameQuery:
    """What a person typed to name a note, ready to compare with a note's names: `show`,
    `rm` and `log` read a name the same way."""

    level: str | None  # the level `project/x.md` or a path into a store names
    keys: tuple[str, str]  # the file name as typed, and with `.md` added
    slug: str
    titles: frozenset[str]

    @classmethod
    def of(cls, name: str, folders: dict[str, Path]) -> NameQuery:
        """NAME read against the stores' FOLDERS (by level)."""
        level, bare = _split_reference(folders, name)
        return cls(level, (name_key(bare), name_key(bare + ".md")), name_key(bare),
                   frozenset({title_key(name), title_key(name.rstrip(".。!！ "))}))

    def means(self, level: str, filename: str, title: str | None) -> bool:
        """Whether the note FILENAME of LEVEL (titled TITLE, when known) is the one named."""
        if self.level is not None and level != self.level:
            return False
        parsed = parse_note_name(filename)
        return (name_key(filename) in self.keys
                or (parsed is not None and name_key(parsed.slug) == self.slug)
                or (title is not None and title_key(title) in self.titles))


def _split_reference(folders: dict[str, Path], name: str) -> tuple[str | None, str]:
    """`project/x.md` → ("project", "x.md"); a path into a store → its level and file name."""
    head, sep, tail = name.replace("\\", "/").rpartition("/")
    if not sep or not tail:
        return None, name
    if head in folders:
        return head, tail
    folder = resolved(Path(head))
    for level, path in folders.items():
        if resolved(path) == folder:
            return level, tail
    return None, tail


def show_note(settings: Settings, name: str, level: str | None) -> Found:
    with open_stores(settings, reading_levels(level, settings)) as stores:
        found = find_notes(stores, name)
        return exactly_one(name, found, stores)


def exactly_one(name: str, found: list[Found],
                stores: dict[str, StoreState] | None = None) -> Found:
    if not found:
        close = did_you_mean(stores, name) if stores else None
        hint = f"did you mean '{close}'? " if close else ""
        raise NotFoundError(f"no note matches '{name}'; {hint}see `memcli show` for the list")
    if len(found) > 1:
        raise AmbiguousName(name, found)
    return found[0]


class AmbiguousName(MemcliError):

    def __init__(self, name: str, found: list[Found]) -> None:
        listing = ", ".join(f"{f.level}/{f.filename}" for f in found)
        super().__init__(f"'{name}' matches several notes: {listing}; name one by file name "
                         "or pass --level")
        self.candidates = found


def resolve_removal(settings: Settings, names: Sequence[str], level: str | None) -> list[Found]:
    """Every note the names mean; nothing is removed when any name is unknown or ambiguous."""
    with open_stores(settings, levels_for(level, settings)) as stores:
        targets = [exactly_one(name, find_notes(stores, name), stores) for name in names]
    unique = {(t.level, t.filename): t for t in targets}
    return list(unique.values())


def did_you_mean(stores: dict[str, StoreState], name: str) -> str | None:
    """The note a person most likely meant by a NAME that names none: the one note whose
    title or slug holds the name, else the closest title or slug, given as a person would
    type it (its title, else level/file name). None when nothing is close."""
    import difflib

    typed = title_key(name.rstrip(".。!！ "))
    if not typed:
        return None
    notes: list[tuple[set[str], str]] = []  # one per note: the keys, and what to suggest
    for level, state in stores.items():
        for filename in (*state.heads, *state.broken):
            head = state.heads.get(filename)
            title = head.title if head is not None else state.broken_titles.get(filename)
            parsed = parse_note_name(filename)
            keys = {title_key(title)} if title else set()
            if parsed is not None:
                keys |= {title_key(parsed.slug), title_key(parsed.slug.replace("-", " "))}
            notes.append((keys, title or f"{level}/{filename}"))
    holding = {shown for keys, shown in notes if any(typed in key for key in keys)}
    if len(holding) == 1:
        return holding.pop()
    shown_of = {key: shown for keys, shown in notes for key in keys}
    close = difflib.get_close_matches(typed, list(shown_of), n=1, cutoff=0.75)
    return shown_of[close[0]] if close else None
