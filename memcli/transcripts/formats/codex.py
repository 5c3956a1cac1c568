"""Codex: session rollouts (``{timestamp, type, payload}``; before September 2025 the bare
items) and ``codex exec --json`` events.

A rollout writes each message twice: a ``response_item`` the model saw and an ``event_msg``
for the UI. The event is an echo, dropped only when its original is in the same input:
Codex Desktop writes some prompts as events alone, and those are what the person typed.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from memcli.messages import Role
from memcli.transcripts.content import blocks, call_piece, text_pieces, tool_piece
from memcli.transcripts.formats.roles import read_role_message
from memcli.transcripts.model import Entry, Format, Piece, Record, get_dict, get_list, get_str

_ROLLOUT_TYPES = frozenset(
    {"session_meta", "turn_context", "response_item", "event_msg", "compacted"}
)


def _is_rollout(rec: Record) -> bool:
    kind = rec.get("type")
    return isinstance(kind, str) and isinstance(rec.get("payload"), dict) and (
        kind in _ROLLOUT_TYPES or "timestamp" in rec
    )


# Rollouts written before September 2025 (Codex 0.3x and older) have no envelope: a bare
# session header, {"record_type": "state"} markers, and the response items themselves. A
# bare message is an OpenAI Responses message and is read as one; these are the rest.
_LEGACY_ITEMS = frozenset(
    {
        "reasoning",
        "function_call",
        "function_call_output",
        "function_call_result",  # the OpenAI Agents SDK's name for a call's output
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
        "ghost_snapshot",
    }
)
_LEGACY_HEADER_KEYS = frozenset({"instructions", "git", "originator", "cli_version"})


def _is_legacy(rec: Record) -> bool:
    if "payload" in rec or "role" in rec:
        return False
    kind = rec.get("type")
    if kind is None:
        return isinstance(rec.get("record_type"), str) or (
            isinstance(rec.get("id"), str)
            and isinstance(rec.get("timestamp"), str)
            and not _LEGACY_HEADER_KEYS.isdisjoint(rec)
        )
    return isinstance(kind, str) and kind in _LEGACY_ITEMS


def _matches(rec: Record) -> bool:
    return _is_rollout(rec) or _is_legacy(rec)


def is_bare_item(value: Any) -> bool:
    """A Responses item with no rollout envelope (a legacy rollout's reasoning, calls and
    their outputs), not the header or a state marker."""
    kind = value.get("type") if isinstance(value, dict) else None
    return isinstance(kind, str) and kind in _LEGACY_ITEMS and "payload" not in value


def read(rec: Record) -> list[Piece] | None:
    ts = get_str(rec, "timestamp")
    kind = rec.get("type")
    if "payload" not in rec:
        # a legacy rollout: the item itself (the header and state markers hold no message)
        return response_item(rec, ts) if isinstance(kind, str) else None
    payload = get_dict(rec, "payload") or {}
    if kind == "response_item":
        return response_item(payload, ts)
    if kind == "event_msg":
        return _event(payload, ts)
    if kind == "compacted":
        return [Piece("user", get_str(payload, "message") or "", ts, True, "compaction summary")]
    if kind == "inter_agent_communication":
        return _agent_message(payload, ts)
    return None  # session_meta, turn_context, world_state, token usage, future types


# Codex's multi-agent tools (V2) send agents' messages to each other as
# {author, recipient, other_recipients, content, trigger_turn}: a rollout line of its own,
# and a response item (an assistant message whose text is that object as JSON) the model
# sees. Neither is the person, nor this agent's own reply.
_AGENT_MESSAGE_KEYS = frozenset({"author", "recipient", "content"})


def _agent_message(payload: Record, ts: str | None, echo: bool = False) -> list[Piece]:
    text = get_str(payload, "content") or ""
    return [Piece("user", text, ts, True, "teammate message", echo=echo)]


def _agent_message_copy(item: Record, ts: str | None) -> list[Piece] | None:
    """The response-item copy of an agent's message, or None for any other message."""
    if item.get("role") != "assistant":
        return None
    parts = get_list(item, "content")
    text = get_str(parts[0], "text") if len(parts) == 1 and isinstance(parts[0], dict) else None
    if text is None or not text.startswith("{") or '"recipient"' not in text[:400]:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not value.keys() >= _AGENT_MESSAGE_KEYS:
        return None
    return _agent_message(value, ts, echo=True)


def response_item(item: Record, ts: str | None) -> list[Piece] | None:
    itype = item.get("type")
    if itype == "message":
        copy = _agent_message_copy(item, ts)
        return copy if copy is not None else read_role_message(item | {"timestamp": ts})
    if itype == "reasoning":
        # encrypted_content is opaque by design and never rendered
        return blocks([*get_list(item, "summary"), *get_list(item, "content")], "thinking", ts)
    if itype in ("function_call", "custom_tool_call"):
        return [call_piece(get_str(item, "name"), item.get("arguments", item.get("input")), ts)]
    if itype in ("local_shell_call", "web_search_call"):
        return [call_piece(str(itype), item.get("action"), ts)]
    if itype in ("function_call_output", "function_call_result", "custom_tool_call_output"):
        return _output(item.get("output"), ts)
    return None


def _output(output: Any, ts: str | None) -> list[Piece]:
    if isinstance(output, dict) and "content" in output:
        output = output["content"]
    elif isinstance(output, dict) and isinstance(output.get("text"), str):
        output = [output]  # the Agents SDK's {"type": "text", "text": ...}
    if isinstance(output, list):
        return blocks(output, "tool", ts)
    return [tool_piece(output, ts)]


