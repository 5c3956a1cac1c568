"""Coverage: the share of a prompt's weight a note holds, the measure recall decides with.

BM25 scores grow with the size of a store and the length of a prompt, so a threshold on
them means nothing from one store to the next; coverage stays between 0 and 1. It weighs
each thing a prompt asks for (a word, or a CJK word the vocabulary knows) by its IDF in the
store and credits a note that holds it, whole when the note holds the word itself, at
CONCEPT_CREDIT when it holds one of the word's concepts (:mod:`memcli.search.vocabulary`):
"ship it" and a note about `deploy`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from memcli.search.analyze import Analyzed, asks_term, is_cjk, normalise, stem
from memcli.search.english import GENERIC_WORDS
from memcli.search.fts import Hit, StoreIndex, token
from memcli.search.vocabulary import Match

# A prompt's word that no note holds still says what the prompt is about ("write a haiku"
# is not about the note on writing commit messages), at this share of a rare word's weight.
UNKNOWN_WEIGHT = 0.25
# A name no note holds (`Tokyo` in "what time zone is Tokyo in?") says the prompt is about
# something the store does not know: it weighs more than the rarest word. 1.0 until the
# threshold went to 0.30; chosen on the development coding set and LoCoMo's tuning part
# (docs/recall.md).
UNKNOWN_NAME_WEIGHT = 1.5
# A CJK word no note holds gives a bigram per pair of its characters: they weigh as one
# unknown word (a Latin word no note holds weighs UNKNOWN_WEIGHT once, whatever its length).
UNKNOWN_CJK_WORD = True
# A word of the vocabulary that is an everyday word (everyday.txt: `test`, `build`,
# `explain`) does not count as one the vocabulary knows for the lone-word rule
# (memcli.search.recall.supported) in a prompt holding FOREIGN_MIN words or more that
# neither a note nor the vocabulary knows: "test my knowledge of medieval history" is not
# about the note on `make test`; "bump the version of a library" is about the one on
# versions. 2 rather than 1: one such word is often a typo or a paraphrase (round 5 of
# issue 28, docs/recall.md).
EVERYDAY_NOT_KNOWN = True
FOREIGN_MIN = 2
# A prompt's word that no note holds, of TYPO_LENGTH letters or more, that is a note's word
# misspelt (`clipy`, `updtae`: one letter added, dropped, changed or swapped) counts as held
# by that note for the lone-word rule (memcli.search.recall.supported): the person typed it
# fast, not about something else. Round 6 of issue 28 (docs/recall.md).
TYPOS_HELD = True
TYPO_LENGTH = 5
# A prompt of several sentences asks several things ("Is everything OK? Do all the tests
# pass?"): a note that covers one sentence of at least this many terms is as relevant as one
# that covers the whole prompt. Shorter sentences ("Thanks, that works.") say too little.
CLAUSE_TERMS = 3
# A prompt word a note does not hold, but one of whose concepts it does (`ship` and a note
# about `deploy`), counts at this share of the word's weight: below the word itself, so a
# note with the prompt's own words comes first. Chosen on the development coding set.
CONCEPT_CREDIT = 0.7
# A generic word of a coding task (english.GENERIC_WORDS: `add`, `new`, `write`, `name`…)
# weighs this share of its IDF weight in coverage. Chosen on the development coding set.
GENERIC_SHARE = 0.3
# A note that holds only generic words of a prompt covers none of it.
GENERIC_ONLY_ZERO = True


class Judge:
    """Coverage and names of a note against one prompt, with one store's statistics."""

    def __init__(self, index: StoreIndex, terms: Analyzed, names: Sequence[str],
                 topic: Analyzed | None = None,
                 clause_terms: Sequence[Analyzed] = ()) -> None:
        parts = [c for c in clause_terms if len(c.words) >= CLAUSE_TERMS
                 and c.words != terms.words]
        everything = [terms, *parts, *([topic] if topic else [])]
        frequencies = index.document_frequencies(
            [*names, *(w for a in everything for w in a.words)])
        concepts = index.document_frequencies(terms.concepts, "concepts")
        stats = _Stats(frequencies, concepts, index.documents, frozenset(names))
        self.prompt = _Share(_units(terms), stats)
        # A prompt of several sentences ("The tests are failing after my last change. Can you
        # figure out what broke?") describes a task at length: words no one knows are many
        # there, and say nothing about its everyday words.
        self.prompt.everyday_plain = len(clause_terms) <= 1
        self.parts = [_Share(_units(c), stats) for c in parts]
        self.topic = self.prompt if topic is None else _Share(
            _units(topic, terms.matches), stats)
        # Only names the store knows can tell notes apart; an unknown one says nothing.
        self.names = [token(n) for n in names if n in frequencies]
        self.given = frozenset(names)  # every name the prompt holds, known or not

    def coverage(self, hit: Hit) -> float:
        return max([self.prompt.of(hit), *(part.of(hit) for part in self.parts)])

    def literal(self, hit: Hit) -> float:
        """The share of the prompt a note holds in the prompt's own specific words: no
        concept, no generic word (what tells evidence from a bridge alone)."""
        return max([self.prompt.literal(hit), *(part.literal(hit) for part in self.parts)])

    def held(self, hit: Hit) -> tuple[int, int]:
        """How many of the prompt's specific (not generic) words a note holds, as they are
        or through a concept; and how many of those the vocabulary knows (a task or a tool of
        the coding domain, not any word: `docs`, `css`, `redis`, not `button` or `page`)."""
        return self.prompt.held(hit)

    def names_ok(self, hit: Hit) -> bool:
        return all(name in hit.words for name in self.names)


