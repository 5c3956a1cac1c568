"""`memcli lint`: check stores for anything that would mislead an agent or a reviewer.

Everything here returns values; rendering is in :mod:`memcli.render`. A store is read once
(one read per file, one secret scan per file) into the same :class:`StoreState` the writer
uses, so that an index finding means exactly "`memcli index` would rewrite this line".

Anything a person can put in a store must be survivable: files that are not UTF-8, YAML
that is a list or a bomb, huge notes, folders named like notes. The YAML loader already
shares aliased nodes (loading a "billion laughs" is cheap); what would blow up is walking
or comparing such a value, so frontmatter that expands too far is reported and never
touched by ``--fix``.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from memcli.config import Settings
from memcli.errors import BrokenNoteError, InputError
from memcli.index import (
    MAX_CONTEXT_BYTES,
    MAX_CONTEXT_LINES,
    IndexEntry,
    build_context,
    ordered,
    parse_line,
    render_index,
    render_line,
)
from memcli.names import (
    INDEX_NAME,
    NOTE_TYPES,
    canonical_type,
    name_key,
    note_filename,
    parse_note_name,
    slugify,
    title_key,
)
from memcli.notes import Note, now_iso, parse_note, render_updated_note, yaml_error
from memcli.redact import REDACTED, SecretFinding, describe, find_secrets, redact
from memcli.store import (
    NoteHead,
    StoreEntry,
    StoreState,
    head_of,
    list_store,
    read_bytes,
    read_note,
)
from memcli.text import clip, derive_summary
from memcli.transaction import Change, commit, locked

Severity = Literal["error", "warning"]

# Stable codes: M1xx the index, M2xx one note, M3xx any file or the store (docs/lint.md).
CODES: dict[str, tuple[Severity, str]] = {
    "M101": ("error", "an index line that looks like an entry but does not parse"),
    "M102": ("error", "an index line points at a note that does not exist"),
    "M103": ("error", "an index line disagrees with its note"),
    "M104": ("error", "two index lines for one note"),
    "M105": ("error", "the index is not in the SPEC order"),
    "M106": ("error", "the index is not laid out as memcli writes it"),
    "M107": ("error", "the store has notes but no MEMORY.md"),
    "M108": ("warning", "index entries past the 200-line / 25 KiB context budget"),
    "M109": ("warning", "an index line longer than 200 characters"),
    "M201": ("error", "a note missing from the index"),
    "M202": ("error", "a note without frontmatter"),
    "M203": ("error", "broken frontmatter"),
    "M204": ("error", "a second frontmatter block"),
    "M205": ("error", "type, title or summary missing or not text"),
    "M206": ("error", "created or updated missing"),
    "M207": ("error", "an unknown note type"),
    "M208": ("error", "a file name that does not match the note's type and slug"),
    "M209": ("warning", "a note with an empty body"),
    "M210": ("error", "created or updated is not a date"),
    "M211": ("warning", "created is after updated"),
    "M301": ("error", "a file that is not valid UTF-8"),
    "M302": ("error", "a secret"),
    "M303": ("warning", "near-duplicate titles within a level"),
    "M304": ("warning", "the same note in both levels"),
    "M305": ("warning", "a stray file that is not a note"),
    "M306": ("error", "a note name or MEMORY.md that is not a regular file"),
    "M307": ("error", "a file that cannot be read"),
    "M308": ("error", "the store path is not a folder"),
}

REQUIRED_TEXT_KEYS = ("type", "title", "summary")
DATE_KEYS = ("created", "updated")
MAX_LINE_CHARS = 200
# A walk over loaded frontmatter stops here: aliases can make a tiny text expand without end.
MAX_YAML_NODES = 10_000
MAX_YAML_DEPTH = 64
# Titles with more words than this are only compared for exact and joined-word matches.
_MAX_NEAR_TOKENS = 12
_STOPWORDS = frozenset(
    ("a", "an", "and", "are", "at", "be", "for", "in", "is", "of", "on", "or", "the", "to", "with")
)
_WORD = re.compile(r"\w+")
_ENTRY_LIKE = re.compile(r"^\s*[-*+]\s*\[\s*(?P<type>[^\]]{1,40})\]")
_KNOWN_KEY = re.compile(r"^(?:type|title|summary|created|updated)[ \t]*:")
_ERROR_LINE = re.compile(r" at line (\d+)")
_ASCII_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Finding:
    code: str
    severity: Severity
    path: str
    line: int | None
    column: int | None
    message: str

    def as_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class CheckedStore:
    level: str
    path: str
    exists: bool
    notes: int


@dataclass
class LintReport:
    findings: list[Finding] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    stores: list[CheckedStore] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")

    def exit_code(self, strict: bool = False) -> int:
        if self.errors or (strict and self.warnings):
            return 1
        return 0

    def as_json(self) -> dict[str, Any]:
        return {
            "findings": [f.as_json() for f in self.findings],
            "fixed": self.fixed,
            "errors": self.errors,
            "warnings": self.warnings,
            "stores": [dataclasses.asdict(s) for s in self.stores],
        }


def display(path: Path) -> str:
    """A path as a person typed it: relative to the working folder when inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# --------------------------------------------------------------------------- reading


