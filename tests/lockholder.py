"""Holding a store's or the hook queue's lock the way another process does, for the tests.

It is an ``flock`` on the lock file, the lock memcli takes (and the lock ``filelock``, which
memcli used before, takes on POSIX), taken here with the standard library alone: a test that
holds it does not rely on memcli's own locking code.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def held(path: Path) -> Iterator[None]:
    """Hold the exclusive lock on PATH (created if missing) for the block's duration."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)
