"""Gemini CLI: chat session JSONL (and its older whole-session JSON) and ``logs.json``.

Session lines are a header, message records keyed by ``id`` (rewritten under the same id as
tool calls finish), ``{"$set": ...}`` patches and ``{"$rewindTo": id}``, which retracts
every message from that id on. ``logs.json`` is the prompt ledger: an array of
``{sessionId, messageId, type, message}``. ``/chat save`` checkpoints are the model's own
history, Gemini API ``Content`` records (``{role, parts}``): a JSON array, or
``{"history": [...]}`` since 2025.
"""

from __future__ import annotations

from typing import Any

from memcli.messages import Role
from memcli.transcripts.content import blocks, call_text, text_pieces
from memcli.transcripts.model import Format, Piece, Record, as_text, get_dict, get_list, get_str

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


# --- Gemini API contents: /chat save checkpoints and /chat share JSON ----------------------


def _is_content(rec: Record) -> bool:
    """``{"role": "user"|"model", "parts": [...]}``, the Gemini API's ``Content``."""
    return (
        rec.get("role") in ("user", "model")
        and isinstance(rec.get("parts"), list)
        and _NOT_CONTENT.isdisjoint(rec)
    )


# keys of the records of other formats that also carry role and parts (OpenCode, Qwen Code)
_NOT_CONTENT = frozenset({"content", "type", "id", "sessionID"})


def read_content(rec: Record) -> list[Piece] | None:
    """A ``Content``'s parts as content blocks: text, thoughts, function calls and their
    responses (sent back under role ``user``, but a tool's output)."""
    kind: Role = "assistant" if rec.get("role") == "model" else "user"
    parts = _joined_text(get_list(rec, "parts"))
    texts = [p.get("text") if isinstance(p, dict) else None for p in parts]
    if kind == "assistant" and texts == [_CONTEXT_REPLY]:
        # written by the CLI itself after the setup context, not said by the model
        return [Piece("assistant", _CONTEXT_REPLY, None, True, "injected")]
    return blocks([_part_block(p) for p in parts], kind, None)


_CONTEXT_REPLY = "Got it. Thanks for the context!"


def _joined_text(parts: list[Any]) -> list[Any]:
    """Adjacent text parts are chunks of one stream: Gemini joins them with nothing between.

    Each run is joined once (adding chunk by chunk copied the growing text every time).
    """
    joined: list[Any] = []
    run: list[str] = []
    thought: object = None
    for part in [*parts, None]:
        if _plain_text(part) and run and part.get("thought") == thought:
            run.append(part["text"])
            continue
        if run:
            joined.append({"text": "".join(run), "thought": thought})
            run = []
        if _plain_text(part):
            run, thought = [part["text"]], part.get("thought")
        elif part is not None:
            joined.append(part)
    return joined


def _plain_text(part: Any) -> bool:
    return isinstance(part, dict) and isinstance(part.get("text"), str) and (
        set(part) <= {"text", "thought", "thoughtSignature"}
    )


def _part_block(part: Any) -> Any:
    if not isinstance(part, dict):
        return None
    if isinstance(part.get("text"), str):
        if part.get("thought") is True:
            return {"type": "thinking", "thinking": part["text"]}
        return {"type": "text", "text": part["text"]}
    if isinstance(call := part.get("functionCall"), dict):
        return {"type": "tool_use", "name": call.get("name"), "input": call.get("args")}
    if isinstance(response := part.get("functionResponse"), dict):
        return {"type": "tool_result", "content": as_text(response.get("response"))}
    return None  # inline data, file data, executable code


GEMINI_CONTENT = Format(
    name="gemini",
    agents="Gemini CLI /chat save checkpoints and /chat share JSON (Gemini API contents)",
    where="~/.gemini/tmp/<project hash>/checkpoint-<tag>.json",
    matches=_is_content,
    read=read_content,
)


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
    accepts=lambda rec: isinstance(rec.get("type"), str) or _matches(rec) or _is_content(rec),
)
