"""The notes that hold a key, found by searching one text in C (see
:mod:`memcli.extraction.note_keys`, which derives each note's keys, and the matching in
:mod:`memcli.extraction.similarity` and :mod:`memcli.extraction.rules.duplicates`, which
asks them).

A key is kept as a short code: four characters of a hash of its kind and value, some kinds
sharing one (the words of a title, of a summary and the names a note holds are all words).
So the text is small and quick to search, and a note found may lack the key asked for
(another kind's key, or another key of the same code, about one note in 10,000 a key):
every caller asks its own question of the notes found, which is why it may be asked of
more notes, never of fewer.
"""

from __future__ import annotations

import binascii
import bisect
import hashlib
import heapq
import itertools
from collections.abc import Iterable, Iterator, Sequence

# Between two keys, and between two notes' keys: no code holds either.
KEY = "\x1f"
NOTE = "\x1e"
# Kinds that share codes: a title's words (w), a summary's (v), the names (n); the words
# of a title and of a summary joined into one (J, U); the concepts of either (C, D).
# The characters of the notes' keys counted by rarity(): about 2,000 notes.
_SAMPLE = 150_000
_SHARED = {"w": "x", "v": "x", "n": "x", "J": "j", "U": "j", "C": "c", "D": "c"}


def code(kind: str, value: str) -> str:
    """The code of the key KIND:VALUE (base64: no separator)."""
    key = _SHARED.get(kind, kind) + ":" + value
    digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=3).digest()
    return binascii.b2a_base64(digest, newline=False).decode("ascii")


class KeyIndex:
    """The keys of a sequence of notes (one string each, or None), searched in one text."""

    def __init__(self, keys: Sequence[str | None]) -> None:
        self.size = len(keys)
        self.unknown = [i for i, k in enumerate(keys) if k is None]
        lines = [k or "" for k in keys]
        self.text = NOTE.join(lines)
        self.starts = list(itertools.accumulate((len(k) + 1 for k in lines), initial=0))

    def rarity(self, kind: str, value: str) -> int:
        """How many of the first notes (about 2,000) have the key KIND:VALUE: which of some
        keys finds the fewest notes, told from a sample (the answer never depends on it)."""
        return self.text.count(KEY + code(kind, value) + KEY, 0, _SAMPLE)

    def holding(self, kind: str, values: Iterable[str]) -> set[int]:
        """The positions of the notes with a key KIND:value for any of VALUES, and of every
        note whose keys are unknown."""
        return set(self.iter_holding(kind, values))

    def iter_holding(self, kind: str, values: Iterable[str]) -> Iterator[int]:
        """:meth:`holding` in increasing order, found as they are asked for (the first
        note that answers may be the first found)."""
        needles = sorted({KEY + code(kind, value) + KEY for value in values})
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
