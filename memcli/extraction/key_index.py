"""The notes that hold a key, found in one search of a text in C (see
:mod:`memcli.extraction.note_keys`, which derives each note's keys, and the matching in
:mod:`memcli.extraction.similarity` and :mod:`memcli.extraction.rules.duplicates`, which
asks them)."""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Iterable, Iterator, Sequence

# Between two keys, and between two notes' keys: no key holds either.
KEY = "\x1f"
NOTE = "\x1e"


class KeyIndex:
    """The keys of a sequence of notes (one string each, or None), searched in one text."""

    def __init__(self, keys: Sequence[str | None]) -> None:
        self.size = len(keys)
        self.unknown = [i for i, k in enumerate(keys) if k is None]
        lines = [k or "" for k in keys]
        self.text = NOTE.join(lines)
        self.starts = list(itertools.accumulate((len(k) + 1 for k in lines), initial=0))

    def holding(self, kind: str, values: Iterable[str]) -> set[int]:
        """The positions of the notes with a key KIND:value for any of VALUES, and of every
        note whose keys are unknown."""
        return set(self.iter_holding(kind, values))

    def iter_holding(self, kind: str, values: Iterable[str]) -> Iterator[int]:
        """:meth:`holding` in increasing order, found as they are asked for (the first
        note that answers may be the first found)."""
        needles = [KEY + kind + ":" + value + KEY for value in sorted(set(values))]
        if any(NOTE in needle[1:-1] or KEY in needle[1:-1] for needle in needles):
            yield from range(self.size)
            return
        last = -1
        for note in heapq.merge(self.unknown, *map(self._found, needles)):
            if note != last:
                yield note
                last = note

    def _found(self, needle: str) -> Iterator[int]:
        text, starts = self.text, self.starts
        at = text.find(needle)
        while at >= 0:
            note = bisect.bisect_right(starts, at) - 1
            yield note
            at = text.find(needle, starts[note + 1])


def key_index_of(notes: object) -> KeyIndex | None:
    """The key index NOTES carry (``extract``'s stored notes do), else None."""
    method = getattr(notes, "key_index", None)
    found = method() if callable(method) else None
    return found if isinstance(found, KeyIndex) else None
