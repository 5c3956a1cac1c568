"""Read agent transcripts (JSONL written by many tools) into a list of plain Messages.

Every record is recognised on its own, so a file may mix formats and a slice may start
anywhere. What reaches the prompt by default is what a person typed and what the assistant
said; everything else (tool traffic, reasoning, injected context) needs an explicit flag.

Injected content (Claude Code ``isMeta``/compaction summaries/sidechains, command and
``<system-reminder>`` wrappers, Codex environment and AGENTS.md blocks, system and developer
messages) is admitted by ``include_injected`` with role ``tool``: it is context the agent was
given, not something a person or the assistant said, and ``tool`` is the one role whose text
the extractor already treats as material rather than as a statement.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from memcli.errors import InputError, UsageError
from memcli.messages import Message, Role

FORMATS: tuple[str, ...] = ("claude-code", "openai", "anthropic", "codex", "gemini", "plain")

TRUNCATION_MARK = "…[truncated]"

Record = dict[str, Any]


@dataclass
class Transcript:
    """The conversation read from a transcript, plus counts that explain what was left out."""

    messages: list[Message]
    records: int
    skipped: int
    broken: int
    formats: dict[str, int]
    truncated: int


@dataclass(frozen=True)
class _Options:
    include_tools: bool
    include_thinking: bool
    include_injected: bool
    last_turn: bool
    max_tool_chars: int
    max_extra_chars: int


@dataclass
class _Piece:
    """One candidate message before filtering; ``injected`` marks context nobody said."""

    kind: Role
    text: str
    timestamp: str | None
    injected: bool = False


@dataclass
class _Entry:
    """A message-shaped JSON object; ``pieces`` is None when it holds no message."""

    seq: int
    rec_no: int
    fmt: str
    rec: Record
    pieces: list[_Piece] | None


# ---------------------------------------------------------------------------------------------
# Public entry point


def read_transcript(
    text: str,
    *,
    fmt: str | None = None,
    include_tools: bool = False,
    include_thinking: bool = False,
    include_injected: bool = False,
    last_turn: bool = False,
    strict: bool = False,
    max_tool_chars: int = 2000,
    max_extra_chars: int = 20000,
) -> Transcript:
    """Read ``text`` (JSONL, possibly with pretty-printed records) into a Transcript.

    Never raises on malformed input unless ``strict`` is set (then :class:`InputError` names
    the first line that is not JSON). ``fmt`` forces one of :data:`FORMATS` for every record.
    Tool calls and results come out as role ``tool`` with ``include_tools``, reasoning as role
    ``thinking`` with ``include_thinking``, and injected context as role ``tool`` with
    ``include_injected`` (see the module docstring for why). Each of those messages is cut to
    ``max_tool_chars`` and all of them together to ``max_extra_chars``.
    """
    opts = _Options(
        include_tools=include_tools,
        include_thinking=include_thinking,
        include_injected=include_injected,
        last_turn=last_turn,
        max_tool_chars=max_tool_chars,
        max_extra_chars=max_extra_chars,
    )
    _check_options(fmt, opts)
    values, broken = _parse_records(text, strict)
    entries, formats = _collect(values, fmt)
    _drop_codex_echoes(entries)
    _keep_last_gemini_copy(entries)
    pieces = _visible_pieces(_conversation_order(entries), opts)
    if opts.last_turn:
        pieces = _from_last_typed(pieces)
    messages, truncated = _apply_budgets(pieces, opts)
    with_messages = {e.rec_no for e in entries if e.pieces is not None}
    return Transcript(
        messages=messages,
        records=len(values),
        skipped=len(values) - len(with_messages),
        broken=broken,
        formats=formats,
        truncated=truncated,
    )


def _check_options(fmt: str | None, opts: _Options) -> None:
    if fmt is not None and fmt not in FORMATS:
        raise UsageError(f"unknown transcript format {fmt!r}; use one of: {', '.join(FORMATS)}")
    if opts.max_tool_chars < 0 or opts.max_extra_chars < 0:
        raise UsageError("transcript size budgets must be 0 or more characters")


# ---------------------------------------------------------------------------------------------
# JSON records out of text

_DECODER = json.JSONDecoder(strict=False)
_BROKEN = object()
_BLANK = re.compile(r"[ \t\r\n]*")
_LINE_END = re.compile(r"[ \t\r]*(?:\n|\Z)")


def _parse_records(text: str, strict: bool) -> tuple[list[Any], int]:
    """All JSON values in ``text`` and the number of lines that held none.

    A value must end at a line end, so a key or a half line of a broken pretty-printed
    record is not taken for a record.
    """
    values: list[Any] = []
    broken = 0
    for line_no, value in _scan(text.removeprefix("\ufeff")):
        if value is not _BROKEN:
            values.append(value)
            continue
        if strict:
            raise InputError(
                f"transcript line {line_no} is not valid JSON "
                "(without strict mode such lines are counted and skipped)"
            )
        broken += 1
    return values, broken


def _scan(text: str) -> Iterator[tuple[int, Any]]:
    # Lines inside a region a failed multi-line attempt already looked through only get a
    # one-line try: regrowing from each of them made nested garbage cost quadratic time, and
    # the inner objects of a broken pretty-printed record are not records.
    pos, line_no, counted_to, horizon = 0, 1, 0, 0
    while True:
        pos = _skip_blank(text, pos)
        if pos >= len(text):
            return
        line_no += text.count("\n", counted_to, pos)
        counted_to = pos
        value, next_pos, looked_to = _decode_at(text, pos, grow=pos >= horizon)
        if next_pos is None:
            horizon = max(horizon, looked_to)
            yield line_no, _BROKEN
            pos = _line_end(text, pos) + 1
        else:
            yield line_no, value
            pos = next_pos


def _skip_blank(text: str, pos: int) -> int:
    blank = _BLANK.match(text, pos)
    return blank.end() if blank else pos


def _decode_at(text: str, pos: int, grow: bool) -> tuple[Any, int | None, int]:
    """The value starting at ``pos``, where its line ends (None: no value), how far it looked.

    Decoding a slice, never the whole text from ``pos``: JSONDecodeError counts newlines from
    the start of its document, which made every broken line cost the size of the file. With
    ``grow`` the slice doubles (pretty-printed records) while the JSON is only incomplete.
    """
    end = _line_end(text, pos)
    while True:
        chunk = text[pos:end]
        try:
            value, used = _DECODER.raw_decode(chunk)
        except json.JSONDecodeError as err:
            more = _needs_more(err, chunk)
            if not (grow and more and end < len(text)):
                return None, None, end if more else pos + err.pos
            end = _line_end(text, pos + 2 * (end - pos) + 1)
            continue
        except (ValueError, RecursionError):
            return None, None, end  # over-long integers, absurd nesting
        tail = _LINE_END.match(text, pos + used)
        return value, (tail.end() if tail else None), pos + used


def _line_end(text: str, pos: int) -> int:
    newline = text.find("\n", pos)
    return len(text) if newline < 0 else newline


def _needs_more(err: json.JSONDecodeError, chunk: str) -> bool:
    """Whether the chunk failed only because the value goes on past it."""
    return err.msg.startswith("Unterminated string") or err.pos >= len(chunk.rstrip())


# ---------------------------------------------------------------------------------------------
# Format detection and dispatch

_CLAUDE_KEYS = frozenset({"uuid", "parentUuid", "sessionId", "leafUuid", "isSidechain"})
_GEMINI_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})
_ANTHROPIC_BLOCKS = frozenset(
    {
        "thinking",
        "redacted_thinking",
        "tool_use",
        "tool_result",
        "server_tool_use",
        "web_search_tool_result",
        "image",
        "document",
    }
)
_OPENAI_KEYS = frozenset(
    {
        "tool_calls",
        "tool_call_id",
        "function_call",
        "name",
        "refusal",
        "reasoning_content",
    }
)
_RESPONSES_PARTS = frozenset({"input_text", "output_text"})
_ROLE_FORMATS = ("openai", "anthropic", "plain")


def _detect(rec: Record) -> str | None:
    kind = rec.get("type")
    if isinstance(rec.get("payload"), dict) and isinstance(kind, str):
        return "codex"
    if isinstance(kind, str) and (
        isinstance(rec.get("message"), dict) or not _CLAUDE_KEYS.isdisjoint(rec)
    ):
        return "claude-code"
    if _is_gemini(rec):
        return "gemini"
    if "role" in rec:
        return _role_format(rec)
    return None


def _is_gemini(rec: Record) -> bool:
    if "$set" in rec or ("sessionId" in rec and "projectHash" in rec):
        return True
    return _str(rec, "type") in _GEMINI_TYPES and ("id" in rec or "content" in rec)


def _role_format(rec: Record) -> str:
    content = rec.get("content")
    blocks = content if isinstance(content, list) else []
    kinds = {_str(b, "type") for b in blocks if isinstance(b, dict)}
    if kinds & _ANTHROPIC_BLOCKS:
        return "anthropic"
    if kinds & _RESPONSES_PARTS:
        return "openai"
    if rec.get("type") == "message":
        return "anthropic"
    if isinstance(content, list):
        return "openai"
    if not _OPENAI_KEYS.isdisjoint(rec) or rec.get("role") not in ("user", "assistant", "system"):
        return "openai"
    return "plain"


def _format_of(rec: Record, forced: str | None) -> str | None:
    if forced is None:
        return _detect(rec)
    return forced if _accepts(forced, rec) else None


def _accepts(fmt: str, rec: Record) -> bool:
    """Whether a record can be read as ``fmt`` when the caller forces that format."""
    if fmt == "codex":
        return isinstance(rec.get("payload"), dict)
    if fmt == "claude-code":
        return isinstance(rec.get("type"), str)
    if fmt == "gemini":
        return isinstance(rec.get("type"), str) or _is_gemini(rec)
    return "role" in rec


def _collect(values: list[Any], forced: str | None) -> tuple[list[_Entry], dict[str, int]]:
    entries: list[_Entry] = []
    formats: dict[str, int] = {}
    for rec_no, value in enumerate(values):
        if not isinstance(value, dict):
            continue
        fmt = _collect_record(value, rec_no, forced, entries)
        if fmt is not None:
            formats[fmt] = formats.get(fmt, 0) + 1
    if forced is None:
        _fold_plain(formats)
    return entries, formats


def _fold_plain(formats: dict[str, int]) -> None:
    """A bare ``{role, content}`` line in an OpenAI or Anthropic file belongs to that file's
    format: alone it is indistinguishable, and reporting it apart only confuses."""
    richer = [f for f in ("openai", "anthropic") if f in formats]
    if "plain" in formats and richer:
        target = max(richer, key=formats.__getitem__)
        formats[target] += formats.pop("plain")


def _collect_record(rec: Record, rec_no: int, forced: str | None, out: list[_Entry]) -> str | None:
    """Append the record's entries to ``out``; return the format it was recognised as."""
    inner = _wrapped_messages(rec)
    if inner is None:
        return _collect_one(rec, rec_no, forced, out)
    if "system" in rec:  # an Anthropic request's system prompt, a string or text blocks
        prompt = _blocks(rec["system"], "user", None, injected=True)
        out.append(_Entry(len(out), rec_no, "anthropic", rec, prompt))
    found = [f for item in inner if (f := _collect_one(item, rec_no, forced, out))]
    for preferred in ("gemini", "claude-code", "codex", "anthropic"):
        if preferred in found:
            return preferred
    if found or forced is None:
        return forced or "openai"
    return forced if forced in _ROLE_FORMATS else None


