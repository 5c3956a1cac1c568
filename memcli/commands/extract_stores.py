"""The stores as `extract --provider rules` reads them: MEMORY.md of each for the `base`
its operations carry, and every note's index line only once the turn proposes something
(docs/extractor-model.md, "Start-up"). A turn that holds nothing lasting, most of them,
never lists a store's notes; one that does reads each note's head from a cache
(:mod:`memcli.store.known`) unless the note changed.

Each read takes the stores' locks, as :func:`memcli.writes.stores.open_stores` takes them,
for the read alone: the notes and the base are read together, under one lock, and the
matching that follows holds none (a `memcli context` or `search` meanwhile does not wait
for it). What was read is stamped (each note's status); :meth:`StoreView.check`, under the
lock of the apply, tells whether any note changed since, so that the turn is matched again
instead of applied against notes it did not see.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.settings.config import Settings
from memcli.store.folder import fingerprint
from memcli.store.index import IndexEntry, LazyEntries
from memcli.store.known import Progress, index_bytes_of, known_entries
from memcli.store.names import LEVELS
from memcli.store.stamps import Stamps, StoreChanged, Unsettled, head_changed, note_stamps
from memcli.writes.stores import lock_made_at, locked_levels

if TYPE_CHECKING:
    from memcli.extraction.key_index import KeyIndex


class StoreView:
    """The project and user stores, read no further than asked, each read under the stores'
    locks and none held between reads: the base alone (:attr:`base`), or every note with
    the base (:meth:`known`), read once."""

    def __init__(self, settings: Settings, progress: Callable[[str, int, int], None] | None
                 = None) -> None:
        """PROGRESS: told, by level, how many of the notes the cache did not hold are read
        (see memcli.store.known.Progress)."""
        self._settings = settings
        self._progress = progress
        self._base: dict[str, str] | None = None
        self._known: dict[str, Sequence[IndexEntry]] | None = None
        self._keys: dict[str, Sequence[str | None]] = {}
        self._postings: dict[str, object] = {}
        self._stamps: dict[str, tuple[Path, Stamps, Unsettled]] | None = None

    def close(self) -> None:
        """Nothing is held between reads (kept for callers that close a view)."""

    def __enter__(self) -> StoreView:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def base(self) -> dict[str, str]:
        """The fingerprint of each open store's MEMORY.md: that of the notes, when they were
        read; else read now (alone)."""
        if self._base is None:
            with locked_levels(self._settings, LEVELS) as folders:
                self._base = {lvl: fingerprint(index_bytes_of(lvl, folder))
                              for lvl, folder in folders.items()}
        return self._base

    def known(self) -> dict[str, Sequence[IndexEntry]]:
        """Every note's index line, by level (empty for a store not open here)."""
        if self._known is None:
            from memcli.extraction.key_index import postings_of
            from memcli.extraction.note_keys import derived_by, note_keys

            cache = self._settings.user_home / "cache" / "known"
            derive = (note_keys, derived_by())
            listings: dict[Path, list[str]] = {}
            # The stores are listed once, when locked (to see whether a killed process left
            # a batch to finish), and the notes read from that listing.
            with locked_levels(self._settings, LEVELS, listings=listings) as folders:
                read = {lvl: known_entries(lvl, folder, cache, lock_made_at(folder), derive,
                                           listings.get(folder), postings_of,
                                           self._told(lvl))
                        for lvl, folder in folders.items()}
            self._base = {lvl: fingerprint(known[1]) for lvl, known in read.items()}
            self._known = {lvl: read[lvl][0] if lvl in read else [] for lvl in LEVELS}
            self._keys = {lvl: read[lvl][2] if lvl in read else [] for lvl in LEVELS}
            self._postings = {lvl: read[lvl][3] for lvl in read if read[lvl][3] is not None}
            self._stamps = {lvl: (folders[lvl], read[lvl][4], read[lvl][5]) for lvl in read}
        return self._known

    def _told(self, level: str) -> Progress | None:
        progress = self._progress
        if progress is None:
            return None
        return lambda done, total: progress(level, done, total)

    def check(self) -> frozenset[tuple[str, str]]:
        """Under the stores' locks (those of the apply): raise StoreChanged when a note read
        by :meth:`known` has changed since, or the notes listed are not those read. Nothing
        to check when the notes were never read (the plan matched none). The notes changed
        within a tick of the read are read again, and their heads compared: a second change
        in the same tick of a coarse clock keeps every stamp."""
        for level, (folder, stamps, unsettled) in (self._stamps or {}).items():
            if note_stamps(level, folder) != stamps or head_changed(level, folder, unsettled):
                raise StoreChanged(
                    f"the {level} store's notes changed while the turn was matched against "
                    "them (another memcli process, or an edit by hand)")
        return frozenset()

    def keys(self) -> dict[str, Sequence[str | None]]:
        """Each note's keys (memcli.extraction.note_keys), in the order of known()."""
        self.known()
        return self._keys

    def postings(self) -> dict[str, object]:
        """The postings of the keys of the levels whose notes were all read from the cache
        (memcli.extraction.key_index.postings_of): their keys need not be read."""
        self.known()
        return self._postings


class KnownNotes(LazyEntries):
    """Every stored note's index line, the project's first: the stores are read when the
    rules first look at them."""

    def __init__(self, view: StoreView) -> None:
        self._view = view
        self._notes: tuple[Sequence[IndexEntry], Sequence[IndexEntry]] | None = None
        self._index: KeyIndex | None = None

    @property
    def notes(self) -> tuple[Sequence[IndexEntry], Sequence[IndexEntry]]:
        """The project's notes and the user's (each made when first asked for)."""
        if self._notes is None:
            known = self._view.known()
            self._notes = (known["project"], known["user"])
        return self._notes

    def key_index(self) -> KeyIndex:
        """The notes' keys, to find those that can answer a question (see note_keys)."""
        if self._index is None:
            from memcli.extraction.key_index import KeyIndex

            keys, postings = self._view.keys(), self._view.postings()
            # A level with postings is looked up in them: its keys are not read.
            lines = {lvl: [""] * len(keys[lvl]) if lvl in postings else keys[lvl]
                     for lvl in LEVELS}
            size = len(lines["project"])
            self._index = KeyIndex(
                [*lines["project"], *lines["user"]],
                [(start, len(lines[lvl]), postings[lvl])
                 for lvl, start in (("project", 0), ("user", size)) if lvl in postings])
        return self._index

    def _entry(self, index: int) -> IndexEntry:
        project, user = self.notes
        return project[index] if index < len(project) else user[index - len(project)]

    def __len__(self) -> int:
        project, user = self.notes
        return len(project) + len(user)

    def __iter__(self) -> Iterator[IndexEntry]:
        return itertools.chain(*self.notes)
