"""What Factory Droid's ``droid exec --output-format stream-json`` prints.

Flat records with the session's id (``session_id``, in some builds ``sessionId``):
``system`` (``init``), ``message`` (``role`` and ``text``), ``tool_call`` (``toolName``,
``parameters``), ``tool_result`` (``value``, ``isError``), ``error`` and the closing
``completion``, whose ``finalText`` repeats the turn's last reply. Droid's session files are
Pi-shaped and read as ``pi``.
"""

from __future__ import annotations

from typing import Any

from memcli.messages import Role
from memcli.transcripts.content import call_piece, text_pieces, tool_piece
from memcli.transcripts.model import Format, Piece, Record, get_str, millis_to_iso

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}


def _session(rec: Record) -> bool:
    return isinstance(rec.get("session_id", rec.get("sessionId")), str)


def _matches(rec: Record) -> bool:
    kind = rec.get("type")
    if not _session(rec) or "payload" in rec or ("message" in rec and kind != "error"):
        return False
    if kind == "message":
        return isinstance(rec.get("text"), str) and "content" not in rec
    if kind == "tool_call":
        return "toolName" in rec or "toolId" in rec
    if kind == "tool_result":
        return "toolId" in rec or "value" in rec
    if kind == "completion":
        return "finalText" in rec
    if kind == "system":  # the init record: Claude's has no reasoning effort
        return "reasoning_effort" in rec and "uuid" not in rec
    return kind == "error" and "uuid" not in rec


def _stamp(rec: Record) -> str | None:
    value: Any = rec.get("timestamp")
    return value if isinstance(value, str) else millis_to_iso(value)


def read(rec: Record) -> list[Piece] | None:
    kind = rec.get("type")
    ts = _stamp(rec)
    if kind == "message":
        role = _ROLES.get(str(rec.get("role")))
        return text_pieces(get_str(rec, "text") or "", role, ts) if role else None
    if kind == "tool_call":
        name = get_str(rec, "toolName") or get_str(rec, "toolId")
        return [call_piece(name, rec.get("parameters"), ts)]
    if kind == "tool_result":
        return [tool_piece(rec.get("value"), ts)]
    if kind == "completion":
        # dropped later when the turn's own messages said it (formats/headless.py)
        return text_pieces(get_str(rec, "finalText") or "", "assistant", ts)
    return None  # an error's text is nobody's words


DROID_STREAM = Format(
    name="droid-stream-json",
    agents="Factory Droid's droid exec --output-format stream-json (scripts, CI)",
    where="standard output of the command",
    matches=_matches,
    read=read,
)
