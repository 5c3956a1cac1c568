"""What a prompt that names a time asks about, besides the time.

"What did we do yesterday?" asks for the notes of a day, whatever they are about; "what did
we decide about the deploy queue yesterday?" for the notes of that day about the deploy
queue. Once the date expressions are taken out of the prompt, the words that ask about
activity in general (`do`, `change`, `decide`, `notes`; `做`, `改`, `决定`, `笔记`) and the
question words are dropped too: what is left is the topic. Nothing left: the prompt asks
for a time alone.
"""

from __future__ import annotations

import functools
import re

from memcli.search.analyze import Analyzed, analyze, stem
from memcli.search.dates import Named, without_dates
from memcli.search.english import (
    ACTIVITY_CHARACTERS,
    ACTIVITY_WORDS,
    ASKING_CHARACTERS,
    QUESTION_WORDS,
)

_KANA = re.compile(r"[\u3040-\u30ff]")  # Japanese grammar, not a topic


@functools.cache
def _generic_stems() -> frozenset[str]:
    return frozenset(stem(word) for word in (*ACTIVITY_WORDS, *QUESTION_WORDS))


def _generic(term: str) -> bool:
    if term in _generic_stems():
        return True
    if len(term) > 2 or term.isascii():
        return False
    if not ASKING_CHARACTERS.isdisjoint(term):  # as a prompt's terms drop them
        return True
    return all(c in ACTIVITY_CHARACTERS or _KANA.match(c) for c in term)


def topic_terms(prompt: str, named: Named) -> Analyzed:
    """PROMPT's word terms and pairs once the dates NAMED found and the generic words are
    out (no 4-grams: the topic decides relevance, not the ranking)."""
    analyzed = analyze(without_dates(prompt, named))
    words = [w for w in dict.fromkeys(analyzed.words) if not _generic(w)]
    kept = set(words)
    pairs = [p for p in dict.fromkeys(analyzed.pairs) if kept.issuperset(p.split("+"))]
    return Analyzed(words, pairs, [])
