"""``--last-turn`` from the end of a JSON-lines file: only the last turn's records are parsed.

A hook reads the newest turn of a session after every turn; parsing a long session whole
for it costs time and memory that grow with the session. Instead a window at the end of
the file is read, doubling until it holds the turn: the last line a person typed, and
everything the steps after reading need to treat that turn exactly as a whole read would.
What could make the rest of the file matter is checked, and when the window cannot settle
it the caller reads the whole file:

- Claude Code's uuid chain: the turn's start must be on the newest line's own walk back
  within the window, so that the chain puts it, and what follows it, where a whole read does.
- A copy a tool writes for its UI (an echo) is dropped when its original is anywhere in the
  file: an echo the window cannot match grows the window.
- Gemini CLI rewrites a message under its id and retracts from an id on: an id the window
  holds that also appears before it grows the window back to it.
- A Codex subagent is told by the file's first ``session_meta`` header.
- Claude Code's sidechain lines are a conversation only in a subagent's own file, an input
  of nothing but them: it has no line the person typed, so its window grows to the whole
  file, and a window of a session's sidechain lines alone grows until it holds the session's.
- A print-mode stream's closing result is compared with its turn's replies, which start
  at the turn's prompt; pieces of one streamed message are joined into the first.
- Bare chat lines whose format is decided by the whole file's counts (a legacy Codex
  rollout's Responses messages, ``{role, content}`` lines), a line that is not one JSON
  value (other than a last line cut short), and a window that mixes Claude Code with other
  formats are read whole.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from memcli import compiled_regex as rx
from memcli.transcripts import order
from memcli.transcripts.detect import WHOLE_INPUT_PASSES
from memcli.transcripts.formats import copilot_chat
from memcli.transcripts.formats.claude import settle_sidechains
from memcli.transcripts.formats.cline import task_as_text
from memcli.transcripts.formats.codex import mark_subagent
from memcli.transcripts.formats.headless import (
    RESULT_FORMATS,
    drop_repeated_results,
    join_deltas,
)
from memcli.transcripts.json_input import describe
from memcli.transcripts.model import Entry, Options, Transcript
from memcli.transcripts.pipeline import Prepared, finish, prepare
from memcli.transcripts.select import Sourced, is_typed, visible_pieces
from memcli.transcripts.source import Blob

FIRST_WINDOW = 256 * 1024
# A last turn longer than this is read with the whole file (a streamed read: its memory is
# bounded too, its time is not).
MOST = 8 * 1024 * 1024
_BLOCK = 1024 * 1024
_DECODER = json.JSONDecoder(strict=False)
_PLAIN_ID = rx.compile(r"[A-Za-z0-9_.:+/=-]{1,200}")
_BOM = b"\xef\xbb\xbf"
# The passes over the whole input whose reach this module knows (see _settled): with any
# other, every last turn is read whole until this module learns what that pass looks at.
# task_as_text reads only a whole JSON document, which is never read from its end.
_KNOWN_PASSES = (mark_subagent, settle_sidechains, drop_repeated_results, join_deltas,
                 task_as_text)
# The formats join_deltas joins the pieces of (records marked as a piece of a message).
_DELTA_FORMATS = frozenset({"gemini-stream-json", "cursor-stream-json"})


@dataclass(frozen=True)
class _Grow:
    """The window is too short; ``to`` is a byte it must reach back to, when known."""

    to: int | None = None


_WHOLE = object()  # the end alone cannot tell: read the whole file


@dataclass(frozen=True)
class Window:
    """A last turn read from the end, and the bytes it was read from: the file's first
    ``head`` bytes (a Codex rollout's header line, which a window past it reads first; 0
    when none) and everything from ``start`` on (0: the whole file). Those bytes alone,
    copied in that order, read as a whole file give the same last turn."""

    transcript: Transcript
    start: int
    head: int = 0


def read_last_turn(blob: Blob, opts: Options, first_window: int = FIRST_WINDOW,
                   most: int = MOST) -> Transcript | None:
    """The last turn of ``blob`` (UTF-8 JSON lines), exactly as a whole read with
    ``last_turn`` gives its messages; None when only a whole read can tell."""
    window = last_turn_window(blob, opts, first_window, most)
    return None if window is None else window.transcript


def last_turn_window(blob: Blob, opts: Options, first_window: int = FIRST_WINDOW,
                     most: int = MOST) -> Window | None:
    """:func:`read_last_turn`, with where its window starts."""
    if not set(WHOLE_INPUT_PASSES) <= set(_KNOWN_PASSES):
        return None
    first, first_end = _first_value(blob)
    if copilot_chat.is_snapshot(first):
        return None  # a VS Code change log: its state is the whole log replayed
    header = first if _is_header(first) else None
    want = max(first_window, 1)
    while True:
        window = _window(blob, blob.size - want)
        outcome = _Grow() if window is None else _attempt(blob, *window, opts, header)
        if isinstance(outcome, Transcript) and window is not None:
            start = window[0]
            return Window(outcome, start, first_end if header is not None and start else 0)
        if not isinstance(outcome, _Grow) or want >= blob.size:
            return None  # the end cannot tell, or the window was the whole file already
        reach = blob.size - _line_start(blob, outcome.to) if outcome.to is not None else 0
        want = max(want * 2, reach)
        if want > most and blob.size > most:
            return None


def _window(blob: Blob, pos: int) -> tuple[int, bytes] | None:
    """The bytes from the first line start at or after ``pos`` to the end of the file."""
    if pos <= 0:
        return 0, blob.read(0, blob.size)
    data = blob.read(pos - 1, blob.size)
    newline = data.find(b"\n")
    if newline < 0:
        return None
    return pos + newline, data[newline + 1:]


def _line_start(blob: Blob, pos: int) -> int:
    newline = _find_before(blob, pos, [b"\n"])
    return 0 if newline is None else newline + 1


def _attempt(blob: Blob, start: int, data: bytes, opts: Options,
             header: Any) -> Transcript | _Grow | object:
    """The window's read, or what to do instead. ``header`` is the file's first line when
    it is a Codex header: a window past it reads it first, as the whole file does."""
    whole = start == 0
    text = _decoded(data, whole)
    if text is None:
        return _WHOLE
    parsed = _values(text)
    if parsed is None:
        return _WHOLE
    values, broken = parsed
    prepared = prepare([header, *values] if header is not None and not whole else values,
                       opts, None, replay=whole)
    ordered = order.conversation_order(prepared.entries, prepared.dropped)
    by_entry = [(e, visible_pieces([e], opts, prepared.dropped)) for e in ordered]
    if not whole:
        verdict = _settled(blob, start, prepared, by_entry, header is not None)
        if verdict is not None:
            return verdict
    pieces = [p for _, shown in by_entry for p in shown]
    lines, first = describe(text)
    found = finish(prepared, pieces, opts, None, broken=broken, lines=lines, first_line=first)
    if not whole and "plain" in found.message_formats:
        return _WHOLE  # which format a bare line belongs to is the whole file's majority
    return found


def _decoded(data: bytes, whole: bool) -> str | None:
    if whole and data.startswith(_BOM):
        data = data[len(_BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason != "unexpected end of data" or exc.end != len(data):
            return None  # the whole read says where
        text = data[: exc.start].decode("utf-8")
    return text.removeprefix("\ufeff") if whole else text


def _values(text: str) -> tuple[list[Any], int] | None:
    """Each line's JSON value; None when a whole read might see other values in them.

    A whole read takes a line that is not one JSON value by itself as the start of a value
    over several lines (a pretty-printed record). The last line of such a value never is
    one by itself (its brackets, or its quotes, do not balance alone), so when every line
    of the window is, none of them belongs to a value that began before it. A last line
    that is not (a record cut short as the agent writes it) is skipped as a whole read
    skips it, unless it ends the way such a value ends.
    """
    lines = text.split("\n")
    last = max((i for i, line in enumerate(lines) if line and not line.isspace()), default=-1)
    values: list[Any] = []
    decode = _DECODER.decode
    for i, line in enumerate(lines):
        if not line or line.isspace():
            continue
        try:
            values.append(decode(line))
        except (ValueError, RecursionError):
            if i != last or line.rstrip(" \t\r").endswith(("}", "]", '"')):
                return None
            return values, 1
    return values, 0


def _settled(blob: Blob, start: int, prepared: Prepared,
             by_entry: list[tuple[Entry, list[Sourced]]], header: bool) -> _Grow | object | None:
    """None when the window gives what a whole read gives; else what to do. Only what is
    at or after the turn's start can change the turn: what comes before it is left out."""
    entries = prepared.entries
    turn = _turn_start(by_entry)
    if turn is None:
        return _Grow()
    if any(e.fmt == "claude-code" for e in entries):
        if any(e.fmt != "claude-code" and e.pieces for e in entries):
            return _WHOLE  # the chain orders Claude Code's lines among the others'
        return None if turn.seq in order.claude_leaf_segment(entries) else _Grow()
    # Without Claude Code's chain the entries are in file order.
    later = [e for e in entries if e.seq >= turn.seq]
    return _turn_settled(turn, later) or _history_settled(blob, start, later, header)


