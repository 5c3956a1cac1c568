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

import contextlib
import hashlib
import marshal
import os
import stat
from array import array
from collections.abc import Callable, Sequence
from operator import attrgetter
from pathlib import Path
from typing import Any, overload

from memcli.errors import StoreError
from memcli.paths import read_regular_file_stat
from memcli.store.folder import (
    StoreState,
    entry_for,
    not_a_folder,
    read_index_file,
    unlistable,
)
from memcli.store.folder_files import MAX_NOTE_BYTES, read_note
from memcli.store.index import IndexEntry, LazyEntries
from memcli.store.names import INDEX_NAME, is_note_name

# The cached record: what a note parsed to, and the code that parsed it. A memcli that
# parses notes another way (another version, or an edited notes.py in a checkout) starts
# a new cache.
_FORMAT = 3
_PARSERS = ("notes.py", "folder.py", "folder_files.py", "index.py", "names.py")

# What a caller derives from a note's title and summary (the words the matching looks
# notes up by: memcli.extraction.note_keys), cached beside its head, and the stamp of the
# code that derives it; None when a note gives none (a broken note, say).
Derive = Callable[[str, str], str | None]
# What a caller makes of every note's keys at once (memcli.extraction.key_index's postings),
# cached with them: made when the cache is written, given back when every note it holds is
# read from it.
Postings = Callable[[Sequence[str | None]], object]

def index_bytes_of(level: str, path: Path) -> bytes | None:
    """MEMORY.md's bytes as :func:`load_store` reads them (None when the store or the file
    is missing, or MEMORY.md is a link or not a regular file), raising what it raises for a
    folder that cannot be listed or an index that cannot be read."""
    _check_folder(level, path)
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


def _check_folder(level: str, path: Path) -> bool:
    """Whether the store exists; the errors of :func:`load_store` for one it cannot list."""
    if not path.exists() and not path.is_symlink():
        return False
    if not path.is_dir():
        raise not_a_folder(level, path)
    try:
        with os.scandir(path):
            pass
    except OSError as exc:
        raise unlistable(level, path, exc.strerror or "cannot be listed") from None
    return True


Known = tuple[Sequence[IndexEntry], bytes | None, Sequence[str | None], object]


def known_entries(level: str, path: Path, cache_dir: Path | None, settled_before: int | None,
                  derive: tuple[Derive, object] | None = None, listed: list[str] | None = None,
                  postings: Postings | None = None) -> Known:
    """``load_store(level, path).entries()`` and its index bytes, each note's head taken
    from the cache in CACHE_DIR when its status is unchanged. A head read now is cached
    only when the note changed before SETTLED_BEFORE (nanoseconds, the store's clock);
    without it nothing new is cached. DERIVE, a function and the stamp of its code, gives
    what the third list holds for each entry (cached with the head); without it, None.
    LISTED: the folder's names, listed under the lock this read is made under (else the
    folder is listed now). POSTINGS makes, of the third list, what the fourth item is
    (cached with it; None when the entries are not all read from the cache)."""
    if not _check_folder(level, path):
        return [], None, [], None
    try:
        listing = os.listdir(path) if listed is None else listed
    except OSError as exc:
        raise unlistable(level, path, exc.strerror or "cannot be listed") from None
    # The listing as the folder gave it: the same text, the same names (without sorting
    # 10,000 of them twice); the same names in another order are compared sorted.
    joined = "\0".join(listing)
    cache = _Cache(cache_dir, path, derive[1] if derive else None)
    folder = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        if cache.others is not None and (
                joined == cache.listing
                or sorted(listing) == sorted(cache.names + cache.others)) and (
                _unchanged(cache, folder)):
            # The common case, checked column by column in C: the same files as when the
            # cache was written (every note among them cached), each with its status then.
            index = _index(path, INDEX_NAME, folder) if INDEX_NAME in cache.others else None
            return _from_cache(level, path, cache, index)
        return _read(level, path, sorted(listing), cache, folder, settled_before, derive,
                     postings, joined)
    finally:
        os.close(folder)


