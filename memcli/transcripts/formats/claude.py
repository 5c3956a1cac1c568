"""Claude Code: session JSONL, ``{"loglines": [...]}`` documents and ``claude -p`` stream-json.

A session line carries ``uuid``/``parentUuid``/``sessionId`` (camel case); the web's
``loglines`` documents hold the same lines without them; ``claude -p --output-format
stream-json`` writes ``session_id`` (snake case) and ``system``/``result`` records.
"""

from __future__ import annotations

from memcli.messages import Role
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_str
from memcli.transcripts.text import blocks

_SESSION_KEYS = frozenset({"uuid", "parentUuid", "sessionId", "leafUuid", "isSidechain"})
_MESSAGE_TYPES = frozenset({"user", "assistant"})


def _is_message_line(rec: Record) -> bool:
    """``{"type": "user"|"assistant", "message": {"role": <same>, "content": ...}}``."""
    message = get_dict(rec, "message")
    return (
        get_str(rec, "type") in _MESSAGE_TYPES
        and message is not None
        and message.get("role", rec.get("type")) == rec.get("type")
        and "content" in message
    )


def is_session_line(rec: Record) -> bool:
    if not isinstance(rec.get("type"), str) or _SESSION_KEYS.isdisjoint(rec):
        return False
    message = get_dict(rec, "message")
    if message is None:
        # summaries, system lines, progress; a user or assistant line always has a message
        return rec.get("type") not in _MESSAGE_TYPES
    return "parts" not in message  # Qwen Code's envelope has parts


def is_stream_json(rec: Record) -> bool:
    if "session_id" not in rec or not isinstance(rec.get("type"), str):
        return False
    return _is_message_line(rec) or get_str(rec, "type") in ("system", "result", "stream_event")


def read(rec: Record) -> list[Piece] | None:
    kind = get_str(rec, "type")
    message = get_dict(rec, "message")
    if kind not in _MESSAGE_TYPES or message is None:
        return None  # summary, system, progress, attachment, file-history-snapshot, ...
    role: Role = "user" if kind == "user" else "assistant"
    pieces = blocks(message.get("content"), role, get_str(rec, "timestamp"), _injected(rec))
    reason = _injected_reason(rec)
    for piece in pieces:
        if piece.injected and piece.reason == "injected":
            piece.reason = reason
    return pieces


def read_stream(rec: Record) -> list[Piece] | None:
    pieces = read(rec)
    if pieces is not None and rec.get("parent_tool_use_id"):
        for piece in pieces:  # a subagent's traffic, not the main conversation
            piece.injected, piece.reason = True, "subagent"
    return pieces


def _injected(rec: Record) -> bool:
    message = get_dict(rec, "message") or {}
    return (
        rec.get("isMeta") is True
        or rec.get("isCompactSummary") is True
        or rec.get("isSidechain") is True
        or rec.get("isVisibleInTranscriptOnly") is True
        or rec.get("isApiErrorMessage") is True
        or message.get("model") == "<synthetic>"
    )


def _injected_reason(rec: Record) -> str:
    if rec.get("isCompactSummary") is True:
        return "compaction summary"
    if rec.get("isSidechain") is True:
        return "subagent"
    return "injected"


CLAUDE_CODE = Format(
    name="claude-code",
    agents="Claude Code (CLI, IDE, Desktop; on the web as {\"loglines\": [...]})",
    where="~/.claude/projects/<project>/<session>.jsonl",
    matches=is_session_line,
    read=read,
    accepts=lambda rec: isinstance(rec.get("type"), str),
)
CLAUDE_LOGLINE = Format(
    name="claude-code",
    agents="Claude Code on the web",
    where="a {\"loglines\": [...]} export",
    matches=_is_message_line,
    read=read,
)
CLAUDE_STREAM = Format(
    name="claude-stream-json",
    agents="claude -p --output-format stream-json (scripts, CI)",
    where="standard output of the command",
    matches=is_stream_json,
    read=read_stream,
)


def _is_meta_line(rec: Record) -> bool:
    """Claude Code lines that hold no message and no session keys (file snapshots)."""
    return rec.get("type") == "file-history-snapshot" and "snapshot" in rec


CLAUDE_META = Format(
    name="claude-code",
    agents="Claude Code",
    where="~/.claude/projects/<project>/<session>.jsonl",
    matches=_is_meta_line,
    read=lambda rec: None,
)
