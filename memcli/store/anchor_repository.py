"""The repository anchors point into, and what git already knows of its files.

A whole file's digest is its git blob id, which `git ls-files -s` knows for every tracked
file the working tree has not changed (`git diff-files` says which it has); only the changed
and untracked files cited are hashed, in one `git hash-object --stdin-paths` (git's filters
applied, as git would). Outside a git work tree the blob ids are computed here.

No path is read through a link: every part of a cited path must be a real folder and its
last part a regular file, so an anchor in a repository's or a team's note never reads
anything outside the repository.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

MAX_CITED_BYTES = 8 * 1024 * 1024  # a cited file past this is "changed", never read whole
_SKIPPED_MODES = (b"120000", b"160000")  # links and submodules: nothing to read


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
        self._ignored: dict[str, bool] = {}
        self.git_calls = 0  # how many git processes ran (the benchmark reports it)

    # ------------------------------------------------------------------ reading files

    def safe_path(self, path: str) -> str | None:
        """The file's path on disk when every part of PATH is a real folder and its last
        part a regular file, all inside the root, and git does not ignore it; None otherwise
        (gone, a link, or ignored: a `.env` is no file a note should hold a digest of)."""
        if self.ignored(path):
            return None
        return self.on_disk(path)

    def on_disk(self, path: str) -> str | None:
        """safe_path without asking git whether it ignores PATH (for what git listed)."""
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

    def ignored(self, path: str) -> bool:
        """Whether git ignores PATH (a tracked file never is)."""
        if not self.git:
            return False
        if path not in self._ignored:
            self._check_ignored([path])
        return self._ignored[path]

    def _check_ignored(self, paths: Iterable[str]) -> None:
        todo = [p for p in dict.fromkeys(paths) if p not in self._ignored]
        if not todo:
            return
        # Exit status 1 (nothing ignored) reads as no output.
        out = self._run(["check-ignore", "-z", "--stdin"], "\0".join(todo).encode() + b"\0")
        hits = set((out or b"").decode("utf-8", "replace").split("\0"))
        self._ignored.update((p, p in hits) for p in todo)

    def prepare(self, paths: Iterable[str]) -> None:
        """Ask git at once which cited files it ignores, and hash the ones its index does not
        know as they are now."""
        if self.git:
            paths = list(paths)
            self._check_ignored(paths)
            index, changed = self._tracked(), self._changed()
            self.hash_files(p for p in paths if (p not in index or p in changed)
                            and not self.ignored(p))

    def hash_files(self, paths: Iterable[str]) -> None:
        """Hash the working-tree files PATHS (git's filters applied, as git would); the
        caller has left out what git ignores."""
        todo = [p for p in dict.fromkeys(paths) if p not in self._hashed
                and self.on_disk(p) is not None]
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
        # Tracked, or untracked and not ignored: on disk is all that is left to ask.
        return sorted(p for p in self._by_blob.get(blob, []) if self.on_disk(p) is not None)

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


def _blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()
