"""The prefilter: which trigger strings a text contains, found in one pass.

Every detector names the literal strings it cannot match without (gitleaks calls them
keywords): a prefix such as ``ghp_``, a separator such as ``://``, a word such as ``token``.
A detector runs only when one of them is in the text. Asking ``"ghp_" in text`` for each of
~150 strings reads the text ~150 times (about 90 µs for a 1.4 KB note); one Aho-Corasick
automaton over the UTF-8 bytes finds them all in one read (about 2 µs). The answer is exact,
not a guess: a string is reported if and only if ``in`` would say so, so gating on it keeps
every detector exactly as strong.

Two sets are reported: the exact triggers, found in the text as it is, and the folded ones
(lowercase words such as ``token``), found in the text as :func:`lower` folds it, because the
patterns that need them run on that lowercased copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# ASCII letters, and the Kelvin sign, which str.lower() turns into "k": the only characters
# whose lower case is an ASCII letter (tests/test_redact.py checks every code point).
_KELVIN = "\u212a"
# (Letters spelt out: the string module compiles a regular expression when imported.)
_ASCII_LOWER: dict[int, int] = {**str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                                "abcdefghijklmnopqrstuvwxyz"),
                                 0x212A: ord("k")}
# str.lower() works in a buffer of 12 bytes a character: a 16 MB index lowercased whole would
# take 200 MB for a moment, so a long text is lowercased a piece at a time.
_PIECE = 1 << 16


def lower(text: str) -> str:
    """``text`` with ASCII letters (and the Kelvin sign) in lower case, at the same offsets.

    Other characters are lowercased where that keeps the length, or left as they are; no
    pattern looks at them (none matches a letter outside ASCII, and no character's lower
    case is a space), so either way every pattern matches the same spans.
    """
    if len(text) <= _PIECE:
        return _lower_piece(text)
    return "".join(_lower_piece(text[i:i + _PIECE]) for i in range(0, len(text), _PIECE))


def _lower_piece(piece: str) -> str:
    low = piece.lower()
    if len(low) != len(piece):
        # A few characters lowercase to two ("İ"); fold what the patterns read, in place.
        low = piece.translate(_ASCII_LOWER)
    return low


class Hits:
    """Which trigger strings a text holds: as they are, and as lowercase words.

    A plain class (one per text scanned, never compared or shown): a dataclass compiles its
    methods at every start of `lint` and `extract`.
    """

    __slots__ = ("exact", "folded", "low")

    def __init__(self, exact: frozenset[str], folded: frozenset[str],
                 low: str | None = None) -> None:
        self.exact = exact
        self.folded = folded
        self.low = low  # lower(text), when the scan had it for free (ASCII text)


class _Finder:
    """One automaton over a fixed set of ASCII needles."""

    def __init__(self, needles: Iterable[str]) -> None:
        import ahocorasick_rs  # compiled on first use: the CLI imports redact on TAB completion

        self.needles = tuple(sorted(set(needles)))
        for needle in self.needles:
            # Gates are ASCII without line breaks, so finding them in the UTF-8 bytes is the
            # same as finding them in the text.
            if not needle or not needle.isascii() or any(c in needle for c in "\r\n"):
                raise ValueError(f"unusable gate: {needle!r}")
        self._automaton: Any = ahocorasick_rs.BytesAhoCorasick(
            [n.encode("ascii") for n in self.needles],
            implementation=ahocorasick_rs.Implementation.DFA,
        )

    def found(self, data: bytes) -> frozenset[str]:
        needles = self.needles
        return frozenset(
            needles[index]
            for index, _, _ in self._automaton.find_matches_as_indexes(data, overlapping=True)
        )


class Prefilter:
    """The trigger strings of a set of detectors; the automaton is built on first use.

    One automaton reads the lowercased text for both sets: the folded words, and the exact
    triggers in lower case. An exact trigger is in the text only if its lower case is in the
    lowercased text, so only the exact triggers whose lower case was found are then looked
    for as they are (with ``in``, on the few there are); one pass over the text instead of
    two.
    """

    def __init__(self, exact: Iterable[str], folded: Iterable[str]) -> None:
        self._needles = (tuple(exact), tuple(folded))
        self._finder: _Finder | None = None
        self._exact_by_lower: dict[str, tuple[bytes, ...]] = {}
        self._folded: frozenset[str] = frozenset()

    def _build(self) -> _Finder:
        exact, folded = self._needles
        by_lower: dict[str, list[bytes]] = {}
        for needle in exact:
            by_lower.setdefault(needle.lower(), []).append(needle.encode("ascii"))
        self._exact_by_lower = {low: tuple(found) for low, found in by_lower.items()}
        self._folded = frozenset(folded)
        self._finder = _Finder([*by_lower, *folded])
        return self._finder

    def scan(self, text: str) -> Hits:
        """Which exact triggers are in ``text`` and which folded ones in ``lower(text)``."""
        finder = self._finder if self._finder is not None else self._build()
        raw = text.encode("utf-8", "surrogatepass")
        # bytes.lower() folds ASCII letters only, which is what lower() does to them, except
        # for the Kelvin sign, which lower() turns into "k".
        ascii_text = text.isascii()
        low = lower(text).encode("utf-8", "surrogatepass") if _KELVIN in text else raw.lower()
        seen = finder.found(low)
        exact = frozenset(
            needle.decode("ascii") for word in seen for needle in self._exact_by_lower.get(word, ())
            if needle in raw
        )
        # For ASCII text the lowercased bytes are lower(text) already: decoding them costs
        # a tenth of lowercasing the text again.
        return Hits(exact, seen & self._folded, low.decode("ascii") if ascii_text else None)
