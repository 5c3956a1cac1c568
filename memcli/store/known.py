"""What `extract` knows of a store, read no further than it needs.

`extract` wants two things of each store: the fingerprint of MEMORY.md (the `base` its
operations carry) and, only when the turn proposes something, the index line of every note
(what the rules match a statement against). :func:`load_store` parses the head of every
note for that: on 10,000 notes a level, 20,000 files read and parsed on every turn.

:func:`index_bytes_of` reads MEMORY.md alone, with the checks :func:`load_store` makes of
the folder. :func:`known_entries` gives exactly what ``load_store(...).entries()`` gives,
from a cache of each note's head kept outside the store (``<memcli home>/cache/known/``):
a note is parsed again unless its size, modification and change times (nanoseconds) and
inode are those it had when its head was cached. A note edited by hand or by another
process changes its change time (which nobody can set back), so it is read again.

The one edit a status cannot show is a second one within the same tick of the file
system's clock as the read that cached the note. So a head is cached only when the note's
change time is older than the moment the store's lock file was made, which comes before
the note's status was taken; a later change of that note then has a later change time.
"""

from __future__ import annotations

import os
import stat
from array import array
from collections.abc import Callable, Sequence
from operator import attrgetter
from pathlib import Path
from typing import overload

from memcli.paths import read_regular_file_stat
from memcli.store.folder import (
    StoreState,
    read_index_file,
    unlistable,
)
from memcli.store.folder_files import MAX_NOTE_BYTES
from memcli.store.heads_cache import HeadsCache, Postings
from memcli.store.index import IndexEntry, LazyEntries
from memcli.store.names import INDEX_NAME
from memcli.store.stamps import (
    Stamps,
    Unsettled,
    check_folder,
    columns_of,
    entry_of,
    is_note,
    stamps_of,
)

# What a caller derives from a note's title and summary (the words the matching looks
# notes up by: memcli.extraction.note_keys), cached beside its head, and the stamp of the
# code that derives it; None when a note gives none (a broken note, say).
Derive = Callable[[str, str], str | None]
_PROGRESS_EVERY = 500  # notes read between two reports of progress

def index_bytes_of(level: str, path: Path) -> bytes | None:
    """MEMORY.md's bytes as :func:`load_store` reads them (None when the store or the file
    is missing, or MEMORY.md is a link or not a regular file), raising what it raises for a
    folder that cannot be listed or an index that cannot be read."""
    check_folder(level, path)
    index = os.path.join(path, INDEX_NAME)
    try:
        info = os.lstat(index)
    except FileNotFoundError:
        return None
    except OSError:
        return read_index_file(index)  # listed but not reachable: the same error
    if not stat.S_ISREG(info.st_mode):
        return None  # a link or a special file: memcli leaves it alone
    return read_index_file(index)


Known = tuple[Sequence[IndexEntry], bytes | None, Sequence[str | None], object, Stamps,
              Unsettled]
# Told how many of a store's notes (the second number) are read so far (the first): those
# the cache did not hold (after an upgrade, every note: their keys derived anew).
Progress = Callable[[int, int], None]


def known_entries(level: str, path: Path, cache_dir: Path | None, settled_before: int | None,
                  derive: tuple[Derive, object] | None = None, listed: list[str] | None = None,
                  postings: Postings | None = None, progress: Progress | None = None) -> Known:
    """``load_store(level, path).entries()`` and its index bytes, each note's head taken
    from the cache in CACHE_DIR when its status is unchanged. A head read now is cached
    only when the note changed before SETTLED_BEFORE (nanoseconds, the store's clock);
    without it nothing new is cached. DERIVE, a function and the stamp of its code, gives
    what the third list holds for each entry (cached with the head); without it, None.
    LISTED: the folder's names, listed under the lock this read is made under (else the
    folder is listed now). POSTINGS makes, of the third list, what the fourth item is
    (cached with it; None when the entries are not all read from the cache); the fifth is
    the stamps of the notes read (:func:`note_stamps`). PROGRESS is told of the notes read
    that the cache did not hold, as they are read."""
    if not check_folder(level, path):
        return [], None, [], None, ((), b""), {}
    try:
        listing = os.listdir(path) if listed is None else listed
    except OSError as exc:
        raise unlistable(level, path, exc.strerror or "cannot be listed") from None
    # The listing as the folder gave it: the same text, the same names (without sorting
    # 10,000 of them twice); the same names in another order are compared sorted.
    joined = "\0".join(listing)
    cache = HeadsCache(cache_dir, path, derive[1] if derive else None)
    folder = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        if cache.others is not None and (
                joined == cache.listing
                or sorted(listing) == sorted(cache.names + cache.others)) and (
                _unchanged(cache, folder)):
            # The common case, checked column by column in C: the same files as when the
            # cache was written (every note among them cached), each with its status then.
            index = _index(path, INDEX_NAME, folder) if INDEX_NAME in cache.others else None
            stamps = stamps_of(cache.names, (cache.sizes, cache.mtimes, cache.ctimes,
                                           cache.inodes))
            return (*_from_cache(level, path, cache, index), stamps, {})  # all settled
        return _read(level, path, sorted(listing), cache, folder, settled_before, derive,
                     postings, joined, progress)
    finally:
        os.close(folder)