@dataclass
class FileScan:
    """One file of a store, read once."""

    name: str
    path: str  # text, not Path: building 10,000 Paths costs more than reading the files
    data: bytes
    text: str  # decoded; invalid bytes replaced, so that secrets are still found
    bad_byte: int | None  # offset of the first byte that is not UTF-8
    secrets: list[SecretFinding]
    note: Note | None = None
    problem: str = ""  # why the note could not be parsed
    problem_line: int = 1
    no_frontmatter: bool = False
    too_complex: bool = False

    @property
    def utf8(self) -> bool:
        return self.bad_byte is None


@dataclass
class StoreScan:
    level: str
    path: Path
    exists: bool
    problem: str = ""  # the store itself cannot be read (code in problem_code)
    problem_code: str = ""
    notes: dict[str, FileScan] = field(default_factory=dict)
    index: FileScan | None = None
    odd: dict[str, str] = field(default_factory=dict)  # named like a note, not a file
    unreadable: dict[str, str] = field(default_factory=dict)
    stray: list[str] = field(default_factory=list)

    def state(self) -> StoreState:
        """The writer's view of this store (what `memcli index` would render from)."""
        heads = {n: head_of(self.level, f.note) for n, f in self.notes.items()
                 if f.note is not None}
        broken = {n: f.problem or "unreadable" for n, f in self.notes.items() if f.note is None}
        broken.update({n: why for n, why in self.unreadable.items() if n != INDEX_NAME})
        index = self.index
        return StoreState(
            self.level, self.path, self.exists, heads=heads, broken=broken,
            unsafe=dict(self.odd), stray=list(self.stray),
            index_text=index.text if index else None, index_bytes=index.data if index else None,
        )

    @functools.cached_property
    def names(self) -> dict[str, str]:
        """Every file of the store by name_key (a later twin hides an earlier one)."""
        return {name_key(n): n for n in (*self.notes, *self.odd, *self.unreadable, *self.stray)}

    @functools.cached_property
    def shown(self) -> str:
        return display(self.path)

    def file(self, name: str) -> str:
        # Joined as text: a Path per file costs more than the rest of a 10,000-note check.
        return os.path.join(self.shown, name)


def scan_store(level: str, path: Path) -> StoreScan:
    listing = list_store(level, path)
    scan = StoreScan(level, path, exists=listing.exists)
    if listing.problem == "not a folder":
        scan.problem, scan.problem_code = "the store path is not a folder", "M308"
    elif listing.problem:
        scan.problem, scan.problem_code = f"cannot list the store ({listing.reason})", "M307"
    for entry in listing.entries:
        _scan_entry(scan, entry)
    return scan


def _scan_entry(scan: StoreScan, entry: StoreEntry) -> None:
    name = entry.name
    if entry.kind == "stray":
        scan.stray.append(name)
        return
    if entry.kind == "unsafe":
        scan.odd[name] = entry.why
        return
    try:
        data = read_bytes(entry.path)
    except OSError as exc:
        scan.unreadable[name] = exc.strerror or "cannot be read"
        return
    read = _read_file(name, entry.path, data)
    if entry.kind == "index":
        scan.index = read
    else:
        scan.notes[name] = read


def _read_file(name: str, path: str, data: bytes) -> FileScan:
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
        found = _ERROR_LINE.search(scan.problem)
        scan.problem_line = int(found.group(1)) if found else 1
    else:
        scan.too_complex = _too_complex(read.note)
    return scan


def _too_complex(note: Note) -> bool:
    """True when walking the frontmatter would visit too many values (aliases, nesting)."""
    nested = [v for v in note.meta.values() if isinstance(v, (list, dict))]
    if not nested:
        return False
    stack: list[tuple[Any, int]] = [(v, 1) for v in nested]
    seen = 0
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > MAX_YAML_NODES or depth > MAX_YAML_DEPTH:
            return True
        if isinstance(value, dict):
            stack.extend((child, depth + 1) for child in value.values())
        elif isinstance(value, list):
            stack.extend((child, depth + 1) for child in value)
    return False


# --------------------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    level: str
    path: Path


