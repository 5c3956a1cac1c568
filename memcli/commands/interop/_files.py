"""Reading and writing another tool's files: no symbolic links followed, writes atomic.

Another tool's folder may be planted (a cloned repository, a shared machine): a link named
like the file memcli reads (``MEMORY.md`` -> ``~/.netrc``) or like the temporary file it
writes would otherwise carry memcli into a file it was never asked about. Every read opens
with ``O_NOFOLLOW`` and checks that it got a regular file (a FIFO would also block for
ever); every write goes through :func:`memcli.durable.replace_file` (a fresh,
exclusively created temporary file renamed into place).
"""

from __future__ import annotations

import errno
from pathlib import Path

from memcli.durable import replace_file
from memcli.errors import InputError, StoreError
from memcli.paths import NotRegularFileError, read_regular_file

# More than any memory file holds; a larger "memory file" is not one.
MAX_FILE_BYTES = 16 * 1024 * 1024


def read_file(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """A regular file's bytes; None when nothing is there. Links, folders, FIFOs and files
    over LIMIT bytes are an InputError naming the path."""
    try:
        data = read_regular_file(path, limit + 1)
    except FileNotFoundError:
        return None
    except NotRegularFileError:
        raise InputError(f"{path} is not a regular file") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{path} is a symbolic link; memcli does not follow links") from None
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > limit:
        raise InputError(f"{path} is larger than {limit // (1024 * 1024)} MiB; "
                         "not a memory file memcli reads")
    return data


def read_text(path: Path) -> str | None:
    """The file's UTF-8 text; None when it does not exist. A link or a non-file is an error."""
    data = read_file(path)
    if data is None:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None


def make_folder(folder: Path) -> None:
    """The folder an export writes to, with its parents; one clear error when it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the folder {folder}: {exc.strerror}") from None


def write_bytes_if_changed(path: Path, data: bytes, before: bytes | None, *,
                           dry_run: bool = False) -> str:
    """created, updated or unchanged (BEFORE is what PATH held); never through a link.
    With DRY_RUN, what it would be, and nothing written."""
    if before == data:
        return "unchanged"
    if dry_run:
        return "created" if before is None else "updated"
    make_folder(path.parent)
    try:
        replace_file(path, data)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror}") from None
    return "created" if before is None else "updated"


def write_if_changed(path: Path, text: str, *, dry_run: bool = False) -> str:
    """created, updated or unchanged; never through a link (with DRY_RUN, never at all)."""
    before = read_file(path)
    if before is not None:
        try:
            if before.decode("utf-8-sig") == text:
                return "unchanged"
        except UnicodeDecodeError:
            raise InputError(f"{path} is not UTF-8 text") from None
    return write_bytes_if_changed(path, text.encode("utf-8"), before, dry_run=dry_run)