@dataclass(frozen=True)
class _Unit:
    """One thing a prompt asks for: a word (or the bigrams of a CJK word the vocabulary
    knows), held as it is or through one of its concepts."""

    literals: tuple[str, ...]  # word terms, all held for the unit to be held as it is
    concepts: frozenset[str]  # concept tokens standing for it


def _units(terms: Analyzed, matches: Sequence[Match] | None = None) -> list[_Unit]:
    """TERMS' words as units: a word with the concepts it takes part in; the bigrams of a
    CJK word the vocabulary knows as one unit (its bigrams and those straddling it out)."""
    words = set(terms.words)
    senses: dict[str, set[str]] = {}
    cjk: dict[tuple[str, ...], set[str]] = {}
    for match in terms.matches if matches is None else matches:
        if match.cjk:
            if words.issuperset(t for t in match.terms if not asks_term(t)):
                cjk.setdefault(match.terms, set()).add(match.concept)
        else:
            for term in match.terms:
                senses.setdefault(term, set()).add(match.concept)
    covered = {t for group in cjk for t in group}
    characters = {c for t in covered for c in t}
    units = [_Unit(group, frozenset(concepts)) for group, concepts in cjk.items()]
    for word in terms.words:
        if word in covered or (is_cjk(word) and characters.intersection(word)):
            continue  # inside, or straddling, a CJK word the vocabulary knows
        units.append(_Unit((word,), frozenset(senses.get(word, ()))))
    return units


@dataclass(frozen=True)
class _Stats:
    frequencies: dict[str, int]  # of word terms
    concepts: dict[str, int]  # of concept tokens
    documents: int
    names: frozenset[str]


