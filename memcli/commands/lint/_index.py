"""Checks of MEMORY.md against the notes: what `memcli index` would rewrite, and why."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from memcli.commands.lint._report import Finding, finding
from memcli.commands.lint._scan import StoreScan
from memcli.store.folder import StoreState
from memcli.store.index import (
    MAX_CONTEXT_BYTES,
    MAX_CONTEXT_LINES,
    IndexEntry,
    assemble_index,
    is_own_line,
    is_written_as,
    iter_lines,
    ordered,
    parse_line,
    render_line,
    split_lines,
)
from memcli.store.names import INDEX_NAME, canonical_type, name_key
from memcli.value_types import FrozenRecord

MAX_LINE_CHARS = 200


_ENTRY_LIKE = re.compile(r"^\s*[-*+]\s*\[\s*(?P<type>[^\]]{1,40})\]")


class _IndexLine(FrozenRecord):
    """One line of MEMORY.md, kept small: a 100,000-line index is read whole."""

    __slots__ = __match_args__ = ("number", "length", "filename", "text", "entry")
    number: Final[int]
    length: Final[int]  # characters, without the line end
    filename: Final[str | None]  # the entry's file name; None when the line is not an entry
    # Kept only where a check needs them: the whole line (end included) when it is not an
    # entry, the text and the parsed entry when it differs from its note's rendered line.
    text: Final[str | None]
    entry: Final[IndexEntry | None]

    def __init__(self, number: int, length: int, filename: str | None,
                 text: str | None = None, entry: IndexEntry | None = None) -> None:
        self.number = number
        self.length = length
        self.filename = filename
        self.text = text
        self.entry = entry


def _index_lines(text: str, rendered: dict[str, tuple[IndexEntry, str]],
                 own: dict[str, str]) -> list[_IndexLine]:
    """Lines as the writer splits them, numbered as an editor counts them (by '\\n');
    RENDERED holds each note's entry and its line as the writer renders it, OWN those of
    its lines parse_line certainly reads back (:func:`memcli.store.index.own_lines`)."""
    lines: list[_IndexLine] = []
    number = 1
    for piece in iter_lines(text):
        # A note's own rendered line (the common case) needs no parsing: it is that entry.
        ended = piece.endswith("\n")
        name = own.get(piece[:-1] if ended else piece)
        if name is not None:
            lines.append(_IndexLine(number, len(piece) - ended, name))
            number += ended
            continue
        lines.append(_index_line(number, piece, rendered))
        number += piece.count("\n")
    return lines


def _index_line(number: int, piece: str, rendered: dict[str, tuple[IndexEntry, str]]
                ) -> _IndexLine:
    bare = piece.rstrip("\r\n")
    entry = parse_line(piece)
    if entry is None:
        return _IndexLine(number, len(bare), None, piece)
    note = rendered.get(entry.filename)
    if note is not None and note[1] == bare:
        # The note's own name string, not a copy parsed out of the line.
        return _IndexLine(number, len(bare), note[0].filename)
    return _IndexLine(number, len(bare), entry.filename, bare, entry)


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
    wanted = ordered(state.entries())
    rendered, from_notes, own = _rendered(wanted, state)
    lines = _index_lines(scan.index.text, from_notes, own)
    # The layout is compared on the bytes: the decoded text (twice their size for an index
    # of 100,000 lines, an em dash on each) is not needed past here.
    scan.index.text = ""
    found = list(_index_entries(scan, state, lines, path, wanted, from_notes))
    yield from found
    yield from _index_long_lines(lines, path)
    yield from _index_budget(wanted, rendered, lines, path)
    structural = {"M101", "M102", "M103", "M104", "M105", "M201"}
    # A file that is not UTF-8 differs from any rewrite; M301 already says why.
    if scan.index.utf8 and not any(f.code in structural for f in found):
        yield from _index_layout(scan, lines, rendered)


def _rendered(wanted: list[IndexEntry], state: StoreState) -> tuple[
        list[str], dict[str, tuple[IndexEntry, str]], dict[str, str]]:
    """Each entry's line as the writer renders it, once (compared line by line, then laid
    out); each note's entry and line by file name; the lines parse_line certainly reads back
    as their note's, by line. One pass: on 100,000 notes each pass over them costs more."""
    rendered: list[str] = []
    from_notes: dict[str, tuple[IndexEntry, str]] = {}
    own: dict[str, str] = {}
    heads = state.heads
    for entry in wanted:
        line = render_line(entry)
        rendered.append(line)
        name = entry.filename
        if name in heads:
            from_notes[name] = (entry, line)
            if is_own_line(entry):
                own[line] = name
    return rendered, from_notes, own