def _wrapped_messages(rec: Record) -> list[Record] | None:
    """Items of a ``{"messages": [...]}`` document (chat request, fine-tuning row, session)."""
    messages = rec.get("messages")
    if not isinstance(messages, list) or "role" in rec or "message" in rec:
        return None
    return [m for m in messages if isinstance(m, dict)]


def _collect_one(rec: Record, rec_no: int, forced: str | None, out: list[_Entry]) -> str | None:
    fmt = _format_of(rec, forced)
    if fmt is None:
        return None
    try:
        pieces = _READERS[fmt](rec)
    except RecursionError:
        pieces = None  # a pathologically nested value: not worth a message
    out.append(_Entry(len(out), rec_no, fmt, rec, pieces))
    return fmt


# ---------------------------------------------------------------------------------------------
# Small typed accessors: every field of a foreign record may hold any JSON value


def _str(rec: Record, key: str) -> str | None:
    value = rec.get(key)
    return value if isinstance(value, str) else None


def _dict(rec: Record, key: str) -> Record | None:
    value = rec.get(key)
    return value if isinstance(value, dict) else None


def _list(rec: Record, key: str) -> list[Any]:
    value = rec.get(key)
    return value if isinstance(value, list) else []


def _as_text(value: Any) -> str:
    """A tool argument or result as text: strings as written, anything else as JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# Injected wrappers inside text

_WRAPPER_TAGS = (
    "system-reminder",
    "command-name",
    "command-message",
    "command-args",
    "command-contents",
    "local-command-stdout",
    "local-command-stderr",
    "local-command-caveat",
    "user-prompt-submit-hook",
    "task-notification",
    "ide_opened_file",
    "ide_selection",
    "bash-input",
    "bash-stdout",
    "bash-stderr",
    "environment_context",
    "user_instructions",
    "INSTRUCTIONS",
    "recommended_plugins",
    "skills_instructions",
    "plugins_instructions",
    "permissions",
    "subagent_notification",
    "turn_aborted",
    "user_shell_command",
    "app-context",
)
# An unclosed wrapper runs to the end: truncated logs cut them mid-block.
_WRAPPER = re.compile(
    r"<(?P<tag>" + "|".join(map(re.escape, _WRAPPER_TAGS)) + r")(?=[\s>])[^>]*>"
    r".*?(?:</(?P=tag)[^>]*>|\Z)",
    re.S,
)
_SYSTEM_ONLY = re.compile(r"\s*<system>(?:(?!</system>).)*</system>\s*", re.S)
_INJECTED_PREFIXES = ("# AGENTS.md instructions", "[Request interrupted by user")


def _text_pieces(text: str, kind: Role, ts: str | None, injected: bool = False) -> list[_Piece]:
    """Split text into what was said and the injected wrappers found in it."""
    if injected or _is_injected_whole(text):
        return [_Piece(kind, text, ts, injected=True)]
    said: list[str] = []
    wrappers: list[str] = []
    last = 0
    for match in _WRAPPER.finditer(text):
        said.append(text[last : match.start()])
        wrappers.append(match.group(0))
        last = match.end()
    said.append(text[last:])
    own = _Piece(kind, "".join(said), ts)
    if not wrappers:
        return [own]
    extra = _Piece(kind, "\n".join(wrappers), ts, injected=True)
    return [extra, own] if not said[0].strip() else [own, extra]


def _is_injected_whole(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith(_INJECTED_PREFIXES) or bool(_SYSTEM_ONLY.fullmatch(text))


# ---------------------------------------------------------------------------------------------
# Content blocks shared by Anthropic, Claude Code, OpenAI parts and Codex items

_TEXT_PARTS = frozenset({"text", "input_text", "output_text"})
_THINKING_PARTS = {
    "thinking": "thinking",
    "think": "think",
    "reasoning": "text",
    "reasoning_text": "text",
    "summary_text": "text",
}
_CALL_PARTS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})


def _blocks(content: Any, kind: Role, ts: str | None, injected: bool = False) -> list[_Piece]:
    if isinstance(content, str):
        return _text_pieces(content, kind, ts, injected)
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return []
    pieces: list[_Piece] = []
    after_text = False
    for block in content:
        new = _block(block, kind, ts, injected)
        is_text = _is_text_part(block)
        # Several text parts of one message are one utterance, not several messages.
        if is_text and after_text and new and _same_stream(pieces[-1], new[0]):
            pieces[-1].text += "\n" + new.pop(0).text
        pieces += new
        after_text = is_text and bool(pieces)
    return pieces


def _is_text_part(block: Any) -> bool:
    if isinstance(block, str):
        return True
    if not isinstance(block, dict):
        return False
    btype = _str(block, "type")
    return btype in _TEXT_PARTS or (btype is None and isinstance(block.get("text"), str))


def _same_stream(a: _Piece, b: _Piece) -> bool:
    return a.kind == b.kind and a.injected == b.injected


def _block(block: Any, kind: Role, ts: str | None, injected: bool) -> list[_Piece]:
    if isinstance(block, str):
        return _text_pieces(block, kind, ts, injected)
    if not isinstance(block, dict):
        return []
    btype = _str(block, "type")
    if _is_text_part(block):
        return _text_pieces(_str(block, "text") or "", kind, ts, injected)
    if btype == "refusal":
        return _text_pieces(_str(block, "refusal") or "", kind, ts, injected)
    if btype in _THINKING_PARTS:
        return [_Piece("thinking", _str(block, _THINKING_PARTS[btype]) or "", ts, injected)]
    if btype in _CALL_PARTS:
        return [_call_piece(_str(block, "name"), block.get("input"), ts, injected)]
    if btype is not None and btype.endswith("tool_result"):
        return _blocks(block.get("content"), "tool", ts, injected)
    return []


def _call_piece(name: str | None, args: Any, ts: str | None, injected: bool = False) -> _Piece:
    return _Piece("tool", _call_text(name, args), ts, injected)


def _call_text(name: str | None, args: Any) -> str:
    return f"[{name or 'tool'}] {_as_text(args)}"


# ---------------------------------------------------------------------------------------------
# Readers, one per format: a record in, its pieces out (None: not a message record)

_ROLE_KIND: dict[str, Role] = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "model": "assistant",
    "tool": "tool",
    "function": "tool",
    "ipython": "tool",
}
_CONTEXT_ROLES = frozenset({"system", "developer"})


def _read_role_message(rec: Record) -> list[_Piece] | None:
    """OpenAI chat, Anthropic Messages and plain ``{role, content}`` records."""
    role = _str(rec, "role")
    if role is None or (role not in _ROLE_KIND and role not in _CONTEXT_ROLES):
        return None  # pseudo-roles such as _checkpoint/_usage, or unknown future roles
    ts = _str(rec, "timestamp")
    injected = role in _CONTEXT_ROLES
    kind: Role = _ROLE_KIND.get(role, "user")
    pieces: list[_Piece] = []
    for key in ("reasoning_content", "reasoning"):
        if isinstance(rec.get(key), str):
            pieces.append(_Piece("thinking", rec[key], ts, injected))
    pieces += _blocks(rec.get("content"), kind, ts, injected)
    pieces += _openai_calls(rec, ts)
    return pieces


def _openai_calls(rec: Record, ts: str | None) -> list[_Piece]:
    calls = [c.get("function") for c in _list(rec, "tool_calls") if isinstance(c, dict)]
    legacy = rec.get("function_call")
    return [
        _call_piece(_str(call, "name"), call.get("arguments"), ts)
        for call in [*calls, legacy]
        if isinstance(call, dict)
    ]


def _read_claude(rec: Record) -> list[_Piece] | None:
    kind = rec.get("type")
    message = _dict(rec, "message")
    if kind not in ("user", "assistant") or message is None:
        return None  # summary, system, progress, attachment, file-history-snapshot, ...
    role: Role = "user" if kind == "user" else "assistant"
    return _blocks(message.get("content"), role, _str(rec, "timestamp"), _claude_injected(rec))


def _claude_injected(rec: Record) -> bool:
    message = _dict(rec, "message") or {}
    return (
        rec.get("isMeta") is True
        or rec.get("isCompactSummary") is True
        or rec.get("isSidechain") is True
        or rec.get("isVisibleInTranscriptOnly") is True
        or rec.get("isApiErrorMessage") is True
        or message.get("model") == "<synthetic>"
    )


def _read_codex(rec: Record) -> list[_Piece] | None:
    payload = _dict(rec, "payload") or {}
    ts = _str(rec, "timestamp")
    kind = rec.get("type")
    if kind == "response_item":
        return _codex_item(payload, ts)
    if kind == "event_msg":
        return _codex_event(payload, ts)
    if kind == "compacted":
        return [_Piece("user", _str(payload, "message") or "", ts, injected=True)]
    return None  # session_meta, turn_context and types from future versions


def _codex_item(item: Record, ts: str | None) -> list[_Piece] | None:
    itype = item.get("type")
    if itype == "message":
        return _read_role_message(item | {"timestamp": ts})
    if itype == "reasoning":
        # encrypted_content is opaque by design and never rendered
        return _blocks([*_list(item, "summary"), *_list(item, "content")], "thinking", ts)
    if itype in ("function_call", "custom_tool_call"):
        return [_call_piece(_str(item, "name"), item.get("arguments", item.get("input")), ts)]
    if itype in ("local_shell_call", "web_search_call"):
        return [_call_piece(str(itype), item.get("action"), ts)]
    if itype in ("function_call_output", "custom_tool_call_output"):
        return _codex_output(item.get("output"), ts)
    return None


def _codex_output(output: Any, ts: str | None) -> list[_Piece]:
    if isinstance(output, dict) and "content" in output:
        output = output["content"]
    if isinstance(output, list):
        return _blocks(output, "tool", ts)
    return [_Piece("tool", _as_text(output), ts)]


_CODEX_EVENTS: dict[str, Role] = {
    "user_message": "user",
    "agent_message": "assistant",
    "agent_reasoning": "thinking",
}


def _codex_event(event: Record, ts: str | None) -> list[_Piece] | None:
    kind = _CODEX_EVENTS.get(str(event.get("type")))
    if kind is None:
        return None  # token_count, task_started, exec output deltas, ...
    text = _str(event, "message") or _str(event, "text") or ""
    return _text_pieces(text, kind, ts)


def _read_gemini(rec: Record) -> list[_Piece] | None:
    kind = rec.get("type")
    ts = _str(rec, "timestamp")
    if kind == "user":
        # displayContent is what the person typed; content may carry expanded @file bodies
        shown = _gemini_text(rec.get("displayContent"))
        return _text_pieces(shown or _gemini_text(rec.get("content")), "user", ts)
    if kind != "gemini":
        return None  # header, $set patches, info/error/warning notices
    pieces = [_gemini_thought(t, ts) for t in _list(rec, "thoughts") if isinstance(t, dict)]
    pieces += _text_pieces(_gemini_text(rec.get("content")), "assistant", ts)
    for call in _list(rec, "toolCalls"):
        if isinstance(call, dict):
            pieces += _gemini_tool(call, ts)
    return pieces


def _gemini_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else [content]
    return "\n".join(
        p["text"]
        for p in parts
        if isinstance(p, dict) and isinstance(p.get("text"), str) and p.get("thought") is not True
    )


def _gemini_thought(thought: Record, ts: str | None) -> _Piece:
    text = ": ".join(s for k in ("subject", "description") if (s := _str(thought, k)))
    return _Piece("thinking", text, ts)


def _gemini_tool(call: Record, ts: str | None) -> list[_Piece]:
    called = _call_text(_str(call, "displayName") or _str(call, "name"), call.get("args"))
    # The description is the tool's own one-line account of the call (an edit's old => new).
    head = "\n".join(filter(None, (called, _str(call, "description"))))
    results = [_gemini_response(r) for r in _list(call, "result") if isinstance(r, dict)]
    shown = call.get("resultDisplay")
    if isinstance(shown, dict):
        shown = shown.get("fileDiff")
    text = "\n".join(r for r in results if r) or _as_text(shown)
    return [_Piece("tool", head, ts), _Piece("tool", text, ts)]


def _gemini_response(part: Record) -> str:
    response = _dict(_dict(part, "functionResponse") or {}, "response")
    if response is None:
        return ""
    if "output" in response or "error" in response:
        return _as_text(response.get("output", response.get("error")))
    return _as_text(response)


_READERS: dict[str, Callable[[Record], list[_Piece] | None]] = {
    "claude-code": _read_claude,
    "codex": _read_codex,
    "gemini": _read_gemini,
    **{fmt: _read_role_message for fmt in _ROLE_FORMATS},
}


# ---------------------------------------------------------------------------------------------
# Duplicates written by the tools themselves


# Codex echoes each message as an event_msg for its UI next to the response_item the model
# saw; when the twin kind of response_item is present, the event is the duplicate.
_EVENT_TWIN = {
    "user_message": "message",
    "agent_message": "message",
    "agent_reasoning": "reasoning",
}


def _drop_codex_echoes(entries: list[_Entry]) -> None:
    codex = [e for e in entries if e.fmt == "codex" and e.pieces is not None]
    present = {_payload_type(e) for e in codex if e.rec.get("type") == "response_item"}
    for e in codex:
        twin = _EVENT_TWIN.get(_payload_type(e) or "")
        if e.rec.get("type") == "event_msg" and twin in present:
            e.pieces = None


def _payload_type(e: _Entry) -> str | None:
    return _str(_dict(e.rec, "payload") or {}, "type")


def _keep_last_gemini_copy(entries: list[_Entry]) -> None:
    """Gemini rewrites a message under the same id as its tool calls finish: the last copy
    is complete, the first copy's place in the file is when the message began."""
    first: dict[str, _Entry] = {}
    for e in entries:
        gid = _str(e.rec, "id") if e.fmt == "gemini" and e.pieces is not None else None
        if gid is None:
            continue
        if gid in first:
            first[gid].pieces, e.pieces = e.pieces, None
        else:
            first[gid] = e


