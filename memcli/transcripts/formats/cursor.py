"""Cursor's agent CLI: its transcripts, and what ``cursor-agent -p`` prints.

A transcript (``agent-transcripts/<chat>.jsonl``) holds ``{"role", "message": {"content":
[...]}}`` lines. ``--output-format stream-json`` prints records shaped like Claude Code's
(``system``/``user``/``assistant``/``result`` with ``session_id``) but without the
``parent_tool_use_id`` and ``uuid`` every Claude record has, plus ``tool_call`` and
``thinking`` records of its own; ``--output-format json`` prints the closing ``result``
alone.
"""

from __future__ import annotations

from typing import Any

from memcli.messages import Role
from memcli.transcripts.content import blocks, call_piece, tool_piece
from memcli.transcripts.formats.headless import result_pieces
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_str, millis_to_iso

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant", "tool": "tool"}


def _matches(rec: Record) -> bool:
    if rec.get("type") == "turn_ended" and len(rec) <= 3:
        return True
    if rec.get("type") == "metadata" and set(rec) == {"type", "metadata"}:
        return isinstance(rec["metadata"], dict)  # the chat's overview, on its first line
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

# --- cursor-agent -p --output-format stream-json | json ----------------------------------------

# keys only Claude Code's print-mode records carry (every message, result and init has one)
_CLAUDE_KEYS = frozenset({"parent_tool_use_id", "uuid", "num_turns", "total_cost_usd", "tools"})
# Claude's assistant records hold the API's message itself; Cursor's only role and content
_API_MESSAGE_KEYS = frozenset({"id", "model", "type", "stop_reason"})


def _is_stream_record(rec: Record) -> bool:
    kind = get_str(rec, "type")
    if not isinstance(rec.get("session_id"), str) or kind is None:
        return False
    if kind == "tool_call":
        return isinstance(rec.get("tool_call"), dict)
    if kind == "thinking":
        return isinstance(rec.get("subtype"), str)
    if kind == "system":
        return _CLAUDE_KEYS.isdisjoint(rec) and ("apiKeySource" in rec or "permissionMode" in rec)
    if kind == "result":
        return _CLAUDE_KEYS.isdisjoint(rec)
    message = get_dict(rec, "message")
    return kind in ("user", "assistant") and _CLAUDE_KEYS.isdisjoint(rec) and (
        message is not None and _API_MESSAGE_KEYS.isdisjoint(message)
    )


def read_stream(rec: Record) -> list[Piece] | None:
    kind = rec.get("type")
    ts = millis_to_iso(rec.get("timestamp_ms"))
    if kind == "result":
        return result_pieces(rec)
    if kind == "thinking":
        text = get_str(rec, "text")
        return [Piece("thinking", text, ts)] if text else None
    if kind == "tool_call":
        return _tool_call(get_dict(rec, "tool_call") or {}, rec.get("subtype"), ts)
    message = get_dict(rec, "message")
    if kind not in ("user", "assistant") or message is None:
        return None  # system/init
    if kind == "assistant" and "timestamp_ms" in rec and "model_call_id" not in rec:
        # --stream-partial-output: a chunk; the whole message follows as its own record
        return None
    role: Role = "user" if kind == "user" else "assistant"
    return blocks(message.get("content"), role, ts)


def _tool_call(call: Record, subtype: Any, ts: str | None) -> list[Piece] | None:
    """``{"<name>ToolCall": {"args": {...}, "result": {...}}}``: the call when it starts,
    its result when it completes."""
    name, body = next(((k, v) for k, v in call.items() if isinstance(v, dict)), (None, None))
    if name is None or body is None:
        return None
    tool = name.removesuffix("ToolCall") or name
    if subtype == "completed":
        return [tool_piece(body.get("result"), ts)]
    return [call_piece(tool, body.get("args"), ts)]


CURSOR_STREAM = Format(
    name="cursor-stream-json",
    agents="cursor-agent -p --output-format stream-json or json (scripts, CI)",
    where="standard output of the command",
    matches=_is_stream_record,
    read=read_stream,
)
