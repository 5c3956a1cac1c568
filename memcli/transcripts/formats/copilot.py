"""GitHub Copilot CLI: ``events.jsonl``, one ``{type: "<namespace>.<event>", data: {...}}``."""

from __future__ import annotations

from memcli.transcripts.content import call_piece, text_pieces, tool_piece
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_list, get_str

_NAMESPACES = frozenset(
    {"session", "user", "assistant", "tool", "hook", "subagent", "system", "skill", "abort"}
)


def _matches(rec: Record) -> bool:
    kind = get_str(rec, "type")
    return kind is not None and isinstance(rec.get("data"), dict) and (
        kind.split(".", 1)[0] in _NAMESPACES
    )


def read(rec: Record) -> list[Piece] | None:
    data = get_dict(rec, "data") or {}
    ts = get_str(rec, "timestamp")
    kind = rec.get("type")
    # a subagent's messages carry the tool call that started it
    sub = data.get("parentToolCallId") is not None
    if kind == "user.message":
        return text_pieces(get_str(data, "content") or "", "user", ts)
    if kind == "assistant.message":
        pieces = text_pieces(get_str(data, "content") or "", "assistant", ts, sub, "subagent")
        for request in get_list(data, "toolRequests"):
            if isinstance(request, dict):
                pieces.append(call_piece(get_str(request, "name"), request.get("arguments"), ts))
        return pieces
    if kind == "assistant.reasoning":
        return [Piece("thinking", get_str(data, "content") or "", ts)]
    if kind == "tool.execution_start":
        return [call_piece(get_str(data, "toolName"), data.get("arguments"), ts)]
    if kind == "tool.execution_complete":
        result = get_dict(data, "result") or {}
        return [tool_piece(result.get("content"), ts)]
    if kind in ("system.message", "system.notification"):
        return [Piece("user", get_str(data, "content") or "", ts, True, "injected")]
    return None  # session.*, hook.*, subagent.*, turn markers, abort


COPILOT = Format(
    name="copilot-cli",
    agents="GitHub Copilot CLI",
    where="~/.copilot/session-state/<session>/events.jsonl",
    matches=_matches,
    read=read,
)