def _unchanged(cache: HeadsCache, folder: int) -> bool:
    try:
        found = [os.stat(name, dir_fd=folder, follow_symlinks=False) for name in cache.names]
    except OSError:
        return False  # gone since the listing: the slow way tells what load_store says
    return (array("q", map(attrgetter("st_ctime_ns"), found)) == cache.ctimes
            and array("q", map(attrgetter("st_mtime_ns"), found)) == cache.mtimes
            and array("q", map(attrgetter("st_size"), found)) == cache.sizes
            and array("Q", map(attrgetter("st_ino"), found)) == cache.inodes)


def _from_cache(level: str, path: Path, cache: HeadsCache, index_bytes: bytes | None
                ) -> tuple[Sequence[IndexEntry], bytes | None, Sequence[str | None], object]:
    if None not in cache.types:
        # The keys (and heads) are read from the cache only when asked for: with the
        # postings, matching never asks for the keys.
        return (_CachedEntries(level, cache, None, []), index_bytes, _Keys(cache),
                cache.postings)
    rows = [i for i, note_type in enumerate(cache.types) if note_type is not None]
    broken = {cache.names[i]: "" for i, note_type in enumerate(cache.types) if note_type is None}
    old = StoreState(level, path, True, broken=broken, index_bytes=index_bytes).entries()
    heads = cache.heads
    keys = [heads[i][3] for i in rows] + [None] * len(old)
    return _CachedEntries(level, cache, rows, old), index_bytes, keys, None


class _Keys(Sequence[str | None]):
    """The cache's column of keys, read when first asked for."""

    def __init__(self, cache: HeadsCache) -> None:
        self._cache = cache
        self._keys: list[str | None] | None = None

    def __len__(self) -> int:
        return len(self._cache.names)

    @overload
    def __getitem__(self, index: int) -> str | None: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str | None]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str | None] | None:
        if self._keys is None:
            self._keys = self._cache.keys  # every head read, once
        return self._keys[index]


class _CachedEntries(LazyEntries):
    """The index lines of the cached notes (ROWS of the cache, all of them when None), then
    MORE; each made when first asked for (matching asks for a few of 20,000)."""

    def __init__(self, level: str, cache: HeadsCache, rows: list[int] | None,
                 more: list[IndexEntry]) -> None:
        self._level, self._cache, self._rows, self._more = level, cache, rows, more
        self._cached = len(cache.names) if rows is None else len(rows)
        self._made: dict[int, IndexEntry] = {}

    def __len__(self) -> int:
        return self._cached + len(self._more)

    def _entry(self, index: int) -> IndexEntry:
        if index >= self._cached:
            return self._more[index - self._cached]
        entry = self._made.get(index)
        if entry is None:
            c = self._cache
            row = index if self._rows is None else self._rows[index]
            note_type = c.types[row]
            assert note_type is not None  # the rows are those of notes that parsed
            title, summary, updated, _ = c.head(row)
            entry = self._made[index] = IndexEntry(self._level, note_type, title, summary,
                                                   c.names[row], updated)
        return entry


def _with_broken(level: str, path: Path, entries: list[IndexEntry], keys: list[str | None],
                 broken: dict[str, str], index_bytes: bytes | None, stamps: Stamps,
                 unsettled: Unsettled) -> Known:
    if broken:  # their old index lines, as StoreState.entries() gives them
        old = StoreState(level, path, True, broken=broken, index_bytes=index_bytes).entries()
        entries += old
        keys += [None] * len(old)
    return entries, index_bytes, keys, None, stamps, unsettled


