"""Goose (Block's agent): its session files and ``goose session export --format json``.

Before Goose moved its sessions into ``sessions.db`` (SQLite, which memcli does not open:
export the session), ``~/.local/share/goose/sessions/<id>.jsonl`` held a metadata line
(``working_dir``, ``description``, ``message_count``, token counts) and then one message a
line: ``{"role", "created" (seconds), "content": [...], "metadata"?}``, the content typed
``text``, ``thinking``, ``toolRequest`` (``toolCall.value``: name and arguments) and
``toolResponse`` (``toolResult.value``: the output's content). An export is ``{"id",
"working_dir", ..., "conversation": [messages]}``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from memcli.messages import Role
from memcli.transcripts.content import blocks, call_piece, tool_piece
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_list, get_str

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}


def _is_message(rec: Record) -> bool:
    created = rec.get("created")
    return (get_str(rec, "role") in _ROLES and isinstance(created, int)
            and not isinstance(created, bool) and isinstance(rec.get("content"), list))


def _is_metadata(rec: Record) -> bool:
    return isinstance(rec.get("working_dir"), str) and (
        "message_count" in rec or isinstance(rec.get("conversation"), list)
    )


def _matches(rec: Record) -> bool:
    return _is_message(rec) or _is_metadata(rec)


def read(rec: Record) -> list[Piece] | None:
    if not _is_message(rec):
        conversation = get_list(rec, "conversation")
        return [p for m in conversation if isinstance(m, dict) and _is_message(m)
                for p in read(m) or ()] or None
    role = _ROLES[str(rec["role"])]
    ts = _seconds(rec.get("created"))
    metadata = get_dict(rec, "metadata") or {}
    # a message only the model saw: context Goose added, not the person's words
    hidden = metadata.get("userVisible") is False
    pieces: list[Piece] = []
    for part in get_list(rec, "content"):
        if isinstance(part, dict):
            pieces += _part(part, role, ts, hidden)
    return pieces


def _part(part: Record, role: Role, ts: str | None, hidden: bool) -> list[Piece]:
    kind = part.get("type")
    if kind == "toolRequest":
        call = get_dict(get_dict(part, "toolCall") or {}, "value") or {}
        return [call_piece(get_str(call, "name"), call.get("arguments"), ts)]
    if kind == "toolResponse":
        result = get_dict(part, "toolResult") or {}
        return [tool_piece(_output(result.get("value")), ts)]
    pieces = blocks([part], role, ts, injected=hidden)
    for piece in pieces:
        if hidden:
            piece.reason = "injected"
    return pieces


def _output(value: Any) -> Any:
    """A tool's output: its text parts joined, anything else as it is."""
    if isinstance(value, list):
        texts = [get_str(v, "text") for v in value if isinstance(v, dict)]
        if texts and all(texts):
            return "\n".join(t for t in texts if t)
    return value


def _seconds(value: Any) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    try:
        return dt.datetime.fromtimestamp(value, dt.UTC).isoformat().replace("+00:00", "Z")
    except (OverflowError, OSError, ValueError):
        return None


GOOSE = Format(
    name="goose",
    agents="Goose (sessions before sessions.db, and goose session export --format json)",
    where="~/.local/share/goose/sessions/<id>.jsonl",
    matches=_matches,
    read=read,
)
