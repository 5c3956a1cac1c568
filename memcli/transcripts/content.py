"""Text and content blocks shared by the readers: what was said, what was injected.

Injected wrappers are tags the tools put around context nobody typed (reminders, command
echoes, hook output, notifications, other agents' messages). They are split out of the text
they sit in, so a typed sentence with a reminder appended still counts as typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from memcli import compiled_regex as rx
from memcli.messages import Role
from memcli.transcripts.model import Piece, as_text, get_str

# tag -> the reason shown in the skipped counts
_WRAPPER_REASONS = {
    "system-reminder": "injected",
    "command-name": "slash command",
    "command-message": "slash command",
    "command-args": "slash command",
    "command-contents": "slash command",
    "local-command-stdout": "slash command",
    "local-command-stderr": "slash command",
    "local-command-caveat": "injected",
    "user-prompt-submit-hook": "hook output",
    "task-notification": "task notification",
    "teammate-message": "teammate message",
    "cross-session-message": "teammate message",
    "ide_opened_file": "injected",
    "ide_selection": "injected",
    "bash-input": "shell escape",
    "bash-stdout": "shell escape",
    "bash-stderr": "shell escape",
    "environment_context": "injected",
    "environment_details": "injected",
    "user_instructions": "injected",
    "INSTRUCTIONS": "injected",
    "recommended_plugins": "injected",
    "skills_instructions": "injected",
    "plugins_instructions": "injected",
    "permissions": "injected",
    "subagent_notification": "task notification",
    "turn_aborted": "injected",
    "user_shell_command": "shell escape",
    "app-context": "injected",
    "session_context": "injected",
    "qwen:user-prompt-submit-context": "hook output",
    # Cursor and Grok CLI: the machine and the repository, before the person's words
    "user_info": "injected",
    "git_status": "injected",
    "additional_data": "injected",
    "attached_files": "injected",
    # CodeBuddy and WorkBuddy: context, and earlier turns quoted back to the model
    "memory_and_skills_reminder": "injected",
    "automation_system_reminder": "injected",
    "previous_user_message": "injected",
    "previous_assistant_message": "injected",
    "previous_tool_call": "injected",
    "cb_summary": "compaction summary",
    "conversation_history_summary": "compaction summary",
    "identity_context": "injected",
    "connector-status": "injected",
    # Antigravity: settings the person changed, and what the editor adds
    "USER_SETTINGS_CHANGE": "injected",
    "ADDITIONAL_METADATA": "injected",
}
# Cursor, Grok CLI, CodeBuddy (``user_query``) and Antigravity (``USER_REQUEST``) put what
# the person typed inside one of these and their own context around it.
_TYPED_TAGS = ("user_query", "USER_REQUEST")
# An unclosed wrapper runs to the end: truncated logs cut them mid-block. A task
# notification is followed by the harness's "Full transcript available at: ..." line.
_WRAPPER_START = rx.compile(
    r"<(?P<tag>" + "|".join(map(re.escape, _WRAPPER_REASONS)) + r")(?=[\s>])")
_WRAPPER = rx.compile(
    _WRAPPER_START.pattern + r"[^>]*>"
    r".*?(?:</(?P=tag)[^>]*>(?:\s*Full transcript available at: [^\n]*)?|\Z)",
    re.S,
)
_SYSTEM_ONLY = rx.compile(r"\s*<system>(?:(?!</system>).)*</system>\s*", re.S)
_SYSTEM_OPENING = rx.compile(r"\s*<system>")
_INJECTED_PREFIXES = ("# AGENTS.md instructions", "[Request interrupted by user")
# Gemini CLI and Qwen Code open every chat with this (unwrapped before <session_context>).
_SETUP_CONTEXT = rx.compile(
    r"\s*This is the [\w ]{1,40}\. We are setting up the context for our chat\.")
# Codex's IDE extension and Desktop put the open files before the person's words.
_CODEX_REQUEST = "## My request for Codex:"


def text_pieces(
    text: str, kind: Role, ts: str | None, injected: bool = False, reason: str = "injected"
) -> list[Piece]:
    """Split text into what was said and the injected wrappers found in it."""
    if injected or _is_injected_whole(text):
        return [Piece(kind, text, ts, injected=True, reason=reason)]
    if "<" not in text and _CODEX_REQUEST not in text:
        return [Piece(kind, text, ts)]
    if kind == "user" and _CODEX_REQUEST in text:
        return _codex_request(text, ts)
    return _split_wrappers(text, kind, ts)


def _codex_request(text: str, ts: str | None) -> list[Piece]:
    """What came before each "## My request for Codex:" is context; the words after the
    last are the person's.

    The same as cutting at the first marker and reading the rest again (the rest may hold
    the marker again, or be injected whole), without copying the rest once per marker.
    """
    parts = text.split(_CODEX_REQUEST)
    pieces = [Piece("user", parts[0] + _CODEX_REQUEST, ts, True, "injected")]
    offset = len(parts[0]) + len(_CODEX_REQUEST)
    system_only = _SystemOnly(text)
    for k in range(1, len(parts) - 1):
        if _opens_injected(parts[k].lstrip()) or system_only.from_(offset):
            return [*pieces, Piece("user", text[offset:], ts, True, "injected")]
        pieces.append(Piece("user", parts[k] + _CODEX_REQUEST, ts, True, "injected"))
        offset += len(parts[k]) + len(_CODEX_REQUEST)
    return [*pieces, *text_pieces(parts[-1], "user", ts)]


class _SystemOnly:
    """Whether ``text[pos:]`` is one ``<system>`` block (``_SYSTEM_ONLY.fullmatch``), for
    many positions at the cost of one: the block must close at the last ``</system>``,
    which only white space may follow, and no other ``</system>`` may come inside it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.last = text.rfind("</system>")
        closed = self.last >= 0 and not text[self.last + len("</system>"):].strip()
        self.before_last = text.rfind("</system>", 0, self.last) if closed else -1
        if not closed:
            self.last = -1

    def from_(self, pos: int) -> bool:
        if self.last < 0:
            return False
        opening = _SYSTEM_OPENING.match(self.text, pos)
        return opening is not None and self.before_last < opening.end() <= self.last


