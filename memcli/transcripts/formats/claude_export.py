"""Claude Code's ``/export``: the conversation as the terminal drew it, in plain text.

    ╭───────────────────────────────────────────────────╮
    │ ✻ Welcome to Claude Code!                         │
    │   cwd: /work/shop                                 │
    ╰───────────────────────────────────────────────────╯

    > what the person typed, wrapped at the terminal's
      width, the rest of it indented

    ⏺ The reply, indented the same way.

    ⏺ Bash(npm test)
      ⎿  the tool's output

A prompt opens with ``>`` (``❯`` in newer versions), a reply or a tool call with ``⏺``
(``●`` where the terminal's font lacks it), a tool's output with ``⎿``. A line the terminal
wrapped ends with a space, and is joined to the next; other line breaks are kept.
"""

from __future__ import annotations

import re

from memcli import compiled_regex as rx
from memcli.messages import Role
from memcli.transcripts.content import text_pieces
from memcli.transcripts.model import Format, Piece, Record, TextFormat

# the welcome box: "│ ✻ Welcome to Claude Code!" (1.x), "╭─── Claude Code v2.0.14 ───╮" (2.x)
_WELCOME = rx.compile(r"^(?:[│|] ✻ Welcome to Claude|╭─+ Claude Code v\d)", re.M)
_PROMPT = rx.compile(r"^[>❯] ")
_REPLY = rx.compile(r"^[⏺●] ")
_OUTPUT = rx.compile(r"^ {1,6}⎿ {1,2}")
# ⏺ Bash(npm test), ⏺ Read(src/a.py), ⏺ mcp__github__get_issue(...), ⏺ Update Todos
_CALL = rx.compile(r"^(?:[A-Z]\w*|mcp__\w+)\(.*\)?$|^Update Todos$", re.S)
_KEY = "claude-export"  # synthetic records only: no agent writes this key


def claims(text: str) -> bool:
    """The welcome box, or prompts beside ``⏺`` replies and ``⎿`` tool output."""
    head = text[:20000]
    if _WELCOME.search(head[:3000]):
        return True
    lines = head.split("\n")
    return (any(_PROMPT.match(line) for line in lines)
            and any(line.startswith("⏺ ") for line in lines)
            and any(_OUTPUT.match(line) for line in lines))


def records(text: str) -> list[Record]:
    """The header, then one record per block: a prompt, a reply, a tool call, an output."""
    found: list[Record] = [{_KEY: "header", "text": ""}]
    lines: list[str] = []
    kind = "header"
    for line in text.replace("\r\n", "\n").split("\n"):
        opened = _opening(line)
        if opened is None:
            if line.strip() and not line.startswith("  "):
                # the UI's own lines ("✻ Thinking…", " ※ Tip: ...", the box) end a block
                _add(found, kind, lines)
                kind, lines = "header", []
            elif kind != "header":
                lines.append(line)
            continue
        _add(found, kind, lines)
        kind, first = opened
        lines = [first]
    _add(found, kind, lines)
    return found


def _opening(line: str) -> tuple[str, str] | None:
    """The kind of block ``line`` opens and its first line's text, or None."""
    if _PROMPT.match(line):
        return "user", line[2:]
    if _REPLY.match(line):
        rest = line[2:]
        return ("call" if _CALL.match(rest.strip()) else "assistant"), rest
    output = _OUTPUT.match(line)
    if output is not None:
        return "output", line[output.end():]
    if line.startswith("✻ Thinking"):
        return "thinking", ""  # the thoughts follow, indented
    return None


def _add(found: list[Record], kind: str, lines: list[str]) -> None:
    if kind == "header":
        return
    text = _unwrapped(lines)
    if kind == "output" and found[-1][_KEY] == "user":
        # what a slash command or a shell escape printed
        kind = "shell output" if str(found[-1]["text"]).startswith("!") else "command output"
    if text:
        found.append({_KEY: kind, "text": text})


def _unwrapped(lines: list[str]) -> str:
    """The block's text: its indentation removed, lines the terminal wrapped joined."""
    out: list[str] = []
    for k, line in enumerate(lines):
        body = line[2:] if k and line.startswith("  ") else line
        if k and out and out[-1].endswith(" ") and body.strip():
            out[-1] += body.lstrip()
        else:
            out.append(body)
    return "\n".join(part.rstrip() for part in out).strip()


_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}


def read(rec: Record) -> list[Piece] | None:
    kind, text = rec.get(_KEY), rec.get("text")
    if not isinstance(text, str) or kind == "header":
        return None
    if kind == "thinking":
        return [Piece("thinking", text, None)]
    if kind in ("command output", "shell output"):
        reason = "slash command" if kind == "command output" else "shell escape"
        return [Piece("user", text, None, True, reason)]
    role = _ROLES.get(str(kind))
    if role is None:
        return [Piece("tool", text, None)]  # a tool call or its output
    if role == "user" and text.startswith(("/", "!")):
        reason = "slash command" if text.startswith("/") else "shell escape"
        return [Piece("user", text, None, True, reason)]
    return text_pieces(text, role, None)


CLAUDE_EXPORT = Format(
    name="claude-export",
    agents="Claude Code's /export (the conversation as text)",
    where="the file /export wrote (.txt), or what it copied to the clipboard",
    matches=lambda rec: False,  # the text is recognised whole, by `claims`
    read=read,
    accepts=lambda rec: isinstance(rec.get(_KEY), str),
)
CLAUDE_EXPORT_TEXT = TextFormat(CLAUDE_EXPORT, claims, records)
