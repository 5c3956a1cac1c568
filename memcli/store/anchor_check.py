"""Checking anchors against the repository's working tree, and pinning them.

A whole file's digest is its git blob id, which `git ls-files -s` already knows for every
tracked file the working tree has not changed (`git diff-files` says which it has); only
the changed and untracked files cited are hashed, in one `git hash-object --stdin-paths`.
A line range or a symbol is hashed from the file's bytes (sha256 of its lines, line ends
without "\\r"), with the file's blob id beside it so that the pinned text can be read back
from git for a diff summary and followed when the file is renamed.

Every path is checked twice: its spelling (:func:`memcli.store.anchors.check_path`) and, on
disk, that no part of it is a link and the last part is a regular file, so an anchor in a
repository's or a team's note never reads anything outside the repository.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Final, Literal

from memcli.store.anchor_symbols import find_symbol
from memcli.store.anchors import Anchor, AnchorError
from memcli.value_types import FrozenRecord

State = Literal["unchanged", "changed", "moved", "gone", "unpinned"]
MAX_CITED_BYTES = 8 * 1024 * 1024  # a cited file past this is "changed", never read whole
_SKIPPED_MODES = (b"120000", b"160000")  # links and submodules: nothing to read


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


def repository_root(project_root: Path) -> Path:
    """The git top level holding PROJECT_ROOT, else PROJECT_ROOT (anchors' root)."""
    for folder in (project_root, *project_root.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    return project_root


class Repository:
    """The files anchors point into, and what git knows of them (asked once, lazily)."""

    def __init__(self, root: Path, env: Mapping[str, str] | None = None) -> None:
        self.root = root
        self.env = dict(env) if env is not None else None
        self.git = os.path.lexists(root / ".git")
        self._index: dict[str, str] | None = None
        self._dirty: set[str] | None = None
        self._hashed: dict[str, str | None] = {}
        self._by_blob: dict[str, list[str]] | None = None
        self._untracked_searched = False
        self.git_calls = 0  # how many git processes ran (the benchmark reports it)

    # ------------------------------------------------------------------ reading files

    def safe_path(self, path: str) -> str | None:
        """The file's path on disk when every part of PATH is a real folder and its last
        part a regular file, all inside the root; None otherwise (gone, or a link)."""
        current = str(self.root)
        parts = path.split("/")
        for position, part in enumerate(parts):
            current = os.path.join(current, part)
            try:
                mode = os.lstat(current).st_mode
            except OSError:
                return None
            last = position == len(parts) - 1
            if stat.S_ISLNK(mode) or not (stat.S_ISREG(mode) if last else stat.S_ISDIR(mode)):
                return None
        return current

    def read(self, path: str) -> bytes | None:
        from memcli.paths import read_regular_file

        where = self.safe_path(path)
        if where is None:
            return None
        try:
            return read_regular_file(where, MAX_CITED_BYTES + 1)
        except OSError:
            return None

    # ------------------------------------------------------------------ blob ids

    def blob_id(self, path: str) -> str | None:
        """PATH's blob id as the working tree has it (None when it is no safe file)."""
        if self.safe_path(path) is None:
            return None
        index = self._tracked()
        if path in index and path not in self._changed():
            return index[path]
        if path not in self._hashed:
            self.hash_files([path])
        return self._hashed.get(path)

    def prepare(self, paths: Iterable[str]) -> None:
        """Hash at once the cited files git's index does not know as they are now."""
        if self.git:
            index, changed = self._tracked(), self._changed()
            self.hash_files(p for p in paths if p not in index or p in changed)

    def hash_files(self, paths: Iterable[str]) -> None:
        """Hash the working-tree files PATHS (git's filters applied, as git would)."""
        todo = [p for p in dict.fromkeys(paths) if p not in self._hashed
                and self.safe_path(p) is not None]
        if not todo:
            return
        if self.git and not any("\n" in p for p in todo):
            done = self._run(["hash-object", "--stdin-paths"], "\n".join(todo).encode() + b"\n")
            ids = done.decode("ascii", "replace").split() if done is not None else []
            if len(ids) == len(todo):
                self._hashed.update(zip(todo, ids, strict=True))
                return
        for path in todo:
            data = self.read(path)
            self._hashed[path] = None if data is None else _blob_id(data)

    def paths_holding(self, blob: str) -> list[str]:
        """The files whose content is BLOB now (a renamed file's new path)."""
        if not self.git:
            return []
        if self._by_blob is None:
            changed = self._changed()
            self._by_blob = {}
            for path, found in self._tracked().items():
                if path not in changed:
                    self._by_blob.setdefault(found, []).append(path)
            self.hash_files(changed)
            for path in changed:
                if self._hashed.get(path):
                    self._by_blob.setdefault(self._hashed[path] or "", []).append(path)
        if blob not in self._by_blob and not self._untracked_searched:
            # A file moved without `git mv` is untracked at its new path.
            self._untracked_searched = True
            out = self._run(["ls-files", "-z", "--others", "--exclude-standard"])
            untracked = [p for p in (out or b"").decode("utf-8", "replace").split("\0") if p]
            self.hash_files(untracked)
            for path in untracked:
                if self._hashed.get(path):
                    self._by_blob.setdefault(self._hashed[path] or "", []).append(path)
        return sorted(p for p in self._by_blob.get(blob, []) if self.safe_path(p) is not None)

    def contents(self, blobs: Sequence[str]) -> dict[str, bytes]:
        """The content git's object store holds for each of BLOBS (those it still has)."""
        wanted = list(dict.fromkeys(b for b in blobs if b))
        if not self.git or not wanted:
            return {}
        out = self._run(["cat-file", "--batch"], "\n".join(wanted).encode() + b"\n")
        found: dict[str, bytes] = {}
        pos = 0
        while out is not None and pos < len(out):
            end = out.find(b"\n", pos)
            if end < 0:
                break
            header = out[pos:end].split()
            pos = end + 1
            if len(header) == 3 and header[1] == b"blob":
                size = int(header[2])
                found[header[0].decode()] = out[pos:pos + size]
                pos += size + 1
        return found

    def staged(self) -> set[str]:
        """The paths the staged commit adds, changes or deletes (a rename is both)."""
        out = self._run(["diff", "--cached", "--name-only", "--no-renames", "-z"])
        return {p for p in (out or b"").decode("utf-8", "replace").split("\0") if p}

    def _tracked(self) -> dict[str, str]:
        if self._index is None:
            self._index = {}
            out = self._run(["ls-files", "-s", "-z"]) if self.git else None
            for record in (out or b"").split(b"\0"):
                head, _, name = record.partition(b"\t")
                fields = head.split()
                if len(fields) == 3 and fields[2] == b"0" and fields[0] not in _SKIPPED_MODES:
                    self._index[name.decode("utf-8", "replace")] = fields[1].decode()
        return self._index

    def _changed(self) -> set[str]:
        if self._dirty is None:
            out = self._run(["diff-files", "--name-only", "-z"]) if self.git else None
            self._dirty = {p for p in (out or b"").decode("utf-8", "replace").split("\0") if p}
        return self._dirty

    def _run(self, args: list[str], stdin: bytes | None = None) -> bytes | None:
        self.git_calls += 1
        try:
            done = subprocess.run(["git", "-C", str(self.root), "-c", "core.quotepath=off",
                                   *args], input=stdin, capture_output=True, env=self.env,
                                  check=False)
        except OSError:
            return None  # no git: whole files are hashed here instead
        return done.stdout if done.returncode == 0 else None


# ---------------------------------------------------------------------- digests


def _blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


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
        raise AnchorError(f"{anchor.path}: no such file in the repository (or it is a link)")
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
    """The first run of COUNT lines whose digest is DIGEST (lines moved in the file)."""
    for start in range(len(lines) - count + 1):
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


def diff_summary(before: list[bytes], after: list[bytes], first_line: int = 1) -> str:
    added = removed = 0
    first: int | None = None
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed += i2 - i1
        added += j2 - j1
        first = j1 if first is None else first
    if first is None:
        return "only line ends or whitespace differ"
    return (f"{added} line{'s' if added != 1 else ''} added, {removed} removed, "
            f"from line {first + first_line}")


def _pinned_or_none(repo: Repository, anchor: Anchor) -> Anchor | None:
    try:
        return pin(repo, anchor)
    except AnchorError:
        return None


def _why_gone(repo: Repository, path: str) -> str:
    where = os.path.join(repo.root, *path.split("/"))
    if os.path.lexists(where) and repo.safe_path(path) is None:
        return f"{path} is a link or not a regular file; anchors never follow links"
    return f"{path} no longer exists"
