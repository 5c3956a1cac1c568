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
        folded = text.casefold()
        return not any(word in folded for word in self.needs)

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return None if self._hopeless(text[pos:]) else self.compiled.match(text, pos)

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


def lazy(pattern: str, flags: int = 0, needs: tuple[str, ...] = ()) -> LazyPattern:
    return LazyPattern(pattern, flags, needs)


DIGITS = tuple("0123456789")
