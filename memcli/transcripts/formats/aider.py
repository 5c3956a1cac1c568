"""Aider: ``.aider.chat.history.md``, the Markdown log Aider appends to in the repository.

Aider writes (``aider/io.py``) ``# aider chat started at <time>`` when it starts, each line
the person typed as ``#### <line>``, its own notices, questions and answers as ``> <line>``,
and the model's reply as it is, between blank lines. A typed line and a notice always end
with two spaces (a Markdown line break), which tells them from a heading or a quote in a
reply. The text is cut into one record per block, read like any other format's records.
"""

from __future__ import annotations

import re
from typing import Any

from memcli import compiled_regex as rx
from memcli.transcripts.content import text_pieces
from memcli.transcripts.model import Format, Piece, Record, TextFormat

HEADER = "# aider chat started at "
# Commands whose argument is a message to the model; every other command is Aider's own.
_MESSAGE_COMMANDS = rx.compile(r"/(?:ask|code|architect|context|chat-mode \w+)\s+", re.I)
_BLANK = rx.compile(r"\s*")
_KEY = "aider"  # synthetic records only: no agent writes this key


def claims(text: str) -> bool:
    """Whether ``text`` is an Aider chat history: it opens with Aider's header (a history
    is appended to from its first session on) or holds one and is not JSON."""
    blank = _BLANK.match(text)
    start = blank.end() if blank else 0
    head = text[start:start + 64]  # not text.lstrip(): that copies a whole log
    if head.startswith(HEADER):
        return True
    return not head.startswith(("{", "[")) and ("\n" + HEADER) in text


def records(text: str) -> list[Record]:
    """The history's blocks, in order: session headers, typed input, notices, replies."""
    blocks: list[Record] = []
    kind, lines = "", list[str]()  # the block being read
    for raw in text.split("\n"):
        line = raw.removesuffix("\r")
        line_kind = _kind_of(line)
        if line_kind == "header":
            _close(blocks, kind, lines)
            blocks.append({_KEY: "header", "text": line[len(HEADER):].strip()})
            kind, lines = "", []
        elif line_kind == "reply" and not line.strip():
            if kind == "reply":
                lines.append(line)  # a blank line inside a reply
            else:
                _close(blocks, kind, lines)  # typed lines and notices are contiguous
                kind, lines = "", []
        else:
            if line_kind != kind:
                _close(blocks, kind, lines)
                kind, lines = line_kind, []
            lines.append(_content(line, line_kind))
    _close(blocks, kind, lines)
    return blocks


def _kind_of(line: str) -> str:
    if line.startswith(HEADER):
        return "header"
    if line.endswith("  ") and (line.startswith("#### ") or line.rstrip() == "####"):
        return "typed"
    if line.endswith("  ") and (line.startswith("> ") or line.rstrip() == ">"):
        return "notice"
    return "reply"


def _content(line: str, kind: str) -> str:
    if kind in ("typed", "notice"):
        return line[5 if kind == "typed" else 2:].rstrip()
    return line


def _close(blocks: list[Record], kind: str, lines: list[str]) -> None:
    text = "\n".join(lines).strip()
    if kind and text and text != "<blank>":
        blocks.append({_KEY: kind, "text": text})


def read(rec: Record) -> list[Piece] | None:
    kind, text = rec.get(_KEY), rec.get("text")
    if not isinstance(text, str):
        return None
    if kind == "typed":
        return _typed(text)
    if kind == "reply":
        return text_pieces(text, "assistant", None)
    if kind == "notice":
        return [Piece("tool", text, None)]
    return None  # a session header


def _typed(text: str) -> list[Piece]:
    if text.startswith("!"):
        return [Piece("user", text, None, True, "shell escape")]
    if not text.startswith("/"):
        return text_pieces(text, "user", None)
    message = _MESSAGE_COMMANDS.match(text)
    if message is None:
        return [Piece("user", text, None, True, "slash command")]
    return [Piece("user", text[: message.end()], None, True, "slash command"),
            *text_pieces(text[message.end():], "user", None)]


def _is_record(rec: Any) -> bool:
    return isinstance(rec, dict) and isinstance(rec.get(_KEY), str)


AIDER = Format(
    name="aider",
    agents="Aider",
    where="<repository>/.aider.chat.history.md (a Markdown file, not JSON)",
    matches=lambda rec: False,  # the text is recognised whole, by `claims`
    read=read,
    accepts=_is_record,
)
AIDER_TEXT = TextFormat(AIDER, claims, records)
