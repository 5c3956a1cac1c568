"""Pi, OpenClaw and Factory Droid: ``{"type": "message", "message": {role, content}}`` lines.

Around the messages: a ``session`` header, model and thinking-level changes, and
``compaction`` records whose summary is context the agent wrote for itself.
"""

from __future__ import annotations

from memcli.messages import Role
from memcli.transcripts.content import blocks
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_str

_ROLES: dict[str, Role] = {
    "user": "user",
    "assistant": "assistant",
    "toolResult": "tool",
    "tool": "tool",
    "bashExecution": "tool",
}
_OTHER_TYPES = frozenset(
    {
        "session",
        "session_start",
        "model_change",
        "thinking_level_change",
        "branch_summary",
        "custom",
        "label",
        "session_info",
    }
)


def _matches(rec: Record) -> bool:
    kind = get_str(rec, "type")
    if kind == "message":
        message = get_dict(rec, "message")
        return message is not None and isinstance(message.get("role"), str) and "id" in rec
    if kind == "compaction":
        return "summary" in rec
    if kind == "session_start":  # Factory Droid's header has no time
        return "id" in rec and ("cwd" in rec or "title" in rec)
    return kind in _OTHER_TYPES and "id" in rec and "timestamp" in rec


def read(rec: Record) -> list[Piece] | None:
    ts = get_str(rec, "timestamp")
    if rec.get("type") == "compaction":
        return [Piece("user", get_str(rec, "summary") or "", ts, True, "compaction summary")]
    message = get_dict(rec, "message")
    role = _ROLES.get(str((message or {}).get("role")))
    if message is None or role is None:
        return None
    return blocks(message.get("content"), role, ts)


PI = Format(
    name="pi",
    agents="Pi coding agent, OpenClaw, Factory Droid",
    where="Pi: ~/.pi/agent/sessions/<cwd>/*.jsonl; OpenClaw: ~/.openclaw/agents/<agent>/"
    "sessions/*.jsonl; Factory Droid: ~/.factory/sessions/*.jsonl",
    matches=_matches,
    read=read,
)
