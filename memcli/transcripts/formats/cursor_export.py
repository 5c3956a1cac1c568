"""Cursor's "Export Chat": a Markdown file of the conversation (the IDE keeps its chats in an
SQLite database memcli does not open).

    # <title>
    _Exported on <date> at <time> <zone> from Cursor (<version>)_

    ---

    **User**

    <what the person typed>

    ---

    **Cursor**

    <the reply>

Each speaker opens after a ``---`` rule, on a line of its own; a rule inside a reply is not
followed by a speaker's line, so it stays in the reply.
"""

from __future__ import annotations

import re

from memcli import compiled_regex as rx
from memcli.messages import Role
from memcli.transcripts.content import text_pieces
from memcli.transcripts.model import Format, Piece, Record, TextFormat

_STAMP = rx.compile(r"^_Exported on .{1,80} from Cursor \([\w.\-]{1,40}\)_[ \t]*\r?$", re.M)
_SPEAKER = rx.compile(r"^---[ \t]*\r?\n(?:[ \t]*\r?\n)*\*\*(User|Cursor)\*\*[ \t]*\r?$", re.M)
_ROLES: dict[str, Role] = {"User": "user", "Cursor": "assistant"}
_KEY = "cursor-export"  # synthetic records only: no agent writes this key


def claims(text: str) -> bool:
    """Whether ``text`` opens with an export's title and stamp."""
    head = text[:2000]
    return head.lstrip().startswith("# ") and _STAMP.search(head) is not None


def records(text: str) -> list[Record]:
    """The title, then one record per speaker's turn."""
    speakers = list(_SPEAKER.finditer(text))
    stamp = _STAMP.search(text[:2000])
    found: list[Record] = [{_KEY: "header", "text": stamp.group(0).strip() if stamp else ""}]
    for k, match in enumerate(speakers):
        end = speakers[k + 1].start() if k + 1 < len(speakers) else len(text)
        said = text[match.end():end].strip()
        if said:
            found.append({_KEY: match.group(1), "text": said})
    return found


def read(rec: Record) -> list[Piece] | None:
    role = _ROLES.get(str(rec.get(_KEY)))
    text = rec.get("text")
    if role is None or not isinstance(text, str):
        return None  # the title and stamp
    return text_pieces(text, role, None)


CURSOR_EXPORT = Format(
    name="cursor-export",
    agents="Cursor (the IDE's Export Chat)",
    where="wherever the export was saved (a Markdown file, not JSON)",
    matches=lambda rec: False,  # the text is recognised whole, by `claims`
    read=read,
    accepts=lambda rec: isinstance(rec.get(_KEY), str),
)
CURSOR_EXPORT_TEXT = TextFormat(CURSOR_EXPORT, claims, records)
