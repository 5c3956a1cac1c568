"""Gemini CLI's ``/chat share FILE.md``: the conversation as Markdown.

``serializeHistoryToMarkdown`` (gemini-cli ``packages/cli``) writes each ``Content`` as a
heading and its parts, the entries joined by ``---`` rules. The heading has been
``**user**:``, then ``🧑‍💻 ## USER``, now ``## USER 🧑‍💻`` (``MODEL ✨`` for the model); a
function call or response is ``**Tool Command**:`` or ``**Tool Response**:`` and the part as
a JSON block. The entries are turned back into ``Content`` records, which the ``gemini``
format reads as it reads a ``/chat save`` checkpoint.
"""

from __future__ import annotations

import json
import re
from typing import Any

from memcli import compiled_regex as rx
from memcli.transcripts.formats.gemini import GEMINI
from memcli.transcripts.model import Record, TextFormat

_HEADING = (
    r"(?:## (?P<a>USER|MODEL) [^\n#*]{1,8}|[^\n#*]{1,8} ## (?P<b>USER|MODEL)"
    r"|\*\*(?P<c>user|model)\*\*:)[ \t]*\r?\n"
)
_FIRST = rx.compile(r"\s*" + _HEADING)
_NEXT = rx.compile(r"\r?\n\r?\n---\r?\n\r?\n" + _HEADING)
_TOOL = rx.compile(r"\*\*Tool (Command|Response)\*\*:\r?\n```json\r?\n(.*?)\r?\n```", re.S)
_PART_KEY = {"Command": "functionCall", "Response": "functionResponse"}


def claims(text: str) -> bool:
    """Whether ``text`` opens with one of the headings ``/chat share`` writes."""
    return _FIRST.match(text[:200]) is not None


def records(text: str) -> list[Record]:
    first = _FIRST.match(text)
    if first is None:
        return []
    headings = [first, *_NEXT.finditer(text, first.end())]
    found: list[Record] = []
    for k, heading in enumerate(headings):
        end = headings[k + 1].start() if k + 1 < len(headings) else len(text)
        role = (heading.group("a") or heading.group("b") or heading.group("c") or "").lower()
        found.append({"role": role, "parts": _parts(text[heading.end():end].strip())})
    return found


def _parts(body: str) -> list[Any]:
    """The entry's text and its function calls and responses, in order."""
    parts: list[Any] = []
    last = 0
    for block in _TOOL.finditer(body):
        if body[last:block.start()].strip():
            parts.append({"text": body[last:block.start()]})
        try:
            value = json.loads(block.group(2))
        except ValueError:
            value = None
        key = _PART_KEY[block.group(1)]
        parts.append({key: value} if isinstance(value, dict) else {"text": block.group(0)})
        last = block.end()
    if body[last:].strip():
        parts.append({"text": body[last:]})
    return parts


GEMINI_SHARE_TEXT = TextFormat(GEMINI, claims, records)
