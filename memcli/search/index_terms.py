"""A note's index columns, computed per distinct token rather than per occurrence.

Building a store's index analyses every note, and a store repeats the same few thousand
tokens over and over. :func:`note_columns` gives exactly the columns ``analyze(text)``
gives (word terms and word pairs, 4-grams, concepts), but works out each distinct token
once per command (its word terms, 4-grams and FTS5 spelling, in one cached record) and
joins the records with C-level iteration (``map``, ``chain``, ``str.join``) instead of a
Python loop per term. ``tests/test_index_terms.py`` holds it to ``analyze`` on every kind
of text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from itertools import chain, compress, count, pairwise
from operator import itemgetter

from memcli.search.analyze import (
    _CJK_RUN,
    _TOKEN,
    _bigrams,
    _latin,
    _without_possessives,
    normalise,
    vocabulary,
)

# The tokenizer keeps `_` inside a token: a 4-gram's word boundary (`_dep`) and a pair
# (`make_test`) are then stored as they are, not hex-encoded at twice their size.
# _TOKEN on a text all ASCII (and case-folded): the same tokens, without the CJK look-aheads
# (twice as fast).
_ASCII_TOKEN = re.compile(r"[a-z0-9]+(?:[./_+#:-]+[a-z0-9]+)*[+#]*")
# _TOKEN on a text without CJK characters (`café`, `größe`, Cyrillic): the same tokens,
# without the look-aheads.
_LATIN_TOKEN = re.compile(r"[^\W_]+(?:[./_+#:-]+[^\W_]+)*[+#]*")
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


@functools.lru_cache(maxsize=1 << 15)  # a store's terms repeat: building an index, faster
def token(term: str) -> str:
    """A term as an FTS5 token: letters and digits as they are, a pair of them (`make+test`)
    joined by `_`, anything else hex-encoded (at twice its length)."""
    if _SAFE.issuperset(term):
        return term
    first, plus, second = term.partition("+")
    if plus and first and second and _SAFE.issuperset(first) and _SAFE.issuperset(second):
        return f"{first}_{second}"
    return "x" + term.encode().hex()


# One token of a text, worked out once: (its word terms as FTS5 tokens, joined by spaces;
# its content stems, or (None,) for a CJK run, which ends a run of word pairs; its content
# words as (stem, token), as the vocabulary reads them; whether a longer vocabulary term may
# start at each of them; its 4-grams as FTS5 tokens, joined by spaces; whether a longer term
# may start at each of them whatever the next word's stem is).
_Record = tuple[str, tuple[str | None, ...], tuple[tuple[str, str], ...], tuple[bool, ...], str,
                tuple[bool, ...]]
_WORDS, _STEMS, _SEQUENCE, _STARTS, _GRAMS, _LOOSE = (itemgetter(i) for i in range(6))


@functools.lru_cache(maxsize=1 << 14)  # bounded: 100,000-note stores hold millions of tokens
def _record(tok: str) -> _Record:
    if _CJK_RUN.match(tok):
        return " ".join(map(token, _bigrams(tok))), (None,), (), (), "", ()
    terms, grams = _latin(tok)
    stems = tuple(term for term, content in terms if content)
    vocab = vocabulary()
    prefixed = vocab.prefix_starts(tok)
    return (" ".join(token(term) for term, _ in terms), stems,
            tuple((s, tok) for s in stems),
            tuple(prefixed or s in vocab.by_stem for s in stems), " ".join(map(token, grams)),
            tuple(prefixed or s in vocab.loose_starts for s in stems))


@functools.lru_cache(maxsize=1 << 14)
def _pair(first: str | None, second: str | None) -> str:
    return "" if first is None or second is None else token(f"{first}+{second}")


def note_columns(text: str) -> tuple[str, str, str]:
    """TEXT's index columns as FTS5 tokens, each as ``analyze(text)`` has them: its word
    terms then its word pairs, its 4-grams, its concepts."""
    folded = normalise(text)
    if "'s" in folded:  # most notes hold none: no pass of the regular expression
        folded = _without_possessives(folded)
    ascii_text = folded.isascii()
    latin = ascii_text or not _CJK_RUN.search(folded)
    tokens = (_ASCII_TOKEN if ascii_text else _LATIN_TOKEN if latin else _TOKEN).findall(folded)
    records = list(map(_record, tokens))
    stems = list(chain.from_iterable(map(_STEMS, records)))
    vocab = vocabulary()
    starts: Iterable[int]
    if latin:
        # No CJK run parts the stems. A longer term of the vocabulary can start only where
        # a pair of stems is one of its first two words (a set intersection finds none in
        # most texts) or at a word that starts one however it goes on. The stems of an
        # ASCII text are FTS5 tokens as they are (letters and digits), and so are their
        # pairs joined by `_`: no token() a pair.
        pairs = list(map("_".join, pairwise(stems)))
        starts = compress(count(), chain.from_iterable(map(_LOOSE, records)))
        if known := vocab.word_pairs.intersection(pairs):
            starts = sorted({*starts, *(i for i, pair in enumerate(pairs) if pair in known)})
        if not ascii_text and not _SAFE.issuperset("".join(stems)):
            pairs = list(map(_pair, stems, stems[1:]))
    else:
        pairs = list(map(_pair, stems, stems[1:]))
        starts = compress(count(), chain.from_iterable(map(_STARTS, records)))
    words = " ".join(filter(None, chain(map(_WORDS, records), pairs)))
    grams = " ".join(filter(None, map(_GRAMS, records)))
    runs = [tok for tok in tokens if _CJK_RUN.match(tok)] if None in stems else []
    sequence = list(chain.from_iterable(map(_SEQUENCE, records)))
    concepts = vocab.concepts_at(sequence, starts, runs, stems)
    return words, grams, " ".join(concepts)