def targets(settings: Settings, paths: Iterable[str]) -> list[Target]:
    """The stores to check: both configured ones, or the store of each PATH."""
    wanted = [
        Target("project", settings.project_store),
        Target("user", settings.user_store),
    ]
    given = list(paths)
    if given:
        wanted = [Target(_level_of(settings, store), store) for store in map(_store_of, given)]
    unique: dict[Path, Target] = {}
    for target in wanted:
        unique.setdefault(_resolved(target.path), target)
    return list(unique.values())


def _store_of(raw: str) -> Path:
    path = Path(raw)
    path = path if path.is_absolute() else Path.cwd() / path
    if not path.exists() and not path.is_symlink():
        raise InputError(f"{raw}: no such file or folder; give a store folder or a file in one")
    named_like_store_file = path.name == INDEX_NAME or parse_note_name(path.name) is not None
    if path.is_dir() and not named_like_store_file:
        return path
    return path.parent


def _level_of(settings: Settings, store: Path) -> str:
    if _resolved(store) == _resolved(settings.user_store) != _resolved(settings.project_store):
        return "user"
    return "project"


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path


# --------------------------------------------------------------------------- entry point


def run_lint(settings: Settings, paths: Iterable[str], *, fix: bool) -> LintReport:
    """Check the stores (under their locks); with fix, repair what is safe and check again."""
    chosen = targets(settings, paths)
    report = LintReport()
    with locked([t.path for t in chosen], settings.lock_timeout):
        scans = [scan_store(t.level, t.path) for t in chosen]
        if fix:
            changes, report.fixed = plan_fixes(scans)
            if changes:
                commit(changes)
                scans = [scan_store(t.level, t.path) for t in chosen]
    report.findings = sorted(check(scans), key=_finding_order)
    report.stores = [
        CheckedStore(s.level, display(s.path), s.exists, len(s.notes)) for s in scans
    ]
    return report


def _finding_order(finding: Finding) -> tuple[str, int, int, str]:
    return finding.path, finding.line or 0, finding.column or 0, finding.code


def finding(code: str, path: str, line: int | None, message: str,
            column: int | None = None) -> Finding:
    return Finding(code, CODES[code][0], path, line, column, message)


def check(scans: list[StoreScan]) -> Iterator[Finding]:
    for scan in scans:
        yield from check_store(scan)
    levels = {s.level: s for s in scans if s.exists}
    if len(levels) == 2:
        yield from _both_levels(levels["project"], levels["user"])


def check_store(scan: StoreScan) -> Iterator[Finding]:
    if not scan.exists:
        return
    if scan.problem:
        yield finding(scan.problem_code, display(scan.path), None,
                      f"{scan.problem}; point the store setting at a readable folder")
        return
    state = scan.state()
    yield from _files(scan)
    yield from check_index(scan, state)
    for note in scan.notes.values():
        yield from check_note(scan, note)
    yield from _near_duplicates(scan)


def _files(scan: StoreScan) -> Iterator[Finding]:
    for name, why in scan.odd.items():
        yield finding("M306", scan.file(name), None,
                      f"{name} is {why}; replace it with a regular file or move it out")
    for name, why in scan.unreadable.items():
        yield finding("M307", scan.file(name), None,
                      f"cannot read {name} ({why}); fix its permissions")
    for name in scan.stray:
        yield from _stray(scan, name)
    for file in [scan.index, *scan.notes.values()]:
        if file is not None:
            yield from _text_problems(scan, file)


def _stray(scan: StoreScan, name: str) -> Iterator[Finding]:
    target = case_variant_target(name)
    if target is not None:
        yield finding("M208", scan.file(name), None,
                      f"{name} is not a note name as written; rename it to {target} "
                      "(`memcli lint --fix` does)")
        return
    yield finding("M305", scan.file(name), None,
                  f"{name} is not a note (<type>_<slug>.md) nor MEMORY.md; rename it to a "
                  "note name or move it out of the store")


def _text_problems(scan: StoreScan, file: FileScan) -> Iterator[Finding]:
    path = scan.file(file.name)
    if file.bad_byte is not None:
        line, column = _byte_position(file.data, file.bad_byte)
        yield finding("M301", path, line,
                      f"byte {file.bad_byte} is not valid UTF-8; re-save the file as UTF-8",
                      column)
    for secret in file.secrets:
        yield finding("M302", path, secret.line,
                      f"a secret ({secret.kind}) is stored here; revoke it, then run "
                      f"`memcli lint --fix` to replace it with {REDACTED}", secret.column)


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1


# --------------------------------------------------------------------------- the index


@dataclass
class _IndexLine:
    number: int
    text: str  # without its line end
    entry: IndexEntry | None


