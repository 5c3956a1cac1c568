"""The types every transcript reader shares: a record in, pieces out."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memcli.messages import Message, Role

Record = dict[str, Any]


@dataclass
class Transcript:
    """The conversation read from a transcript, plus counts that explain what was left out.

    ``message_formats[i]`` is the format ``messages[i]`` was read from. ``unknown`` counts
    records that match no known shape, by kind (``type=...`` or their keys); ``dropped``
    counts pieces left out, by reason (``tool``, ``thinking``, ``injected``, ``before the
    last turn``, ...). ``lines`` and ``first_line`` describe the input for error messages.
    """

    messages: list[Message]
    records: int
    skipped: int
    broken: int
    formats: dict[str, int]
    truncated: int
    message_formats: list[str] = field(default_factory=list)
    unknown: dict[str, int] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)
    lines: int = 0
    first_line: str = ""
    forced: str | None = None  # the format --format named, when it did


@dataclass(frozen=True)
class Options:
    include_tools: bool = False
    include_thinking: bool = False
    include_injected: bool = False
    last_turn: bool = False
    max_tool_chars: int = 2000
    max_extra_chars: int = 20000


@dataclass(slots=True)
class Piece:
    """One candidate message before filtering.

    ``injected`` marks context nobody said; ``reason`` says which kind (shown in the
    skipped counts). ``echo`` marks a copy a tool writes for its own UI: it is dropped when
    the model-visible original is in the same input. ``later`` makes the text when it is
    wanted: turning tool arguments and results into JSON text is most of the cost of reading
    a session, and by default no tool traffic is shown.
    """

    kind: Role
    text: str
    timestamp: str | None
    injected: bool = False
    reason: str = "injected"
    echo: bool = False
    # typed while the agent was working (Claude Code's queued prompts): the person's words,
    # but part of the turn they were typed in, never its start
    mid_turn: bool = False
    # ``later(piece)`` and ``expand(piece)`` are module-level functions that work from
    # ``raw`` (a closure per piece made the garbage collector's work grow by half)
    later: Callable[[Piece], str] | None = None
    # a tool result whose pieces (its text and any wrappers in it) are made only if shown
    expand: Callable[[Piece], list[Piece]] | None = None
    raw: Any = None

    def made(self) -> str:
        return self.later(self) if self.later is not None else self.text

    def expanded(self) -> list[Piece]:
        return self.expand(self) if self.expand is not None else [self]


# The keys of a record that the steps after reading look at (conversation order, the
# whole-input passes, Gemini's rewrites and rewinds): an entry keeps only these of its
# record (and a ``session_meta`` header's ``payload``), so that a long session's messages
# and tool results are not all held at once. A step that reads another key of
# ``Entry.rec`` adds it here; tests/test_transcript_tail.py reads every fixture with whole
# records too and fails when the two reads differ.
ORDER_KEYS = frozenset({
    "type", "uuid", "parentUuid", "logicalParentUuid", "isSidechain", "agentId", "id",
    "parentId",  # Pi's session tree (order.py)
    "$rewindTo",
    # the print-mode passes (formats/headless.py)
    "delta", "subtype", "model_call_id", "timestamp_ms",
    # Cline's chat view: which message opens the task (formats/cline.py)
    "say",
})


@dataclass
class Entry:
    """A message-shaped JSON object; ``pieces`` is None when it holds no message. ``rec``
    holds the record's :data:`ORDER_KEYS`, not all of it."""

    seq: int
    rec_no: int
    fmt: str
    rec: Record
    pieces: list[Piece] | None


Reader = Callable[[Record], "list[Piece] | None"]


@dataclass(frozen=True)
class Format:
    """One transcript format: how to recognise its records and how to read one.

    ``matches`` must test a shape specific to this format, never "looks vaguely like a
    message": a record no format claims is counted as unknown, not read as empty.
    ``accepts`` is the looser test used when a person forces the format with ``--format``.
    """

    name: str
    agents: str
    where: str
    matches: Callable[[Record], bool]
    read: Reader
    accepts: Callable[[Record], bool] | None = None


@dataclass(frozen=True)
class TextFormat:
    """A format that is not JSON (a Markdown log or export): recognised from the whole text
    (``claims``) and cut into records (``records``) that ``format`` reads like any other."""

    format: Format
    claims: Callable[[str], bool]
    records: Callable[[str], list[Record]]


# Small typed accessors: every field of a foreign record may hold any JSON value


def get_str(rec: Record, key: str) -> str | None:
    value = rec.get(key)
    return value if isinstance(value, str) else None


def get_dict(rec: Record, key: str) -> Record | None:
    value = rec.get(key)
    return value if isinstance(value, dict) else None


def get_list(rec: Record, key: str) -> list[Any]:
    value = rec.get(key)
    return value if isinstance(value, list) else []


def as_text(value: Any) -> str:
    """A tool argument or result as text: strings as written, anything else as JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False)


def millis_to_iso(value: Any) -> str | None:
    """Milliseconds since the epoch (what JavaScript tools stamp) as ISO 8601 in UTC, the
    form the other formats' timestamps have; None when it is not such a number."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        stamp = dt.datetime.fromtimestamp(value / 1000, dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")
