"""The stores as `extract --provider rules` reads them: MEMORY.md of each for the `base`
its operations carry, and every note's index line only once the turn proposes something
(docs/extractor-model.md, "Start-up"). A turn that holds nothing lasting, most of them,
never lists a store's notes; one that does reads each note's head from a cache
(:mod:`memcli.store.known`) unless the note changed.

Both reads happen under the stores' locks, as :func:`memcli.writes.stores.open_stores`
takes them: when the notes are read, the base is read again with them, so that the base
is always that of the notes the operations were matched against.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.settings.config import Settings
from memcli.store.folder import fingerprint
from memcli.store.index import IndexEntry, LazyEntries
from memcli.store.known import index_bytes_of, known_entries
from memcli.store.names import LEVELS
from memcli.writes.stores import lock_made_at, locked_levels

if TYPE_CHECKING:
    from memcli.extraction.key_index import KeyIndex


class StoreView:
    """The project and user stores, read no further than asked, under their locks from the
    moment it is made until :meth:`close`: the notes, when read, are those of the listing
    made when the locks were taken (a store is not listed twice)."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._known: dict[str, Sequence[IndexEntry]] | None = None
        self._keys: dict[str, Sequence[str | None]] = {}
        self._postings: dict[str, object] = {}
        self._listings: dict[Path, list[str]] = {}
        self._held = contextlib.ExitStack()
        try:
            self._folders: dict[str, Path] | None = self._held.enter_context(
                locked_levels(settings, LEVELS, listings=self._listings))
            self._index_bytes = {lvl: _with_fingerprint(index_bytes_of(lvl, folder))
                                 for lvl, folder in self._folders.items()}
        except BaseException:
            self._held.close()
            raise
        self.base = {lvl: print_ for lvl, (_, print_) in self._index_bytes.items()}

    def close(self) -> None:
        """Release the stores' locks (the notes read so far stay readable)."""
        self._folders = None
        self._held.close()

    def __enter__(self) -> StoreView:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def known(self) -> dict[str, Sequence[IndexEntry]]:
        """Every note's index line, by level (empty for a store not open here)."""
        if self._known is None:
            from memcli.extraction.key_index import postings_of
            from memcli.extraction.note_keys import derived_by, note_keys

            cache = self._settings.user_home / "cache" / "known"
            derive = (note_keys, derived_by())
            with contextlib.ExitStack() as again:
                folders, listings = self._folders, self._listings
                if folders is None:  # closed: the locks are taken (and the stores listed) anew
                    listings = {}
                    folders = again.enter_context(
                        locked_levels(self._settings, LEVELS, listings=listings))
                read = {lvl: known_entries(lvl, folder, cache, lock_made_at(folder), derive,
                                           listings.get(folder), postings_of)
                        for lvl, folder in folders.items()}
            self.base = {lvl: self._base(lvl, index) for lvl, (_, index, _, _) in read.items()}
            self._known = {lvl: read[lvl][0] if lvl in read else [] for lvl in LEVELS}
            self._keys = {lvl: read[lvl][2] if lvl in read else [] for lvl in LEVELS}
            self._postings = {lvl: read[lvl][3] for lvl in read if read[lvl][3] is not None}
        return self._known

    def _base(self, level: str, index: bytes | None) -> str:
        """The base of MEMORY.md as read now (hashed again only when it changed)."""
        if level in self._index_bytes and self._index_bytes[level][0] == index:
            return self._index_bytes[level][1]
        return fingerprint(index)

    def keys(self) -> dict[str, Sequence[str | None]]:
        """Each note's keys (memcli.extraction.note_keys), in the order of known()."""
        self.known()
        return self._keys

    def postings(self) -> dict[str, object]:
        """The postings of the keys of the levels whose notes were all read from the cache
        (memcli.extraction.key_index.postings_of): their keys need not be read."""
        self.known()
        return self._postings


def _with_fingerprint(index: bytes | None) -> tuple[bytes | None, str]:
    return index, fingerprint(index)


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
