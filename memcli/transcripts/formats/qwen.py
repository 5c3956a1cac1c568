"""Qwen Code: a Claude-like envelope (``uuid``, ``parentUuid``) around Gemini ``parts``."""

from __future__ import annotations

from typing import Any

from memcli.messages import Role
from memcli.transcripts.content import call_piece, text_pieces, tool_piece
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_list, get_str


def _matches(rec: Record) -> bool:
    message = get_dict(rec, "message")
    return (
        isinstance(rec.get("type"), str)
        and "uuid" in rec
        and message is not None
        and isinstance(message.get("parts"), list)
    )


def read(rec: Record) -> list[Piece] | None:
    kind = rec.get("type")
    ts = get_str(rec, "timestamp")
    parts = get_list(get_dict(rec, "message") or {}, "parts")
    if kind == "user":
        # a notification is the harness reporting background work, not the person
        injected = rec.get("subtype") is not None
        return [p for part in parts for p in _part(part, "user", ts, injected)]
    if kind == "assistant":
        return [p for part in parts for p in _part(part, "assistant", ts, False)]
    if kind == "tool_result":
        return [p for part in parts for p in _part(part, "tool", ts, False)]
    return None  # system records (telemetry, compression)


def _part(part: Any, kind: Role, ts: str | None, injected: bool) -> list[Piece]:
    if not isinstance(part, dict):
        return []
    if isinstance(part.get("text"), str):
        if part.get("thought") is True:
            return [Piece("thinking", part["text"], ts)]
        return text_pieces(part["text"], kind, ts, injected, "notification")
    call = get_dict(part, "functionCall")
    if call is not None:
        return [call_piece(get_str(call, "name"), call.get("args"), ts)]
    response = get_dict(part, "functionResponse")
    if response is not None:
        output = get_dict(response, "response") or {}
        return [tool_piece(output.get("output", output), ts)]
    return []


QWEN = Format(
    name="qwen-code",
    agents="Qwen Code",
    where="~/.qwen/tmp/<project hash>/chats/*.jsonl",
    matches=_matches,
    read=read,
)
