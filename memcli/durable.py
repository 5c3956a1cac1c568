"""Durable writes: a new file's bytes and its folder's entry flushed to disk.

The one way memcli writes a file that must survive a crash: the transaction's staged files
and manifests, and the files written outside a store (exports, hook jobs, trust).
"""

from __future__ import annotations

import os
from pathlib import Path


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_durably(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write a new file and flush it to disk (the caller fsyncs the folder)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
