"""Whole OpenAI API documents a script saved: a Chat Completions response, and a Responses
API request or response.

A Chat Completions request (``{"model", "messages": [...]}``) is read as its messages, like
any message list. A response is ``{"object": "chat.completion", "choices": [{"message":
...}]}``: the first choice is the reply (the others are alternatives to it). A Responses
request is ``{"model", "instructions", "input"}``, ``input`` a string (what the person
asked) or a list of items; a response is ``{"object": "response", "output": [...]}``.
Items are messages (``{role, content}``, typed ``message`` or not) or the typed items
Codex rollouts hold too (``function_call``, ``function_call_output``, ``reasoning``).
"""

from __future__ import annotations

from typing import Any

from memcli.transcripts.content import text_pieces
from memcli.transcripts.formats.codex import response_item
from memcli.transcripts.formats.roles import read_role_message
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_list, get_str

# --- Chat Completions response -----------------------------------------------------------------


def _is_chat_response(rec: Record) -> bool:
    choices = rec.get("choices")
    if "role" in rec or not isinstance(choices, list) or not choices:
        return False
    first = choices[0]
    return isinstance(first, dict) and isinstance(first.get("message"), dict) and (
        rec.get("object", "chat.completion") == "chat.completion"
    )


def read_chat_response(rec: Record) -> list[Piece] | None:
    first = get_list(rec, "choices")[0]
    message = get_dict(first, "message") or {}
    # the choice is the model's reply whatever role its message claims: a "user" there must
    # never become the person's words
    return read_role_message({**message, "role": "assistant"})


CHAT_RESPONSE = Format(
    name="openai",
    agents="OpenAI Chat Completions responses ({\"choices\": [...]})",
    where="wherever a script saved them",
    matches=_is_chat_response,
    read=read_chat_response,
)

# --- Responses API -----------------------------------------------------------------------------


def _is_responses_document(rec: Record) -> bool:
    if "role" in rec or "messages" in rec:
        return False
    if rec.get("object") == "response":
        return isinstance(rec.get("output"), list)
    given = rec.get("input")
    return isinstance(rec.get("model"), str) and "type" not in rec and (
        isinstance(given, str) or (isinstance(given, list) and all(map(_is_item, given)))
    )


def _is_item(value: Any) -> bool:
    return isinstance(value, dict) and ("role" in value or isinstance(value.get("type"), str))


def read_responses_document(rec: Record) -> list[Piece]:
    pieces: list[Piece] = []
    instructions = get_str(rec, "instructions")
    if instructions:
        pieces += text_pieces(instructions, "user", None, True, "system prompt")
    given = rec.get("input")
    if isinstance(given, str):
        pieces += text_pieces(given, "user", None)
    for item in [*get_list(rec, "input"), *get_list(rec, "output")]:
        if isinstance(item, dict):
            pieces += _item_pieces(item)
    return pieces


def _item_pieces(item: Record) -> list[Piece]:
    if "role" in item:
        return read_role_message(item) or []
    return response_item(item, None) or []


RESPONSES = Format(
    name="openai",
    agents="OpenAI Responses API requests and responses ({\"input\": ...}, {\"output\": [...]})",
    where="wherever a script saved them",
    matches=_is_responses_document,
    read=read_responses_document,
)
