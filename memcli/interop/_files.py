"""Reading and writing another tool's files: no symbolic links followed, writes atomic."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from memcli.durable import write_durably
from memcli.errors import InputError, StoreError


def read_text(path: Path) -> str | None:
    """The file's text; None when it does not exist. A link or a non-file is an error."""
    if path.is_symlink():
        raise InputError(f"{path} is a symbolic link; memcli does not follow links")
    if not path.exists():
        return None
    if not path.is_file():
        raise InputError(f"{path} is not a regular file")
    try:
        return path.read_text("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def write_if_changed(path: Path, text: str) -> str:
    """created, updated or unchanged; never through a link."""
    before = read_text(path)
    if before == text:
        return "unchanged"
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.memcli-tmp")
    try:
        write_durably(temporary, text.encode("utf-8"))
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise StoreError(f"cannot write {path}: {exc.strerror}") from None
    return "created" if before is None else "updated"
