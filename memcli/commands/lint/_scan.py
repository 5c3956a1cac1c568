"""Reading a store for lint: the store reader's listing and reads, one secret scan per file.

A store is read one file at a time: each note is checked (and, with --fix, repaired) as it
is read, and only what the checks across files need is kept of it (a :class:`NoteFacts`),
so a large store is never held in memory whole.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from pathlib import Path

from memcli.commands.lint._report import display
from memcli.safety.redact import SecretFinding, find_secrets
from memcli.store.folder import NoteHead, StoreState, head_of
from memcli.store.folder_files import (
    MAX_INDEX_BYTES,
    MAX_NOTE_BYTES,
    list_store,
    read_bytes,
    read_note,
)
from memcli.store.index import has_odd_line_end
from memcli.store.names import INDEX_NAME, name_key
from memcli.store.notes import SYNC_CONFLICT, Note

_ERROR_LINE = r" at line (\d+)"  # compiled for a broken note only (re caches it)


# Records one pass fills in and drops, never compared or shown, written out as plain
# classes: a dataclass compiles its methods from source at every start (about 0.15 ms each
# here, several times what lint's checks of 100 notes cost).
class FileScan:
    """One file of a store, read once; dropped once its own checks are done."""

    def __init__(self, name: str, path: str, data: bytes, text: str, bad_byte: int | None,
                 secrets: list[SecretFinding], note: Note | None = None, *,
                 no_frontmatter: bool = False) -> None:
        self.name = name
        self.path = path  # text, not Path: building 10,000 Paths costs more than reading them
        self.data = data
        self.text = text  # decoded; invalid bytes replaced, so that secrets are still found
        self.bad_byte = bad_byte  # offset of the first byte that is not UTF-8
        self.secrets = secrets
        self.note = note
        self.problem = ""  # why the note could not be parsed
        self.problem_line = 1
        self.no_frontmatter = no_frontmatter
        self.folder = ""  # the store's folder as findings show it (StoreScan.shown)

    @property
    def utf8(self) -> bool:
        return self.bad_byte is None

    @functools.cached_property
    def shown(self) -> str:
        """The path findings name (scan.file(name)): joined only for a file with a finding."""
        return os.path.join(self.folder, self.name)


class NoteFacts:
    """What the checks across files need of one note file, kept after it is read."""

    __slots__ = ("conflict_of", "head", "problem", "title", "title_line")

    def __init__(self, head: NoteHead | None, problem: str, title: str | None,
                 title_line: int, conflict_of: str | None = None) -> None:
        self.head = head  # None when the note is broken, or once its store is checked
        self.problem = problem  # why it is broken ("" when it is not)
        self.title = title  # the frontmatter's title when it is text
        self.title_line = title_line  # the line of the title key (1 when there is none)
        # The note a `memcli sync` conflict copy was kept beside (its sync_conflict key).
        self.conflict_of = conflict_of


class StoreScan:
    """One store as lint read it: what the checks across its files need, and what was odd."""

    def __init__(self, level: str, path: Path, exists: bool, *,
                 cwd: Path | None = None) -> None:
        self.level = level
        self.path = path
        self.exists = exists
        self.problem = ""  # the store itself cannot be read (code in problem_code)
        self.problem_code = ""
        self.notes: dict[str, NoteFacts] = {}
        self.index: FileScan | None = None
        self.odd: dict[str, str] = {}  # named like a note, not a file
        self.unreadable: dict[str, str] = {}
        self.stray: list[str] = []
        self.names: dict[str, str] = {}  # every file by name_key
        # name_key -> the files sharing it, when more than one does: one note under two
        # names (case or NFC twins), which no rename may merge into one file.
        self.twins: dict[str, list[str]] = {}
        self.cwd = cwd  # paths in findings are shown relative to it

    def state(self) -> StoreState:
        """The writer's view of this store (what `memcli index` would render from)."""
        heads = {n: f.head for n, f in self.notes.items() if f.head is not None}
        broken = {n: f.problem or "unreadable" for n, f in self.notes.items() if f.head is None}
        broken.update({n: why for n, why in self.unreadable.items() if n != INDEX_NAME})
        index = self.index
        return StoreState(
            self.level, self.path, self.exists, heads=heads, broken=broken,
            unsafe=dict(self.odd), stray=list(self.stray),
            index_bytes=index.data if index else None,
        )

    @functools.cached_property
    def shown(self) -> str:
        return display(self.path, self.cwd)

    def file(self, name: str) -> str:
        # Joined as text: a Path per file costs more than the rest of a 10,000-note check.
        return os.path.join(self.shown, name)


