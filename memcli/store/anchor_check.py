"""Checking anchors against the repository's working tree, and pinning them.

A whole file's digest is its git blob id (:mod:`memcli.store.anchor_repository`). A line range
or a symbol is hashed from the file's bytes (sha256 of its lines, line ends without "\\r"),
with the file's blob id beside it so that the pinned text can be read back from git for a
diff summary and followed when the file is renamed.

Every path is checked twice: its spelling (:func:`memcli.store.anchors.check_path`) and, on
disk, that no part of it is a link (:meth:`Repository.safe_path`).
"""

from __future__ import annotations

import difflib
import hashlib
import os
from collections.abc import Sequence
from typing import Final, Literal

from memcli.store.anchor_repository import MAX_CITED_BYTES, Repository
from memcli.store.anchor_symbols import find_symbol
from memcli.store.anchors import Anchor, AnchorError
from memcli.value_types import FrozenRecord

MAX_DIFF_LINES = 5_000  # longer files are summarised by counting lines, not diffed
MAX_WINDOW_LINES = 2_000_000  # lines hashed looking for a moved range in one file
State = Literal["unchanged", "changed", "moved", "gone", "unpinned"]


class AnchorCheck(FrozenRecord):
    """One anchor against the working tree: its state, a short detail, where it is now."""

    __slots__ = __match_args__ = ("anchor", "state", "detail", "now")
    anchor: Final[Anchor]
    state: Final[State]
    detail: Final[str]  # a diff summary, where it moved, or why it is gone
    now: Final[Anchor | None]  # the anchor pinned where and as it is now (None when gone)

    def __init__(self, anchor: Anchor, state: State, detail: str = "",
                 now: Anchor | None = None) -> None:
        self.anchor = anchor
        self.state = state
        self.detail = detail
        self.now = now

    @property
    def stale(self) -> bool:
        return self.state in ("changed", "gone")


# ---------------------------------------------------------------------- digests


