"""JSON values out of transcript text: one per line, or pretty-printed over many lines."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from memcli import compiled_regex as rx
from memcli.errors import InputError
from memcli.transcripts.source import Blob, decode_line

ProgressFn = Callable[[int, int], None]

_DECODER = json.JSONDecoder(strict=False)
# The decoder's own scanner, which ``decode`` calls between its two passes for white space
# (JSONDecoder.__init__ sets it; typeshed does not declare it).
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_BROKEN = object()
_BLANK = rx.compile(r"[ \t\r\n]*")
_LINE_END = rx.compile(r"[ \t\r]*(?:\n|\Z)")
# Report progress about this often (characters); a call per line would cost more than it says.
PROGRESS_STEP = 1 << 20


@dataclass
class Parsed:
    values: list[Any]
    broken: int
    lines: int
    first_line: str


def parse_records(text: str, strict: bool, on_progress: ProgressFn | None = None) -> Parsed:
    """All JSON values in ``text`` and the number of lines that held none.

    A value must end at a line end, so a key or a half line of a broken pretty-printed
    record is not taken for a record.
    """
    stream = TextValues(text, strict, on_progress)
    return Parsed(list(stream), stream.broken, stream.lines, stream.first_line)


class TextValues:
    """The JSON values of ``text`` one at a time; ``broken`` is complete once they are read."""

    def __init__(self, text: str, strict: bool, on_progress: ProgressFn | None = None) -> None:
        self.text, self.strict, self.on_progress = text, strict, on_progress
        self.broken = 0
        self.lines, self.first_line = describe(text)

    def __iter__(self) -> Iterator[Any]:
        for line_no, value in _scan(self.text, self.on_progress):
            if value is not _BROKEN:
                yield value
            else:
                self.broken += _broken_line(line_no, self.strict)


def _broken_line(line_no: int, strict: bool) -> int:
    if strict:
        raise InputError(
            f"transcript line {line_no} is not valid JSON "
            "(without strict mode such lines are counted and skipped)"
        )
    return 1


class LineValues:
    """The JSON values of a UTF-8 transcript's bytes, read a line at a time: neither the
    bytes nor the text of the whole file is held. A line that is not one JSON value by
    itself (a pretty-printed record, garbage) hands the rest of the input to the careful
    path of :func:`parse_records`, which gives the same values it would on the whole text.
    ``broken``, ``lines`` and ``first_line`` are complete once the values are read.
    """

    def __init__(self, blob: Blob, strict: bool, on_progress: ProgressFn | None = None) -> None:
        self.blob, self.strict, self.on_progress = blob, strict, on_progress
        self.broken = 0
        self.lines = 0
        self.first_line = ""

    def __iter__(self) -> Iterator[Any]:
        head = self.blob.read(0, 3)
        skip = 3 if head == b"\xef\xbb\xbf" else 0  # what decoding as utf-8-sig drops
        stream = self.blob.stream(skip)
        offset, size, reported = skip, self.blob.size, 0
        decode, scan = _DECODER.decode, _SCAN
        for raw in stream:
            start, offset = offset, offset + len(raw)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                line = decode_line(raw, start - skip, last=offset >= size)
            if start == skip:
                line = line.removeprefix("\ufeff")  # read_transcript strips one more
            self.lines += 1
            if line.endswith("\n"):
                line = line[:-1]
            if not line or line.isspace():
                continue
            if not self.first_line:
                self.first_line = line.strip()
            if self.on_progress is not None and start - reported >= PROGRESS_STEP:
                self.on_progress(start, size)
                reported = start
            # What decode(line) gives, without its two passes for white space around the
            # value when there is none (a line of a log that is one value has none)
            try:
                value, end = scan(line, 0)
            except (StopIteration, ValueError, RecursionError):
                end = -1
            if end == len(line):
                yield value
                continue
            try:
                yield decode(line)
                continue
            except (ValueError, RecursionError):
                pass
            ended = raw.endswith(b"\n")
            yield from self._careful(line, stream if ended else None, offset - skip)
            return
        if self.on_progress is not None:
            self.on_progress(size, size)

    def _careful(self, line: str, rest: BinaryIO | None, offset: int) -> Iterator[Any]:
        """The input from ``line`` on (``rest`` is what follows its newline, from byte
        ``offset``), read as :func:`parse_records` reads it."""
        line_no = self.lines
        text = line if rest is None else line + "\n" + decode_line(rest.read(), offset, True)
        self.lines += describe(text)[0] - 1
        for number, value in _scan(text, None):
            if value is not _BROKEN:
                yield value
            else:
                self.broken += _broken_line(line_no + number - 1, self.strict)
        if self.on_progress is not None:
            self.on_progress(self.blob.size, self.blob.size)
def describe(text: str) -> tuple[int, str]:
    """How many lines ``text`` has and its first line that is not blank (for messages)."""
    stripped = text.lstrip()
    first = stripped[: stripped.find("\n")] if "\n" in stripped else stripped
    lines = text.count("\n") + (0 if not text or text.endswith("\n") else 1)
    return lines, first.strip()


def _scan(text: str, on_progress: ProgressFn | None) -> Iterator[tuple[int, Any]]:
    # Most transcripts hold one record per line: those lines go straight to the decoder.
    # Anything else (pretty-printed records, garbage) takes the careful path below, which
    # works on positions in the whole text; the lines it consumed are then skipped.
    # Lines inside a region a failed multi-line attempt already looked through only get a
    # one-line try: regrowing from each of them made nested garbage cost quadratic time, and
    # the inner objects of a broken pretty-printed record are not records.
    pos, horizon, total, reported, resume = 0, 0, len(text), 0, 0
    decode = _DECODER.decode
    for line_no, line in enumerate(text.split("\n"), start=1):
        start, pos = pos, pos + len(line) + 1
        if start < resume or not line or line.isspace():
            continue
        if on_progress is not None and start - reported >= PROGRESS_STEP:
            on_progress(start, total)
            reported = start
        try:
            yield line_no, decode(line)
            continue
        except (ValueError, RecursionError):
            pass
        first = _skip_blank(text, start)
        value, next_pos, looked_to = _decode_at(text, first, grow=first >= horizon)
        if next_pos is None:
            horizon = max(horizon, looked_to)
            yield line_no, _BROKEN
        else:
            yield line_no, value
            resume = next_pos
    if on_progress is not None:
        on_progress(total, total)


def _skip_blank(text: str, pos: int) -> int:
    blank = _BLANK.match(text, pos)
    return blank.end() if blank else pos


def _decode_at(text: str, pos: int, grow: bool) -> tuple[Any, int | None, int]:
    """The value starting at ``pos``, where its line ends (None: no value), how far it looked.

    Decoding a slice, never the whole text from ``pos``: JSONDecodeError counts newlines from
    the start of its document, which made every broken line cost the size of the file. With
    ``grow`` the slice doubles (pretty-printed records) while the JSON is only incomplete.
    """
    end = _line_end(text, pos)
    while True:
        chunk = text[pos:end]
        try:
            value, used = _DECODER.raw_decode(chunk)
        except json.JSONDecodeError as err:
            more = _needs_more(err, chunk)
            if not (grow and more and end < len(text)):
                return None, None, end if more else pos + err.pos
            end = _line_end(text, pos + 2 * (end - pos) + 1)
            continue
        except (ValueError, RecursionError):
            return None, None, end  # over-long integers, absurd nesting
        tail = _LINE_END.match(text, pos + used)
        return value, (tail.end() if tail else None), pos + used


def _line_end(text: str, pos: int) -> int:
    newline = text.find("\n", pos)
    return len(text) if newline < 0 else newline


def _needs_more(err: json.JSONDecodeError, chunk: str) -> bool:
    """Whether the chunk failed only because the value goes on past it."""
    return err.msg.startswith("Unterminated string") or err.pos >= len(chunk.rstrip())