def _split_wrappers(text: str, kind: Role, ts: str | None) -> list[Piece]:
    said: list[str] = []
    wrappers: list[Piece] = []
    last = 0
    for match in _wrappers(text):
        said.append(text[last : match.start()])
        reason = _WRAPPER_REASONS[match.group("tag")]
        wrappers.append(Piece(kind, match.group(0), ts, True, reason))
        last = match.end()
    said.append(text[last:])
    own = _typed(Piece(kind, "".join(said), ts))
    if not wrappers:
        return own
    merged = _merge_wrappers(wrappers)
    return [*merged, *own] if not said[0].strip() else [*own, *merged]


def _typed(own: Piece) -> list[Piece]:
    """A user's text holding a typed wrapper: the words inside it are the person's, what is
    around them the tool's (wrappers already split out, so one quoted inside an earlier
    turn's ``<previous_user_message>`` is gone)."""
    if own.kind != "user" or "<" not in own.text:
        return [own]
    typed: list[str] = []
    rest: list[str] = []
    for tag in _TYPED_TAGS:
        if f"<{tag}>" in own.text:
            _cut(own.text if not rest else "".join(rest), tag, typed, rest)
    if not typed:
        return [own]
    pieces = [Piece("user", "\n\n".join(typed), own.timestamp)]
    context = "".join(rest).strip()
    if context:
        pieces.append(Piece("user", context, own.timestamp, True, "injected"))
    return pieces


def _cut(text: str, tag: str, typed: list[str], rest: list[str]) -> None:
    """Move what is inside each closed ``<tag>`` of ``text`` to ``typed`` and the text
    around them to ``rest`` (in place of what it held); one scan, an unclosed tag ends it."""
    opening, closing = f"<{tag}>", f"</{tag}>"
    around: list[str] = []
    pos = 0
    while (start := text.find(opening, pos)) >= 0:
        end = text.find(closing, start)
        if end < 0:
            break
        around.append(text[pos:start])
        typed.append(text[start + len(opening):end].strip())
        pos = end + len(closing)
    around.append(text[pos:])
    rest[:] = around


def _wrappers(text: str) -> Iterator[re.Match[str]]:
    """What ``_WRAPPER.finditer(text)`` gives, in linear time.

    A wrapper's opening tag ends at the next ``>``, and once it has one the wrapper always
    matches (it may run to the end). So a tag start after the last ``>`` can never match;
    ``finditer`` would still read from each one to the end of the text ("<system-reminder "
    pasted thousands of times), so the search stops there.
    """
    last_bracket = text.rfind(">")
    pos = 0
    while (start := _WRAPPER_START.search(text, pos)) is not None:
        if start.end() > last_bracket:
            return
        match = _WRAPPER.match(text, start.start())
        if match is None:  # cannot happen (see above); move on rather than loop
            pos = start.end()
            continue
        yield match
        pos = match.end()


def _merge_wrappers(wrappers: list[Piece]) -> list[Piece]:
    """Adjacent wrappers of one reason are one piece of context.

    Joined once at the end: adding each text to the piece's text copied it every time,
    quadratic in a message of thousands of reminders.
    """
    merged = [wrappers[0]]
    texts = [[wrappers[0].text]]
    for piece in wrappers[1:]:
        if piece.reason == merged[-1].reason:
            texts[-1].append(piece.text)
        else:
            merged.append(piece)
            texts.append([piece.text])
    for piece, parts in zip(merged, texts, strict=True):
        piece.text = "\n".join(parts)
    return merged