def _index_lines(text: str) -> list[_IndexLine]:
    """Lines as the writer splits them, numbered as an editor counts them (by '\\n')."""
    lines: list[_IndexLine] = []
    number = 1
    for piece in text.splitlines(keepends=True):
        bare = piece.rstrip("\r\n")
        lines.append(_IndexLine(number, bare, parse_line(piece)))
        number += piece.count("\n")
    return lines


def check_index(scan: StoreScan, state: StoreState) -> Iterator[Finding]:
    path = scan.file(INDEX_NAME)
    if scan.index is None:
        if INDEX_NAME in scan.odd or INDEX_NAME in scan.unreadable:
            return
        if state.heads:  # broken notes alone get no entry: their own findings say enough
            yield finding("M107", path, None,
                          "the store has notes but no MEMORY.md, so agents see none of them; "
                          "run `memcli lint --fix` or `memcli index`")
        return
    lines = _index_lines(scan.index.text)
    wanted = ordered(state.entries())
    found = list(_index_entries(scan, state, lines, path, wanted))
    yield from found
    yield from _index_long_lines(lines, path)
    yield from _index_budget(wanted, lines, path)
    structural = {"M101", "M102", "M103", "M104", "M105", "M201"}
    # A file that is not UTF-8 differs from any rewrite; M301 already says why.
    if scan.index.utf8 and not any(f.code in structural for f in found):
        yield from _index_layout(scan, wanted)


def _index_entries(scan: StoreScan, state: StoreState, lines: list[_IndexLine],
                   path: str, writer_order: list[IndexEntry]) -> Iterator[Finding]:
    known = {*state.heads, *state.broken}
    # Case and NFC twins are one note by SPEC; the exact name wins when both exist.
    twins = {name_key(n): n for n in known}
    from_notes = {e.filename: e for e in writer_order if e.filename in state.heads}
    first_line: dict[str, int] = {}
    listed: list[tuple[str, int]] = []
    for line in lines:
        if line.entry is None:
            if _looks_like_entry(line.text):
                yield finding("M101", path, line.number,
                              "this line looks like an index entry but does not parse; write it "
                              "as `- [type] Title — summary (file.md)` or delete it")
            continue
        name = line.entry.filename
        actual = name if name in known else twins.get(name_key(name))
        seen = actual if actual is not None else "\0" + name_key(name)
        if seen in first_line:
            if actual not in state.broken:  # the writer keeps every line of a broken note
                yield finding("M104", path, line.number,
                              f"{name} is already listed on line {first_line[seen]}; run "
                              "`memcli lint --fix` to keep one line")
            continue
        first_line[seen] = line.number
        if actual is None:
            yield finding("M102", path, line.number,
                          f"{name} does not exist in this store; run `memcli lint --fix` to "
                          "drop the line, or restore the note")
            continue
        listed.append((actual, line.number))
        wanted = from_notes.get(actual)
        if wanted is not None and line.text.rstrip(" \t\r") != render_line(wanted):
            yield finding("M103", path, line.number, _disagreement(line.entry, wanted))
    for name in state.heads:
        if name not in first_line:
            yield finding("M201", scan.file(name), 1,
                          f"{name} has no line in MEMORY.md, so agents never see it; run "
                          "`memcli lint --fix` or `memcli index`")
    yield from _index_order(listed, writer_order, path)


def _looks_like_entry(text: str) -> bool:
    match = _ENTRY_LIKE.match(text)
    if match is not None and canonical_type(match["type"]) is not None:
        return True
    return text.rstrip().endswith(".md)") and text.lstrip().startswith(("-", "*", "+"))


def _disagreement(line: IndexEntry, wanted: IndexEntry) -> str:
    said = parse_line(render_line(wanted))
    assert said is not None  # render_line always renders a parseable line
    fields = [
        name for name, a, b in (
            ("type", line.type, said.type), ("title", line.title, said.title),
            ("summary", line.summary, said.summary), ("file name", line.filename, said.filename),
        ) if a != b
    ]
    if not fields:
        return ("this line is not written the way memcli writes it; run `memcli lint --fix` "
                "to rewrite it from the note")
    what = " and ".join([", ".join(fields[:-1]), fields[-1]] if len(fields) > 1 else fields)
    return (f"the {what} on this line disagree{'s' if len(fields) == 1 else ''} with "
            f"{said.filename}; run `memcli lint --fix` to rewrite the line from the note")


def _index_order(listed: list[tuple[str, int]], writer_order: list[IndexEntry],
                 path: str) -> Iterator[Finding]:
    # The writer's order of every entry, narrowed to the ones listed: no second sort. (A line
    # that names a broken note by a twin name is not the writer's: M106 covers it.)
    order = dict.fromkeys(e.filename for e in writer_order)
    listed = [(name, number) for name, number in listed if name in order]
    names = {name for name, _ in listed}
    wanted = [name for name in order if name in names]
    for (name, number), want in zip(listed, wanted, strict=True):
        if name != want:
            yield finding("M105", path, number,
                          "the entries are not in the SPEC order (corrections, preferences, "
                          "knowledge, reference; newest first), so a trimmed index may drop "
                          "the newest; run `memcli lint --fix`")
            return


