"""ShareGPT conversations: ``{"conversations": [{"from": "human", "value": "..."}, ...]}``.

The shape of the ShareGPT dumps and of the chat data sets built on them (Vicuna, LLaMA
Factory's ``sharegpt`` format, Axolotl): a row a line, or a JSON array of rows, each with an
optional ``system`` prompt. ``from`` is ``human``/``gpt`` (also ``user``, ``assistant``,
``system``, and ``function_call``/``observation`` for tool traffic).
"""

from __future__ import annotations

from typing import Any

from memcli.messages import Role
from memcli.transcripts.content import text_pieces
from memcli.transcripts.formats.roles import read_role_message
from memcli.transcripts.model import Format, Piece, Record, get_list, get_str

_SPEAKERS: dict[str, Role] = {
    "human": "user",
    "user": "user",
    "gpt": "assistant",
    "assistant": "assistant",
    "chatgpt": "assistant",
    "bard": "assistant",
    "bing": "assistant",
    "model": "assistant",
    "function_call": "tool",
    "observation": "tool",
    "function": "tool",
    "tool": "tool",
}


def _is_turn(value: Any) -> bool:
    return isinstance(value, dict) and "value" in value and (
        get_str(value, "from") in _SPEAKERS or value.get("from") == "system"
    )


def _is_row(rec: Record) -> bool:
    turns = rec.get("conversations")
    if "role" in rec or not isinstance(turns, list) or not turns:
        return False
    return all(_is_turn(t) or (isinstance(t, dict) and "role" in t) for t in turns)


def read_row(rec: Record) -> list[Piece]:
    pieces: list[Piece] = []
    system = get_str(rec, "system")
    if system:
        pieces += text_pieces(system, "user", None, True, "system prompt")
    for turn in get_list(rec, "conversations"):
        if isinstance(turn, dict):
            pieces += (read_turn(turn) if "from" in turn else read_role_message(turn)) or []
    return pieces


def read_turn(turn: Record) -> list[Piece] | None:
    speaker = turn.get("from")
    text = turn.get("value")
    if not isinstance(text, str):
        return None
    if speaker == "system":
        return text_pieces(text, "user", None, True, "system prompt")
    kind = _SPEAKERS.get(str(speaker))
    return text_pieces(text, kind, None) if kind is not None else None


SHAREGPT = Format(
    name="sharegpt",
    agents="ShareGPT conversations and the chat data sets written like them",
    where="wherever the data set keeps them (a row a line, or a JSON array of rows)",
    matches=_is_row,
    read=read_row,
)
# a turn on its own (a bare array of turns)
SHAREGPT_TURN = Format(
    name="sharegpt",
    agents="ShareGPT turns",
    where="a JSON array of {from, value}",
    matches=_is_turn,
    read=read_turn,
)
