"""What a job's extraction reads on stdin: its turn, copied from the transcript.

A job records how long the transcript was when the turn ended, and the worker reads that
much and no more: a job that waited while the session went on still sees its own turn as
the last one, and a transcript cut shorter since is read to its end. Of those bytes only the
window a last-turn read settles on is copied (``memcli.transcripts.last_turn_window``: the
turn and whatever decides it, after a Codex rollout's header line), not the whole session:
a session log grows to hundreds of MB, and every turn's job would copy it all. What only a
whole read can tell is copied whole, a block at a time. The copy is made again at every
attempt, from the transcript as it is then, so a job stays replayable after a crash.

An agent may fire its end-of-turn event before it has written the final answer to the
transcript, so the payload's last answer is added when the turn lacks it.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from memcli.hooks.log import BadPayload, not_a_file

if TYPE_CHECKING:
    from memcli.hooks.cursor import Cursor
    from memcli.messages import Message
    from memcli.transcripts.model import Transcript

BLOCK = 1024 * 1024


@dataclass(frozen=True)
class Copied:
    """A job's input: how many bytes it holds, and how many the transcript had for the turn
    (0 for a turn the payload carried)."""

    written: int
    transcript: int = 0
    # Where the session's cursor moves once the extraction has committed (None: a turn
    # the payload carried has no transcript to keep a place in).
    cursor: Cursor | None = None
    # Whether the input is a window the child reads the last turn of (the session's first
    # job), or plain messages all of which are new (the turns since the cursor).
    last_turn: bool = True
    # Prompts in the input the session had not had extracted; 0: nothing to extract.
    prompts: int = 1


def inline_input(messages: Any) -> bytes:
    """A turn the payload carried, as plain ``{"role", "content"}`` lines."""
    lines = []
    for pair in messages:
        role, text = pair
        if role not in ("user", "assistant") or not isinstance(text, str):
            raise ValueError("the job's messages are not (user|assistant, text) pairs")
        lines.append(json.dumps({"role": role, "content": text}, ensure_ascii=False) + "\n")
    return "".join(lines).encode()


def copy_turn(transcript: Path, size: int, last_message: Any, dest: Path, *,
              first_window: int | None = None) -> Copied:
    """Copy the last turn of the transcript's first SIZE bytes to DEST, with the final
    answer when the turn lacks it; FIRST_WINDOW is how much of the end is looked at first."""
    from memcli.durable import replacing
    from memcli.transcripts.reader import last_turn_window
    from memcli.transcripts.source import Blob
    from memcli.transcripts.tail import FIRST_WINDOW

    # Not synced: the copy is made again at every attempt, and the job file (which is
    # synced) is what a crash must leave behind.
    with _open_regular(transcript) as handle, replacing(dest, 0o600, sync=False) as (
            staged, out):
        end, newline = _turn_end(handle, min(size, os.fstat(handle.fileno()).st_size))
        window = last_turn_window(Blob(handle, end), first_window or FIRST_WINDOW)
        if window is None:
            _copy(handle, 0, end, out)
        else:
            _copy(handle, 0, window.head, out)
            _copy(handle, max(window.start, window.head), end, out)
        if newline:
            out.write(b"\n")
        out.flush()
        turn = window.transcript if window is not None else _whole_read(staged)
        if (isinstance(last_message, str) and last_message.strip() and turn is not None
                and not _says(turn.messages, last_message)):
                line = json.dumps({"role": "assistant", "content": last_message},
                                  ensure_ascii=False)
                out.write(line.encode() + b"\n")
        from memcli.hooks.cursor import Cursor, fingerprint, prompt_key

        prompts = [prompt_key(m.text) for m in (turn.messages if turn else [])
                   if m.role == "user"]
        cursor = Cursor(end, fingerprint(handle, end), tuple(prompts))
        return Copied(out.tell(), end, cursor)


@contextlib.contextmanager
def _open_regular(path: Path) -> Iterator[BinaryIO]:
    """A regular file, open for reading; a FIFO, a device or a socket is refused (reading
    one would hang the queue while it holds the lock), in one line of the log, as is a
    transcript gone or unreadable since the turn was queued."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        raise not_a_file(path) or BadPayload(f"cannot read the transcript {path}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise not_a_file(path) or BadPayload(f"the transcript {path} is not a regular file")
    with os.fdopen(fd, "rb") as handle:
        yield handle


def _turn_end(handle: BinaryIO, size: int) -> tuple[int, bool]:
    """Where the turn's bytes end, and whether a newline must follow them: a record
    half-written when the turn ended is left out, a whole one without its newline kept."""
    if size <= 0:
        return 0, False
    handle.seek(size - 1)
    if handle.read(1) == b"\n":
        return size, False
    newline = _last_newline(handle, size)
    handle.seek(newline + 1)
    try:
        json.loads(handle.read(size - newline - 1))
    except (ValueError, RecursionError):
        return newline + 1, False
    return size, True


def _last_newline(handle: BinaryIO, end: int) -> int:
    """The position of the last newline before END; -1 when there is none."""
    hi = end
    while hi > 0:
        lo = max(hi - BLOCK, 0)
        handle.seek(lo)
        found = handle.read(hi - lo).rfind(b"\n")
        if found >= 0:
            return lo + found
        hi = lo
    return -1


def _copy(handle: BinaryIO, start: int, end: int, out: BinaryIO) -> None:
    handle.seek(start)
    while start < end:
        chunk = handle.read(min(BLOCK, end - start))
        if not chunk:
            return  # the file was cut shorter while it was read
        out.write(chunk)
        start += len(chunk)


def _whole_read(path: Path) -> Transcript | None:
    """The last turn of a copy only a whole read can tell; None when it cannot be read
    (the extraction then says why)."""
    from memcli.errors import InputError
    from memcli.transcripts.reader import read_transcript
    from memcli.transcripts.source import TranscriptFile

    try:
        return read_transcript(TranscriptFile(path), last_turn=True)
    except InputError:
        return None


def _says(messages: list[Message], message: str) -> bool:
    wanted = " ".join(message.split())
    return any(m.role == "assistant" and wanted in " ".join(m.text.split())
               for m in messages)