def _index_long_lines(lines: list[_IndexLine], path: str) -> Iterator[Finding]:
    for line in lines:
        if len(line.text) > MAX_LINE_CHARS:
            what = ("shorten the note's title or summary" if line.entry is not None
                    else "shorten it")
            yield finding("M109", path, line.number,
                          f"this line is {len(line.text)} characters long (more than "
                          f"{MAX_LINE_CHARS}); {what}")


def _index_budget(wanted: list[IndexEntry], lines: list[_IndexLine],
                  path: str) -> Iterator[Finding]:
    rough_bytes = sum(len(line.text) for line in lines if line.entry is not None)
    if len(wanted) < MAX_CONTEXT_LINES - 10 and rough_bytes * 4 < MAX_CONTEXT_BYTES:
        return  # comfortably inside the budget, whatever the encoding: skip the exact count
    # At most one entry per line fits, so only the first MAX_CONTEXT_LINES can ever be shown;
    # the count of the rest is exact up to a digit of the "N more" line.
    block = build_context(wanted[:MAX_CONTEXT_LINES], [])
    left_out = len(wanted) - block.shown
    if not left_out:
        return
    first_out = wanted[block.shown]
    number = next((ln.number for ln in lines if ln.entry is not None
                   and name_key(ln.entry.filename) == name_key(first_out.filename)), None)
    yield finding("M108", path, number,
                  f"{left_out} of {len(wanted)} entries (from {first_out.filename} on) "
                  f"do not fit the {MAX_CONTEXT_LINES}-line / {MAX_CONTEXT_BYTES // 1024} KiB "
                  "context budget and never reach an agent; merge or delete stale notes")


def _index_layout(scan: StoreScan, entries: list[IndexEntry]) -> Iterator[Finding]:
    assert scan.index is not None
    # What StoreState.rendered_index() writes, from the entries already computed.
    rendered = render_index(scan.index.text, entries)
    if rendered.encode() == scan.index.data:
        return
    wanted = rendered.splitlines(keepends=True)
    actual = scan.index.text.splitlines(keepends=True)
    number = 1
    for have, want in zip(actual, wanted, strict=False):
        if have != want:
            break
        number += have.count("\n")
    yield finding("M106", scan.file(INDEX_NAME), number,
                  "MEMORY.md is not laid out as memcli writes it (line ends, blank or "
                  "hand-written lines among the entries); run `memcli lint --fix`")


# --------------------------------------------------------------------------- notes


def check_note(scan: StoreScan, file: FileScan) -> Iterator[Finding]:
    path = scan.file(file.name)
    yield from _note_name(scan, file, path)
    if not file.utf8:
        return  # M301 says it; nothing else can be read reliably
    if file.no_frontmatter:
        yield finding("M202", path, 1,
                      "the note has no frontmatter; start it with a '---' block holding type, "
                      "title, summary, created and updated")
        return
    if file.note is None:
        # notes.py's messages mostly end in what to do already ("...; add one").
        how = "" if ";" in file.problem else "; fix the frontmatter"
        yield finding("M203", path, file.problem_line, file.problem + how)
        return
    note = file.note
    if file.too_complex:
        yield finding("M203", path, 2,
                      "the frontmatter nests too deeply or expands (YAML aliases) to more than "
                      f"{MAX_YAML_NODES} values; write plain keys and values")
    yield from _second_block(path, file, note)
    yield from _required_keys(path, file, note)
    yield from _dates(path, file, note)
    if not note.content.strip():
        yield finding("M209", path, _body_line(file, note),
                      "the note's body is empty; write what the agent should remember, or "
                      "delete the note")


def _note_name(scan: StoreScan, file: FileScan, path: str) -> Iterator[Finding]:
    target = canonical_name(file)
    if target is None or target == file.name:
        return
    have, want = parse_note_name(file.name), parse_note_name(target)
    assert have is not None and want is not None  # both are note names by construction
    why = ("its slug is not canonical (lower case, words joined by '-', NFC)"
           if have.type == want.type else "its type prefix does not match the frontmatter's type")
    holder = scan.names.get(name_key(target))
    if holder is not None and holder != file.name:
        how = f"{holder} already exists, so merge the two notes by hand"
    elif not repairable(file):
        how = f"fix the note, then rename it to {target}"
    else:
        how = f"rename it to {target} (`memcli lint --fix` does)"
    yield finding("M208", path, None, f"{file.name} does not match the note: {why}; {how}")