def lines_of(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def lines_digest(lines: Sequence[bytes]) -> str:
    return "sha256:" + hashlib.sha256(b"\n".join(lines)).hexdigest()


def pin(repo: Repository, anchor: Anchor) -> Anchor:
    """ANCHOR with the digest of what it cites now; AnchorError when there is nothing."""
    blob = repo.blob_id(anchor.path)
    if blob is None:
        raise AnchorError(f"{anchor.path}: no such file in the repository (or it is a link, "
                          "or ignored by git)")
    if anchor.whole_file:
        return anchor.pinned("blob:" + blob)
    data = repo.read(anchor.path)
    if data is None or len(data) > MAX_CITED_BYTES:
        raise AnchorError(f"{anchor.path}: cannot be read (or is larger than 8 MiB)")
    lines = lines_of(data)
    span = _span(anchor, lines)
    if span is None:
        what = (f"no definition of {anchor.symbol}" if anchor.symbol
                else f"only {len(lines)} lines")
        raise AnchorError(f"{anchor.path} has {what}")
    start, end = span
    found = Anchor(anchor.path, start if not anchor.symbol else 0,
                   end if not anchor.symbol else 0, anchor.symbol)
    return found.pinned(lines_digest(lines[start - 1:end]), blob)


def _span(anchor: Anchor, lines: list[bytes]) -> tuple[int, int] | None:
    if anchor.symbol:
        return find_symbol(lines, anchor.symbol)
    return (anchor.start, anchor.end) if anchor.end <= len(lines) else None


# ---------------------------------------------------------------------- checking


def check(repo: Repository, anchors: Sequence[Anchor]) -> list[AnchorCheck]:
    """Each anchor's state, in order. git is asked once for the whole batch."""
    repo.prepare(a.path for a in anchors)
    results = [_check_one(repo, a) for a in anchors]
    olds = repo.contents([_old_blob(r.anchor) for r in results if r.state == "changed"])
    return [_with_summary(repo, r, olds) if r.state == "changed" else r for r in results]


def _old_blob(anchor: Anchor) -> str:
    return anchor.digest.removeprefix("blob:") if anchor.whole_file else anchor.blob


def _check_one(repo: Repository, anchor: Anchor) -> AnchorCheck:
    current = repo.blob_id(anchor.path)
    if not anchor.digest:
        if current is None:
            return AnchorCheck(anchor, "gone", _why_gone(repo, anchor.path))
        return AnchorCheck(anchor, "unpinned", "no digest yet: `memcli verify --repin` pins it",
                           _pinned_or_none(repo, anchor))
    if anchor.whole_file:
        if current is not None and "blob:" + current == anchor.digest:
            return AnchorCheck(anchor, "unchanged", now=anchor)
        if current is not None:
            return AnchorCheck(anchor, "changed", now=anchor.pinned("blob:" + current))
        elsewhere = repo.paths_holding(anchor.digest.removeprefix("blob:"))
        if elsewhere:
            return AnchorCheck(anchor, "moved", f"now at {elsewhere[0]}",
                               anchor.moved(elsewhere[0]))
        return AnchorCheck(anchor, "gone", _why_gone(repo, anchor.path))
    if current is not None and anchor.blob == current:
        return AnchorCheck(anchor, "unchanged", now=anchor)  # the same file: the same lines
    path = anchor.path
    if current is None:
        elsewhere = repo.paths_holding(anchor.blob) if anchor.blob else []
        if not elsewhere:
            return AnchorCheck(anchor, "gone", _why_gone(repo, anchor.path))
        path = elsewhere[0]
    return _check_lines(repo, anchor, path)


def _check_lines(repo: Repository, anchor: Anchor, path: str) -> AnchorCheck:
    data = repo.read(path)
    if data is None or len(data) > MAX_CITED_BYTES:
        return AnchorCheck(anchor, "changed", f"{path} cannot be read (or is past 8 MiB)")
    lines = lines_of(data)
    span = _span(anchor, lines)
    blob = repo.blob_id(path) or ""
    if span is not None and lines_digest(lines[span[0] - 1:span[1]]) == anchor.digest:
        if path == anchor.path and span == (anchor.start, anchor.end):
            return AnchorCheck(anchor, "unchanged", now=anchor.pinned(anchor.digest, blob))
        return _moved(anchor, path, span, blob)
    if not anchor.symbol:
        found = _find_lines(lines, anchor.end - anchor.start + 1, anchor.digest)
        if found is not None:
            return _moved(anchor, path, found, blob)
    if span is None and anchor.symbol:
        return AnchorCheck(anchor, "gone", f"{path} no longer defines {anchor.symbol}")
    if span is None:
        # Lines past the new end: --repin keeps what is left of the range, if anything.
        now = (Anchor(path, anchor.start, len(lines)).pinned(
            lines_digest(lines[anchor.start - 1:]), blob) if anchor.start <= len(lines)
            else None)
        return AnchorCheck(anchor, "changed", f"{path} now has only {len(lines)} lines", now)
    start, end = span
    now = Anchor(path, 0 if anchor.symbol else start, 0 if anchor.symbol else end,
                 anchor.symbol).pinned(lines_digest(lines[start - 1:end]), blob)
    return AnchorCheck(anchor, "changed", "" if path == anchor.path else f"now at {path}", now)


def _moved(anchor: Anchor, path: str, span: tuple[int, int], blob: str) -> AnchorCheck:
    start, end = span
    where = path if path != anchor.path else ""
    lines = "" if anchor.symbol else f"lines {start}-{end}" if start != end else f"line {start}"
    detail = "now at " + ", ".join(x for x in (where, lines) if x) if where or lines else ""
    now = Anchor(path, 0 if anchor.symbol else start, 0 if anchor.symbol else end,
                 anchor.symbol).pinned(anchor.digest, blob)
    return AnchorCheck(anchor, "moved", detail, now)


def _find_lines(lines: list[bytes], count: int, digest: str) -> tuple[int, int] | None:
    """The first run of COUNT lines whose digest is DIGEST (lines moved in the file); None
    too when looking would hash more than MAX_WINDOW_LINES lines (a hostile range)."""
    windows = len(lines) - count + 1
    if windows * count > MAX_WINDOW_LINES:
        return None
    for start in range(windows):
        if lines_digest(lines[start:start + count]) == digest:
            return start + 1, start + count
    return None


def _with_summary(repo: Repository, result: AnchorCheck, olds: dict[str, bytes]) -> AnchorCheck:
    """A changed anchor with a short diff summary: lines added and removed, where."""
    anchor = result.anchor
    old = olds.get(_old_blob(anchor))
    now = result.now
    new = repo.read(now.path) if now is not None else None
    if old is None or new is None:
        said = result.detail or "the content differs from the pinned one"
        return AnchorCheck(anchor, "changed", said, now)
    before, after = lines_of(old), lines_of(new)
    first = 1
    if anchor.start and now is not None:
        # The pinned file is known: follow the range through the diff of the whole file.
        start, end = _follow(before, after, anchor.start, anchor.end)
        if (start, end) != (now.start, now.end) and end >= start:
            moved = Anchor(now.path, start, end).pinned(
                lines_digest(after[start - 1:end]), now.blob)
            summary = diff_summary(before[anchor.start - 1:anchor.end], after[start - 1:end],
                                   start)
            lines = f"line {start}" if start == end else f"lines {start}-{end}"
            return AnchorCheck(anchor, "changed", f"now at {lines}: {summary}", moved)
    if not anchor.whole_file and now is not None:
        old_span = (find_symbol(before, anchor.symbol) if anchor.symbol
                    else (anchor.start, anchor.end))
        if old_span is not None:
            before = before[old_span[0] - 1:old_span[1]]
        span = (now.start, now.end) if now.start else find_symbol(after, anchor.symbol)
        if span is not None:
            after, first = after[span[0] - 1:span[1]], span[0]
    summary = diff_summary(before, after, first)
    where = f"{result.detail}: " if result.detail else ""
    return AnchorCheck(anchor, "changed", where + summary, now)


def _follow(before: list[bytes], after: list[bytes], start: int, end: int) -> tuple[int, int]:
    """Where the 1-based lines START-END of BEFORE are in AFTER, through their diff (where
    they were, for files too long to diff)."""
    if len(before) + len(after) > MAX_DIFF_LINES:
        return start, end
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    new_start, new_end = start, end
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if i1 <= start - 1 < i2:
            new_start = j1 + (start - 1 - i1) + 1 if tag == "equal" else j1 + 1
        if i1 <= end - 1 < i2:
            new_end = j1 + (end - 1 - i1) + 1 if tag == "equal" else j2
    return new_start, new_end


def diff_summary(before: list[bytes], after: list[bytes], first_line: int = 1) -> str:
    """"N lines added, M removed, from line K" (K counted from FIRST_LINE)."""
    added = removed = 0
    first: int | None = None
    if len(before) + len(after) > MAX_DIFF_LINES:
        # difflib is quadratic at worst: count the lines each side lacks, in linear time.
        from collections import Counter

        old, new = Counter(before), Counter(after)
        added, removed = sum((new - old).values()), sum((old - new).values())
        first = next((i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
                     min(len(before), len(after)))
    else:
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            removed += i2 - i1
            added += j2 - j1
            first = j1 if first is None else first
    if first is None or not (added or removed):
        return "only line ends differ"
    return (f"{added} line{'s' if added != 1 else ''} added, {removed} removed, "
            f"from line {first + first_line}")


def _pinned_or_none(repo: Repository, anchor: Anchor) -> Anchor | None:
    try:
        return pin(repo, anchor)
    except AnchorError:
        return None


def _why_gone(repo: Repository, path: str) -> str:
    where = os.path.join(repo.root, *path.split("/"))
    if os.path.lexists(where) and repo.ignored(path):
        return f"{path} is ignored by git; anchors cite the repository's own files"
    if os.path.lexists(where) and repo.safe_path(path) is None:
        return f"{path} is a link or not a regular file; anchors never follow links"
    return f"{path} no longer exists"
