"""The hook log: every hook and worker writes what it did, and what went wrong, here.

A hook prints nothing on failure (a memory tool must never break the agent's session), so
this file is where a person looks when no memory appears.
"""

from __future__ import annotations

import contextlib
import os
import traceback
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

LOG_NAME = "hook.log"
MAX_LOG_BYTES = 1024 * 1024
# A logged line quotes what a payload, a transcript or a provider said (a session id, a
# folder, an error): a 1 MB session id filled the log. Longer lines are cut, and say so.
MAX_LOG_LINE_CHARS = 1000


class BadPayload(Exception):
    """A payload the hook cannot use: logged in one line, without a traceback."""


def not_a_file(path: Path) -> BadPayload | None:
    """Why the transcript at PATH cannot be read, in one line; None when it is a file.

    A payload names any path it likes: a folder, a FIFO (whose reader would wait for a
    writer forever), a device such as /dev/zero (endless), or nothing at all."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return BadPayload(f"the transcript {path} does not exist; nothing to extract")
    except OSError as exc:
        return BadPayload(f"cannot read the transcript {path}: {exc.strerror}")
    if stat.S_ISREG(mode):
        return None
    kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device")
    return BadPayload(f"the transcript {path} is {kind}, not a regular file; nothing to "
                      "extract")


def memcli_folder(env: Mapping[str, str]) -> Path:
    """The user's memcli folder, even when the configuration cannot be read."""
    try:
        from memcli.settings.locations import memcli_home

        return memcli_home(env)
    except Exception:
        return Path(os.path.expanduser("~")) / ".memcli"


def log_path(home: Path) -> Path:
    folder = home / "logs"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder / LOG_NAME


def open_log(path: Path) -> int:
    """An append-only fd on the log, readable by its owner only: it names transcripts and
    quotes what the extraction printed."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with contextlib.suppress(OSError):
        os.fchmod(fd, 0o600)  # a log from an older memcli was created 0644
    return fd


def log(home: Path, message: str) -> None:
    """Append one entry to the hook log; a log that cannot be written is not an error."""
    try:
        path = log_path(home)
        with contextlib.suppress(FileNotFoundError):
            if path.stat().st_size > MAX_LOG_BYTES:
                os.replace(path, path.with_name(LOG_NAME + ".1"))
        from memcli.safety.invisible_chars import safe_line

        # Each line without escape sequences: the log quotes what a provider or an
        # extraction printed, and a person reads it with `cat` or `tail -f`.
        first, *rest = (safe_line(_clipped(line))
                        for line in message.rstrip("\n").split("\n"))
        text = "".join(f"    {line}\n" for line in rest)
        with os.fdopen(open_log(path), "a", encoding="utf-8") as handle:
            handle.write(f"{now()} [{os.getpid()}] {first}\n{text}")
    except Exception:
        pass


def _clipped(line: str) -> str:
    if len(line) <= MAX_LOG_LINE_CHARS:
        return line
    return f"{line[:MAX_LOG_LINE_CHARS]}… ({len(line) - MAX_LOG_LINE_CHARS} more characters)"


def log_failure(home: Path, exc: BaseException, where: str = "hook") -> None:
    if isinstance(exc, BadPayload):
        log(home, f"{where}: {exc}")
        return
    details = "".join(traceback.format_exception(exc)).rstrip()
    log(home, f"{where} failed: {type(exc).__name__}: {exc}\n{details}")


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