def canonical_name(file: FileScan) -> str | None:
    parsed = parse_note_name(file.name)
    if parsed is None:
        return None
    note_type = parsed.type
    if file.note is not None and isinstance(file.note.meta.get("type"), str):
        note_type = canonical_type(file.note.meta["type"]) or note_type
    return note_filename(note_type, _canonical_slug(parsed.slug))


def _canonical_slug(slug: str) -> str:
    # slugify costs a Unicode lookup per character; plain ASCII slugs are canonical as they are.
    if len(slug) <= 64 and _ASCII_SLUG.fullmatch(slug):
        return slug
    return slugify(slug)


def case_variant_target(name: str) -> str | None:
    """The note name a stray file would have in lower case (`Project_Knowledge_X.MD`)."""
    lowered = unicodedata.normalize("NFC", name).lower()
    parsed = parse_note_name(lowered)
    if parsed is None or lowered == name:
        return None
    return note_filename(parsed.type, slugify(parsed.slug))


def _key_line(note: Note, key: str) -> int:
    pattern = re.compile(rf"^{re.escape(key)}[ \t]*:")
    for number, line in enumerate(note.frontmatter.splitlines(), start=2):
        if pattern.match(line):
            return number
    return 1


def _body_line(file: FileScan, note: Note) -> int:
    start = len(file.text) - len(note.body)
    return file.text.count("\n", 0, start) + 1


def _second_block(path: str, file: FileScan, note: Note) -> Iterator[Finding]:
    lines = note.body.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None or lines[start].strip() != "---":
        return
    for line in lines[start + 1: start + 200]:
        if line.strip() in ("---", "..."):
            return
        if _KNOWN_KEY.match(line):
            yield finding("M204", path, _body_line(file, note) + start,
                          "a second frontmatter block follows the first; merge the two into "
                          "one block by hand")
            return


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _required_keys(path: str, file: FileScan, note: Note) -> Iterator[Finding]:
    for key in REQUIRED_TEXT_KEYS:
        value = note.meta.get(key)
        if _blank(value):
            how = {"type": "add `type:` (`memcli lint --fix` takes it from the file name)",
                   "title": "add a `title:`",
                   "summary": "add a one-sentence `summary:` (`memcli lint --fix` takes the "
                              "body's first sentence)"}[key]
            yield finding("M205", path, _key_line(note, key),
                          f"the frontmatter has no {key}; {how}")
        elif not isinstance(value, str):
            yield finding("M205", path, _key_line(note, key),
                          f"`{key}` is a YAML {type(value).__name__}, not text; quote it")
        elif key == "type" and value not in NOTE_TYPES:
            known = canonical_type(value)
            how = (f"write `type: {known}` (`memcli lint --fix` does)" if known
                   else f"use one of {', '.join(NOTE_TYPES)}")
            yield finding("M207", path, _key_line(note, key),
                          f"'{clip(value)}' is not a note type; {how}")


def parse_date(value: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _dates(path: str, file: FileScan, note: Note) -> Iterator[Finding]:
    moments: dict[str, datetime] = {}
    for key in DATE_KEYS:
        value = note.meta.get(key)
        if _blank(value):
            yield finding("M206", path, _key_line(note, key),
                          f"the frontmatter has no {key}; add it as an ISO 8601 time "
                          "(`memcli lint --fix` uses the file's modification time)")
            continue
        moment = parse_date(value) if isinstance(value, str) else None
        if moment is None:
            yield finding("M210", path, _key_line(note, key),
                          f"{key} is not an ISO 8601 date or time; write it like "
                          "2026-11-29T10:00:00Z")
            continue
        moments[key] = moment
    if len(moments) == 2 and moments["created"] > moments["updated"]:
        yield finding("M211", path, _key_line(note, "created"),
                      "created is later than updated; correct one of the two")


# --------------------------------------------------------------------------- duplicates


def title_tokens(title: str) -> list[str]:
    """Words of a title that decide whether two titles say the same thing."""
    words = _WORD.findall(title_key(title))
    kept = [w for w in words if w not in _STOPWORDS] or words
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in kept]


