"""Path helpers shared by every layer (no imports from memcli): resolving, and reading a
regular file without following a link."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class NotRegularFileError(OSError):
    """The path opened to a folder, a FIFO, a device: something memcli does not read."""


def resolved(path: Path) -> Path:
    """The path with symlinks resolved, or the path as given when it cannot be resolved.

    Comparisons of store folders use this: a folder that does not exist yet, a permission
    error or a symlink loop must not turn "is this the same folder?" into a crash.
    """
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path


def read_regular_file(path: str | Path, limit: int = -1) -> bytes:
    """A regular file's bytes (at most LIMIT of them when LIMIT >= 0), never through a link.

    A link is ``OSError`` ELOOP, anything but a regular file is NotRegularFileError (a FIFO
    would block forever), other errors are the caller's to report.
    """
    return read_regular_file_stat(path, limit)[0]


def read_regular_file_stat(path: str | Path, limit: int = -1) -> tuple[bytes, os.stat_result]:
    """:func:`read_regular_file`, with the file's status as it was before it was read
    (what a cache of what was read keys its record on)."""
    fd = os.open(path, _READ_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(errno.EINVAL, "not a regular file", str(path))
        return _read_fd(fd, info.st_size, limit), info
    finally:
        os.close(fd)


def _read_fd(fd: int, size: int, limit: int) -> bytes:
    """Plain os.read calls, not a buffered file object: a store command reads 20,000 small
    files, and the file object cost as much again as the read. One read asks for one byte
    more than the size; only a file that grew or shrank since its size was taken (or a short
    read) is read on to its end."""
    want = size + 1 if limit < 0 else min(size + 1, limit)
    first = os.read(fd, want)
    if len(first) == size or len(first) == limit:
        return first
    parts = [first]
    total = len(first)
    while limit < 0 or total < limit:
        chunk = os.read(fd, 1 << 16 if limit < 0 else min(1 << 16, limit - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
    return b"".join(parts)
