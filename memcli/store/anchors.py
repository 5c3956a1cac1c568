"""Anchors: a note's `cites:` list, the places in the repository it was written about.

An anchor is a path relative to the repository root, optionally a line range or a symbol,
and, once pinned, a digest of the cited content (docs/anchors.md). This module is the model:
reading a `cites:` value (leniently for the commands that only need to know what a note
cites, strictly for lint and for operations), the checks of a path that never let an anchor
lead outside the repository, and the value memcli writes back. Checking an anchor against
the files is :mod:`memcli.store.anchor_check`.
"""

from __future__ import annotations

import re
from typing import Any, Final

from memcli.value_types import FrozenRecord

CITES = "cites"
MAX_ANCHORS = 50  # a note cites a few places; more is a list pasted by mistake
MAX_PATH_CHARS = 1024
MAX_SYMBOL_CHARS = 200
MAX_LINE = 10_000_000
# `path`, `path:10`, `path:10-20`, `path#symbol`: what --cite and a short entry take.
# Patterns as text, compiled on first use (re caches them): most runs read no anchor.
_SHORT = r"(?P<path>.+?)(?::(?P<start>[0-9]+)(?:-(?P<end>[0-9]+))?|#(?P<symbol>.+))?"
_SYMBOL = r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*"
# blob:<git object id> for a whole file; sha256:<hex> for lines or a symbol.
_GIT_ID = r"[0-9a-f]{40}|[0-9a-f]{64}"
_BLOB = rf"blob:(?:{_GIT_ID})"
_DIGEST = rf"(?:{_BLOB}|sha256:[0-9a-f]{{64}})"


class AnchorError(ValueError):
    """A `cites` entry that is not an anchor into the repository; the message says why."""


class Anchor(FrozenRecord):
    """One place a note cites: a file, some of its lines, or a symbol defined in it."""

    __slots__ = __match_args__ = ("path", "start", "end", "symbol", "digest", "blob")
    path: Final[str]  # relative to the repository root, '/'-separated
    start: Final[int]  # first cited line, 1-based (0: the whole file or a symbol)
    end: Final[int]  # last cited line (0 likewise)
    symbol: Final[str]  # a name defined in the file ("" for none)
    digest: Final[str]  # "" when not pinned
    blob: Final[str]  # the file's git blob id when lines or a symbol were pinned ("": unknown)

    def __init__(self, path: str, start: int = 0, end: int = 0, symbol: str = "",
                 digest: str = "", blob: str = "") -> None:
        self.path = path
        self.start = start
        self.end = end
        self.symbol = symbol
        self.digest = digest
        self.blob = blob

    @property
    def whole_file(self) -> bool:
        return not self.start and not self.symbol

    @property
    def lines(self) -> str:
        """The line range as written: "10-20", "7", or ""."""
        if not self.start:
            return ""
        return str(self.start) if self.start == self.end else f"{self.start}-{self.end}"

    @property
    def label(self) -> str:
        """How messages name the anchor: `path`, `path:10-20` or `path#symbol`."""
        if self.symbol:
            return f"{self.path}#{self.symbol}"
        return f"{self.path}:{self.lines}" if self.start else self.path

    def pinned(self, digest: str, blob: str = "") -> Anchor:
        return Anchor(self.path, self.start, self.end, self.symbol, digest,
                      "" if self.whole_file else blob)

    def moved(self, path: str, start: int = 0, end: int = 0) -> Anchor:
        return Anchor(path, start or self.start, end or self.end, self.symbol, self.digest,
                      self.blob)

    def as_value(self) -> dict[str, str]:
        """The frontmatter mapping memcli writes: path, lines or symbol, digest, blob."""
        value = {"path": self.path}
        if self.start:
            value["lines"] = self.lines
        if self.symbol:
            value["symbol"] = self.symbol
        if self.digest:
            value["digest"] = self.digest
        if self.blob:
            value["blob"] = self.blob
        return value


def check_path(text: str) -> str:
    """TEXT as a repository path ('/'-separated, no '.' parts), or AnchorError saying why it
    could lead elsewhere. Only the spelling is checked here: links are the checker's."""
    if not text or not text.strip():
        raise AnchorError("the path is empty")
    if len(text) > MAX_PATH_CHARS:
        raise AnchorError(f"the path is longer than {MAX_PATH_CHARS} characters")
    if any(ord(c) < 32 or c == "\x7f" for c in text):
        raise AnchorError("the path holds a control character")
    if "\\" in text:
        raise AnchorError("the path holds a backslash; write it with '/'")
    if text.startswith("/") or re.match(r"[A-Za-z]:", text) or text.startswith("~"):
        raise AnchorError("the path is absolute; write it relative to the repository root")
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise AnchorError("the path climbs out with '..'")
    if not parts:
        raise AnchorError("the path names the repository itself, not a file in it")
    if parts[0].lower() == ".git":
        raise AnchorError("the path leads into .git")
    return "/".join(parts)


