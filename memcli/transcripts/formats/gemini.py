"""Gemini CLI: chat session JSONL (and its older whole-session JSON) and ``logs.json``.

Session lines are a header, message records keyed by ``id`` (rewritten under the same id as
tool calls finish), ``{"$set": ...}`` patches and ``{"$rewindTo": id}``, which retracts
every message from that id on. ``logs.json`` is the prompt ledger: an array of
``{sessionId, messageId, type, message}``.
"""

from __future__ import annotations

from typing import Any

from memcli.transcripts.model import Format, Piece, Record, as_text, get_dict, get_list, get_str
from memcli.transcripts.text import call_text, text_pieces

_MESSAGE_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})
# Gemini CLI runs these itself; they never reach the model.
_COMMAND_PREFIXES = {"/": "slash command", "!": "shell escape"}


def _matches(rec: Record) -> bool:
    if "$set" in rec or "$rewindTo" in rec or ("sessionId" in rec and "projectHash" in rec):
        return True
    if get_str(rec, "type") == "user" and isinstance(rec.get("messageId"), int):
        return isinstance(rec.get("message"), str)  # logs.json
    return get_str(rec, "type") in _MESSAGE_TYPES and ("id" in rec or "content" in rec)


def read(rec: Record) -> list[Piece] | None:
    kind = rec.get("type")
    ts = get_str(rec, "timestamp")
    if kind == "user":
        # displayContent is what the person typed; content may carry expanded @file bodies
        shown = _text(rec.get("displayContent"))
        typed = shown or _text(rec.get("content")) or get_str(rec, "message") or ""
        return _user(typed, ts)
    if kind != "gemini":
        return None  # header, $set patches, $rewindTo, info/error/warning notices
    pieces = [_thought(t, ts) for t in get_list(rec, "thoughts") if isinstance(t, dict)]
    pieces += text_pieces(_text(rec.get("content")), "assistant", ts)
    for call in get_list(rec, "toolCalls"):
        if isinstance(call, dict):
            pieces += _tool(call, ts)
    return pieces


def _user(text: str, ts: str | None) -> list[Piece]:
    reason = _COMMAND_PREFIXES.get(text.lstrip()[:1])
    if reason is not None:
        return [Piece("user", text, ts, True, reason)]
    return text_pieces(text, "user", ts)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else [content]
    return "\n".join(
        p["text"]
        for p in parts
        if isinstance(p, dict) and isinstance(p.get("text"), str) and p.get("thought") is not True
    )


def _thought(thought: Record, ts: str | None) -> Piece:
    text = ": ".join(s for k in ("subject", "description") if (s := get_str(thought, k)))
    return Piece("thinking", text, ts)


def _tool(call: Record, ts: str | None) -> list[Piece]:
    return [Piece("tool", "", ts, later=_call_head, raw=call),
            Piece("tool", "", ts, later=_call_result, raw=call)]


def _call_head(piece: Piece) -> str:
    call: Record = piece.raw
    called = call_text(get_str(call, "displayName") or get_str(call, "name"), call.get("args"))
    # The description is the tool's own one-line account of the call (an edit's old => new).
    return "\n".join(filter(None, (called, get_str(call, "description"))))


def _call_result(piece: Piece) -> str:
    call: Record = piece.raw
    results = [_response(r) for r in get_list(call, "result") if isinstance(r, dict)]
    shown = call.get("resultDisplay")
    if isinstance(shown, dict):
        shown = shown.get("fileDiff")
    return "\n".join(r for r in results if r) or as_text(shown)


def _response(part: Record) -> str:
    response = get_dict(get_dict(part, "functionResponse") or {}, "response")
    if response is None:
        return ""
    if "output" in response or "error" in response:
        return as_text(response.get("output", response.get("error")))
    return as_text(response)


def set_messages(rec: Record) -> list[Any] | None:
    """The messages a ``{"$set": {"messages": [...]}}`` patch writes, if any."""
    patch = get_dict(rec, "$set")
    messages = patch.get("messages") if patch else None
    return messages if isinstance(messages, list) else None


GEMINI = Format(
    name="gemini",
    agents="Gemini CLI",
    where="~/.gemini/tmp/<project hash>/chats/session-*.jsonl (older: .json); "
    "~/.gemini/tmp/<project hash>/logs.json",
    matches=_matches,
    read=read,
    accepts=lambda rec: isinstance(rec.get("type"), str) or _matches(rec),
)
