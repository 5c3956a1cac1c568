"""One note read: a Markdown file with exactly one YAML frontmatter block.

A note is split into its frontmatter text and its body text, both kept exactly as on disk,
so that an update (:mod:`memcli.store.note_bytes`) rewrites only the keys that changed; a
frontmatter of plain `key: text` lines is read without PyYAML (:func:`simple_meta`).
"""

from __future__ import annotations

import functools
import re
from datetime import UTC, datetime
from typing import Any, Final

from memcli.errors import BrokenNoteError
from memcli.store.frontmatter_yaml import MAX_YAML_NODES, YamlTooComplex, load_yaml, yaml_error
from memcli.value_types import FrozenRecord

FENCE = "---"
# The key of a note `memcli sync` kept beside another changed on two machines: the other's
# file name (written by memcli.gitstore.sync, reported by lint as M311).
SYNC_CONFLICT = "sync_conflict"
BOM = "\ufeff"


def now_iso(moment: datetime) -> str:
    """A moment as frontmatter timestamps are written: UTC, to the second."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Note(FrozenRecord):
    """One parsed note: its frontmatter values, the text around them, and its bytes."""

    __slots__ = __match_args__ = ("filename", "meta", "frontmatter", "body", "newline", "bom",
                                  "raw")
    _unshown = frozenset({"raw"})
    filename: Final[str]
    meta: Final[dict[str, Any]]
    frontmatter: Final[str]  # the text between the fences, exactly as on disk
    body: Final[str]  # everything after the closing fence line, exactly as on disk
    newline: Final[str]
    bom: Final[bool]
    raw: Final[bytes]

    def __init__(self, filename: str, meta: dict[str, Any], frontmatter: str, body: str,
                 newline: str = "\n", bom: bool = False, raw: bytes = b"") -> None:
        self.filename = filename
        self.meta = meta
        self.frontmatter = frontmatter
        self.body = body
        self.newline = newline
        self.bom = bom
        self.raw = raw

    def replace(self, *, body: str) -> Note:
        """A copy with another body (a repair rewrites the body, never the frontmatter)."""
        return Note(self.filename, self.meta, self.frontmatter, body, self.newline, self.bom,
                    self.raw)

    def _text(self, key: str) -> str:
        value = self.meta.get(key)
        return value if isinstance(value, str) else ""

    @property
    def type(self) -> str:
        return self._text("type")

    @property
    def title(self) -> str:
        return self._text("title")

    @property
    def summary(self) -> str:
        return self._text("summary")

    @property
    def created(self) -> str:
        return self._text("created")

    @property
    def updated(self) -> str:
        return self._text("updated")

    @property
    def content(self) -> str:
        """The body as an operation carries it: no surrounding blank lines, LF line ends."""
        return self.body.replace("\r\n", "\n").strip("\n")


def decode_note(data: bytes) -> tuple[str, int | None]:
    """A file's text and the offset of its first byte that is not UTF-8 (None when all are).

    Bytes that are not UTF-8 are replaced, so that a scan for secrets still sees the rest.
    """
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return data.decode("utf-8", "replace"), exc.start


def parse_note(filename: str, data: bytes) -> Note:
    """Parse a note file; a file a person broke raises BrokenNoteError naming it and why."""
    text, bad_byte = decode_note(data)
    if bad_byte is not None:
        raise BrokenNoteError(
            f"{filename}: not valid UTF-8 (byte {bad_byte}); re-save it as UTF-8"
        )
    return parse_note_text(filename, text, data)


# Real frontmatter is a few hundred bytes; past this, loading YAML costs seconds, so a note
# with more is broken for every command (lint says so).
MAX_FRONTMATTER_CHARS = 64 * 1024


def parse_note_text(filename: str, text: str, data: bytes) -> Note:
    """Parse the decoded TEXT of a note file whose bytes are DATA."""
    bom = text.startswith(BOM)
    start = 1 if bom else 0
    newline = "\r\n" if text.startswith(FENCE + "\r\n", start) else "\n"
    # Positions, not copies: the text is split once, into the frontmatter and the body.
    end = text.find("\n", start)
    if end < 0 or text[start:end].rstrip("\r").rstrip() != FENCE:
        raise BrokenNoteError(f"{filename}: no frontmatter; the file must start with a '---' line")
    frontmatter, body = _split_at_closing_fence(filename, text, end + 1)
    meta = _load_meta(filename, frontmatter)
    return Note(filename, meta, frontmatter, body, newline, bom, data)


# A closing fence is a line (as str.splitlines counts lines) of `---` or `...` and trailing
# whitespace. Searching for it, rather than splitting the whole file into lines, leaves the
# body alone: reading a store's heads never walks the notes' bodies.
_LINE_END = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_FENCE_LINE = (r"(?:---|\.\.\.)[\t \x1f\xa0\u1680\u2000-\u200a\u202f\u205f\u3000]*"
               rf"(?:\r\n|[{_LINE_END}]|\Z)")
# Line ends other than "\n" and "\r\n": a frontmatter holding one goes to the patterns.
_ODD_LINE_ENDS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


@functools.cache
def _fence_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The fence as the first line, and as a later one. Compiled on first use (2 ms at
    every start): a frontmatter of lines ending in "\n" closed by a bare `---` line, which
    is what memcli writes and what people mostly write, never needs them."""
    # Led by the line end before the fence, not a lookbehind: the engine then skips to line
    # ends instead of trying the pattern at every character (8 us against 1 us a note).
    return re.compile(_FENCE_LINE), re.compile(rf"[{_LINE_END}](?P<fence>{_FENCE_LINE})")