def _turn_settled(turn: Entry, later: list[Entry]) -> _Grow | object | None:
    """What the turn's own records say about the rest of the file."""
    if any(e.fmt == "openai" for e in later):
        return _WHOLE  # a legacy Codex rollout's messages are told by the whole file's counts
    if turn.fmt not in RESULT_FORMATS and any(e.fmt in RESULT_FORMATS for e in later):
        return _WHOLE  # what a closing result repeats is counted from its turn's start
    if turn.fmt in _DELTA_FORMATS and (turn.rec.get("delta") is True
                                       or turn.rec.get("subtype") == "delta"):
        return _WHOLE  # a piece of a message that may have begun before the window
    if any(p.echo and p.text.strip() for e in later for p in e.pieces or ()):
        return _Grow()  # its original may be earlier
    return None


def _history_settled(blob: Blob, start: int, later: list[Entry], header: bool
                     ) -> _Grow | object | None:
    """What the file before the window says about the turn: whose rollout it is, and the
    Gemini messages the turn's records rewrite or retract."""
    if not header and any(e.fmt == "codex" for e in later) and _find_before(
            blob, start, [b'"session_meta"']) is not None:
        return _WHOLE  # the first header is not the first line
    gemini = _gemini_ids(later)
    if gemini is None:
        return _WHOLE
    if gemini and (earlier := _find_ids_before(blob, start, gemini)) is not None:
        return _Grow(earlier)
    return None


