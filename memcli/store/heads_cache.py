"""The file :mod:`memcli.store.known` keeps each store's note heads in, read no further than
a turn asks.

``<memcli home>/cache/known/<hash of the store path>.marshal``, one file a store, written
whole by memcli and renamed into place (mode 0600: it holds the user store's titles):

- its header (a marshal record, its length first): the stamp of the code that wrote it,
  the notes' names and types in the order of their names, their statuses (size,
  modification and change time, inode) as machine numbers, the folder's other names and
  its listing as listed, and where the rest lies;
- the postings of the notes' keys (memcli.extraction.key_index), one run of bytes for each
  first character of a key's code, each read when a lookup needs it;
- each note's head (title, summary, updated, keys) on its own, read when asked for.

A turn reads the header (names and statuses: what tells whether a note changed), the few
postings its questions look up and the heads of the notes it asks: on 10,000 notes a
level, a tenth of the file. What it reads later is read through the file it opened first,
so a cache another run writes meanwhile (renamed over this one) is never mixed in.
Never an error when it cannot be read or written: such a cache is empty. A part that is
not what memcli writes is a :class:`DamagedCache` saying so (the file is set aside, and
`extract` reads the notes again).
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import weakref
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from memcli import code_stamp
from memcli.errors import StoreError

# The cached record: what a note parsed to, and the code that parsed it. A memcli that
# parses notes another way (another version, or an edited notes.py in a checkout) starts
# a new cache.
_FORMAT = 5
# The modules whose code decides what a note's head is: every memcli module
# memcli.store.known imports, directly or through another (tests/test_extract_big_store.py
# checks the list against the imports, as it checks memcli.extraction.note_keys' own).
PARSERS = (
    "memcli", "memcli.errors", "memcli.paths", "memcli.safety.invisible_chars", "memcli.text",
    "memcli.value_types",
    *(f"memcli.store.{name}" for name in (
        "anchors", "folder", "folder_files", "freshness", "frontmatter_yaml", "heads_cache",
        "index", "known", "names", "notes", "stamps")),
)
_LENGTH = 8  # the header's length, first

Head = tuple[str, str, str, str | None]  # title, summary, updated, keys
# What a caller makes of every note's keys at once (memcli.extraction.key_index's postings:
# a text for each first character of a code), cached with them.
Postings = Callable[[Sequence[str | None]], object]


class DamagedCache(StoreError):
    """A part of the cache read mid-run is not what memcli wrote (the file is gone by then:
    a caller reads the notes again instead)."""


class HeadsCache:
    """The heads of one store's notes, keyed by file name and status, in the order of their
    names, and the folder's other names when every note in it was cached."""

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
        self.postings: Mapping[str, str] | None = None  # the keys' postings, when cached
        self._fd: int | None = None  # the file read, while heads are still to be read
        self._ends = array("Q")  # where each note's head ends in it
        self._heads_at = 0
        self._heads: list[Head] | None = []  # None: not read yet (only self._fd has them)
        if cache_dir is None:
            return
        where = str(store.resolve())
        self.file = cache_dir / (hashlib.sha256(where.encode("utf-8", "surrogatepass"))
                                 .hexdigest()[:32] + ".marshal")
        self.stamp = (_FORMAT, where, code_stamp(PARSERS), derived_by)
        with contextlib.suppress(OSError, EOFError, ValueError, TypeError, OverflowError):
            self._open(self.file)

    def _open(self, file: Path) -> None:
        fd = os.open(file, os.O_RDONLY | os.O_CLOEXEC)
        try:
            length = int.from_bytes(os.pread(fd, _LENGTH, 0), "little")
            # (another format's first bytes are no length: never read past the file)
            loaded = length <= os.fstat(fd).st_size - _LENGTH
            if loaded:
                header = os.pread(fd, length, _LENGTH)
                loaded = len(header) == length and self._load(marshal.loads(header),
                                                              _LENGTH + length, fd)
        except BaseException:
            os.close(fd)
            raise
        if loaded:
            self._fd = fd
            weakref.finalize(self, os.close, fd)
        else:
            os.close(fd)

    def _load(self, value: object, start: int, fd: int) -> bool:
        if not (isinstance(value, tuple) and len(value) == 12 and value[0] == self.stamp):
            return False
        others, names, types, listing, buckets, ends, heads_at = (
            value[1], value[2], value[3], value[8], value[9], value[10], value[11])
        # Checked column by column in C: a record's text must be text, a number a number.
        if not (type(names) is list and type(types) is list and len(types) == len(names)
                and set(map(type, names)) <= {str} and set(map(type, types)) <= {str, type(None)}
                and (listing is None or type(listing) is str) and type(heads_at) is int
                and type(ends) is bytes and len(ends) == 8 * len(names)):
            return False
        if others is not None and not (type(others) is list and set(map(type, others)) <= {str}):
            return False
        statuses = []
        for code, packed in zip("qqqQ", value[4:8], strict=True):
            if type(packed) is not bytes or len(packed) != 8 * len(names):
                return False
            column = array(code)
            column.frombytes(packed)
            statuses.append(column)
        if buckets is not None:
            if not (type(buckets) is dict and all(
                    type(k) is str and type(v) is tuple and len(v) == 2
                    and type(v[0]) is int and type(v[1]) is int for k, v in buckets.items())):
                return False
            self.postings = _Buckets(self, fd, {k: (start + at, size)
                                                for k, (at, size) in buckets.items()})
        self.others, self.listing, self.names, self.types = others, listing, names, types
        self.sizes, self.mtimes, self.ctimes, self.inodes = statuses
        self._ends.frombytes(ends)
        self._heads_at, self._heads = start + heads_at, None
        return True

    def _damaged(self) -> DamagedCache:
        # Written whole by memcli alone: a cache that is not what it wrote is set aside.
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.unlink()
        return DamagedCache(f"{self.file}: a damaged cache of the notes' heads (set aside: "
                            "deleting it loses nothing)")

    def read(self, fd: int, size: int, at: int) -> bytes:
        try:
            data = os.pread(fd, size, at)
        except OSError:
            data = b""
        if len(data) != size:
            raise self._damaged()
        return data

    def head(self, row: int) -> Head:
        """The head of the note of ROW: read from the file alone (the others are not)."""
        if self._heads is not None:
            return self._heads[row]
        assert self._fd is not None  # set with the unread heads
        start = self._heads_at + (self._ends[row - 1] if row else 0)
        value = _head(self.read(self._fd, self._heads_at + self._ends[row] - start, start))
        if value is None:
            raise self._damaged()
        return value

    @property
    def heads(self) -> list[Head]:
        """Every note's head (read at once: a run that writes the cache again)."""
        if self._heads is None:
            assert self._fd is not None
            data = self.read(self._fd, self._ends[-1] if self._ends else 0, self._heads_at)
            heads, start = [], 0
            for end in self._ends:
                value = _head(data[start:end])
                if value is None:
                    raise self._damaged()
                heads.append(value)
                start = end
            self._heads = heads
        return self._heads

    @property
    def keys(self) -> list[str | None]:
        """Every note's keys (a new list: every head read once)."""
        return [head[3] for head in self.heads]

    def add(self, name: str, info: os.stat_result, note_type: str | None, title: str,
            summary: str, updated: str, key: str | None) -> None:
        self.names.append(name)
        self.sizes.append(info.st_size)
        self.mtimes.append(info.st_mtime_ns)
        self.ctimes.append(info.st_ctime_ns)
        self.inodes.append(info.st_ino)
        self.types.append(note_type)
        self.heads.append((title, summary, updated, key))

    def save(self, kept: list[int], fresh: HeadsCache, others: list[str] | None,
             postings: Postings | None, listing: str) -> None:
        """Write the records KEPT of this cache and those of FRESH in its place, in the
        order of their names, with the OTHER names of the listing they were all read from
        (None: not all of its notes are among them), and the POSTINGS of their keys."""
        if self.file is None:
            return
        pairs: list[tuple[Sequence[Any], Sequence[Any]]] = [
            (self.names, fresh.names), (self.sizes, fresh.sizes), (self.mtimes, fresh.mtimes),
            (self.ctimes, fresh.ctimes), (self.inodes, fresh.inodes), (self.types, fresh.types),
            (self.heads, fresh.heads)]
        columns = [[column[i] for i in kept] + list(more) for column, more in pairs]
        order = sorted(range(len(columns[0])), key=columns[0].__getitem__)
        columns = [[column[i] for i in order] for column in columns]
        made = postings([head[3] for head in columns[6]]) if postings is not None else None
        body, buckets = [], None
        if isinstance(made, dict) and all(type(k) is str and type(v) is str
                                          for k, v in made.items()):
            buckets, at = {}, 0
            for first, text in made.items():
                data = text.encode("ascii", "surrogateescape")
                buckets[first] = (at, len(data))
                body.append(data)
                at += len(data)
        heads_at = sum(map(len, body))
        ends, end = array("Q"), 0
        for head in columns[6]:
            data = marshal.dumps(head)
            body.append(data)
            end += len(data)
            ends.append(end)
        statuses = [array(code, column).tobytes()
                    for code, column in zip("qqqQ", columns[1:5], strict=True)]
        record: Any = (self.stamp, others, columns[0], columns[5], *statuses,
                       listing if others is not None else None, buckets, ends.tobytes(),
                       heads_at)
        header = marshal.dumps(record)
        data = b"".join([len(header).to_bytes(_LENGTH, "little"), header, *body])
        with contextlib.suppress(OSError):
            self.file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            temporary = self.file.with_name(f".{self.file.name}.{os.getpid()}")
            # The cache holds the user store's titles: only its owner may read it.
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
            os.replace(temporary, self.file)


def _head(data: bytes) -> Head | None:
    try:
        value = marshal.loads(data)
    except (EOFError, ValueError, TypeError):  # bytes memcli did not write
        return None
    if (type(value) is tuple and len(value) == 4
            and type(value[0]) is str and type(value[1]) is str and type(value[2]) is str
            and (value[3] is None or type(value[3]) is str)):
        return value
    return None


class _Buckets(Mapping[str, str]):
    """The keys' postings, each first character's read from the cache file when asked."""

    def __init__(self, cache: HeadsCache, fd: int, where: dict[str, tuple[int, int]]) -> None:
        self._cache, self._fd, self._where = cache, fd, where
        self._read: dict[str, str] = {}

    def __getitem__(self, first: str) -> str:
        text = self._read.get(first)
        if text is None:
            at, size = self._where[first]
            data = self._cache.read(self._fd, size, at)
            try:
                text = data.decode("ascii")
            except UnicodeDecodeError:
                raise self._cache._damaged() from None
            self._read[first] = text
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)
