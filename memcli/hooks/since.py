"""A job's input when its session has a cursor: every turn since, as plain messages.

The rule (``memcli.hooks.cursor`` says why): when the transcript still holds the bytes the
cursor describes, the turns are those in the bytes from the cursor to the job's turn end;
otherwise (cut shorter, rewritten) the turns at the end of the whole transcript whose prompt
was not extracted yet. The messages before the first prompt of the bytes read (the end of
a turn extracted already, written after its hook fired) are left out. The turns are written
as ``{"role", "content"}`` lines, all of which the child extracts (no ``--last-turn``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from memcli.hooks.cursor import START, Cursor, fingerprint, prompt_key
from memcli.hooks.turn import Copied, _copy, _open_regular, _says, _turn_end

if TYPE_CHECKING:
    from memcli.messages import Message


# A session's first job extracts every turn from its start when the transcript is no longer
# than this; a longer one (memcli set up in the middle of a long session) its last turn.
WHOLE_FIRST = 256 * 1024


def _size_of(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return WHOLE_FIRST + 1  # the window's read says what is wrong with it


def write_job_input(job: Mapping[str, Any], dest: Path, saved: Cursor | None = None
                    ) -> Copied:
    """Write what the job's extraction reads on stdin to DEST (replaced whole): the turns
    since the session's cursor SAVED, or with none the last turn."""
    from memcli.durable import replacing
    from memcli.hooks.turn import copy_turn, inline_input

    if job.get("transcript") is None:
        data = inline_input(job.get("messages") or [])
        with replacing(dest, 0o600, sync=False) as (_, out):
            out.write(data)
        return Copied(len(data))
    transcript = Path(job["transcript"])
    if saved is None and _size_of(transcript) <= WHOLE_FIRST:
        saved = START  # a session's first job: every turn from the start
    if saved is not None:
        return copy_since(transcript, int(job["size"]), job.get("last_assistant_message"),
                          dest, saved)
    return copy_turn(Path(job["transcript"]), int(job["size"]),
                     job.get("last_assistant_message"), dest)


def copy_since(transcript: Path, size: int, last_message: Any, dest: Path,
               saved: Cursor) -> Copied:
    """Write the turns of the transcript's first SIZE bytes that SAVED has not seen to DEST."""
    import os

    from memcli.durable import replacing

    with _open_regular(transcript) as handle:
        end, _ = _turn_end(handle, min(size, os.fstat(handle.fileno()).st_size))
        appended = saved.end <= end and fingerprint(handle, saved.end) == saved.tail
        if appended:
            messages = _from_first_prompt(_read_range(handle, saved.end, end, dest))
        else:
            messages = _unseen_turns(_read_range(handle, 0, end, dest), set(saved.prompts))
        tail = fingerprint(handle, end)
    prompts = [prompt_key(m.text) for m in messages if m.role == "user"]
    lines = [(m.role, m.text) for m in messages if m.role in ("user", "assistant")]
    if (prompts and isinstance(last_message, str) and last_message.strip()
            and not _says(messages, last_message)):
        lines.append(("assistant", last_message))
    data = "".join(json.dumps({"role": role, "content": text}, ensure_ascii=False) + "\n"
                   for role, text in lines).encode()
    with replacing(dest, 0o600, sync=False) as (_, out):
        out.write(data if prompts else b"")
    return Copied(len(data) if prompts else 0, end, saved.advanced(end, tail, prompts),
                  last_turn=False, prompts=len(prompts))


def _read_range(handle: BinaryIO, start: int, end: int, dest: Path) -> list[Message]:
    """The messages of the transcript's bytes from START to END, read as a file of its own
    (staged beside DEST, then removed)."""
    from memcli.errors import InputError
    from memcli.transcripts.reader import read_transcript
    from memcli.transcripts.source import TranscriptFile

    if end <= start:
        return []
    staged = dest.with_name(dest.name + ".range")
    try:
        with open(staged, "wb") as out:
            if start > 0:
                out.write(_header(handle))
            _copy(handle, start, end, out)
        try:
            return read_transcript(TranscriptFile(staged)).messages
        except InputError:
            return []
    finally:
        with contextlib.suppress(FileNotFoundError):
            staged.unlink()


def _header(handle: BinaryIO) -> bytes:
    """A Codex rollout's ``session_meta`` first line (it says whose rollout it is: a
    subagent's turns are not the person's), read first as a whole read would; else b""."""
    handle.seek(0)
    line = handle.readline(1024 * 1024)
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return b""
    if isinstance(value, dict) and value.get("type") == "session_meta":
        return line if line.endswith(b"\n") else line + b"\n"
    return b""


def _from_first_prompt(messages: list[Message]) -> list[Message]:
    for i, message in enumerate(messages):
        if message.role == "user":
            return messages[i:]
    return []


def _unseen_turns(messages: list[Message], seen: set[str]) -> list[Message]:
    """The turns at the end of MESSAGES back to the first whose prompt is in SEEN."""
    start = len(messages)
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].role != "user":
            continue
        if prompt_key(messages[i].text) in seen:
            break
        start = i
    return messages[start:]
