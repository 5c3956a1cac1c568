"""Gemini API documents a script saved: a ``generateContent`` request or response.

A request is ``{"contents": [Content, ...], "systemInstruction": Content, ...}`` (the REST
API also spells it ``system_instruction``), a ``Content`` being ``{"role": "user"|"model",
"parts": [...]}`` (the role may be left out of a one-turn request); a response is
``{"candidates": [{"content": Content, "finishReason"}], "usageMetadata"}``, the first
candidate the reply (the others are alternatives to it). The contents are read as Gemini
CLI's checkpoints are, which hold the same ``Content`` records.
"""

from __future__ import annotations

from typing import Any

from memcli.transcripts.formats.gemini import read_content
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_list


def _is_content(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("parts"), list)


def _matches(rec: Record) -> bool:
    if "role" in rec or "type" in rec:
        return False
    contents = rec.get("contents")
    if isinstance(contents, list) and contents:
        return all(map(_is_content, contents))
    candidates = rec.get("candidates")
    return (isinstance(candidates, list) and bool(candidates)
            and isinstance(candidates[0], dict) and _is_content(candidates[0].get("content")))


def read(rec: Record) -> list[Piece]:
    pieces: list[Piece] = []
    system = get_dict(rec, "systemInstruction") or get_dict(rec, "system_instruction")
    if system is not None:
        for piece in read_content({"parts": get_list(system, "parts"), "role": "user"}) or ():
            piece.injected, piece.reason = True, "system prompt"
            pieces.append(piece)
    for content in get_list(rec, "contents"):
        if _is_content(content):
            pieces += read_content({"role": "user", **content, "parts": content["parts"]}) or []
    candidates = get_list(rec, "candidates")
    first = get_dict(candidates[0], "content") if candidates and isinstance(
        candidates[0], dict) else None
    if first is not None:
        pieces += read_content({**first, "role": "model", "parts": get_list(first, "parts")}) or []
    return pieces


GEMINI_API = Format(
    name="gemini",
    agents="Gemini API generateContent requests and responses",
    where="wherever a script saved them",
    matches=_matches,
    read=read,
)