def _turn_start(by_entry: list[tuple[Entry, list[Sourced]]]) -> Entry | None:
    for entry, shown in reversed(by_entry):
        if any(is_typed(p) and not p.mid_turn for _, p in shown):
            return entry
    return None


def _gemini_ids(entries: list[Entry]) -> set[bytes] | None:
    """The ids of the window's Gemini messages and rewinds; None when one is not plain
    enough to be found by its bytes."""
    ids: set[str] = set()
    for e in entries:
        if e.fmt != "gemini":
            continue
        for key in ("id", "$rewindTo"):
            value = e.rec.get(key)
            if isinstance(value, str):
                ids.add(value)
    if any(_PLAIN_ID.fullmatch(i) is None for i in ids):
        return None
    return {i.encode() for i in ids}


# A record's own id, as a record holding one has it written (a nested "id" is found too:
# the window then grows further than it had to, never less).
_ID_FIELD = re.compile(rb'"id"[ \t\r\n]*:[ \t\r\n]*"([A-Za-z0-9_.:+/=-]{1,200})"')
_ID_FIELD_MOST = 220


def _find_ids_before(blob: Blob, end: int, ids: set[bytes]) -> int | None:
    """The last position before ``end`` of an ``"id": "X"`` with X one of ``ids``, in one
    pass backwards a block at a time, however many ids there are."""
    hi = end
    while hi > 0:
        lo = max(hi - _BLOCK, 0)
        block = blob.read(lo, min(hi + _ID_FIELD_MOST, end))
        found = [m.start() for m in _ID_FIELD.finditer(block)
                 if m.group(1) in ids and lo + m.start() < hi]
        if found:
            return lo + found[-1]
        hi = lo
    return None


def _find_before(blob: Blob, end: int, needles: list[bytes]) -> int | None:
    """The last position before ``end`` where one of ``needles`` starts, read backwards a
    block at a time."""
    overlap = max(len(n) for n in needles) - 1
    hi = end
    while hi > 0:
        lo = max(hi - _BLOCK, 0)
        block = blob.read(lo, min(hi + overlap, end))
        found = max(block.rfind(n) for n in needles)
        if found >= 0:
            return lo + found
        hi = lo
    return None


def _first_value(blob: Blob) -> tuple[Any, int]:
    """The value of the file's first line that is not blank, and the byte after that line;
    (None, 0) when it has none (or a line too long to be a header)."""
    head = blob.read(0, _BLOCK)
    bom = len(_BOM) if head.startswith(_BOM) else 0
    body = head[bom:]
    stripped = body.lstrip()
    newline = stripped.find(b"\n")
    if newline < 0 and len(body) < blob.size:
        return None, 0
    line = stripped if newline < 0 else stripped[:newline]
    end = len(head) if newline < 0 else len(head) - len(stripped) + newline + 1
    try:
        return _DECODER.decode(line.decode("utf-8").removeprefix("\ufeff")), end
    except (ValueError, RecursionError):
        return None, 0


def _is_header(value: Any) -> bool:
    """A Codex ``session_meta`` header: it says whether the whole rollout is a subagent's."""
    return (isinstance(value, dict) and value.get("type") == "session_meta"
            and isinstance(value.get("payload"), dict))


__all__ = ["FIRST_WINDOW", "MOST", "Window", "last_turn_window", "read_last_turn"]
