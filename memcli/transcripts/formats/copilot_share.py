"""GitHub Copilot CLI's ``--share`` / ``/share`` file: the session as Markdown.

``copilot -p PROMPT --share[=PATH]`` writes it after a run (``copilot-session-<id>.md``),
``/share file`` from a session:

    # 🤖 Copilot CLI Session

    > **Session ID:** `<id>`
    > **Started:** ...

    <sub>⏱️ 1s</sub>

    ### 👤 User

    <what the person typed>

    ---

    <sub>⏱️ 7s</sub>

    ### 💬 Copilot

    <the reply>

Tool calls are ``### ✅ `<tool>``` (``❌`` when they failed) with their arguments and output
in ``<details>`` blocks, the CLI's notices ``### ℹ️ Info`` and the like. An entry opens at a
``### <emoji> <label>`` heading outside a code block (tool output holds headings and rules
of its own, inside its fences); its closing ``---`` rule is not part of it.
"""

from __future__ import annotations

from memcli import compiled_regex as rx
from memcli.messages import Role
from memcli.transcripts.content import text_pieces
from memcli.transcripts.model import Format, Piece, Record, TextFormat

_TITLE = rx.compile(r"\A\s*# 🤖 Copilot CLI Session[ \t]*\r?\n")
# the mark is an emoji: a reply's own "### Setup" heading is not an entry
_HEADING = rx.compile(r"^### (?P<mark>[^\x00-\x7f\s]+)[ \t]+(?P<label>[^\r\n]*?)[ \t]*\r?$")
_FENCE = rx.compile(r"^[ \t]*(`{3,}|~{3,})")
_STAMP = rx.compile(r"^<sub>⏱️[^<]*</sub>[ \t]*\r?$")
_SPEAKERS: dict[str, Role] = {"👤": "user", "💬": "assistant"}
_KEY = "copilot-share"  # synthetic records only: no agent writes this key


def claims(text: str) -> bool:
    return _TITLE.match(text[:200]) is not None


def records(text: str) -> list[Record]:
    """The header, then one record per entry: ``{KEY: mark, "label", "text"}``."""
    found: list[Record] = [{_KEY: "header", "label": "", "text": ""}]
    body: list[str] = []
    fence: str | None = None
    before = ""  # the last line that was not blank
    for line in text.split("\n"):
        fence = _fence_after(line, fence)
        heading = _HEADING.match(line) if fence is None and _opens(before) else None
        if line.strip():
            before = line.strip()
        if heading is not None:
            _close(found, body)
            found.append({_KEY: heading.group("mark"), "label": heading.group("label"),
                          "text": ""})
            body = []
        elif len(found) > 1:
            body.append(line)
    _close(found, body)
    return found


def _fence_after(line: str, fence: str | None) -> str | None:
    """The code fence open after ``line`` (None: outside any)."""
    opened = _FENCE.match(line)
    if opened is None:
        return fence
    marker = opened.group(1)
    if fence is None:
        return marker
    return None if marker.startswith(fence) else fence


def _opens(before: str) -> bool:
    """Whether an entry may start after this line: its time stamp, the rule that ends the
    entry before it, or the header's last line."""
    return _STAMP.match(before) is not None or before == "---" or before.startswith(">")


def _close(found: list[Record], body: list[str]) -> None:
    """The entry's text, without the rule that ends it and the next entry's time stamp."""
    while body and (not body[-1].strip() or body[-1].strip() == "---"
                    or _STAMP.match(body[-1])):
        body.pop()
    if len(found) > 1 and not found[-1]["text"]:
        found[-1]["text"] = "\n".join(body).strip()


def read(rec: Record) -> list[Piece] | None:
    mark, text = rec.get(_KEY), rec.get("text")
    if not isinstance(mark, str) or not isinstance(text, str) or mark == "header":
        return None
    role = _SPEAKERS.get(mark)
    if role is not None:
        return text_pieces(text, role, None)
    label = str(rec.get("label") or "")
    if mark in ("✅", "❌"):
        return [Piece("tool", f"[{label.strip('`')}] {text}".rstrip(), None)]
    # ℹ️ Info, ⚠️ Warning and other notices of the CLI's own
    return [Piece("user", f"{label}: {text}" if text else label, None, True, "injected")]


COPILOT_SHARE = Format(
    name="copilot-share",
    agents="GitHub Copilot CLI (copilot -p ... --share, /share file)",
    where="copilot-session-<id>.md, or the path given to --share",
    matches=lambda rec: False,  # the text is recognised whole, by `claims`
    read=read,
    accepts=lambda rec: isinstance(rec.get(_KEY), str),
)
COPILOT_SHARE_TEXT = TextFormat(COPILOT_SHARE, claims, records)
