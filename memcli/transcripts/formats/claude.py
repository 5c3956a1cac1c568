"""Claude Code: session JSONL, ``{"loglines": [...]}`` documents and ``claude -p`` stream-json.

A session line carries ``uuid``/``parentUuid``/``sessionId`` (camel case); the web's
``loglines`` documents hold the same lines without them; ``claude -p --output-format
stream-json`` writes ``session_id`` (snake case) and ``system``/``result`` records.
"""

from __future__ import annotations

from collections import Counter

from memcli.messages import Role
from memcli.transcripts.content import blocks
from memcli.transcripts.formats.headless import result_pieces
from memcli.transcripts.model import Entry, Format, Piece, Record, get_dict, get_str

_SESSION_KEYS = frozenset({"uuid", "parentUuid", "sessionId", "leafUuid", "isSidechain"})
_MESSAGE_TYPES = frozenset({"user", "assistant"})
# Types of other tools' flat records that carry a sessionId too (CodeBuddy, Factory Droid's
# stream-json): Claude Code never writes these, and its lines never a top-level role.
_FOREIGN_TYPES = frozenset({"message", "tool_call", "tool_result", "completion",
                            "function_call", "function_call_result", "reasoning"})


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
    if "role" in rec or rec["type"] in _FOREIGN_TYPES:
        return False
    if "session_id" in rec and "sessionId" not in rec:
        return False  # print-mode output and Agent SDK messages carry a uuid too
    message = get_dict(rec, "message")
    if message is None:
        # summaries, system lines, progress; a user or assistant line always has a message
        return rec.get("type") not in _MESSAGE_TYPES
    return "parts" not in message  # Qwen Code's envelope has parts


def is_stream_json(rec: Record) -> bool:
    if "session_id" not in rec or not isinstance(rec.get("type"), str):
        return False
    return _is_message_line(rec) or get_str(rec, "type") in ("system", "result", "stream_event")


def read_stream(rec: Record) -> list[Piece] | None:
    if rec.get("type") == "result":
        return result_pieces(rec)  # dropped later when the stream's own records said it
    pieces = read(rec)
    if pieces is not None and rec.get("parent_tool_use_id"):
        for piece in pieces:  # a subagent's traffic, not the main conversation
            piece.injected, piece.reason = True, "subagent"
    return pieces


def read(rec: Record) -> list[Piece] | None:
    kind = get_str(rec, "type")
    message = get_dict(rec, "message")
    if kind == "attachment":
        return _queued(rec)
    if kind not in _MESSAGE_TYPES or message is None:
        return None  # summary, system, progress, queue-operation, file-history-snapshot, ...
    role: Role = "user" if kind == "user" else "assistant"
    pieces = blocks(message.get("content"), role, get_str(rec, "timestamp"), _injected(rec))
    reason = _injected_reason(rec)
    sidechain = rec.get("isSidechain") is True
    for piece in pieces:
        if piece.injected and piece.reason == "injected":
            piece.reason = reason
        elif sidechain and not piece.injected:
            # settled by settle_sidechains once the whole input is read
            piece.injected, piece.reason = True, SIDECHAIN
    return pieces


def _queued(rec: Record) -> list[Piece] | None:
    """A prompt typed while Claude was working, handed to the model mid-turn.

    It is written only as this attachment (the ``queue-operation`` lines around it repeat
    the same words as the queue takes and drains them, so they are not read). Other
    attachments are context Claude Code adds on its own.
    """
    attachment = get_dict(rec, "attachment") or {}
    if attachment.get("type") != "queued_command":
        return None
    origin = get_dict(attachment, "origin") or {}
    mode = attachment.get("commandMode", "prompt")
    reason = _ORIGIN_REASONS.get(str(origin.get("kind", "human")), "injected")
    if mode == "task-notification":
        reason = "task notification"
    elif mode == "bash":
        reason = "shell escape"
    elif mode != "prompt" and reason is None:
        reason = "injected"
    pieces = blocks(attachment.get("prompt"), "user", get_str(rec, "timestamp"),
                    injected=reason is not None or _injected(rec)
                    or rec.get("isSidechain") is True)
    for piece in pieces:
        piece.mid_turn = True
        if piece.injected and piece.reason == "injected":
            piece.reason = reason or _injected_reason(rec)
    return pieces


# What wrote a user line or a queued prompt, when not the person (newer versions say so in
# ``origin.kind``; an absent origin is the person, as in every version before it).
_ORIGIN_REASONS: dict[str, str | None] = {
    "human": None,
    "task-notification": "task notification",
    "peer": "teammate message",
    "teammate": "teammate message",
    "coordinator": "teammate message",
}


def _injected(rec: Record) -> bool:
    message = get_dict(rec, "message") or {}
    return (
        _origin_reason(rec) is not None
        or rec.get("promptSource") == "system"
        or rec.get("isMeta") is True
        or rec.get("isCompactSummary") is True
        or rec.get("isVisibleInTranscriptOnly") is True
        or rec.get("isApiErrorMessage") is True
        or rec.get("isSynthetic") is True  # an Agent SDK message the SDK made up
        or message.get("model") == "<synthetic>"
    )


def _origin_reason(rec: Record) -> str | None:
    origin = get_dict(rec, "origin")
    kind = origin.get("kind") if origin is not None else None
    if not isinstance(kind, str):
        return None
    return _ORIGIN_REASONS.get(kind, "injected")


def _injected_reason(rec: Record) -> str:
    if (by_origin := _origin_reason(rec)) is not None:
        return by_origin
    if rec.get("isCompactSummary") is True:
        return "compaction summary"
    if rec.get("isSidechain") is True:
        return "subagent"
    return "injected"


# A sidechain line's own words, until the whole input says whose conversation it is.
SIDECHAIN = "sidechain"
_COMPACTION_AGENT = "acompact"


def settle_sidechains(entries: list[Entry], dropped: Counter[str]) -> None:
    """Sidechain lines are a subagent's conversation. Beside the main conversation (a
    session, or a slice of one) they are left out as ``subagent``. A subagent's own file
    (``<session>/subagents/agent-<id>.jsonl``) holds nothing else, and there the subagent's
    replies are the conversation; its "user" prompts are the parent agent's instructions,
    never the person's words, and stay left out as ``subagent``. The replies of the agent
    that compacts a session (``agentId`` ``acompact-...``) are a compaction summary."""
    lines = [e for e in entries if e.fmt == "claude-code" and e.rec.get("type") in _MESSAGE_TYPES]
    own_file = bool(lines) and all(e.rec.get("isSidechain") is True for e in lines)
    for entry in entries:
        mine = own_file and entry.fmt == "claude-code"
        compaction = str(entry.rec.get("agentId", "")).startswith(_COMPACTION_AGENT)
        for piece in entry.pieces or ():
            if piece.reason != SIDECHAIN:
                continue
            if not mine or piece.kind == "user":
                piece.reason = "subagent"
            elif compaction:
                piece.reason = "compaction summary"
            else:
                piece.injected, piece.reason = False, "injected"


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
    agents="claude -p --output-format stream-json or json, Claude Agent SDK messages "
    "(scripts, CI)",
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