def _is_injected_whole(text: str) -> bool:
    return _opens_injected(text.lstrip()) or bool(_SYSTEM_ONLY.fullmatch(text))


def _opens_injected(stripped: str) -> bool:
    """Text (white space stripped on the left) that an agent injected whole, by its start."""
    return stripped.startswith(_INJECTED_PREFIXES) or (
        stripped.startswith("This is the ") and bool(_SETUP_CONTEXT.match(stripped)))


# ---------------------------------------------------------------------------------------------
# Content blocks shared by Anthropic, Claude Code, OpenAI parts, Codex items and their kin

_TEXT_PARTS = frozenset({"text", "input_text", "output_text"})
_THINKING_PARTS = {
    "thinking": "thinking",
    "think": "think",
    "reasoning": "text",
    "reasoning_text": "text",
    "summary_text": "text",
}
_CALL_PARTS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use", "toolCall", "tool-call"})


def blocks(content: Any, kind: Role, ts: str | None, injected: bool = False) -> list[Piece]:
    if isinstance(content, str):
        return text_pieces(content, kind, ts, injected)
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return []
    pieces: list[Piece] = []
    last: list[str] = []  # the texts the last piece is made of, joined when it is done
    after_text = False
    for block in content:
        new = _block(block, kind, ts, injected)
        is_text = _is_text_part(block)
        # Several text parts of one message are one utterance, not several messages.
        if is_text and after_text and new and _same_stream(pieces[-1], new[0]):
            last.append(new.pop(0).text)
        if new:
            _join_last(pieces, last)
            pieces += new
            last = [new[-1].text]
        after_text = is_text and bool(pieces)
    _join_last(pieces, last)
    return pieces


def _join_last(pieces: list[Piece], texts: list[str]) -> None:
    # Once, not a text at a time: that copied the growing text for each of thousands of parts.
    if len(texts) > 1:
        pieces[-1].text = "\n".join(texts)


def _is_text_part(block: Any) -> bool:
    if isinstance(block, str):
        return True
    if not isinstance(block, dict):
        return False
    btype = get_str(block, "type")
    return btype in _TEXT_PARTS or (btype is None and isinstance(block.get("text"), str))


def _same_stream(a: Piece, b: Piece) -> bool:
    return a.kind == b.kind and a.injected == b.injected and a.reason == b.reason


def _block(block: Any, kind: Role, ts: str | None, injected: bool) -> list[Piece]:
    if isinstance(block, str):
        return text_pieces(block, kind, ts, injected)
    if not isinstance(block, dict):
        return []
    btype = get_str(block, "type")
    if _is_text_part(block):
        return text_pieces(get_str(block, "text") or "", kind, ts, injected)
    if btype == "refusal":
        return text_pieces(get_str(block, "refusal") or "", kind, ts, injected)
    if btype in _THINKING_PARTS:
        return [Piece("thinking", get_str(block, _THINKING_PARTS[btype]) or "", ts, injected)]
    if btype in _CALL_PARTS:
        args = block.get("input", block.get("arguments"))
        return [call_piece(get_str(block, "name"), args, ts, injected)]
    if btype is not None and btype.endswith("tool_result"):
        return [Piece("tool", "", ts, injected, expand=_result_pieces, raw=block.get("content"))]
    return []


def _result_pieces(piece: Piece) -> list[Piece]:
    return blocks(piece.raw, "tool", piece.timestamp, piece.injected)


def call_piece(name: str | None, args: Any, ts: str | None, injected: bool = False) -> Piece:
    if isinstance(args, str):
        return Piece("tool", call_text(name, args), ts, injected)
    return Piece("tool", name or "", ts, injected, later=_call_text_of, raw=args)


def _call_text_of(piece: Piece) -> str:
    return call_text(piece.text or None, piece.raw)


def tool_piece(value: Any, ts: str | None) -> Piece:
    """A tool's output; anything but a string becomes JSON text only if it is shown."""
    if isinstance(value, str):
        return Piece("tool", value, ts)
    return Piece("tool", "", ts, later=_value_text, raw=value)


def _value_text(piece: Piece) -> str:
    return as_text(piece.raw)


def call_text(name: str | None, args: Any) -> str:
    return f"[{name or 'tool'}] {as_text(args)}"


def reply_pieces(thinking: str | None, content: str | None, calls: list[Any], args_key: str,
                 ts: str | None) -> list[Piece]:
    """A model's turn written as one record (Antigravity, Grok CLI): its reasoning, its
    text, then its tool calls, each ``{"name": ..., args_key: ...}``."""
    pieces: list[Piece] = []
    if thinking:
        pieces.append(Piece("thinking", thinking, ts))
    if content:
        pieces += text_pieces(content, "assistant", ts)
    for call in calls:
        if isinstance(call, dict):
            pieces.append(call_piece(get_str(call, "name"), call.get(args_key), ts))
    return pieces