_EVENTS: dict[str, Role] = {
    "user_message": "user",
    "agent_message": "assistant",
    "agent_reasoning": "thinking",
}


def _event(event: Record, ts: str | None) -> list[Piece] | None:
    kind = _EVENTS.get(str(event.get("type")))
    if kind is None:
        return None  # token_count, task_started, exec output deltas, ...
    text = get_str(event, "message") or get_str(event, "text") or ""
    pieces = text_pieces(text, kind, ts)
    for piece in pieces:
        piece.echo = True
    return pieces


def is_subagent_session(rec: Record) -> bool:
    """A rollout's header saying the session is a subagent another Codex session started."""
    payload = get_dict(rec, "payload") or {}
    source = payload.get("source")
    return rec.get("type") == "session_meta" and (
        (isinstance(source, dict) and ("subagent" in source or "subAgent" in source))
        or payload.get("thread_source") == "subagent"
    )


def mark_subagent(entries: list[Entry], dropped: Counter[str]) -> None:
    """In a subagent's rollout the 'user' messages are the parent agent's instructions (and
    the parent's history it was forked with, which the parent's own rollout holds): none of
    them is the person typing. Only the first header decides: a forked rollout repeats its
    parent's header after its own."""
    first = next((e for e in entries if e.fmt == "codex" and e.rec.get("type") == "session_meta"),
                 None)
    if first is None or not is_subagent_session(first.rec):
        return
    for entry in entries:
        if entry.fmt != "codex":
            continue
        for piece in entry.pieces or ():
            if piece.kind == "user" and not piece.injected:
                piece.injected, piece.reason = True, "subagent"


CODEX = Format(
    name="codex",
    agents="Codex CLI, Codex IDE extension, Codex Desktop",
    where="~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl",
    matches=_matches,
    read=read,
    accepts=lambda rec: isinstance(rec.get("payload"), dict) or _is_legacy(rec)
    or rec.get("type") == "message",
)

# --- codex exec --json ------------------------------------------------------------------------
# Since 0.44 (openai/codex codex-rs/exec/src/exec_events.rs): thread, turn and item events;
# the first releases of that shape named an item's type ``item_type`` and the reply
# ``assistant_message``. Before it (pull request 4525 removed it), a config summary line,
# ``{"prompt": ...}`` (what the person asked) and the session's events as ``{"id", "msg"}``.

_EXEC_TYPES = frozenset(
    {
        "thread.started",
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
        "item.plan.delta",
        "request_user_input",
        "error",
    }
)
_NOT_EXEC = frozenset({"time", "timestamp", "payload"})
_LEGACY_SUMMARY_KEYS = frozenset({"workdir", "model", "provider", "approval", "sandbox"})


def _is_exec_event(rec: Record) -> bool:
    if get_str(rec, "type") in _EXEC_TYPES:
        # no event of it has a clock (other tools' error and turn events do)
        return _NOT_EXEC.isdisjoint(rec)
    return _is_legacy_exec(rec)


def _is_legacy_exec(rec: Record) -> bool:
    if rec.keys() == {"id", "msg"}:
        msg = rec["msg"]
        return isinstance(rec["id"], str) and isinstance(msg, dict) and "type" in msg
    if rec.keys() == {"prompt"}:
        return isinstance(rec["prompt"], str)
    return rec.keys() >= _LEGACY_SUMMARY_KEYS and all(isinstance(v, str) for v in rec.values())


def read_exec(rec: Record) -> list[Piece] | None:
    if "type" not in rec:
        return _read_legacy_exec(rec)
    item = get_dict(rec, "item")
    if rec.get("type") != "item.completed" or item is None:
        return None  # started/updated items are completed later; thread and turn markers
    itype = get_str(item, "type") or get_str(item, "item_type")
    text = get_str(item, "text") or ""
    if itype in ("agent_message", "assistant_message", "plan"):
        return [Piece("assistant", text, None)]
    if itype == "reasoning":
        return [Piece("thinking", text, None)]
    if itype == "command_execution":
        call = call_piece("shell", item.get("command"), None)
        return [call, Piece("tool", get_str(item, "aggregated_output") or "", None)]
    if itype == "error":
        return [Piece("tool", get_str(item, "message") or "", None)]
    if itype in _EXEC_TOOL_ITEMS:
        args = {k: v for k, v in item.items() if k not in ("id", "type", "item_type", "status")}
        return [call_piece(str(itype), args, None)]
    return None


# collab_tool_call: the agent starting, instructing or waiting for another agent
_EXEC_TOOL_ITEMS = frozenset(
    {"mcp_tool_call", "web_search", "file_change", "todo_list", "collab_tool_call"})


def _read_legacy_exec(rec: Record) -> list[Piece] | None:
    if "prompt" in rec:
        return text_pieces(str(rec["prompt"]), "user", None)
    msg = get_dict(rec, "msg")
    if msg is None:
        return None  # the config summary
    kind = msg.get("type")
    if kind == "exec_command_begin":
        return [call_piece("shell", msg.get("command"), None)]
    if kind == "exec_command_end":
        return [tool_piece(msg.get("aggregated_output", msg.get("stdout")), None)]
    if kind == "user_message":
        # the prompt again, when this version echoes it: the prompt line is the original
        return _event(msg, None)
    if kind in ("agent_message", "agent_reasoning"):
        pieces = _event(msg, None)
        for piece in pieces or ():
            piece.echo = False  # exec prints these once: there is no original to prefer
        return pieces
    return None  # task_started/complete (a copy of the last reply), token counts, ...


CODEX_EXEC = Format(
    name="codex-exec",
    agents="codex exec --json (scripts, CI)",
    where="standard output of the command",
    matches=_is_exec_event,
    read=read_exec,
)
