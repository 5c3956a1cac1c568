"""Cline, Roo Code and Kilo Code: ``api_conversation_history.json``, a JSON array of
Anthropic messages, and ``ui_messages.json`` beside it, what the task's chat view shows.

The person's words sit inside ``<task>`` (the first request), ``<feedback>``, ``<answer>``
or ``<user_message>``; a user message that starts ``[tool_name ...] Result:`` is a tool's
output sent back to the model; ``<environment_details>`` is injected on every turn. The
assistant writes its reasoning in ``<thinking>`` and its tool calls as XML tags.

Every other text of a user message is Cline's own (cline ``src/core/prompts/responses.ts``
and the task loop): ``[TASK RESUMPTION] ...``, ``[ERROR] You did not use a tool ...``, the
``# task_progress`` checklist, ``Files attached by the user:``, notes about a truncated
context. Cline wraps whatever the person types in one of the four tags, so what is outside
them is never the person's words: it is read as injected context (or as tool output after
a result header).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from memcli import compiled_regex as rx
from memcli.transcripts.content import blocks, text_pieces
from memcli.transcripts.model import Entry, Format, Piece, Record, get_str, millis_to_iso

_TYPED = rx.compile(r"<(task|feedback|answer|user_message)>\s*(.*?)\s*</\1>", re.S)
# ``[name for '<argument>'] Result:``; the argument (a command, a regex) may span lines and
# hold brackets of its own
_RESULT = rx.compile(
    r"\s*\[(?:[^\]\n]{1,200}|\w{1,60} for '.{0,4000}?'(?: in '[^'\n]{0,400}')?)\] Result:",
    re.S)
_THINKING = rx.compile(r"<thinking>\s*(.*?)\s*</thinking>", re.S)
_TOOL_TAGS = (
    "execute_command|read_file|write_to_file|replace_in_file|apply_diff|insert_content|"
    "search_and_replace|search_files|list_files|list_code_definition_names|codebase_search|"
    "browser_action|use_mcp_tool|access_mcp_resource|ask_followup_question|"
    "attempt_completion|new_task|plan_mode_respond|switch_mode|fetch_instructions|"
    "update_todo_list|new_rule|condense|report_bug|load_mcp_documentation|web_fetch"
)
_TOOL_CALL = rx.compile(rf"<({_TOOL_TAGS})>.*?</\1>", re.S)
_MARKERS = ("<task>", "<environment_details>", "[TASK RESUMPTION]")


def claims(items: list[Any]) -> bool:
    """Whether an array of messages is a Cline or Roo Code history: one of the first user
    messages holds its markers (in any of its texts: the first may be a tool's result, an
    MCP server's among them)."""
    for item in items[:4]:
        if isinstance(item, dict) and item.get("role") == "user":
            content = item.get("content")
            if isinstance(content, str) and "<" not in content and "[" not in content:
                continue  # none of the markers (a plain chat's line: the common case)
            for text in _texts(item.get("content"), 2):
                if text.lstrip().startswith(_MARKERS) or _RESULT.match(text) or (
                        "<environment_details>" in text):
                    return True
    return False


def _texts(content: Any, depth: int) -> list[str]:
    """The texts of a message's content, and of the tool results in it."""
    if isinstance(content, str):
        return [content]
    found: list[str] = []
    if isinstance(content, list) and depth > 0:
        for block in content[:16]:
            if not isinstance(block, dict):
                continue
            if isinstance(block.get("text"), str):
                found.append(str(block["text"]))
            elif block.get("type") == "tool_result":
                found += _texts(block.get("content"), depth - 1)
    return found


def read(rec: Record) -> list[Piece] | None:
    role = get_str(rec, "role")
    ts = get_str(rec, "timestamp")
    content = rec.get("content")
    parts = [{"type": "text", "text": content}] if isinstance(content, str) else content
    if not isinstance(parts, list):
        return None
    if role == "assistant":
        return [p for part in parts for p in _assistant_part(part, ts)]
    if role == "user":
        pieces: list[Piece] = []
        in_result = False
        for part in parts:
            text = get_str(part, "text") if isinstance(part, dict) else None
            if text is None:
                pieces += blocks([part], "tool", ts)
                continue
            in_result = in_result or bool(_RESULT.match(text))
            pieces += _user_text(text, ts, in_result)
        return pieces
    return None


def _user_text(text: str, ts: str | None, in_result: bool) -> list[Piece]:
    typed = [m.group(2) for m in _TYPED.finditer(text)]
    rest = _TYPED.sub("", text)
    pieces = [Piece("user", t, ts) for t in typed]
    for piece in text_pieces(rest, "user", ts):
        if piece.injected or not piece.text.strip():
            pass
        elif in_result or typed:
            piece.kind = "tool"  # tool output, or the frame around a typed answer
        else:
            # Cline's own words to the model (a resumption notice, an error, a checklist)
            piece.injected, piece.reason = True, "cline context"
        pieces.append(piece)
    return pieces


def _assistant_part(part: Any, ts: str | None) -> list[Piece]:
    text = get_str(part, "text") if isinstance(part, dict) else None
    if text is None:
        return blocks([part], "assistant", ts)
    pieces = [Piece("thinking", m.group(1), ts) for m in _THINKING.finditer(text)]
    pieces += [Piece("tool", m.group(0), ts) for m in _TOOL_CALL.finditer(text)]
    said = _TOOL_CALL.sub("", _THINKING.sub("", text))
    return [Piece("assistant", said, ts), *pieces]


def _never(rec: Record) -> bool:
    return False


CLINE = Format(
    name="cline",
    agents="Cline, Roo Code",
    where="VS Code globalStorage/<extension>/tasks/<id>/api_conversation_history.json "
    "(and ui_messages.json, the chat view's messages)",
    matches=_never,  # an array is claimed whole by `claims`: its assistant lines are plain
    read=read,
    accepts=lambda rec: "role" in rec or _is_ui_message(rec),
)

# --- ui_messages.json: what the task's chat view shows ---------------------------------------
# ``{ts, type: "say"|"ask", say|ask: <kind>, text}``. The person's words are the task and
# their feedback; the model's are its text, questions and completion; the rest is tools
# (commands, file operations, MCP calls, their output) or the view's own bookkeeping.

_UI_SAID = {
    ("say", "task"): "user",
    ("say", "user_feedback"): "user",
    ("say", "text"): "assistant",
    ("say", "completion_result"): "assistant",
    ("ask", "followup"): "assistant",
    ("ask", "plan_mode_respond"): "assistant",
    ("say", "reasoning"): "thinking",
}
_UI_TOOLS = frozenset(
    {"command", "command_output", "tool", "browser_action", "browser_action_result",
     "use_mcp_server", "mcp_server_response", "user_feedback_diff"}
)


def _is_ui_message(rec: Record) -> bool:
    kind = rec.get("type")
    return (
        kind in ("say", "ask")
        and isinstance(rec.get(str(kind)), str)
        and isinstance(rec.get("ts"), int | float)
    )


def read_ui(rec: Record) -> list[Piece] | None:
    kind, what = str(rec.get("type")), rec.get(str(rec.get("type")))
    ts = millis_to_iso(rec.get("ts"))
    text = get_str(rec, "text") or ""
    said = _UI_SAID.get((kind, str(what)))
    if said == "thinking":
        return [Piece("thinking", text, ts)]
    if said == "assistant":
        return text_pieces(_question(text) if kind == "ask" else text, "assistant", ts)
    if said == "user":
        return text_pieces(text, "user", ts)
    if what in _UI_TOOLS:
        return [Piece("tool", text, ts)]
    return None  # api_req_started, checkpoints, errors, resume prompts, ...


def task_as_text(entries: list[Entry], dropped: Counter[str]) -> None:
    """Cline before ``say: "task"``, Roo Code and Kilo Code write the task, the person's
    first words, as ``say: "text"``, the kind the model's text has. The model speaks only
    once a request has started, so a ``ui_messages.json`` whose first message is a text
    followed by an ``api_req_started`` opens with the person's task. Only a whole document
    (one JSON array) is read so: the first text of a slice may be anyone's."""
    ui = [e for e in entries if e.fmt == "cline" and e.rec.get("type") in ("say", "ask")]
    if len(ui) < 2 or ui[0].rec.get("say") != "text" or ui[0].rec_no != ui[-1].rec_no:
        return
    if not any(e.rec.get("say") == "api_req_started" for e in ui[1:]):
        return
    for piece in ui[0].pieces or ():
        if piece.kind == "assistant":
            piece.kind = "user"


def _question(text: str) -> str:
    """A follow-up question is written as JSON ``{question, options}``."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    question = value.get("question", value.get("response")) if isinstance(value, dict) else None
    return question if isinstance(question, str) else text


CLINE_UI = Format(
    name="cline",
    agents="Cline, Roo Code (the chat view's messages)",
    where="VS Code globalStorage/<extension>/tasks/<id>/ui_messages.json",
    matches=_is_ui_message,
    read=read_ui,
)
