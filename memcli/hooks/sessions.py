"""How much of each session's transcript has been queued, for the session's last word.

Claude Code fires no ``Stop`` for a turn the person interrupts, so a session that ends on
one would lose it. Each queued turn leaves a mark (the transcript's size then) under the
queue folder; at ``SessionEnd`` a transcript that grew past its mark with a new prompt
in it is queued once more, and the mark is removed.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

MARKS = "sessions"


def _mark(queue: Path, session: str) -> Path:
    return queue / MARKS / hashlib.sha256(session.encode()).hexdigest()[:24]


def remember(queue: Path, session: str, size: int) -> None:
    from memcli.durable import replace_file

    if not session:
        return
    path = _mark(queue, session)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    replace_file(path, str(size).encode(), 0o600)


def last_queued(queue: Path, session: str) -> int:
    """The transcript size of the session's last queued turn; 0 when none was."""
    try:
        return int(_mark(queue, session).read_text("ascii").strip() or 0)
    except (OSError, ValueError):
        return 0


def forget(queue: Path, session: str) -> None:
    with contextlib.suppress(OSError):
        _mark(queue, session).unlink()


def new_prompt_since(transcript: Path, start: int) -> bool:
    """Whether the transcript holds a message of the person after byte START.

    The bytes after START are read from their end, as a last turn is (never loaded whole:
    a session that was never queued is read from byte 0). When they cannot be read, the
    turn is queued anyway: the job's extraction says in the log what is wrong with them.
    """
    from memcli.errors import InputError
    from memcli.transcripts.reader import read_transcript
    from memcli.transcripts.source import TranscriptFile

    with open(transcript, "rb") as handle:
        handle.seek(start)
        try:
            turn = read_transcript(TranscriptFile(transcript, handle=handle), last_turn=True)
        except InputError:
            return True
    return any(m.role == "user" for m in turn.messages)