def near_duplicates(titles: Iterable[tuple[str, str]]) -> dict[str, str]:
    """File name -> an earlier file whose title says nearly the same.

    Near means: the same words in any order, spacing or plural; the same letters with
    different word breaks ("work-flow"); or one word more or less among four or more.
    Bucketed by keys, so a store of n notes costs O(n * words), never O(n^2).
    """
    by_words: dict[frozenset[str], str] = {}
    by_joined: dict[str, str] = {}
    by_minus_one: dict[frozenset[str], str] = {}
    found: dict[str, str] = {}
    for filename, title in sorted(titles):
        tokens = title_tokens(title)
        if not tokens:
            continue
        words, joined = frozenset(tokens), "".join(tokens)
        minus_one = ([words - {w} for w in words]
                     if 4 <= len(words) <= _MAX_NEAR_TOKENS else [])
        match = (by_words.get(words) or by_joined.get(joined) or by_minus_one.get(words)
                 or next((by_words[m] for m in minus_one if m in by_words), None))
        if match is not None:
            found[filename] = match
        by_words.setdefault(words, filename)
        by_joined.setdefault(joined, filename)
        for smaller in minus_one:
            by_minus_one.setdefault(smaller, filename)
    return found


def _titles(scan: StoreScan) -> Iterator[tuple[str, str]]:
    for name, file in scan.notes.items():
        if file.note is not None and isinstance(file.note.meta.get("title"), str):
            yield name, file.note.title


def _near_duplicates(scan: StoreScan) -> Iterator[Finding]:
    titles = dict(_titles(scan))
    for name, earlier in near_duplicates(titles.items()).items():
        note = scan.notes[name].note
        assert note is not None
        yield finding("M303", scan.file(name), _key_line(note, "title"),
                      f"the title '{clip(titles[name])}' nearly repeats "
                      f"'{clip(titles[earlier])}' ({earlier}); merge the two notes or make "
                      "the titles distinct")


def _both_levels(project: StoreScan, user: StoreScan) -> Iterator[Finding]:
    user_names = {name_key(n): n for n in user.notes}
    user_titles = {title_key(t): n for n, t in _titles(user)}
    project_titles = dict(_titles(project))
    for name in project.notes:
        twin = user_names.get(name_key(name))
        if twin is None and name in project_titles:
            twin = user_titles.get(title_key(project_titles[name]))
        if twin is not None:
            yield finding("M304", project.file(name), 1,
                          f"the user store holds the same note ({user.file(twin)}); keep it "
                          "in one level")


# --------------------------------------------------------------------------- --fix


@dataclass
class _StoreFix:
    """What --fix will write in one store: new note bytes by (new) name, and removals."""

    scan: StoreScan
    notes: dict[str, NoteHead]  # the notes as the fixes leave them
    writes: dict[str, bytes] = field(default_factory=dict)
    removes: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)


def plan_fixes(scans: list[StoreScan]) -> tuple[list[Change], list[str]]:
    """The changes that repair what can be repaired without losing anything."""
    changes: list[Change] = []
    done: list[str] = []
    for scan in scans:
        if not scan.exists or scan.problem:
            continue
        plan = _fix_store(scan)
        changes.extend(Change(scan.path, name, data) for name, data in plan.writes.items())
        changes.extend(Change(scan.path, name, None) for name in plan.removes)
        done.extend(plan.done)
    return changes, done


def _fix_store(scan: StoreScan) -> _StoreFix:
    state = scan.state()
    plan = _StoreFix(scan, dict(state.heads))
    plan.taken = {name_key(n) for n in (*scan.notes, *scan.odd, *scan.unreadable, *scan.stray)}
    for name, file in scan.notes.items():
        _fix_note(plan, name, file)
    for name in scan.stray:
        _fix_stray(plan, name)
    _fix_index(plan, state)
    return plan


def _fix_note(plan: _StoreFix, source: str, file: FileScan) -> None:
    """Repair one file; `file` is `source` as read, under the name it should have."""
    fixable = repairable(file)
    data, what = _repaired(file, file.note) if file.note and fixable else (None, [])
    # A broken note keeps its name: its old index line, all it has, is found by that name.
    candidates = [canonical_name(file), file.name] if fixable else [file.name]
    target = next((c for c in candidates if c is not None
                   and (c == source or _claim(plan, source, c))), source)
    if data is None and target == source:
        return
    data = data if data is not None else file.data
    try:
        fixed: Note | None = parse_note(target, data)
    except BrokenNoteError:
        if fixable:
            return  # a repair that breaks the note is no repair
        fixed = None
    plan.writes[target] = data
    plan.notes.pop(source, None)
    if fixed is not None:
        plan.notes[target] = head_of(plan.scan.level, fixed)
    if target != source:
        plan.removes.append(source)
        what.append(f"renamed it to {target}")
    plan.done.append(f"{plan.scan.file(source)}: {'; '.join(what)}")


def repairable(file: FileScan) -> bool:
    """--fix only edits notes it could parse completely."""
    return file.note is not None and not file.too_complex and file.utf8