def _unchanged(cache: _Cache, folder: int) -> bool:
    try:
        found = [os.stat(name, dir_fd=folder, follow_symlinks=False) for name in cache.names]
    except OSError:
        return False  # gone since the listing: the slow way tells what load_store says
    return (array("q", map(attrgetter("st_ctime_ns"), found)) == cache.ctimes
            and array("q", map(attrgetter("st_mtime_ns"), found)) == cache.mtimes
            and array("q", map(attrgetter("st_size"), found)) == cache.sizes
            and array("Q", map(attrgetter("st_ino"), found)) == cache.inodes)


def _from_cache(level: str, path: Path, cache: _Cache, index_bytes: bytes | None) -> Known:
    if None not in cache.types:
        # The keys (and heads) are read from the cache only when asked for: with the
        # postings, matching never asks for the keys.
        return (_CachedEntries(level, cache, None, []), index_bytes, _Keys(cache),
                cache.postings)
    rows = [i for i, note_type in enumerate(cache.types) if note_type is not None]
    broken = {cache.names[i]: "" for i, note_type in enumerate(cache.types) if note_type is None}
    old = StoreState(level, path, True, broken=broken, index_bytes=index_bytes).entries()
    keys = [cache.keys[i] for i in rows] + [None] * len(old)
    return _CachedEntries(level, cache, rows, old), index_bytes, keys, None


class _Keys(Sequence[str | None]):
    """The cache's column of keys, read when first asked for."""

    def __init__(self, cache: _Cache) -> None:
        self._cache = cache

    def __len__(self) -> int:
        return len(self._cache.names)

    @overload
    def __getitem__(self, index: int) -> str | None: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str | None]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str | None] | None:
        return self._cache.keys[index]


