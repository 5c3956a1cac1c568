"""Regular expressions compiled on first use.

The rules extractor holds about 130 patterns. Compiling them all at import costs some 25 ms
on every `memcli extract`, most of it for patterns a short turn never reaches (a message
without a link never needs the reference patterns), so each compiles when first used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from memcli import compiled_regex


class LazyPattern:
    """A stand-in for ``re.compile(pattern, flags)`` that compiles on the first call."""

    __slots__ = ("_compiled", "_mask", "_needs", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0, needs: tuple[str, ...] = ()) -> None:
        self.pattern = pattern
        self.flags = flags
        self.needs = needs
        self._compiled: re.Pattern[str] | None = None

    @property
    def needs(self) -> tuple[str, ...]:
        """Words one of which every match holds (lower case): a text without any of them is
        answered at once, and the pattern is not compiled for it."""
        return self._needs

    @needs.setter
    def needs(self, words: tuple[str, ...]) -> None:
        self._needs = words
        _NEEDED.generation += 1
        # An empty word is in every text: such a pattern is never hopeless.
        self._mask = 0 if "" in words else _NEEDED.bits(words)

    def _hopeless(self, text: str) -> bool:
        mask = self._mask
        return bool(mask) and not mask & (_SEEN.get(text) or _NEEDED.present(text))

    def _compile(self) -> re.Pattern[str]:
        self._compiled = compiled_regex.compile(self.pattern, self.flags)
        return self._compiled

    def possible(self, text: str) -> bool:
        """Whether a match may start anywhere in ``text``: the ``needs`` check, asked once
        for a loop that then calls :meth:`match_at` at many of its positions."""
        return not self._hopeless(text)

    @property
    def mask(self) -> int:
        """The bits of the ``needs`` words (0: none needed). ``mask & words_in(text)`` is
        :meth:`possible` for a pattern with needed words, for a stage that asks it of
        several patterns about one text."""
        return self._mask

    @property
    def compiled(self) -> re.Pattern[str]:
        return self._compiled or self._compile()

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return None if self._hopeless(text[pos:] if pos else text) else self.compiled.match(
            text, pos)

    def match_at(self, text: str, pos: int) -> re.Match[str] | None:
        """``match`` without the ``needs`` check, for a loop that matches at many positions
        of one text: the check reads the rest of the text each time. A pattern with "^"
        only matches at 0 here."""
        return self.compiled.match(text, pos)

    # fullmatch and search written out: the stages call them a hundred times a clause.
    def fullmatch(self, text: str) -> re.Match[str] | None:
        mask = self._mask
        if mask and not mask & (_SEEN.get(text) or _NEEDED.present(text)):
            return None
        return (self._compiled or self._compile()).fullmatch(text)

    def search(self, text: str) -> re.Match[str] | None:
        mask = self._mask
        if mask and not mask & (_SEEN.get(text) or _NEEDED.present(text)):
            return None
        return (self._compiled or self._compile()).search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return iter(()) if self._hopeless(text) else self.compiled.finditer(text)

    def split(self, text: str) -> list[Any]:
        return [text] if self._hopeless(text) else self.compiled.split(text)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return text if self._hopeless(text) else self.compiled.sub(repl, text, count=count)


class _NeededWords:
    """Every pattern's ``needs`` words, found in a text by one scan of it.

    The stages try pattern after pattern on one clause; each asked whether its own words were
    in the folded clause, one ``in`` at a time, and on a long prose session that was a third
    of the extractor's time. Now each word has a bit, each pattern the bits of its words, and
    one Aho-Corasick pass over the folded clause gives the bits of the words it holds
    (``word in folded`` for every word at once), kept for the next pattern asking about the
    same text. The automaton is built on first use and again after words were added.
    """

    def __init__(self) -> None:
        self.words: dict[str, int] = {}
        self._automaton: Any = None
        self._bits: list[int] = []
        self.seen: dict[str, int] = {}  # the texts asked about lately, and their bits
        self.generation = 0  # moves whenever a pattern's needs are set

    def bits(self, words: tuple[str, ...]) -> int:
        mask = 0
        for word in words:
            if word not in self.words:
                self.words[word] = len(self.words)
                self._automaton = None
                self.seen.clear()
            mask |= 1 << self.words[word]
        return mask

    def present(self, text: str) -> int:
        """The bits of the words ``text`` holds. A clause is asked about by pattern after
        pattern, and so are its parts (a pattern's groups, the clause before its reason): the
        last few texts' bits are kept."""
        found = self.seen.get(text)
        if found is None:
            if len(self.seen) >= _SEEN_TEXTS:
                self.seen.clear()
            found = self.seen[text] = self._scan(text)
        return found

    def _scan(self, text: str) -> int:
        if self._automaton is None:
            import ahocorasick_rs  # on first use: importing the rules compiles nothing

            self._automaton = ahocorasick_rs.AhoCorasick(list(self.words))
            self._bits = [1 << index for index in range(len(self.words))]
        bits, mask = self._bits, 0
        for index, _, _ in self._automaton.find_matches_as_indexes(text.casefold(),
                                                                   overlapping=True):
            mask |= bits[index]
        return mask


def words_in(text: str) -> int:
    """The bits of the needed words ``text`` holds (see :attr:`LazyPattern.mask`)."""
    return _SEEN.get(text) or _NEEDED.present(text)


_SEEN_TEXTS = 32
_NEEDED = _NeededWords()
_SEEN = _NEEDED.seen  # read directly on the hot path (cleared, never replaced)


class PatternGroup:
    """Patterns a stage tries in turn on one text: :meth:`candidates` leaves out, in one
    step, those whose needed words the text lacks (their ``fullmatch`` would be None), so
    a chat sentence does not call a dozen patterns one by one to hear "no" from each."""

    __slots__ = ("_by_bits", "_generation", "_union", "patterns")

    def __init__(self, *patterns: LazyPattern) -> None:
        self.patterns = patterns
        self._by_bits: dict[int, tuple[LazyPattern, ...]] = {}
        self._generation, self._union = -1, 0

    def candidates(self, text: str) -> tuple[LazyPattern, ...]:
        """The patterns that may match ``text``, in their order."""
        if self._generation != _NEEDED.generation:
            self._by_bits.clear()
            self._generation = _NEEDED.generation
            self._union = 0
            for pattern in self.patterns:
                self._union |= pattern._mask
        bits = _NEEDED.present(text) & self._union
        found = self._by_bits.get(bits)
        if found is None:
            found = self._by_bits[bits] = tuple(
                p for p in self.patterns if not p._mask or p._mask & bits)
        return found


def lazy(pattern: str, flags: int = 0, needs: tuple[str, ...] = ()) -> LazyPattern:
    return LazyPattern(pattern, flags, needs)


DIGITS = tuple("0123456789")

# Words that point at something said before or at the moment ("pin it", "don't push yet"):
# a statement holding one names one thing of the work at hand, not a kind of thing.
POINTER_WORDS = ("this", "that", "it", "these", "those", "them", "now", "yet")
# A pointer at the work at hand; "that" only at the end ("didn't do that"), since before it
# it is mostly a relative pronoun ("comments that repeat the code").
POINTER_RE = LazyPattern(r"\b(?:" + "|".join(w for w in POINTER_WORDS if w != "that")
                         + r")\b|\bthat\s*$", re.I)
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
