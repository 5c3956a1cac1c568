"""The stored notes a statement is matched against, searched in one pass.

Matching a statement against a store asked each of its notes a question (the same title?
a tool of the same slot? a word in common?) that parsed the note's title and summary
again: on 10,000 notes a level, about 0.3 s a turn. Every such question has a necessary
condition that is a plain substring: a note can only share the slot of "Fly.io" if its
case-folded text holds "fly.io", can only be titled "Test command" if it holds "command".
:class:`Haystack` holds every note's case-folded title and summary as one text, and
:meth:`Haystack.holding` finds, with one Aho-Corasick pass in C, the notes that hold any of
some words. The callers then ask their own question of those notes alone, in the stored
order: the answer is the one asking every note gave, in a fraction of the time.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, MutableSequence, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memcli.extraction.rules.model import KnownNote

# Between two notes in the joined text: no word searched for holds it.
_SEPARATOR = "\x00"


class Haystack:
    """Each note's ``(title + " " + summary).casefold()``, joined."""

    def __init__(self, notes: Sequence[KnownNote]) -> None:
        self.notes = notes
        # (A note that knows no summary, as some callers' notes do, has an empty one.)
        pieces = [note.title + " " + getattr(note, "summary", "") for note in notes]
        text = _SEPARATOR.join(pieces)
        # A note with a letter beyond ASCII may match in ways a substring does not show
        # (Unicode forms, invisible characters, case rules of `re.I`): always a candidate
        # (for a question about its title, when its title is not ASCII).
        self.beyond_ascii: list[int] = []
        self.titles_beyond_ascii: list[int] = []
        if text.isascii():
            self.text = text.lower()  # what casefold gives ASCII, in a tenth of the time
        else:
            self.beyond_ascii = [i for i, piece in enumerate(pieces) if not piece.isascii()]
            self.titles_beyond_ascii = [i for i in self.beyond_ascii
                                        if not notes[i].title.isascii()]
            pieces = [piece.lower() if piece.isascii() else piece.casefold()
                      for piece in pieces]
            self.text = _SEPARATOR.join(pieces)
        self.starts = list(itertools.accumulate((len(p) + 1 for p in pieces), initial=0))

    def holding(self, words: Iterable[str]) -> list[int]:
        """The positions, in order, of the notes whose case-folded title and summary hold
        any of WORDS (case-folded already, none empty)."""
        wanted = sorted({w for w in words if w})
        if not wanted:
            return []
        if any(_SEPARATOR in w for w in wanted):
            return list(range(len(self.notes)))
        import ahocorasick_rs

        automaton = ahocorasick_rs.AhoCorasick(wanted)
        starts = self.starts
        found = {bisect.bisect_right(starts, start) - 1
                 for _, start, _ in automaton.find_matches_as_indexes(self.text)}
        return sorted(found)

    def holding_or_beyond_ascii(self, words: Iterable[str], *, titles: bool = False
                                ) -> list[int]:
        """:meth:`holding`, and every note that is not ASCII (whose title is not, for a
        question about TITLES alone)."""
        beyond = self.titles_beyond_ascii if titles else self.beyond_ascii
        return sorted({*self.holding(words), *beyond})


_LAST: list[Haystack] = []


def haystack_of(notes: Sequence[KnownNote]) -> Haystack:
    """The haystack of NOTES, built once for the sequence a turn is matched against (one
    that cannot change: a list may have changed since its haystack was built)."""
    if isinstance(notes, MutableSequence):
        return Haystack(notes)
    if _LAST and _LAST[0].notes is notes:
        return _LAST[0]
    haystack = Haystack(notes)
    _LAST[:] = [haystack]
    return haystack


def folded(note: KnownNote) -> str:
    """The note's text as the haystack holds it."""
    piece = note.title + " " + getattr(note, "summary", "")
    return piece.lower() if piece.isascii() else piece.casefold()


def holds(note: KnownNote, words: Iterable[str], *, or_beyond_ascii: bool = False,
          titles: bool = False) -> bool:
    """Whether :meth:`Haystack.holding` (OR_BEYOND_ASCII: :meth:`holding_or_beyond_ascii`,
    with TITLES) finds NOTE, asked of the note alone."""
    wanted = {w for w in words if w}
    if any(_SEPARATOR in w for w in wanted):
        return True
    piece = folded(note)
    if any(w in piece for w in wanted):
        return True
    if not or_beyond_ascii:
        return False
    return not (note.title.isascii() if titles else piece.isascii())
