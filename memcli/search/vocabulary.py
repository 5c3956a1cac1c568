"""The coding vocabulary: concept groups that bridge a prompt's words and a note's.

People rarely ask with a note's words: "how do I preview the docs site?" for a note about
`mkdocs serve`, "ship it" for the deploy note, "运行测试" for `make test`. The groups in
``vocabulary.txt`` (tasks, tools and their categories, in the ten languages the extractor
reads) give each text a set of *concepts*: a note holding `mkdocs` and a prompt saying
"docs site" share the concept `docs`. Search indexes them in a column of their own, ranked
below the words themselves, and coverage credits a prompt word a note lacks at a share of
its weight when the note holds one of the word's concepts (:mod:`memcli.search.engine`).

Matching, on the analyser's own output so that both sides agree:

- Latin and Cyrillic terms are analysed as text is (stems, stop words out) and match those
  stems in a row; a word ending in `*` matches any token starting with it (inflections
  the English stemmer leaves alone: `déploi*`, `тест*`);
- Chinese, Japanese and Korean terms match inside a run of those characters (one
  Aho-Corasick pass per run, longest match first).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from itertools import chain
from typing import Any

_LINE = re.compile(r"^([a-z0-9-]+):\s*(.+)$")
# A prompt's CJK runs are also matched joined by spaces, for the vocabulary's spaced terms.
SPACED_CJK = True
# A prompt's word of at least COMPOUND_MIN letters that no term is may be two words the
# vocabulary knows, each of at least COMPOUND_PART letters (German compounds).
COMPOUNDS = True
COMPOUND_MIN = 9
COMPOUND_PART = 4
PREFIX_KEY = 3  # a prefix term is looked up by its first characters
MAX_STARTING = 1 << 14


@dataclass(frozen=True)
class Match:
    """A concept found in a text, and the terms of the text it was found in."""

    concept: str  # the concept's token: `k` + the group's name without hyphens
    terms: tuple[str, ...]  # word terms (stems) or CJK bigrams it covers
    cjk: bool  # found inside a CJK run: TERMS are that run's bigrams


# One element of a Latin term: ("=", stem) matches that stem, ("^", prefix) a token so begun.
_Element = tuple[str, str]


@dataclass(frozen=True)
class Vocabulary:
    single: dict[str, tuple[str, ...]]  # a one-word term's stem -> its concepts
    by_stem: dict[str, list[tuple[tuple[_Element, ...], str]]]  # longer terms, by first stem
    by_prefix: dict[str, list[tuple[tuple[_Element, ...], str]]]
    cjk_terms: list[str]
    cjk_concepts: list[tuple[str, ...]]  # per CJK term, its concepts
    automaton: Any  # ahocorasick_rs.AhoCorasick over cjk_terms, or None
    digest: str  # of the file: an index built with another vocabulary is rebuilt
    # The longer terms that start at a word followed by another (:func:`_starting`), kept
    # while a command runs.
    starting: dict[tuple[tuple[str, str], tuple[str, str] | None],
                   tuple[tuple[tuple[_Element, ...], str], ...]] = field(
        default_factory=dict, compare=False, repr=False)
    # The one-word terms as written (`datenbank`, `migration`) -> their concepts: the parts
    # a compound word is split into (:meth:`compound`).
    words: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)

    @functools.cached_property
    def word_pairs(self) -> frozenset[str]:
        """The first two stems of each longer term whose first two words are stems, joined
        by `_` as an index spells a word pair: where a text's pair is none of these, only
        the terms of :attr:`loose_starts` and `by_prefix` can start."""
        return frozenset(f"{elements[0][1]}_{elements[1][1]}" for entries in self.by_stem.values()
                         for elements, _ in entries if elements[1][0] == "=")

    @functools.cached_property
    def loose_starts(self) -> frozenset[str]:
        """The stems that start a longer term whose second word is a prefix (`run test*`)."""
        return frozenset(stem for stem, entries in self.by_stem.items()
                         if any(elements[1][0] == "^" for elements, _ in entries))

    def prefix_starts(self, token: str) -> bool:
        """Whether a term of `by_prefix` may start at TOKEN: it begins with the term's first
        word (`deploy` does not begin `déploi*`, though both are filed under `dep`)."""
        return any(_element_matches(elements[0], ("", token))
                   for elements, _ in self.by_prefix.get(token[:PREFIX_KEY], ()))

    def match(self, sequence: Sequence[tuple[str, str]], runs: Sequence[str],
              spaced: str = "") -> list[Match]:
        """The concepts of a text and where each was found: SEQUENCE is its content words
        as (stem, token) in order, RUNS its CJK runs, SPACED those runs joined by a space
        where only spaces parted them in the text (by a line break elsewhere)."""
        found: list[Match] = []
        single, by_stem, by_prefix = self.single, self.by_stem, self.by_prefix
        for i, (stem, raw) in enumerate(sequence):
            found.extend(Match(c, (stem,), False) for c in single.get(stem, ()))
            if COMPOUNDS and stem not in single:
                found.extend(Match(c, (stem,), False) for c in self.compound(raw))
            if stem not in by_stem and raw[:PREFIX_KEY] not in by_prefix:
                continue  # most words: no longer term starts with them
            candidates = [*by_stem.get(stem, ()), *by_prefix.get(raw[:PREFIX_KEY], ())]
            for elements, concept in candidates:
                end = i + len(elements)
                if end <= len(sequence) and all(
                        _element_matches(e, sequence[i + k]) for k, e in enumerate(elements)):
                    found.append(Match(concept, tuple(s for s, _ in sequence[i:end]), False))
        if self.automaton is not None:
            for run in runs:
                for index, start, end in self.automaton.find_matches_as_indexes(run):
                    covered = _run_bigrams(run, start, end)
                    found.extend(Match(c, covered, True) for c in self.cjk_concepts[index])
            if SPACED_CJK and " " in spaced:
                found.extend(self._spaced(spaced))
        return found

    def compound(self, token: str) -> tuple[str, ...]:
        """The concepts of TOKEN's last part when it is a compound of two words the
        vocabulary knows, maybe joined by an `s` (German writes `Datenbankmigration`,
        `Testabdeckung`); none for any other token. The last part is what a German compound
        names (a `Testabdeckung` is a coverage, of tests): the first only narrows it."""
        if len(token) < COMPOUND_MIN or not token.isalpha():
            return ()
        for cut in range(COMPOUND_PART, len(token) - COMPOUND_PART + 1):
            head = self._word(token[:cut])
            if not head:
                continue
            tail = token[cut:]
            for part in (tail, tail[1:] if tail[0] == "s" else ""):
                concepts = self._word(part) if len(part) >= COMPOUND_PART else ()
                if concepts:
                    return concepts
        return ()

    def _word(self, part: str) -> tuple[str, ...]:
        """The concepts of PART as a one-word term, or as a word a one-word prefix term
        (`migrier*`) begins."""
        if part in self.words:
            return self.words[part]
        return tuple(concept for elements, concept in self.by_prefix.get(part[:PREFIX_KEY], ())
                     if len(elements) == 1 and part.startswith(elements[0][1]))

    def _spaced(self, joined: str) -> list[Match]:
        """The CJK terms written with a space (`부하 테스트`) found in JOINED (see
        :meth:`match`): each covers the bigrams of its words (and a word of one
        character, which the analyser keeps as it is)."""
        found: list[Match] = []
        for index, start, end in self.automaton.find_matches_as_indexes(joined):
            if " " not in self.cjk_terms[index]:
                continue  # found in its run already
            words = joined[start:end].split()
            covered = tuple(w[i : i + 2] for w in words for i in range(len(w) - 1)) + tuple(
                w for w in words if len(w) == 1)
            found.extend(Match(c, covered, True) for c in self.cjk_concepts[index])
        return found

    def concepts(self, sequence: Sequence[tuple[str, str]], runs: Sequence[str]) -> list[str]:
        """The concepts of a text, without where (what an index needs: faster)."""
        by_stem, by_prefix = self.by_stem, self.by_prefix
        starts = (i for i, (stem, raw) in enumerate(sequence)
                  if stem in by_stem or raw[:PREFIX_KEY] in by_prefix)
        return self.concepts_at(sequence, starts, runs)

    def concepts_at(self, sequence: Sequence[tuple[str, str]], starts: Iterable[int],
                    runs: Sequence[str], stems: Iterable[str | None] | None = None
                    ) -> list[str]:
        """:meth:`concepts`, told the positions of SEQUENCE where a longer term may start
        (a stem in `by_stem`, a token whose first letters are in `by_prefix`) and, when the
        caller has them, SEQUENCE's stems (None among them is ignored): an index build works
        them out once per distinct token."""
        single = self.single
        held = {stem for stem, _ in sequence} if stems is None else set(stems)
        out = set(chain.from_iterable(single[s] for s in single.keys() & held))
        last, starting = len(sequence) - 1, self.starting
        for i in starts:
            # The terms whose first two words match, worked out once per pair of words: most
            # positions of a long text start none (`cache` starts `cache bust`, rarely there).
            key = (sequence[i], sequence[i + 1] if i < last else None)
            candidates = starting.get(key)
            if candidates is None:
                if len(starting) >= MAX_STARTING:
                    starting.clear()  # bounded: a big store holds millions of word pairs
                candidates = starting[key] = _starting(self, *key)
            for elements, concept in candidates:
                if concept not in out and (len(elements) <= 2 or (
                        i + len(elements) <= len(sequence) and all(
                            _element_matches(e, sequence[i + k])
                            for k, e in enumerate(elements) if k > 1))):
                    out.add(concept)
        if runs and self.automaton is not None:
            for run in runs:
                for index, _, _ in self.automaton.find_matches_as_indexes(run):
                    out.update(self.cjk_concepts[index])
        return sorted(out)


def _starting(vocabulary: Vocabulary, word: tuple[str, str], following: tuple[str, str] | None
              ) -> tuple[tuple[tuple[_Element, ...], str], ...]:
    """The longer terms of VOCABULARY that start at WORD and whose second word (if any) is
    FOLLOWING: what is left to check is their third word on."""
    stem, raw = word
    return tuple(
        (elements, concept)
        for elements, concept in [*vocabulary.by_stem.get(stem, ()),
                                  *vocabulary.by_prefix.get(raw[:PREFIX_KEY], ())]
        if _element_matches(elements[0], word) and (len(elements) == 1 or (
            following is not None and _element_matches(elements[1], following))))


def _element_matches(element: _Element, word: tuple[str, str]) -> bool:
    kind, value = element
    return word[0] == value if kind == "=" else word[1].startswith(value)


def _run_bigrams(run: str, start: int, end: int) -> tuple[str, ...]:
    """The bigrams of RUN (as the analyser makes them) inside [START, END)."""
    if len(run) == 1:
        return (run,)
    if end - start == 1:  # one character of a longer run: the bigrams that hold it
        return tuple(run[i : i + 2] for i in (start - 1, start) if 0 <= i < len(run) - 1)
    return tuple(run[i : i + 2] for i in range(start, end - 1))


def concept_token(name: str) -> str:
    return "k" + name.replace("-", "")


def parse(text: str, analyse: Callable[[str], list[tuple[str, str]]],
          is_cjk: Callable[[str], bool]) -> Vocabulary:
    """The vocabulary TEXT describes; ANALYSE gives a term's content words as (stem, token),
    IS_CJK tells a term written in CJK characters."""
    single: dict[str, list[str]] = {}
    by_stem: dict[str, list[tuple[tuple[_Element, ...], str]]] = {}
    by_prefix: dict[str, list[tuple[tuple[_Element, ...], str]]] = {}
    cjk: dict[str, list[str]] = {}
    words: dict[str, list[str]] = {}
    for line in text.splitlines():
        match = _LINE.match(line.strip())
        if not match or line.lstrip().startswith("#"):
            continue
        concept = concept_token(match.group(1))
        for term in (t.strip() for t in match.group(2).split(",")):
            if not term:
                continue
            if is_cjk(term):
                key = term.replace(" ", "")
                if all(is_cjk(c) for c in key):
                    cjk.setdefault(key, []).append(concept)
                    if key != term:
                        # Korean spaces its words ("부하 테스트"): the spaced form matches
                        # a prompt's runs joined by a space (:meth:`Vocabulary.match`).
                        cjk.setdefault(" ".join(term.split()), []).append(concept)
                continue
            elements = _elements(term, analyse)
            if not elements:
                continue
            kind, value = elements[0]
            if len(elements) == 1 and kind == "=":
                if concept not in single.setdefault(value, []):
                    single[value].append(concept)
                if term.isalpha() and concept not in words.setdefault(term, []):
                    words[term].append(concept)
                continue
            table = by_stem if kind == "=" else by_prefix
            entries = table.setdefault(value if kind == "=" else value[:PREFIX_KEY], [])
            if (elements, concept) not in entries:  # `test`, `tests`: one stem
                entries.append((elements, concept))
    terms = list(cjk)
    automaton = None
    if terms:
        import ahocorasick_rs

        automaton = ahocorasick_rs.AhoCorasick(
            terms, matchkind=ahocorasick_rs.MatchKind.LeftmostLongest)
    return Vocabulary({k: tuple(v) for k, v in single.items()}, by_stem, by_prefix, terms,
                      [tuple(dict.fromkeys(cjk[t])) for t in terms],
                      automaton, hashlib.blake2b(text.encode(), digest_size=6).hexdigest(),
                      words={k: tuple(v) for k, v in words.items()})


def _elements(term: str, analyse: Callable[[str], list[tuple[str, str]]]
              ) -> tuple[_Element, ...]:
    out: list[_Element] = []
    for word in term.split():
        if word.endswith("*"):
            prefix = word.rstrip("*").casefold()
            if len(prefix) >= PREFIX_KEY:
                out.append(("^", prefix))
            continue
        out.extend(("=", stem) for stem, _ in analyse(word))
    return tuple(out)


@functools.cache
def text() -> str:
    return resources.files("memcli.search").joinpath("vocabulary.txt").read_text("utf-8")