def _read(level: str, path: Path, names: list[str], cache: HeadsCache, folder: int,
          settled_before: int | None, derive: tuple[Derive, object] | None,
          postings: Postings | None, listing: str, progress: Progress | None) -> Known:
    fresh = HeadsCache(None, path, None)  # the records read now
    kept: list[int] = []  # the cache's records still true
    entries: list[IndexEntry] = []
    keys: list[str | None] = []
    broken: dict[str, str] = {}
    index_bytes: bytes | None = None
    at = dict(zip(cache.names, range(len(cache.names)), strict=True))
    sizes, mtimes, ctimes, inodes = cache.sizes, cache.mtimes, cache.ctimes, cache.inodes
    types = cache.types
    notes = []  # the note names listed: all of them cached, the next run may skip this loop
    found: list[os.stat_result | None] = []  # their statuses, for the stamps
    unsettled: Unsettled = {}
    told = _Told(progress, sum(1 for name in names if name not in at and is_note(name))
                 if progress is not None else 0)
    for name in names:
        i = at.get(name)
        if i is None and not is_note(name):
            if name == INDEX_NAME:
                index_bytes = _index(path, name, folder)
            continue  # memcli's own files, a person's dotfiles, stray files
        notes.append(name)
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError:
            found.append(None)
            broken[name] = ""  # gone since the listing: load_store fails to read it
            told.skipped(i is None)
            continue
        found.append(info)
        # An unchanged status is an unchanged file (a link or a folder in its place
        # would be another inode).
        if (i is not None and info.st_mtime_ns == mtimes[i] and info.st_ctime_ns == ctimes[i]
                and info.st_size == sizes[i] and info.st_ino == inodes[i]):
            kept.append(i)
            note_type = types[i]
            if note_type is None:
                broken[name] = ""
            else:
                title, summary, updated, key = cache.heads[i]
                entries.append(IndexEntry(level, note_type, title, summary, name, updated))
                keys.append(key)
            continue
        if not stat.S_ISREG(info.st_mode):
            told.skipped(i is None)
            continue  # a link or a special file: memcli leaves it alone
        if i is None:
            told.read()
        entry = _read_entry(level, path, name, fresh, settled_before, derive)
        if settled_before is not None and info.st_ctime_ns >= settled_before:
            unsettled[name] = entry
        if entry is None:
            broken[name] = ""
        else:
            entries.append(entry)
            keys.append(fresh.heads[-1][3] if fresh.names and fresh.names[-1] == name
                        else _derived(derive, entry))
    told.done()
    cached = {cache.names[i] for i in kept} | set(fresh.names)
    others = [name for name in names if name not in cached] if cached.issuperset(notes) else None
    if len(kept) != len(at) or fresh.names or others != cache.others or (
            others is not None and listing != cache.listing):
        cache.save(kept, fresh, others, postings, listing)
    return _with_broken(level, path, entries, keys, broken, index_bytes,
                        stamps_of(notes, columns_of(found)), unsettled)


class _Told:
    """Tells PROGRESS how many of the TOTAL notes the cache did not hold are read so far,
    every _PROGRESS_EVERY and at the end. A name skipped (a link, a special file, a note
    gone since the listing) is not read: it leaves the total, so the count ends at it."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self._progress, self._total, self._read, self._last = progress, total, 0, (0, 0)

    def skipped(self, uncached: bool) -> None:
        self._total -= uncached

    def read(self) -> None:
        self._read += 1
        if self._read % _PROGRESS_EVERY == 0:
            self._tell()

    def done(self) -> None:
        if self._read and self._last != (self._read, self._total):
            self._tell()

    def _tell(self) -> None:
        if self._progress is not None:
            self._last = (self._read, self._total)
            self._progress(*self._last)


def _derived(derive: tuple[Derive, object] | None, entry: IndexEntry) -> str | None:
    return derive[0](entry.title, entry.summary) if derive else None


def _index(path: Path, name: str, folder: int) -> bytes | None:
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        return None  # a link or a special file: memcli leaves it alone
    return read_index_file(os.path.join(path, name))


def _read_entry(level: str, path: Path, name: str, fresh: HeadsCache,
                settled_before: int | None, derive: tuple[Derive, object] | None
                ) -> IndexEntry | None:
    """The note's index line, None when load_store would call it broken; cached in FRESH
    when it changed before SETTLED_BEFORE."""
    try:
        data, info = read_regular_file_stat(os.path.join(path, name), MAX_NOTE_BYTES + 1)
    except OSError:
        return None  # not cached: a note that cannot be read now may be readable later
    entry = entry_of(level, name, data)
    if settled_before is not None and info.st_ctime_ns < settled_before:
        if entry is None:
            fresh.add(name, info, None, "", "", "", None)
        else:
            fresh.add(name, info, entry.type, entry.title, entry.summary, entry.updated,
                      _derived(derive, entry))
    return entry

