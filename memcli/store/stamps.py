"""The stamps of what `extract` read of a store's notes (:mod:`memcli.store.known`), taken
again under the lock of the apply to tell whether any note changed since: the notes'
names, their statuses, and the heads of those changed within a tick of the read."""

from __future__ import annotations

import os
from array import array
from collections.abc import Sequence
from pathlib import Path

from memcli.errors import StoreError
from memcli.paths import read_regular_file_stat
from memcli.store.folder import entry_for, not_a_folder, unlistable
from memcli.store.folder_files import MAX_NOTE_BYTES, read_note
from memcli.store.index import IndexEntry
from memcli.store.names import is_note_name


def check_folder(level: str, path: Path) -> bool:
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


# What a read of a store's notes saw of them: their names (sorted) and statuses (size,
# modification and change time, inode: -1 for a note gone since the listing), packed. The
# same stamps taken again later tell whether any note changed since (an edit by hand or by
# another process changes its change time, which nobody can set back).
Stamps = tuple[tuple[str, ...], bytes]
# The heads read of the notes that changed at or after the moment the read's lock was made
# (by name; None for a broken one): a change of those within the same tick of a coarse
# clock keeps every stamp, so the check reads their heads again (:func:`head_changed`).
Unsettled = dict[str, IndexEntry | None]
class StoreChanged(StoreError):
    """A store's notes changed between the read a plan was matched against and its apply."""


def is_note(name: str) -> bool:
    """Whether a listed name is a note's (not MEMORY.md, memcli's own or a dotfile)."""
    return not name.startswith(".") and is_note_name(name)


def stamps_of(names: Sequence[str], columns: Sequence[array[int]]) -> Stamps:
    return tuple(names), b"".join(column.tobytes() for column in columns)


def columns_of(found: Sequence[os.stat_result | None]) -> list[array[int]]:
    """The statuses FOUND as four columns: size, modification and change time, inode (-1,
    -1, -1 and 0 for a note gone)."""
    columns = [array("q"), array("q"), array("q"), array("Q")]
    for info in found:
        row = (-1, -1, -1, 0) if info is None else (
            info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        for column, value in zip(columns, row, strict=True):
            column.append(value)
    return columns


def changed_names(level: str, path: Path, read: Stamps) -> frozenset[str]:
    """The notes of the store at PATH that changed since the stamps READ were taken: changed,
    added, removed or renamed (both names). Under the store's lock."""
    now = note_stamps(level, path)
    if now == read:
        return frozenset()
    before, after = _rows(read), _rows(now)
    return frozenset(name for name in before.keys() | after.keys()
                     if before.get(name) != after.get(name))


def _rows(stamps: Stamps) -> dict[str, tuple[int, ...]]:
    names, packed = stamps
    columns = [array("q"), array("q"), array("q"), array("Q")]
    width = len(names) * 8
    for number, column in enumerate(columns):
        column.frombytes(packed[number * width:(number + 1) * width])
    return {name: tuple(row) for name, *row in zip(names, *columns, strict=True)}


def note_stamps(level: str, path: Path) -> Stamps:
    """The stamps of the notes the store at PATH holds now (see :data:`Stamps`), as
    :func:`known_entries` gives them of its read: the same unless a note changed since, was
    added, removed or renamed. Read under the store's lock, before a plan is applied."""
    if not check_folder(level, path):
        return (), b""
    try:
        names = sorted(filter(is_note, os.listdir(path)))
    except OSError as exc:
        raise unlistable(level, path, exc.strerror or "cannot be listed") from None
    folder = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        found: list[os.stat_result | None] = []
        for name in names:
            try:
                found.append(os.stat(name, dir_fd=folder, follow_symlinks=False))
            except OSError:
                found.append(None)
    finally:
        os.close(folder)
    return stamps_of(names, columns_of(found))


def entry_of(level: str, name: str, data: bytes) -> IndexEntry | None:
    note = read_note(name, data).note if len(data) <= MAX_NOTE_BYTES else None
    return None if note is None else entry_for(level, note)


def head_changed(level: str, path: Path, unsettled: Unsettled) -> str | None:
    """The first of the UNSETTLED notes (see :data:`Unsettled`) whose head differs now from
    the one read, or is no longer readable; None when none does."""
    for name, entry in unsettled.items():
        try:
            data, _ = read_regular_file_stat(os.path.join(path, name), MAX_NOTE_BYTES + 1)
        except OSError:
            return name
        if entry_of(level, name, data) != entry:
            return name
    return None
