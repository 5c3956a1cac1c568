"""Where each session's extraction got to: one cursor per session, beside the queue.

A cursor says how many bytes of the session's transcript have been extracted (``end``,
always the end of a turn a job was queued for), a fingerprint of the bytes just before
that point (``tail``), and the keys of the prompts extracted so far (the newest
``KEEP_PROMPTS``). A job reads the transcript's bytes from the cursor to its own turn's
end, so every turn the person typed since the last extraction is extracted, once: turns
added between two jobs are all in the next one, and a job that finds nothing past the
cursor (its turns went with an earlier job's) extracts nothing.

A transcript that no longer starts with the bytes the cursor describes (cut shorter, a
compaction or a rewind that rewrote it) is read whole, and the turns extracted are those
at its end whose prompt is not one already extracted: the walk back from the newest turn
stops at the first known prompt. So a rewound session's new turns are extracted and its
old ones are not extracted again; a prompt typed again word for word after a rewrite is
taken for the one already extracted (the same words give the same notes).

The cursor moves only after the job's extraction has committed (``memcli.hooks.queue``),
and the job's name is recorded in the history record its extraction commits, so a worker
killed between the commit and the cursor's move finds the record and moves the cursor
instead of extracting the turns again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

CURSORS = "cursors"
KEEP_PROMPTS = 512
# How many bytes before the cursor its fingerprint covers.
TAIL_BYTES = 4096


@dataclass(frozen=True)
class Cursor:
    end: int
    tail: str
    prompts: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"end": self.end, "tail": self.tail, "prompts": list(self.prompts)}

    def advanced(self, end: int, tail: str, prompts: list[str]) -> Cursor:
        return Cursor(end, tail, (*self.prompts, *prompts)[-KEEP_PROMPTS:])


# No turn extracted yet: the whole transcript is new (the fingerprint of 0 bytes matches
# every file).
START: Cursor


def cursor_path(queue: Path, session: str, transcript: str) -> Path:
    key = hashlib.sha256(f"{session}\0{transcript}".encode()).hexdigest()[:24]
    return queue / CURSORS / key


def from_json(raw: Any) -> Cursor | None:
    if not isinstance(raw, dict):
        return None
    end, tail, prompts = raw.get("end"), raw.get("tail"), raw.get("prompts")
    if not isinstance(end, int) or end < 0 or not isinstance(tail, str):
        return None
    if not isinstance(prompts, list) or not all(isinstance(p, str) for p in prompts):
        return None
    return Cursor(end, tail, tuple(prompts[-KEEP_PROMPTS:]))


def load(path: Path) -> Cursor | None:
    """The saved cursor; None when there is none (or it cannot be read: the job then
    extracts its last turn, as the first job of a session does)."""
    try:
        return from_json(json.loads(path.read_bytes()))
    except (OSError, ValueError):
        return None


def save(path: Path, cursor: Cursor) -> None:
    from memcli.durable import replace_file

    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    replace_file(path, json.dumps(cursor.as_json()).encode(), 0o600)


def fingerprint(handle: BinaryIO, end: int) -> str:
    """The hash of the TAIL_BYTES before END (and of END itself)."""
    start = max(0, end - TAIL_BYTES)
    handle.seek(start)
    data = handle.read(end - start)
    return hashlib.sha256(f"{end}\0".encode() + data).hexdigest()[:32]


START = Cursor(0, hashlib.sha256(b"0\0").hexdigest()[:32])


def prompt_key(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:16]