# ---------------------------------------------------------------------------------------------
# Claude Code: follow the uuid/parentUuid chain so rewound branches drop out


def _conversation_order(entries: list[_Entry]) -> list[_Entry]:
    """Entries in conversation order: Claude Code records permuted among their own places."""
    claude = [e for e in entries if e.fmt == "claude-code"]
    if not claude:
        return entries
    kept = _claude_conversation(claude)
    placed = dict(zip(sorted(e.seq for e in kept), kept, strict=True))
    return [
        placed[e.seq] if e.fmt == "claude-code" else e
        for e in entries
        if e.fmt != "claude-code" or e.seq in placed
    ]


def _claude_conversation(claude: list[_Entry]) -> list[_Entry]:
    by_uuid = {u: e for e in claude if (u := _str(e.rec, "uuid"))}
    chain = _claude_chain(claude, by_uuid)
    on_chain = {e.seq for e in chain}
    # Sidechains and uuid-less lines are not on the chain; they keep their place in the file.
    extras = {
        e.seq
        for e in claude
        if e.pieces is not None and e.seq not in on_chain and not _is_main_message(e)
    }
    rank = {e.seq: i for i, e in enumerate(chain)}
    keyed = [((i, 0, 0), e) for i, e in enumerate(chain)]
    anchor = -1
    for e in claude:
        if e.seq in rank:
            anchor = max(anchor, rank[e.seq])
        elif e.seq in extras:
            keyed.append(((anchor, 1, e.seq), e))
    keyed.sort(key=lambda pair: pair[0])
    return [e for _, e in keyed]