def _index_entries(scan: StoreScan, state: StoreState, lines: list[_IndexLine],
                   path: str, writer_order: list[IndexEntry],
                   from_notes: dict[str, tuple[IndexEntry, str]]) -> Iterator[Finding]:
    heads, broken = state.heads, state.broken
    # Case and NFC twins are one note (one file on a case-insensitive or normalising file
    # system); the exact name wins when both exist. The twins are keyed only when a line
    # names no note exactly (on 100,000 notes the keys cost more than the rest of this loop).
    twins: dict[str, str] | None = None
    first_line: dict[str, int] = {}
    listed: list[tuple[str, int]] = []
    for line in lines:
        name = line.filename
        if name is None:
            if _looks_like_entry(line.text or ""):
                yield finding("M101", path, line.number,
                              "this line looks like an index entry but does not parse; write it "
                              "as `- [type] Title — summary (file.md)` or delete it")
            continue
        if name in heads or name in broken:
            actual: str | None = name
        else:
            twins = _twins(state) if twins is None else twins
            actual = twins.get(name_key(name))
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
        # A line kept no text when it is its own note's rendered line exactly.
        if wanted is not None and line.entry is not None and line.text is not None \
                and line.text.rstrip(" \t\r") != wanted[1]:
            yield finding("M103", path, line.number, _disagreement(line.entry, wanted[0]))
    for name in state.heads:
        if name not in first_line:
            yield finding("M201", scan.file(name), 1,
                          f"{name} has no line in MEMORY.md, so agents never see it; run "
                          "`memcli lint --fix` or `memcli index`")
    yield from _index_order(listed, writer_order, path)


def _twins(state: StoreState) -> dict[str, str]:
    twins = {}
    for n in (*state.heads, *state.broken):
        key = name_key(n)
        twins[n if key == n else key] = n  # most names are their own key: one string
    return twins


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
                          "the entries are not in memcli's order (corrections, preferences, "
                          "knowledge, reference; newest first), so a trimmed index may drop "
                          "the newest; run `memcli lint --fix`")
            return


def _index_long_lines(lines: list[_IndexLine], path: str) -> Iterator[Finding]:
    for line in lines:
        if line.length > MAX_LINE_CHARS:
            what = ("shorten the note's title or summary" if line.filename is not None
                    else "shorten it")
            yield finding("M109", path, line.number,
                          f"this line is {line.length} characters long (more than "
                          f"{MAX_LINE_CHARS}); {what}")


# At most what the context block adds around one level's entries when it leaves some out
# (two headings, the other level's "(none)", blank lines, the "N more" line); a test holds
# memcli.store.context_block to it.
FRAME_LINES = 10
FRAME_BYTES = 256


def _index_budget(wanted: list[IndexEntry], rendered: list[str], lines: list[_IndexLine],
                  path: str) -> Iterator[Finding]:
    """M108 for WANTED (the notes' entries in the writer's order, RENDERED their lines)."""
    rough_bytes = sum(line.length for line in lines if line.filename is not None)
    if len(wanted) < MAX_CONTEXT_LINES - 10 and rough_bytes * 4 < MAX_CONTEXT_BYTES:
        return  # comfortably inside the budget, whatever the encoding: skip the exact count
    if len(wanted) <= MAX_CONTEXT_LINES - FRAME_LINES and sum(
            len(line.encode()) + 1 for line in rendered) <= MAX_CONTEXT_BYTES - FRAME_BYTES:
        return  # every entry fits beside the largest frame: the block would show them all
    from memcli.store.context_block import build_context  # a store near the budget only

    # At most one entry per line fits, so only the first MAX_CONTEXT_LINES can ever be shown;
    # the count of the rest is exact up to a digit of the "N more" line.
    block = build_context(wanted[:MAX_CONTEXT_LINES], [])
    left_out = len(wanted) - block.shown
    if not left_out:
        return
    first_out = wanted[block.shown]
    number = next((ln.number for ln in lines if ln.filename is not None
                   and name_key(ln.filename) == name_key(first_out.filename)), None)
    yield finding("M108", path, number,
                  f"{left_out} of {len(wanted)} entries (from {first_out.filename} on) "
                  f"do not fit the {MAX_CONTEXT_LINES}-line / {MAX_CONTEXT_BYTES // 1024} KiB "
                  "context budget and never reach an agent; merge or delete stale notes")


def _index_layout(scan: StoreScan, lines: list[_IndexLine],
                  entry_lines: list[str]) -> Iterator[Finding]:
    assert scan.index is not None
    data = scan.index.data
    # What StoreState.rendered_index() writes, from the lines already parsed and rendered.
    parts = split_lines([(line.text or "", line.filename is not None) for line in lines])
    if is_written_as(data, parts, entry_lines):
        return
    wanted = assemble_index(parts, entry_lines).splitlines(keepends=True)
    actual = data.decode().splitlines(keepends=True)
    number = 1
    for have, want in zip(actual, wanted, strict=False):
        if have != want:
            break
        number += have.count("\n")
    yield finding("M106", scan.file(INDEX_NAME), number,
                  "MEMORY.md is not laid out as memcli writes it (line ends, blank or "
                  "hand-written lines among the entries); run `memcli lint --fix`")