class _Share:
    """The share of a prompt's IDF weight in a store that a note holds (0-1): a unit held as
    it is counts whole, one held through a concept at CONCEPT_CREDIT."""

    def __init__(self, units: Sequence[_Unit], stats: _Stats) -> None:
        # (FTS tokens that hold it as it is, concepts that stand for it, weight, generic)
        self.units: list[tuple[tuple[str, ...], frozenset[str], float, bool]] = []
        self.whole = 0.0
        unknown = 0.0
        self.foreign = 0  # the prompt's words that no note holds and no concept stands for
        self.strangers: list[str] = []  # ... those of them that may be a typo of a word
        self.everyday_plain = True  # its everyday words may be plain words (see Judge)
        previous = ""  # the last CJK bigram no note holds: the next one may continue it
        asked_twice = 0  # such bigrams that continue a word counted already
        for unit in units:
            literal = min((stats.frequencies.get(t, 0) for t in unit.literals), default=0)
            concept = max((stats.concepts.get(c, 0) for c in unit.concepts), default=0)
            strange = _strange_bigram(unit, literal or concept)
            if strange and previous and UNKNOWN_CJK_WORD and previous[-1] == strange[0]:
                # One word the store does not know, written without spaces: its bigrams
                # weigh once, as a Latin word's would (`결과를` is not two things asked).
                previous = strange
                asked_twice += 1
                continue
            previous = strange
            if not (literal or concept or unit.concepts):
                self.foreign += 1  # neither the store nor the vocabulary knows it
                if len(unit.literals) == 1 and _typo_length(unit.literals[0]):
                    self.strangers.append(token(unit.literals[0]))
            if literal or concept:
                weight = _idf(stats.documents, literal or concept)
                generic = all(t in _generic_stems() for t in unit.literals)
                if generic:
                    weight *= GENERIC_SHARE
                self.units.append((tuple(map(token, unit.literals)), unit.concepts, weight,
                                   generic))
                self.whole += weight
            else:
                unknown += (UNKNOWN_NAME_WEIGHT if set(unit.literals) & stats.names
                            else UNKNOWN_WEIGHT)
        self.whole += _idf(stats.documents, 0) * unknown
        # The specific things the prompt asks for (not its generic words), known to the
        # store or not.
        self.asked = sum(1 for u in units
                         if not all(t in _generic_stems() for t in u.literals)) - asked_twice

    def of(self, hit: Hit) -> float:
        if not self.units:
            return 0.0
        held = 0.0
        specific = False  # the note holds more than generic words of the prompt
        for literals, concepts, weight, generic in self.units:
            if all(t in hit.words for t in literals):
                held += weight
            elif concepts & hit.concepts:
                held += weight * CONCEPT_CREDIT
            else:
                continue
            specific = specific or not generic
        # "summarize this file" is not about every note that says `file`.
        return held / self.whole if specific or not GENERIC_ONLY_ZERO else 0.0


    def held(self, hit: Hit) -> tuple[int, int]:
        # An everyday word the vocabulary knows (`test`, `build`) is a coding word in a prompt
        # whose every word is one the store or the vocabulary knows ("bump the version of a
        # library"), and may be anything in one that holds a word of no coding at all ("test
        # my knowledge of medieval history").
        plain = EVERYDAY_NOT_KNOWN and self.everyday_plain and self.foreign >= FOREIGN_MIN
        held = [bool(concepts) and not (plain and _everyday(literals))
                for literals, concepts, _, generic in self.units
                if not generic and (all(t in hit.words for t in literals)
                                    or concepts & hit.concepts)]
        if TYPOS_HELD and len(held) == 1 and not any(held) and self.strangers:
            # "clipy keeps failing on pedantic stuff": the note on clippy holds two of its
            # words, one of them misspelt (the lone-word rule would drop it).
            return 1 + sum(any(_near(w, word) for word in hit.words)
                           for w in self.strangers), 0
        return len(held), sum(held)

    def literal(self, hit: Hit) -> float:
        if not self.units:
            return 0.0
        held = sum(weight for literals, _, weight, generic in self.units
                   if not generic and all(t in hit.words for t in literals))
        return held / self.whole


def _typo_length(word: str) -> bool:
    """Whether WORD (a prompt's word no note holds) is long enough to be told as a typo: a
    Latin word of TYPO_LENGTH letters or more (a shorter one is near too many words)."""
    return len(word) >= TYPO_LENGTH and word.isascii() and word.isalpha()


def _near(a: str, b: str) -> bool:
    """Whether A is B misspelt: one letter added, dropped or changed, or two next to each
    other swapped (`clipi` / `clippi`, `updta` / `updat`); the first letter is never the typo.
    Not a derived word (`printer` is not `print` misspelt)."""
    if not b or a[0] != b[0] or a == b:
        return False
    if len(a) < len(b):
        a, b = b, a
    if len(a) - len(b) > 1:
        return False
    i = 0
    while i < len(b) and a[i] == b[i]:
        i += 1
    if len(a) > len(b):
        return a[i + 1:] == b[i:]
    return (a[i + 1:] == b[i + 1:]
            or (i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i]
                and a[i + 2:] == b[i + 2:]))


def _strange_bigram(unit: _Unit, frequency: int) -> str:
    """UNIT's bigram when it is one CJK bigram that no note holds, else ""."""
    if frequency or unit.concepts or len(unit.literals) != 1:
        return ""
    term = unit.literals[0]
    return term if len(term) == 2 and is_cjk(term) else ""


def _everyday(tokens: tuple[str, ...]) -> bool:
    """Whether a unit (its FTS tokens) is an everyday word the vocabulary knows: `test`,
    `build`, `explain` (everyday.txt); a tool's name (`redis`, `storybook`) is not."""
    return bool(tokens) and all(t in _everyday_tokens() for t in tokens)


@functools.cache
def _everyday_tokens() -> frozenset[str]:
    from importlib import resources

    text = resources.files("memcli.search").joinpath("everyday.txt").read_text("utf-8")
    return frozenset(token(stem(normalise(line.strip()))) for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


@functools.cache
def _generic_stems() -> frozenset[str]:
    return frozenset(stem(w) for w in GENERIC_WORDS)


def _idf(documents: int, frequency: int) -> float:
    return math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))