Visit = Callable[[StoreScan, FileScan], None]


def scan_store(level: str, path: Path, visit: Visit | None = None, *,
               cwd: Path | None = None) -> StoreScan:
    """Read a store one file at a time; VISIT sees each note file before it is dropped."""
    listing = list_store(level, path)
    scan = StoreScan(level, path, exists=listing.exists, cwd=cwd)
    if listing.problem == "not a folder":
        scan.problem, scan.problem_code = "the store path is not a folder", "M308"
    elif listing.problem:
        scan.problem, scan.problem_code = f"cannot list the store ({listing.reason})", "M307"
    # A later twin hides an earlier one, as in a case-insensitive folder. A name that is its
    # own key (most are) is stored once, not as two equal strings.
    for e in listing.entries:
        key = name_key(e.name)
        held = scan.names.get(key)
        if held is not None and held != e.name:
            scan.twins.setdefault(key, [held]).append(e.name)
        scan.names[e.name if key == e.name else key] = e.name
    for entry in listing.entries:
        if entry.kind == "stray":
            scan.stray.append(entry.name)
        elif entry.kind == "unsafe":
            scan.odd[entry.name] = entry.why
        else:
            _scan_file(scan, entry.name, entry.path, entry.kind == "index", visit)
    return scan


def _scan_file(scan: StoreScan, name: str, path: str, is_index: bool,
               visit: Visit | None) -> None:
    try:
        data = read_bytes(path, MAX_INDEX_BYTES if is_index else MAX_NOTE_BYTES)
    except OSError as exc:
        scan.unreadable[name] = exc.strerror or "cannot be read"
        return
    file = read_file(name, path, data)
    file.folder = scan.shown
    if is_index:
        scan.index = file
        return
    scan.notes[name] = facts_of(scan.level, file)
    if visit is not None:
        visit(scan, file)


def facts_of(level: str, file: FileScan) -> NoteFacts:
    note = file.note
    if note is None:
        return NoteFacts(None, file.problem, None, 1)
    title = note.meta.get("title")
    original = note.meta.get(SYNC_CONFLICT)
    conflict_of = original if isinstance(original, str) and original else None
    if not isinstance(title, str):
        return NoteFacts(head_of(level, note), "", None, 1, conflict_of)
    return NoteFacts(head_of(level, note), "", title, key_line(note, "title"), conflict_of)


def read_file(name: str, path: str, data: bytes) -> FileScan:
    """A file read for lint: the reader's parse of it, and one secret scan of its text."""
    read = read_note(name, data)
    scan = FileScan(name, path, data, read.text, read.bad_byte, find_secrets(read.text),
                    read.note, no_frontmatter=read.no_frontmatter)
    if read.bad_byte is not None:
        scan.problem = "not valid UTF-8"
    elif read.no_frontmatter:
        scan.problem = "no frontmatter"
    elif read.note is None:
        scan.problem = read.problem.removeprefix(f"{name}: ")
        found = re.search(_ERROR_LINE, scan.problem)
        scan.problem_line = int(found.group(1)) if found else 1
    return scan


def key_line(note: Note, key: str) -> int:
    """The line of KEY in the file (the first line of the frontmatter is line 2), else 1."""
    pattern = _key_pattern(key)
    frontmatter = note.frontmatter
    found = pattern.search(frontmatter)
    if found is None and not has_odd_line_end(frontmatter):
        return 1
    if found is not None and not has_odd_line_end(frontmatter, found.start()):
        # Lines end in "\n" only up to the key: one search instead of a match per line.
        return frontmatter.count("\n", 0, found.start()) + 2
    for number, line in enumerate(frontmatter.splitlines(), start=2):
        if pattern.match(line):
            return number
    return 1


@functools.cache
def _key_pattern(key: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(key)}[ \t]*:", re.MULTILINE)