class _CachedEntries(LazyEntries):
    """The index lines of the cached notes (ROWS of the cache, all of them when None), then
    MORE; each made when first asked for (matching asks for a few of 20,000)."""

    def __init__(self, level: str, cache: _Cache, rows: list[int] | None,
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
            entry = self._made[index] = IndexEntry(self._level, note_type, c.titles[row],
                                                   c.summaries[row], c.names[row],
                                                   c.updated[row])
        return entry


def _with_broken(level: str, path: Path, entries: list[IndexEntry], keys: list[str | None],
                 broken: dict[str, str], index_bytes: bytes | None) -> Known:
    if broken:  # their old index lines, as StoreState.entries() gives them
        old = StoreState(level, path, True, broken=broken, index_bytes=index_bytes).entries()
        entries += old
        keys += [None] * len(old)
    return entries, index_bytes, keys, None


def _read(level: str, path: Path, names: list[str], cache: _Cache, folder: int,
          settled_before: int | None, derive: tuple[Derive, object] | None,
          postings: Postings | None, listing: str) -> Known:
    fresh = _Cache(None, path, None)  # the records read now
    kept: list[int] = []  # the cache's records still true
    entries: list[IndexEntry] = []
    keys: list[str | None] = []
    broken: dict[str, str] = {}
    index_bytes: bytes | None = None
    at = dict(zip(cache.names, range(len(cache.names)), strict=True))
    sizes, mtimes, ctimes, inodes = cache.sizes, cache.mtimes, cache.ctimes, cache.inodes
    types, titles, summaries, updated = cache.types, cache.titles, cache.summaries, cache.updated
    notes = []  # the note names listed: all of them cached, the next run may skip this loop
    for name in names:
        i = at.get(name)
        if i is None:
            if name.startswith(".") or not (name == INDEX_NAME or is_note_name(name)):
                continue  # memcli's own files, a person's dotfiles, stray files
            if name == INDEX_NAME:
                index_bytes = _index(path, name, folder)
                continue
        notes.append(name)
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError:
            broken[name] = ""  # gone since the listing: load_store fails to read it
            continue
        # An unchanged status is an unchanged file (a link or a folder in its place
        # would be another inode).
        if (i is not None and info.st_mtime_ns == mtimes[i] and info.st_ctime_ns == ctimes[i]
                and info.st_size == sizes[i] and info.st_ino == inodes[i]):
            kept.append(i)
            note_type = types[i]
            if note_type is None:
                broken[name] = ""
            else:
                entries.append(IndexEntry(level, note_type, titles[i], summaries[i], name,
                                          updated[i]))
                keys.append(cache.keys[i])
            continue
        if not stat.S_ISREG(info.st_mode):
            continue  # a link or a special file: memcli leaves it alone
        entry = _read_entry(level, path, name, fresh, settled_before, derive)
        if entry is None:
            broken[name] = ""
        else:
            entries.append(entry)
            keys.append(fresh.keys[-1] if fresh.names and fresh.names[-1] == name
                        else _derived(derive, entry))
    cached = {cache.names[i] for i in kept} | set(fresh.names)
    others = [name for name in names if name not in cached] if cached.issuperset(notes) else None
    if len(kept) != len(at) or fresh.names or others != cache.others or (
            others is not None and listing != cache.listing):
        cache.save(kept, fresh, others, postings, listing)
    return _with_broken(level, path, entries, keys, broken, index_bytes)


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


def _read_entry(level: str, path: Path, name: str, fresh: _Cache,
                settled_before: int | None, derive: tuple[Derive, object] | None
                ) -> IndexEntry | None:
    """The note's index line, None when load_store would call it broken; cached in FRESH
    when it changed before SETTLED_BEFORE."""
    try:
        data, info = read_regular_file_stat(os.path.join(path, name), MAX_NOTE_BYTES + 1)
    except OSError:
        return None  # not cached: a note that cannot be read now may be readable later
    entry = None
    if len(data) <= MAX_NOTE_BYTES:
        note = read_note(name, data).note
        if note is not None:
            entry = entry_for(level, note)
    if settled_before is not None and info.st_ctime_ns < settled_before:
        if entry is None:
            fresh.add(name, info, None, "", "", "", None)
        else:
            fresh.add(name, info, entry.type, entry.title, entry.summary, entry.updated,
                      _derived(derive, entry))
    return entry


class _Cache:
    """The heads of one store's notes, column by column (a column of strings loads in a
    tenth of the time a tuple per note takes), keyed by file name and status, in the order
    of their names, and the folder's other names when every note in it was cached. Never an
    error: a cache that cannot be read or written is a cache that is empty."""

    def __init__(self, cache_dir: Path | None, store: Path, derived_by: object) -> None:
        self.file: Path | None = None
        self.stamp: tuple[object, ...] | None = None
        self.others: list[str] | None = None  # the listing's names that are not notes
        self.listing: str | None = None  # with the notes', as listed (joined by NULs)
        self.names: list[str] = []
        # The statuses, as machine numbers (no object a number: a fifth of the loading).
        self.sizes = array("q")
        self.mtimes = array("q")
        self.ctimes = array("q")
        self.inodes = array("Q")
        self.types: list[str | None] = []  # None: a broken note (its old index line is kept)
        self.postings: object = None  # what known_entries' POSTINGS made of the keys
        # The heads' text and keys, read back only when asked for (a turn asks for a few
        # notes' of 20,000, or none): titles, summaries, updated, keys (known_entries' DERIVE).
        self._heads: bytes | None = None
        self._titles: list[str] = []
        self._summaries: list[str] = []
        self._updated: list[str] = []
        self._keys: list[str | None] = []
        if cache_dir is None:
            return
        where = str(store.resolve())
        self.file = cache_dir / (hashlib.sha256(where.encode("utf-8", "surrogatepass"))
                                 .hexdigest()[:32] + ".marshal")
        self.stamp = (_FORMAT, where, _parsers_stamp(), derived_by)
        with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
            self._load(marshal.loads(self.file.read_bytes()))

    def _load(self, value: object) -> None:
        if not (isinstance(value, tuple) and len(value) == 11 and value[0] == self.stamp):
            return
        others, (names, types), postings, heads = value[1], value[2:4], value[8], value[9]
        listing = value[10]
        if not (listing is None or type(listing) is str):
            return
        statuses = []
        for code, packed in zip("qqqQ", value[4:8], strict=True):
            if type(packed) is not bytes or len(packed) != 8 * len(names):
                return
            column = array(code)
            column.frombytes(packed)
            statuses.append(column)
        # Checked column by column in C: a record's text must be text.
        if not (type(names) is list and type(types) is list and len(types) == len(names)
                and set(map(type, names)) <= {str} and type(heads) is bytes
                and set(map(type, types)) <= {str, type(None)}):
            return
        if others is not None and not (type(others) is list and set(map(type, others)) <= {str}):
            return
        self.others, self.postings, self._heads = others, postings, heads
        self.listing = listing
        self.names, self.types = names, types
        self.sizes, self.mtimes, self.ctimes, self.inodes = statuses

    def _read_heads(self) -> None:
        heads, self._heads = self._heads, None
        if heads is None:
            return
        value: object = None
        with contextlib.suppress(EOFError, ValueError, TypeError):
            value = marshal.loads(heads)
        size = len(self.names)
        if (isinstance(value, tuple) and len(value) == 4
                and all(type(c) is list and len(c) == size for c in value)
                and all(set(map(type, c)) <= {str} for c in value[:3])
                and {type(k) for k in value[3] if k is not None} <= {str}):
            self._titles, self._summaries, self._updated, self._keys = value
            return
        # Written whole by memcli alone: a cache that is not what it wrote is set aside.
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.unlink()
        raise StoreError(f"{self.file}: a damaged cache of the notes' heads (set aside: "
                         "deleting it loses nothing); run the command again")

    @property
    def titles(self) -> list[str]:
        self._read_heads()
        return self._titles

    @property
    def summaries(self) -> list[str]:
        self._read_heads()
        return self._summaries

    @property
    def updated(self) -> list[str]:
        self._read_heads()
        return self._updated

    @property
    def keys(self) -> list[str | None]:
        self._read_heads()
        return self._keys

    def add(self, name: str, info: os.stat_result, note_type: str | None, title: str,
            summary: str, updated: str, key: str | None) -> None:
        self.names.append(name)
        self.sizes.append(info.st_size)
        self.mtimes.append(info.st_mtime_ns)
        self.ctimes.append(info.st_ctime_ns)
        self.inodes.append(info.st_ino)
        self.types.append(note_type)
        self.titles.append(title)
        self.summaries.append(summary)
        self.updated.append(updated)
        self.keys.append(key)

    def save(self, kept: list[int], fresh: _Cache, others: list[str] | None,
             postings: Postings | None, listing: str) -> None:
        """Write the records KEPT of this cache and those of FRESH in its place, in the
        order of their names, with the OTHER names of the listing they were all read from
        (None: not all of its notes are among them), and the POSTINGS of their keys."""
        if self.file is None:
            return
        pairs: list[tuple[Sequence[Any], Sequence[Any]]] = [
            (self.names, fresh.names), (self.sizes, fresh.sizes), (self.mtimes, fresh.mtimes),
            (self.ctimes, fresh.ctimes), (self.inodes, fresh.inodes), (self.types, fresh.types),
            (self.titles, fresh.titles), (self.summaries, fresh.summaries),
            (self.updated, fresh.updated), (self.keys, fresh.keys)]
        columns = [[column[i] for i in kept] + list(more) for column, more in pairs]
        order = sorted(range(len(columns[0])), key=columns[0].__getitem__)
        columns = [[column[i] for i in order] for column in columns]
        heads = marshal.dumps(tuple(columns[6:]))
        made = postings(columns[9]) if postings is not None else None
        statuses = [array(code, column).tobytes()
                    for code, column in zip("qqqQ", columns[1:5], strict=True)]
        record: Any = (self.stamp, others, columns[0], columns[5], *statuses, made, heads,
                       listing if others is not None else None)
        data = marshal.dumps(record)
        with contextlib.suppress(OSError):
            self.file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            temporary = self.file.with_name(f".{self.file.name}.{os.getpid()}")
            # The cache holds the user store's titles: only its owner may read it.
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
            os.replace(temporary, self.file)


def _parsers_stamp() -> tuple[str, tuple[tuple[int, int], ...]]:
    """memcli's version and the size and modification time of the modules that parse a
    note: a cache written by other code is not read."""
    from memcli import __version__

    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    for module in _PARSERS:
        try:
            info = os.stat(os.path.join(here, module))
            found.append((info.st_size, info.st_mtime_ns))
        except OSError:
            found.append((-1, -1))
    return __version__, tuple(found)