def _split_at_closing_fence(filename: str, text: str, pos: int = 0) -> tuple[str, str]:
    """The frontmatter and the body of TEXT[POS:], the text after the opening fence line."""
    found = _plain_fence(text, pos)
    start, end = found if found is not None else _fence_by_pattern(text, pos)
    if start < 0 or start - pos > MAX_FRONTMATTER_CHARS:
        if len(text) - pos > MAX_FRONTMATTER_CHARS:
            raise BrokenNoteError(f"{filename}: the frontmatter is larger than "
                                  f"{MAX_FRONTMATTER_CHARS // 1024} KiB")
        raise BrokenNoteError(f"{filename}: the frontmatter has no closing '---' line; add one")
    return text[pos:start], text[end:]


def _plain_fence(text: str, pos: int) -> tuple[int, int] | None:
    """Where the closing fence of TEXT[POS:] starts and ends, when the lines before it end
    in "\n" (or "\r\n") and it is a bare `---` line; None when the patterns must decide."""
    if text.startswith("---", pos):
        start = pos
    else:
        start = text.find("\n---", pos) + 1
        if start <= 0:
            return None
    # The first line that starts with `---`: a fence if nothing follows it on its line.
    after = start + 3
    if text.startswith("\n", after):
        end = after + 1
    elif text.startswith("\r\n", after):
        end = after + 2
    elif after == len(text):
        end = after
    else:
        return None  # trailing whitespace, or `----`: not for this check to say
    head = text[pos:start]
    # No earlier line may be a `...` fence, nor end in anything but "\n" or "\r\n".
    if head.startswith("...") or "\n..." in head:
        return None
    if "\r" in head and head.count("\r") != head.count("\r\n"):
        return None
    if any(char in head for char in _ODD_LINE_ENDS):
        return None
    return start, end


def _fence_by_pattern(text: str, pos: int) -> tuple[int, int]:
    """:func:`_plain_fence` for any text: (-1, -1) when there is no closing fence."""
    first, later = _fence_patterns()
    found = first.match(text, pos)
    if found is not None:
        return pos, found.end()
    found = later.search(text, pos)
    return (-1, -1) if found is None else (found.start("fence"), found.end())


def _load_meta(filename: str, frontmatter: str) -> dict[str, Any]:
    simple = simple_meta(frontmatter)
    if simple is not None:
        return simple
    try:
        meta = load_yaml(frontmatter)
    except yaml_error() as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" at line {where.line + 2}" if where is not None else ""
        problem = getattr(exc, "problem", None) or getattr(exc, "context", None)
        reason = f" ({' '.join(str(problem).split())})" if problem else ""
        raise BrokenNoteError(
            f"{filename}: the frontmatter is not valid YAML{line}{reason}; fix it"
        ) from None
    except RecursionError:
        raise BrokenNoteError(f"{filename}: the frontmatter is nested too deeply") from None
    except YamlTooComplex:
        raise BrokenNoteError(
            f"{filename}: the frontmatter nests too deeply or expands (YAML aliases) to more "
            f"than {MAX_YAML_NODES} values; write plain keys and values"
        ) from None
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        kind = type(meta).__name__
        raise BrokenNoteError(
            f"{filename}: the frontmatter is a YAML {kind}, not a mapping of keys"
        )
    return {str(k): v for k, v in meta.items()}


# Parsing YAML costs about 70 us a note, most of a big store's load time; a frontmatter of
# plain `key: text` lines (what memcli writes, and what people mostly write) is read here
# instead. Anything YAML might read differently (quotes, comments, numbers, booleans, nulls,
# indentation, odd characters) returns None and goes to the YAML parser; a differential
# test against the parser keeps the two in step.
_SIMPLE_PAIR = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]{0,127}): +(\S(?:.*\S)?)\r?$", re.MULTILINE)
# Timestamps stay strings here (see memcli.store.frontmatter_yaml); no other resolver matches these.
_ISO_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?"
)
# YAML 1.1 reads these plain words as booleans or null, keys and values alike.
_YAML_WORDS = frozenset({
    "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
})


def simple_meta(frontmatter: str) -> dict[str, Any] | None:
    """The mapping YAML would read from FRONTMATTER, or None when it is not simple enough."""
    if not frontmatter.endswith("\n"):
        return None
    # One pass over the whole text; a line that is not `key: value` has no pair, so the
    # counts differ.
    pairs = _SIMPLE_PAIR.findall(frontmatter)
    count = len(pairs)
    if count != frontmatter.count("\n"):
        return None
    meta: dict[str, Any] = dict(pairs)
    # Every line is a pair, and keys hold no '#', ':' or space: what a value must not hold
    # ('#', ': ', a ':' at its end) is asked of the whole text at once.
    if (len(meta) != count or "#" in frontmatter or frontmatter.count(": ") != count
            or ":\n" in frontmatter or ":\r\n" in frontmatter
            or not _YAML_WORDS.isdisjoint(meta) or not _YAML_WORDS.isdisjoint(meta.values())
            or not "".join(meta.values()).isprintable()):
        return None
    for value in meta.values():
        if not value[0].isalpha() and _ISO_TIME.fullmatch(value) is None:
            return None
    return meta
