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
    fd = os.open(path, _READ_FLAGS)
    with open(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFileError(errno.EINVAL, "not a regular file", str(path))
        return handle.read(limit)