def _is_main_message(e: _Entry) -> bool:
    return (
        e.rec.get("type") in ("user", "assistant")
        and e.rec.get("isSidechain") is not True
        and _str(e.rec, "uuid") is not None
    )


def _claude_chain(claude: list[_Entry], by_uuid: dict[str, _Entry]) -> list[_Entry]:
    """Walk back from the newest main-chain line; when the walk stops short (a slice whose
    first parent is elsewhere, a lost line), walk again from the newest line before it."""
    seen: set[int] = set()
    segments: list[list[_Entry]] = []
    limit = claude[-1].seq + 1
    for leaf in reversed(claude):
        if leaf.seq >= limit or leaf.seq in seen or not _is_main_message(leaf):
            continue
        segment = _walk(leaf, by_uuid, seen)
        segments.append(segment[::-1])
        limit = min(e.seq for e in segment)
    return [e for segment in reversed(segments) for e in segment]


def _walk(leaf: _Entry, by_uuid: dict[str, _Entry], seen: set[int]) -> list[_Entry]:
    segment: list[_Entry] = []
    current: _Entry | None = leaf
    while current is not None and current.seq not in seen:
        seen.add(current.seq)
        segment.append(current)
        # compact_boundary lines have parentUuid null and point across with logicalParentUuid
        parent = _str(current.rec, "parentUuid") or _str(current.rec, "logicalParentUuid")
        current = by_uuid.get(parent) if parent else None
    return segment


