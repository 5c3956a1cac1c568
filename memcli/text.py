"""Text helpers shared by the reader, the planner, lint and the importers: one home each."""

from __future__ import annotations

import re

MAX_SUMMARY_CHARS = 160
# A full stop ends a sentence when the next word does not start in lower case: `./... before`,
# `e.g. the` and `v1. then` go on.
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s(?!\s*[a-zß-öø-ÿ])|(?<=[。！？])")


def one_line(text: str) -> str:
    """Collapse whitespace so that a value can never break an index line."""
    return " ".join(text.split())


def shorten(text: str, limit: int = MAX_SUMMARY_CHARS) -> str:
    """TEXT cut to LIMIT characters at a word break, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


def clip(text: str, limit: int = 40) -> str:
    """TEXT cut to LIMIT characters wherever it falls: for quoting a value in a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def derive_summary(content: str) -> str:
    """The first sentence of the content, on one line, cut to the summary budget."""
    lines = content.strip().splitlines()
    # A leading Markdown heading names the note; the summary starts with what follows it.
    while len(lines) > 1 and lines[0].lstrip().startswith("#"):
        lines.pop(0)
    text = one_line("\n".join(lines).lstrip("#>*- \t\n"))
    first = _SENTENCE_END.split(text, maxsplit=1)[0].strip()
    return shorten(first or text)
