"""Text helpers shared by the reader, the planner, lint and the importers: one home each."""

from __future__ import annotations

import functools
import re
import unicodedata

MAX_SUMMARY_CHARS = 160
# Titles with more words than this are only compared whole (near-duplicates: extract's and
# lint's).
MAX_NEAR_TOKENS = 12
TITLE_WORD = re.compile(r"[^\W_]+")
_TITLE_STOPWORDS = frozenset(
    ("a", "an", "and", "are", "at", "be", "for", "in", "is", "of", "on", "or", "the", "to", "with",
     "that", "remember", "always", "please", "we", "our", "this", "project", "repo"))


@functools.cache
def _sentence_end() -> re.Pattern[str]:
    # A full stop ends a sentence when the next word does not start in lower case:
    # `./... before`, `e.g. the` and `v1. then` go on. Compiled on first use: only a
    # summary derived from a note's content needs it.
    return re.compile(r"(?<=[.!?。！？])\s(?!\s*[a-zß-öø-ÿ])|(?<=[。！？])")


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
    first = _sentence_end().split(text, maxsplit=1)[0].strip()
    return shorten(first or text)


def normalised(text: str) -> str:
    """Compatibility form, case folded, format characters (zero-width, bidi) dropped and
    every kind of space made one space."""
    if text.isascii():  # NFKC and casefolding change no ASCII letter, and no Cf is ASCII
        return " ".join(text.lower().split())
    text = unicodedata.normalize("NFKC", text).casefold()
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return " ".join(text.split())


def _singular(word: str) -> str:
    if len(word) <= 3 or not word.isascii():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def title_tokens(title: str) -> list[str]:
    """Words of a title that decide whether two titles say the same thing (case, Unicode
    form, punctuation, filler words and plurals set aside)."""
    # An ASCII title's words are those of its lower case (normalised only joins its spaces);
    # only a word ending in "s" can be a plural. The near-duplicate check asks this of
    # thousands of stored titles a turn.
    words = TITLE_WORD.findall(title.lower() if title.isascii() else normalised(title))
    kept = [w for w in words if w not in _TITLE_STOPWORDS] or words
    return [_singular(w) if w[-1] == "s" else w for w in kept]