# ---------------------------------------------------------------------------------------------
# Filtering, last turn and budgets


def _visible_pieces(entries: list[_Entry], opts: _Options) -> list[_Piece]:
    stripped = (
        replace(piece, text=piece.text.strip()) for e in entries for piece in e.pieces or ()
    )
    return [piece for piece in stripped if piece.text and _wanted(piece, opts)]


def _wanted(piece: _Piece, opts: _Options) -> bool:
    if piece.injected and not opts.include_injected:
        return False
    if piece.kind == "tool":
        return opts.include_tools
    if piece.kind == "thinking":
        return opts.include_thinking
    return True


def _role(piece: _Piece) -> Role:
    if piece.kind == "thinking":
        return "thinking"
    return "tool" if piece.injected else piece.kind


def _is_typed(piece: _Piece) -> bool:
    return piece.kind == "user" and not piece.injected


def _from_last_typed(pieces: list[_Piece]) -> list[_Piece]:
    """From the last thing a person typed to the end; all of it when nobody typed anything."""
    typed = [i for i, p in enumerate(pieces) if _is_typed(p)]
    return pieces[typed[-1] :] if typed else pieces


def _apply_budgets(pieces: list[_Piece], opts: _Options) -> tuple[list[Message], int]:
    messages: list[Message] = []
    left = opts.max_extra_chars
    truncated = 0
    for piece in pieces:
        role = _role(piece)
        text = _valid_unicode(piece.text)
        if role in ("tool", "thinking"):
            text, cut = _cut(text, min(opts.max_tool_chars, left))
            truncated += cut
            left -= len(text)
        if text:
            stamp = _valid_unicode(piece.timestamp) if piece.timestamp else piece.timestamp
            messages.append(Message(role=role, text=text, timestamp=stamp))
    return messages, truncated


def _valid_unicode(text: str) -> str:
    """JSON escapes can carry lone surrogates (``"\\ud800"``): they become U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _cut(text: str, limit: int) -> tuple[str, bool]:
    """``text`` in at most ``limit`` characters, marker included; empty when nothing fits."""
    if len(text) <= limit:
        return text, False
    head = text[: max(limit - len(TRUNCATION_MARK), 0)].rstrip()
    return (head + TRUNCATION_MARK if head else ""), True
