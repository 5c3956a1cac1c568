"""Durable writes: a new file's bytes and its folder's entry flushed to disk.

The one way memcli writes a file that must survive a crash: the transaction's staged files
and manifests, and the files written outside a store (exports, hook jobs, trust).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_durably(path: Path | str, data: bytes, mode: int = 0o644, *, exact: bool = False) -> None:
    """Write a new file and flush it to disk (the caller fsyncs the folder).

    A symbolic link at PATH is never followed (ELOOP): a link planted at a temporary name
    would otherwise send the bytes into whatever file it points at. With EXACT the file
    gets MODE whatever the umask says (an update keeps the mode the person gave the note).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(path, flags, mode)
    try:
        if exact:
            os.fchmod(fd, mode)
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_file(path: Path, data: bytes, mode: int = 0o666) -> None:
    """Give PATH new bytes atomically: a fresh temporary file beside it, renamed over it.

    The temporary name is random and created exclusively (never an existing file, never
    through a link), so a link planted in a folder someone else controls cannot redirect
    the write. A link at PATH itself is replaced by the new file, not followed.
    """
    with replacing(path, mode) as (_, out):
        out.write(data)


@contextlib.contextmanager
def replacing(path: Path, mode: int = 0o666, *, sync: bool = True
              ) -> Iterator[tuple[Path, BinaryIO]]:
    """:func:`replace_file` for bytes written a piece at a time: the temporary file (its
    path, and open for writing) is renamed over PATH when the block ends, and removed
    when it raises. Without SYNC it is not flushed to disk first (a file that is made
    again after a crash)."""
    temporary = path.with_name(f".{path.name}.{os.urandom(6).hex()}.memcli-tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(temporary, flags, mode)
    try:
        with os.fdopen(fd, "wb") as out:
            yield temporary, out
            out.flush()
            if sync:
                os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