def parse_short(text: str) -> Anchor:
    """`PATH`, `PATH:LINES` or `PATH#SYMBOL` (what `memcli add --cite` takes), unpinned."""
    found = re.fullmatch(_SHORT, text.strip())
    if found is None:
        raise AnchorError("expected PATH, PATH:START-END or PATH#SYMBOL")
    path = check_path(found["path"])
    if found["symbol"]:
        return Anchor(path, symbol=_check_symbol(found["symbol"]))
    if found["start"]:
        start, end = _check_lines(found["start"], found["end"] or found["start"])
        return Anchor(path, start, end)
    return Anchor(path)


def parse_entry(value: Any) -> Anchor:
    """One `cites` entry (a short string or a mapping); AnchorError when it is not one."""
    if isinstance(value, str):
        return parse_short(value)
    if not isinstance(value, dict):
        raise AnchorError("an entry must be a path or a mapping with a 'path'")
    unknown = set(map(str, value)) - {"path", "lines", "symbol", "digest", "blob"}
    if unknown:
        raise AnchorError(f"unknown key {sorted(unknown)[0]!r}; use path, lines, symbol, "
                          "digest, blob")
    path = value.get("path")
    if not isinstance(path, str):
        raise AnchorError("the entry has no 'path' text")
    lines, symbol = value.get("lines"), value.get("symbol")
    if lines is not None and symbol is not None:
        raise AnchorError("an entry cites lines or a symbol, not both")
    start = end = 0
    if lines is not None:
        text = str(lines) if isinstance(lines, int) and not isinstance(lines, bool) else lines
        match = re.fullmatch(r"([0-9]+)(?:-([0-9]+))?", text) if isinstance(text, str) else None
        if match is None:
            raise AnchorError("'lines' must be START-END or one line number")
        start, end = _check_lines(match[1], match[2] or match[1])
    if symbol is not None and not isinstance(symbol, str):
        raise AnchorError("'symbol' must be a name")
    digest = _optional_text(value, "digest")
    blob = _optional_text(value, "blob")
    if digest and re.fullmatch(_DIGEST, digest) is None:
        raise AnchorError("'digest' must be blob:<git id> or sha256:<hex>")
    whole = lines is None and symbol is None
    if digest and whole != digest.startswith("blob:"):
        raise AnchorError("a whole file's digest is blob:<git id>; lines' and symbols' sha256:")
    if blob and (whole or re.fullmatch(_GIT_ID, blob) is None):
        raise AnchorError("'blob' must be the file's git blob id, for lines or a symbol only")
    return Anchor(check_path(path), start, end, _check_symbol(symbol) if symbol else "",
                  digest, blob)


def parse_cites(value: Any) -> tuple[list[Anchor], list[str]]:
    """A `cites` value's anchors, and a message for each entry that is not one."""
    if value is None:
        return [], []
    entries = value if isinstance(value, list) else [value]
    anchors: list[Anchor] = []
    problems: list[str] = []
    for position, entry in enumerate(entries[:MAX_ANCHORS], 1):
        try:
            anchors.append(parse_entry(entry))
        except AnchorError as exc:
            problems.append(f"cites entry {position}: {exc}")
    if len(entries) > MAX_ANCHORS:
        problems.append(f"cites holds {len(entries)} entries; at most {MAX_ANCHORS} are read")
    return anchors, problems


def anchors_of(meta: dict[str, Any]) -> tuple[Anchor, ...]:
    """The anchors a note's frontmatter holds, entries that are not anchors left out
    (lint names them); () for the many notes without `cites`."""
    value = meta.get(CITES)
    return () if value is None else tuple(parse_cites(value)[0])


def cites_value(anchors: list[Anchor] | tuple[Anchor, ...]) -> list[dict[str, str]]:
    return [a.as_value() for a in anchors]


def _check_lines(first: str, last: str) -> tuple[int, int]:
    start, end = int(first), int(last)
    if start < 1 or end < start or end > MAX_LINE:
        raise AnchorError("a line range is START-END with 1 <= START <= END")
    return start, end


def _check_symbol(text: str) -> str:
    if len(text) > MAX_SYMBOL_CHARS or re.fullmatch(_SYMBOL, text) is None:
        raise AnchorError("a symbol is a name such as parse_config or Store.load")
    return text


def _optional_text(value: dict[str, Any], key: str) -> str:
    found = value.get(key)
    if found is None:
        return ""
    if not isinstance(found, str):
        raise AnchorError(f"'{key}' must be text")
    return found
