"""Pi, OpenClaw and Factory Droid: ``{"type": "message", "message": {role, content}}`` lines.

Around the messages: a ``session`` header, model and thinking-level changes, and
``compaction`` records whose summary is context the agent wrote for itself.

Pi's session format 1 (before its session tree, pi-mono ``session-manager.ts``) and Factory
Droid's session files as some builds write them have no ``id``/``parentId`` on their
entries: a ``message`` record is Pi's by its nested ``message`` object with a Pi role, never
by its ids. From format 2 on, entries form a tree by ``id``/``parentId`` and the
conversation is the path from the newest entry back to the root (:func:`pi_branch`).
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


# Pi's roles besides _ROLES: extension messages and the summaries it writes for itself
_OTHER_ROLES = frozenset({"custom", "hookMessage", "branchSummary", "compactionSummary"})
# entries Pi's format 1 wrote without an id: the header and the settings changes
_LEGACY_TYPES = frozenset({"session", "model_change", "thinking_level_change"})


def _matches(rec: Record) -> bool:
    kind = get_str(rec, "type")
    if kind == "message":
        message = get_dict(rec, "message")
        role = message.get("role") if message is not None else None
        if "id" in rec:
            return isinstance(role, str)
        # format 1 and id-less Droid files: the role must be one Pi writes (a top-level
        # role or a session id would be another format's envelope)
        return (role in _ROLES or role in _OTHER_ROLES) and "role" not in rec and not (
            "sessionId" in rec or "session_id" in rec)
    if kind == "compaction":
        return "summary" in rec
    if kind == "session_start":  # Factory Droid's header has no time, and may have no id
        return "cwd" in rec or "title" in rec
    if kind in _LEGACY_TYPES and "id" not in rec:
        return "timestamp" in rec and ("cwd" in rec or "modelId" in rec or
                                       "thinkingLevel" in rec)
    return kind in _OTHER_TYPES and "id" in rec and "timestamp" in rec


def read(rec: Record) -> list[Piece] | None:
    ts = get_str(rec, "timestamp")
    if rec.get("type") == "compaction":
        return [Piece("user", get_str(rec, "summary") or "", ts, True, "compaction summary")]
    message = get_dict(rec, "message")
    if message is None:
        return None
    if message.get("role") in _OTHER_ROLES:
        # an extension's message or a summary: context the agent was given
        return blocks(message.get("content", message.get("summary")), "user", ts, True)
    role = _ROLES.get(str(message.get("role")))
    if role is None:
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
