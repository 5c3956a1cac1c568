"""The files of a store folder (memcli.store.folder): its entries sorted into kinds without
reading them, one file's bytes within the size memcli reads, one note file read and parsed."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from memcli.errors import BrokenNoteError
from memcli.paths import read_regular_file
from memcli.store.index import not_utf8
from memcli.store.names import INDEX_NAME, is_note_name
from memcli.store.notes import Note, decode_note, parse_note_text

FileKind = Literal["note", "index", "stray", "unsafe"]
ListingProblem = Literal["", "not a folder", "unlistable"]


# --------------------------------------------------------------------------- listing


# Records a read fills in and drops, never compared or shown, written out as plain classes:
# a dataclass compiles its methods from source at every start of every store command.
class StoreEntry:
    """One entry of a store folder, sorted into its kind without being read."""

    __slots__ = ("kind", "name", "path", "why")

    def __init__(self, name: str, path: str, kind: FileKind, why: str = "") -> None:
        self.name = name
        self.path = path  # text, not Path: building 10,000 Paths costs more than reading them
        self.kind: FileKind = kind
        self.why = why  # for "unsafe": what it is instead of a regular file


class StoreListing:
    """A store folder's entries, sorted into kinds, or why it could not be listed."""

    def __init__(self, level: str, path: Path, exists: bool, problem: ListingProblem = "",
                 reason: str = "") -> None:
        self.level = level
        self.path = path
        self.exists = exists
        self.problem: ListingProblem = problem
        self.reason = reason  # the operating system's words when the folder cannot be listed
        self.entries: list[StoreEntry] = []

    def of_kind(self, kind: FileKind) -> Iterator[StoreEntry]:
        return (e for e in self.entries if e.kind == kind)


def list_store(level: str, path: Path) -> StoreListing:
    """The entries of a store folder by name; dotfiles (the lock, journals) are not listed."""
    if not path.exists() and not path.is_symlink():
        return StoreListing(level, path, exists=False)
    if not path.is_dir():
        return StoreListing(level, path, exists=True, problem="not a folder")
    try:
        found = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError as exc:
        return StoreListing(level, path, exists=True, problem="unlistable",
                            reason=exc.strerror or "cannot be listed")
    listing = StoreListing(level, path, exists=True)
    for entry in found:
        kept = _classify(entry)
        if kept is not None:
            listing.entries.append(kept)
    return listing


def _classify(entry: os.DirEntry[str]) -> StoreEntry | None:
    name = entry.name
    if name.startswith("."):
        return None  # memcli's own lock and journal, or a person's dotfiles: not ours
    if name != INDEX_NAME and not is_note_name(name):
        if name.endswith(".md") or _is_regular(entry):
            return StoreEntry(name, entry.path, "stray")
        return None
    kind: FileKind = "index" if name == INDEX_NAME else "note"
    if entry.is_symlink():
        return StoreEntry(name, entry.path, "unsafe",
                          "a symlink (memcli never follows links out of a store)")
    if not _is_regular(entry):
        return StoreEntry(name, entry.path, "unsafe",
                          "a folder or special file, not a regular file")
    return StoreEntry(name, entry.path, kind)


def _is_regular(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


# A note written through memcli holds at most 20,000 characters of content and 64 KiB of
# frontmatter; a note file past this is no note (a checkout's 300 MB file made `recall`, and
# with it the prompt hook, take 24 GB). MEMORY.md lists every note: 100,000 notes are ~20 MB.
MAX_NOTE_BYTES = 1024 * 1024
MAX_INDEX_BYTES = 64 * 1024 * 1024


class TooLargeError(OSError):
    """A file in a store past the size memcli reads."""


def read_bytes(path: str, limit: int = MAX_NOTE_BYTES) -> bytes:
    """A regular file's bytes, at most LIMIT; OSError is the caller's to report (lint lists
    it, writers stop), TooLargeError for a larger file.

    The listing already left out links and special files; a file swapped for one since
    (a link, a FIFO that would block forever) is refused here rather than followed.
    """
    data = read_regular_file(path, limit + 1)
    if len(data) > limit:
        raise TooLargeError(errno.EFBIG, f"larger than {limit // (1024 * 1024)} MiB, the most "
                            "memcli reads of it", path)
    return data


# --------------------------------------------------------------------------- one note


class NoteRead:
    """One note file as read: its bytes, the decoded text, and the note or why not."""

    __slots__ = ("bad_byte", "data", "name", "no_frontmatter", "note", "problem", "text")

    def __init__(self, name: str, data: bytes, text: str, bad_byte: int | None,
                 note: Note | None) -> None:
        self.name = name
        self.data = data
        self.text = text  # decoded; bytes not UTF-8 replaced, so that they can be scanned
        self.bad_byte = bad_byte  # offset of the first byte that is not UTF-8
        self.note = note
        self.problem = ""  # BrokenNoteError's message, the file name first
        self.no_frontmatter = False


def read_note(name: str, data: bytes) -> NoteRead:
    """Parse a note file's bytes; a broken note is a NoteRead saying why, never an error."""
    text, bad_byte = decode_note(data)
    read = NoteRead(name, data, text, bad_byte, None)
    if bad_byte is not None:
        read.problem = not_utf8(name, data)
        return read
    try:
        read.note = parse_note_text(name, text, data)
    except BrokenNoteError as exc:
        read.problem = str(exc)
        # A note that parsed opens with a fence line; only a broken one needs asking.
        read.no_frontmatter = not _opens_with_fence(text)
    return read


def title_as_written(text: str) -> str:
    """The `title:` line of a note's frontmatter, read line by line: for a note whose
    frontmatter does not parse, so that it can still be found by the title `show` lists.
    A note with no frontmatter at all is found by its first heading (`# Deploy steps`)."""
    if not _opens_with_fence(text):
        first = next((line for line in text[:8192].splitlines() if line.strip()), "")
        return first.lstrip("#").strip() if first.startswith("# ") else ""
    for line in text[:8192].splitlines()[1:40]:
        if line.strip() == "---":
            break
        if line.startswith("title:"):
            return line[len("title:"):].strip().strip("'\"")
    return ""


def _opens_with_fence(text: str) -> bool:
    end = text.find("\n")
    first = text[: end if end >= 0 else len(text)].removeprefix("\ufeff")
    return first.rstrip("\r").rstrip() == "---"
