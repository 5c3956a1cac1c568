"""The ``cursor-agent`` CLI: ``{"role", "message": {"content": [...]}}`` lines."""

from __future__ import annotations

from memcli.messages import Role
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_str
from memcli.transcripts.text import blocks

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant", "tool": "tool"}


def _matches(rec: Record) -> bool:
    if rec.get("type") == "turn_ended" and len(rec) <= 3:
        return True
    return isinstance(rec.get("role"), str) and isinstance(rec.get("message"), dict) and (
        "type" not in rec
    )


def read(rec: Record) -> list[Piece] | None:
    role = _ROLES.get(str(rec.get("role")))
    message = get_dict(rec, "message")
    if role is None or message is None:
        return None
    return blocks(message.get("content"), role, get_str(rec, "timestamp"))


CURSOR = Format(
    name="cursor-agent",
    agents="cursor-agent CLI",
    where="~/.cursor/projects/<project>/agent-transcripts/<chat>.jsonl",
    matches=_matches,
    read=read,
)