def _claim(plan: _StoreFix, source: str, target: str) -> bool:
    """Reserve a free file name for a rename; a twin of the source itself is fine."""
    key = name_key(target)
    if key != name_key(source) and key in plan.taken:
        return False
    on_disk = plan.scan.path / target
    # On a case-insensitive file system the "new" name is the old file: writing it and then
    # removing the old name would remove the note, so such a rename is left to a person.
    if on_disk.exists() or on_disk.is_symlink():
        return False
    plan.taken.add(key)
    return True


def _fix_stray(plan: _StoreFix, name: str) -> None:
    """A note in the wrong case (`Project_Knowledge_X.MD`) is renamed and repaired at once."""
    target = case_variant_target(name)
    path = plan.scan.path / name
    if target is None or path.is_symlink() or not path.is_file():
        return
    try:
        data = path.read_bytes()
    except OSError:
        return
    file = _read_file(target, str(path), data)
    _fix_note(plan, name, file)


def _repaired(file: FileScan, note: Note) -> tuple[bytes | None, list[str]]:
    """New bytes for a note whose keys can be completed or whose secrets redacted."""
    changes: dict[str, Any] = {}
    what: list[str] = []
    body = note.body
    if file.secrets:  # the scan of the whole file already said whether there is any
        body, secrets = redact(note.body)
        for key, value in note.meta.items():
            clean, found = _redacted(value)
            if found:
                changes[key] = clean
                secrets.extend(found)
        if secrets:
            what.append(f"redacted {describe(secrets)}")
    _complete_keys(file, note, body, changes, what)
    if not changes and body == note.body:
        return None, what
    try:
        data = render_updated_note(dataclasses.replace(note, body=body), changes, None)
    except (yaml_error(), RecursionError, ValueError):
        return None, []
    return (data, what) if data != file.data else (None, [])


def _redacted(value: Any) -> tuple[Any, list[SecretFinding]]:
    """A frontmatter value with every string in it redacted (walked only when not too complex:
    the caller checked)."""
    if isinstance(value, str):
        return redact(value)
    found: list[SecretFinding] = []
    if isinstance(value, list):
        items = [_redacted(item) for item in value]
        found = [f for _, fs in items for f in fs]
        return ([v for v, _ in items] if found else value), found
    if isinstance(value, dict):
        pairs = {k: _redacted(v) for k, v in value.items()}
        found = [f for _, fs in pairs.values() for f in fs]
        return ({k: v for k, (v, _) in pairs.items()} if found else value), found
    return value, found


def _complete_keys(file: FileScan, note: Note, body: str, changes: dict[str, Any],
                   what: list[str]) -> None:
    added: dict[str, str] = {}
    parsed = parse_note_name(file.name)
    value = note.meta.get("type")
    known = canonical_type(value) if isinstance(value, str) else None
    if _blank(value) and parsed is not None:
        added["type"] = parsed.type
    elif known is not None and known != value:
        added["type"] = known
    content = body.replace("\r\n", "\n").strip("\n")
    if _blank(note.meta.get("summary")) and content.strip():
        summary = derive_summary(content)
        if summary.strip():  # a body of only markup gives nothing to summarise
            added["summary"] = summary
    added.update(_missing_dates(file, note))
    if added:
        changes.update(added)
        what.append(f"set {', '.join(added)}")


def _missing_dates(file: FileScan, note: Note) -> dict[str, str]:
    missing = [k for k in DATE_KEYS if _blank(note.meta.get(k))]
    if not missing:
        return {}
    try:
        mtime = datetime.fromtimestamp(os.stat(file.path).st_mtime, UTC)
    except OSError:
        mtime = datetime.now(UTC)
    created, updated = (_date_of(note.meta.get(k)) for k in DATE_KEYS)
    # Keep created <= updated, so that filling one in never makes a new finding.
    chosen = {
        "created": min(mtime, updated) if updated is not None else mtime,
        "updated": max(mtime, created) if created is not None else mtime,
    }
    return {k: now_iso(chosen[k]) for k in missing}


def _date_of(value: Any) -> datetime | None:
    return parse_date(value) if isinstance(value, str) else None


def _fix_index(plan: _StoreFix, state: StoreState) -> None:
    scan = plan.scan
    index = scan.index
    if index is not None and not index.utf8:
        return  # rebuilding would turn the bad bytes of a person's header into U+FFFD
    if index is None and (INDEX_NAME in scan.odd or INDEX_NAME in scan.unreadable):
        return
    if index is None and not plan.notes:
        return
    after = dataclasses.replace(state, heads=plan.notes)
    text, secrets = redact(after.rendered_index())
    data = text.encode()
    if index is not None and data == index.data:
        return
    plan.writes[INDEX_NAME] = data
    what = "wrote it from the notes" if index is None else "rebuilt it from the notes"
    if secrets:
        what += f" and redacted {describe(secrets)}"
    plan.done.append(f"{scan.file(INDEX_NAME)}: {what}")
