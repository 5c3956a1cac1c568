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
from collections.abc import Iterable, Iterator, Mapping, Sequence

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


# A store's postings (:func:`postings_of`, cached with its notes' heads): for each first
# character of a code, one text of fixed-width entries, the code's other three characters
# and the note's row in five digits, in the order of the rows. A lookup reads one of 64
# texts (a 64th of the keys) instead of them all; a store of more rows has none.
_ENTRY = 8
_ROWS = 100_000
# A key's rarity is counted in the postings up to this many notes: enough to tell a rare
# word from a common one (a common one is in thousands of a big store's notes).
_COUNTED = 256


def postings_of(keys: Sequence[str | None]) -> dict[str, str] | None:
    """The postings of a store's notes KEYS (their rows are their positions), None when a
    note's keys are unknown or the store is too large for them."""
    if len(keys) >= _ROWS or None in keys:
        return None
    buckets: dict[str, list[str]] = {}
    for row, line in enumerate(keys):
        digits = f"{row:05d}"
        for found in (line or "").split(KEY):
            if found:
                buckets.setdefault(found[0], []).append(found[1:] + digits)
    return {first: "".join(entries) for first, entries in buckets.items()}


def _checked(postings: object, size: int) -> Mapping[str, str] | None:
    """POSTINGS when they can be postings of SIZE rows as postings_of makes them (a cache
    read back: each text is checked when read), else None."""
    if not isinstance(postings, Mapping) or size >= _ROWS:
        return None
    return postings


class KeyIndex:
    """The keys of a sequence of notes (one string each, or None), searched in one text;
    or, for the parts of the sequence given with their postings, looked up in those."""

    def __init__(self, keys: Sequence[str | None],
                 postings: Sequence[tuple[int, int, object]] = ()) -> None:
        """KEYS: each note's keys. POSTINGS: (start, length, the postings of KEYS[start:
        start + length]) for parts whose keys are only found through them (their strings
        in KEYS are not read)."""
        self.size = len(keys)
        self._parts: list[tuple[int, int, Mapping[str, str]]] = []
        spans = []
        for start, length, part in postings:
            checked = _checked(part, length)
            if checked is not None:
                self._parts.append((start, length, checked))
                spans.append((start, start + length))
        if sum(stop - start for start, stop in spans) == self.size:
            lines: list[str | None] = []  # every note found through postings: no text
        else:
            lines = list(keys)
            for start, stop in spans:
                lines[start:stop] = [""] * (stop - start)
        self.unknown = [i for i, k in enumerate(lines) if k is None]
        texts = [k or "" for k in lines]
        self.text = NOTE.join(texts)
        self.starts = list(itertools.accumulate((len(k) + 1 for k in texts), initial=0))

    def rarity(self, kind: str, value: str) -> int:
        """How many notes have the key KIND:VALUE, told from the postings (counted up to
        _COUNTED) and the first notes of the text (about 2,000): which of some keys finds
        the fewest notes (the answer never depends on it)."""
        found = code(kind, value)
        counted = self.text.count(KEY + found + KEY, 0, _SAMPLE)
        posted = itertools.chain.from_iterable(_posted(part, found) for part in self._parts)
        return counted + sum(1 for _ in itertools.islice(posted, _COUNTED))

    def holding(self, kind: str, values: Iterable[str]) -> set[int]:
        """The positions of the notes with a key KIND:value for any of VALUES, and of every
        note whose keys are unknown."""
        return set(self.iter_holding(kind, values))

    def iter_holding(self, kind: str, values: Iterable[str]) -> Iterator[int]:
        """:meth:`holding` in increasing order, found as they are asked for (the first
        note that answers may be the first found)."""
        codes = sorted({code(kind, value) for value in values})
        found = [self._found(KEY + c + KEY) for c in codes]
        found += [_posted(part, c) for part in self._parts for c in codes]
        last = -1
        for note in heapq.merge(self.unknown, *found):
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


def _posted(part: tuple[int, int, Mapping[str, str]], found: str) -> Iterator[int]:
    """The positions of the notes of PART (its start, size and postings) with the code FOUND, in
    increasing order."""
    start, size, postings = part
    text = postings.get(found[0])
    if text is None:
        return
    if type(text) is not str or len(text) % _ENTRY:
        # Not postings as postings_of writes them (a cache read back): every note of the
        # part may hold the code, and the callers ask each their own question.
        yield from range(start, start + size)
        return
    rest = found[1:]
    at = text.find(rest)
    while at >= 0:
        if at % _ENTRY:  # inside an entry's digits or across two entries
            at = text.find(rest, at + 1)
            continue
        digits = text[at + 3:at + _ENTRY]
        if digits.isdigit() and int(digits) < size:  # (read back from a cache)
            yield start + int(digits)
        at = text.find(rest, at + _ENTRY)


def key_index_of(notes: object) -> KeyIndex | None:
    """The key index NOTES carry (``extract``'s stored notes do), else None."""
    method = getattr(notes, "key_index", None)
    found = method() if callable(method) else None
    return found if isinstance(found, KeyIndex) else None
