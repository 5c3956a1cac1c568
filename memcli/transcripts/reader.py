"""``read_transcript``: text in, the conversation and an account of what was left out."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memcli.errors import InputError, UsageError
from memcli.transcripts.detect import BY_NAME, FORMATS, text_format
from memcli.transcripts.json_input import LineValues, ProgressFn, TextValues, describe
from memcli.transcripts.model import Options, Transcript
from memcli.transcripts.pipeline import prepare, read_prepared
from memcli.transcripts.source import (
    MAX_TRANSCRIPT_BYTES,
    Blob,
    TranscriptFile,
    decode_transcript,
    is_plain_text,
    open_blob,
)
from memcli.transcripts.tail import FIRST_WINDOW, Window, read_last_turn
from memcli.transcripts.tail import last_turn_window as _window_of

# Enough of a file's start to tell its kind by (the Markdown formats look no further).
_HEAD = 4096


def read_transcript(
    text: str | bytes | TranscriptFile,
    *,
    fmt: str | None = None,
    include_tools: bool = False,
    include_thinking: bool = False,
    include_injected: bool = False,
    last_turn: bool = False,
    strict: bool = False,
    max_tool_chars: int = 2000,
    max_extra_chars: int = 20000,
    on_progress: ProgressFn | None = None,
) -> Transcript:
    """Read ``text`` (JSONL, pretty-printed records, one JSON document, or one of the
    Markdown logs of :data:`~memcli.transcripts.detect.TEXT_FORMATS`) into a Transcript.

    ``text`` may also be a file (:class:`TranscriptFile`) or its bytes: JSON lines are then
    read one at a time, and with ``last_turn`` from the end of the file, so that neither
    the time nor the memory a hook's read takes grows with the whole session (the counts of
    such a read describe the part read). Compressed and UTF-16 files are decoded whole.

    Never raises on malformed input unless ``strict`` is set (then :class:`InputError` names
    the first line that is not JSON). ``fmt`` forces one of :data:`FORMATS` for every record.
    Tool calls and results come out as role ``tool`` with ``include_tools``, reasoning as role
    ``thinking`` with ``include_thinking``, and injected context as role ``tool`` with
    ``include_injected``: it is context the agent was given, not something a person or the
    assistant said, and ``tool`` is the one role whose text the extractor treats as material
    rather than as a statement. Each of those messages is cut to ``max_tool_chars`` and all
    of them together to ``max_extra_chars``.
    """
    opts = Options(include_tools, include_thinking, include_injected, last_turn,
                   max_tool_chars, max_extra_chars)
    _check_options(fmt, opts)
    if not isinstance(text, str):
        return _read_bytes(text, opts, fmt, strict, on_progress)
    return _read_text(text, opts, fmt, strict, on_progress)


def last_turn_of(data: bytes) -> Transcript:
    """The last turn of a log's bytes, as a hook reads it: from their end when they are JSON
    lines; bytes that are not UTF-8 are read with replacement characters, never an error."""
    try:
        return read_transcript(data, last_turn=True)
    except InputError:
        return read_transcript(data.decode("utf-8", "replace"), last_turn=True)


def last_turn_window(blob: Blob, first_window: int = FIRST_WINDOW) -> Window | None:
    """Where ``read_transcript(..., last_turn=True)`` (no other option) reads the blob's
    last turn from its end, with the turn; None when it reads the whole input."""
    if not _json_lines(blob, None):
        return None
    return _window_of(blob, Options(last_turn=True), first_window)


def _read_text(text: str, opts: Options, fmt: str | None, strict: bool,
               on_progress: ProgressFn | None) -> Transcript:
    text = text.removeprefix("\ufeff")
    # Markdown, not JSON: its blocks are the records. Forced on anything else, the text is
    # read as JSON and nothing in it is that format's, as with any other forced format.
    if (markdown := text_format(text, fmt)) is not None:
        lines, first = describe(text)
        return read_values(markdown.records(text), opts, markdown.format.name, lines=lines,
                           first_line=first)
    values = TextValues(text, strict, on_progress)
    prepared = prepare(values, opts, fmt, bare_run=True)
    return read_prepared(prepared, opts, fmt, broken=values.broken, lines=values.lines,
                         first_line=values.first_line)


def _read_bytes(source: bytes | TranscriptFile, opts: Options, fmt: str | None, strict: bool,
                on_progress: ProgressFn | None) -> Transcript:
    with open_blob(source) as blob:
        if _json_lines(blob, fmt):
            if opts.last_turn and fmt is None and not strict:
                found = read_last_turn(blob, opts)
                if found is not None:
                    return found
            values = LineValues(blob, strict, on_progress)
            prepared = prepare(values, opts, fmt, bare_run=True)
            return read_prepared(prepared, opts, fmt, broken=values.broken,
                                 lines=values.lines, first_line=values.first_line)
        data = blob.read(0, blob.size)
    limit = source.limit if isinstance(source, TranscriptFile) else MAX_TRANSCRIPT_BYTES
    return _read_text(decode_transcript(data, limit), opts, fmt, strict, on_progress)


def _json_lines(blob: Blob, fmt: str | None) -> bool:
    """Whether the bytes are UTF-8 JSON, to be read a line at a time (anything else, such
    as a Markdown log or a compressed rollout, is decoded whole first)."""
    head = blob.read(0, _HEAD)
    if not is_plain_text(head):
        return False
    text = head.decode("utf-8", "ignore").removeprefix("\ufeff").removeprefix("\ufeff")
    return text.lstrip().startswith(("{", "[")) and text_format(text, fmt) is None


def read_values(values: Iterable[Any], opts: Options, fmt: str | None = None, *,
                broken: int = 0, lines: int = 0, first_line: str = "") -> Transcript:
    """Read JSON values already parsed (a session folder's files, a document's items)."""
    _check_options(fmt, opts)
    prepared = prepare(values, opts, fmt, bare_run=True)
    return read_prepared(prepared, opts, fmt, broken=broken, lines=lines,
                         first_line=first_line)


def _check_options(fmt: str | None, opts: Options) -> None:
    if fmt is not None and fmt not in FORMATS:
        raise UsageError(f"unknown transcript format {fmt!r}; use one of: {', '.join(FORMATS)}")
    if opts.max_tool_chars < 0 or opts.max_extra_chars < 0:
        raise UsageError("transcript size budgets must be 0 or more characters")


__all__ = ["BY_NAME", "FORMATS", "TranscriptFile", "Window", "last_turn_of",
           "last_turn_window", "read_transcript", "read_values"]
