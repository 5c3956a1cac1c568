"""Kimi Code's wire log: ``{"type": "<namespace>.<event>", ..., "time": <ms>}`` records.

The person's prompt is a ``turn.prompt``; ``context.append_message`` records what entered
the model's context, the same prompt again among it (an echo when both are present). From
protocol 1.4 the model's words are ``context.append_loop_event`` records whose event is a
``content.part`` (``{"type": "text", "text"}`` or ``{"type": "think", "think"}``), one
part each, in the step they belong to.
"""

from __future__ import annotations

from typing import Any

from memcli.messages import Role
from memcli.transcripts.content import blocks, call_piece, text_pieces, tool_piece
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_list, get_str

_NAMESPACES = frozenset({"context", "turn", "usage", "config", "tools", "approval", "session",
                         "llm", "permission", "profile"})
_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant", "tool": "tool"}


def _matches(rec: Record) -> bool:
    kind = get_str(rec, "type")
    if kind == "metadata":
        return "protocol_version" in rec
    return kind is not None and isinstance(rec.get("time"), int) and (
        kind.split(".", 1)[0] in _NAMESPACES
    )


def _from_person(value: Any) -> bool:
    origin = value.get("origin") if isinstance(value, dict) else None
    return not isinstance(origin, dict) or origin.get("kind") == "user"


def read(rec: Record) -> list[Piece] | None:
    kind = rec.get("type")
    if kind == "turn.prompt":
        return blocks(rec.get("input"), "user", None, not _from_person(rec))
    if kind == "turn.steer":
        # typed while the agent was working: the person's words, in the turn they steer
        pieces = blocks(rec.get("input"), "user", None, not _from_person(rec))
        for piece in pieces:
            piece.mid_turn = True
        return pieces
    if kind == "context.append_message":
        return _message(get_dict(rec, "message") or {})
    if kind == "context.append_loop_event":
        return _loop_event(get_dict(rec, "event") or {})
    return None  # metadata, config, tool lists, usage


def _message(message: Record) -> list[Piece] | None:
    role = _ROLES.get(str(message.get("role")))
    if role is None:
        return None
    pieces = blocks(message.get("content"), role, None, not _from_person(message))
    for call in get_list(message, "toolCalls"):
        if isinstance(call, dict):
            pieces.append(call_piece(get_str(call, "name"), call.get("args"), None))
    if role == "user":
        for piece in pieces:
            piece.echo = True
    return pieces


def _loop_event(event: Record) -> list[Piece] | None:
    if event.get("type") == "content.part":
        return _part(get_dict(event, "part") or {})
    if event.get("type") == "tool.call":
        return [call_piece(get_str(event, "name"), event.get("args"), None)]
    if event.get("type") == "tool.result":
        result = get_dict(event, "result") or {}
        return [tool_piece(result.get("output", result), None)]
    return None  # step markers


def _part(part: Record) -> list[Piece] | None:
    kind = part.get("type")
    if kind == "text":
        pieces = text_pieces(get_str(part, "text") or "", "assistant", None)
    elif kind in ("think", "thinking"):
        text = get_str(part, "think") or get_str(part, "thinking") or ""
        pieces = [Piece("thinking", text, None)]
    else:
        return None  # images, audio: nothing to read
    for piece in pieces:
        # an assistant message in the context, when a build writes one, says it again
        piece.echo = True
    return pieces


KIMI_WIRE = Format(
    name="kimi-wire",
    agents="Kimi Code",
    where="~/.kimi/sessions/<project>/<session>/wire.jsonl",
    matches=_matches,
    read=read,
)
