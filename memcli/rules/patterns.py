"""Regular expressions compiled on first use.

The rules extractor holds about 130 patterns. Compiling them all at import costs some 25 ms
on every `memcli extract`, most of it for patterns a short turn never reaches (a message
without a link never needs the reference patterns), so each compiles when first used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any


class LazyPattern:
    """A stand-in for ``re.compile(pattern, flags)`` that compiles on the first call."""

    __slots__ = ("_compiled", "flags", "needs", "pattern")

    def __init__(self, pattern: str, flags: int = 0, needs: tuple[str, ...] = ()) -> None:
        self.pattern = pattern
        self.flags = flags
        # Words one of which every match holds (lower case): a text without any of them is
        # answered at once, and the pattern is not compiled for it.
        self.needs = needs
        self._compiled: re.Pattern[str] | None = None

    def _hopeless(self, text: str) -> bool:
        if not self.needs:
            return False
        folded = _casefold(text)
        return not any(word in folded for word in self.needs)

    def possible(self, text: str) -> bool:
        """Whether a match may start anywhere in ``text``: the ``needs`` check, asked once
        for a loop that then calls :meth:`match_at` at many of its positions."""
        return not self._hopeless(text)

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return None if self._hopeless(text[pos:] if pos else text) else self.compiled.match(
            text, pos)

    def match_at(self, text: str, pos: int) -> re.Match[str] | None:
        """``match`` without the ``needs`` check, for a loop that matches at many positions
        of one text: the check reads the rest of the text each time. A pattern with "^"
        only matches at 0 here."""
        return self.compiled.match(text, pos)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return None if self._hopeless(text) else self.compiled.fullmatch(text)

    def search(self, text: str) -> re.Match[str] | None:
        return None if self._hopeless(text) else self.compiled.search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return iter(()) if self._hopeless(text) else self.compiled.finditer(text)

    def split(self, text: str) -> list[Any]:
        return [text] if self._hopeless(text) else self.compiled.split(text)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return text if self._hopeless(text) else self.compiled.sub(repl, text, count=count)


# The last text folded, and its fold: the stages try pattern after pattern on one clause, and
# folding it anew for each was a fifth of the extractor's time on a long session.
_last_fold = ("", "")


def _casefold(text: str) -> str:
    global _last_fold
    if _last_fold[0] != text:
        _last_fold = (text, text.casefold())
    return _last_fold[1]


def lazy(pattern: str, flags: int = 0, needs: tuple[str, ...] = ()) -> LazyPattern:
    return LazyPattern(pattern, flags, needs)


DIGITS = tuple("0123456789")

# Words that point at something said before or at the moment ("pin it", "don't push yet"):
# a statement holding one names one thing of the work at hand, not a kind of thing.
POINTER_WORDS = ("this", "that", "it", "these", "those", "them", "now", "yet")
# ... and words that tie a statement to the day ("not today", "not anymore").
MOMENT_WORDS = ("today", "anymore")


def any_word(words: tuple[str, ...]) -> str:
    """One of ``words``, as a whole word."""
    return r"\b(?:" + "|".join(words) + r")\b"

# Verbs people put after "always"/"never" when they give an agent an instruction. ", never
# use emojis" starts a second instruction; ", never next to the tests" or ", never written
# by hand" only says where or how not, and belongs to the statement before the comma.
INSTRUCTION_VERBS = (
    r"(?:use|run|commit|push|merge|deploy|write|put|keep|add|squash|rebase|test|lint|format|"
    r"review|tag|release|pin|prefix|name|store|log|import|document|avoid|prefer|require|vendor|"
    r"ship|target|support|check|update|bump|sign|open|create|follow|indent|declare|annotate|"
    r"edit|touch|modify|change|delete|remove|rename|install|upgrade|downgrade|hardcode|print|"
    r"call|catch|swallow|ignore|skip|disable|enable|mock|expose|leave|reply|answer|respond|"
    r"explain|apologi[sz]e|ask|assume|guess|start|stop|kill|restart|reformat|rewrite|generate|"
    r"regenerate|mix|return|raise|throw|block|wait|sleep|load|read|send|save|cache|fetch|pull|"
    r"force|amend|include|exclude|wrap|split|move|copy|inline|export|mention|say|tell|end|"
    r"begin|close|clean|drop|trust|rely|depend|make|do|give|take|show|hide|translate|"
    r"summari[sz]e|introduce|bypass|override|set|link|mark|comment|publish|pass|go|let|get|"
    r"type|type-check|refactor|optimi[sz]e)")

# Optional white space before a delimiter, matched only from the start of its run. A plain
# ``\s*`` is tried again from every space of a run by ``search``, ``split`` and ``sub``:
# quadratic in the run's length. A match never needs to start inside a run (it could start
# one space earlier), and where ``split`` searches on after a delimiter, that delimiter has
# taken the white space after it, so no match is lost.
LEAD_SPACE = r"(?:(?<!\s)\s++)?"
# ``.+?`` before a part that starts with optional white space (", because…", " unless…"):
# the shortest text, which ends in white space only when it is one character (a longer one
# could have been one shorter, the white space going to the part after it). Without the
# (?<!\s), that part was tried again from each space of a long run: quadratic in the run.
SHORTEST_TEXT = r"[^\S\n]|.+?(?<!\s)"
