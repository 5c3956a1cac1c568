"""`search` and `recall`: rank the notes of both stores for a query, and decide what is relevant.

Ranking has two stages. FTS5's BM25 over the analysed terms (:mod:`memcli.search.fts`)
gives the candidates, and for a prompt that names a day, the notes written that day join
them whatever their words. They are then re-ordered by what BM25 does not see: the share of
the prompt's weight a note covers, whether it holds the names the prompt asks about,
whether it was written on a day the prompt names, and, for a prompt that asks when, whether
it says when (:func:`reranked`). Whether a note is relevant enough for `recall` to hand it
to an agent is a separate question, answered by two measures that do not depend on the size
of the store:

- *coverage*: the share of the prompt's word terms, weighted by their IDF in the store, that
  the note holds. BM25 scores grow with the store and the prompt's length; coverage stays
  between 0 and 1, so one threshold (:data:`RECALL_THRESHOLD`) works on any store;
- *names*: a prompt that names someone or something (a capitalised word inside a sentence)
  that the store knows is about that name; notes that do not hold it are dropped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from memcli.config import Settings
from memcli.errors import InputError
from memcli.invisible import safe_line
from memcli.notes import Note
from memcli.search.analyze import Analyzed, entity_terms, normalise, query_terms, stem
from memcli.search.cues import asks_name, tells_name
from memcli.search.dates import Named, asks_when, named_dates, nearness, tells_when
from memcli.search.fts import Hit, StoreIndex, token
from memcli.store import StoreState
from memcli.tokens import count_tokens

# Chosen on the tuning part of LoCoMo's development half, checked on its held-out part and
# on the coding-agent set (docs/recall.md has the sweep).
RECALL_THRESHOLD = 0.45
DEFAULT_BUDGET = 1000
MAX_RECALLED = 10
CANDIDATES = 50
# A prompt's word that no note holds still says what the prompt is about ("write a haiku"
# is not about the note on writing commit messages), at this share of a rare word's weight.
UNKNOWN_WEIGHT = 0.25
SNIPPET_CHARS = 160


@dataclass(frozen=True)
class Weights:
    """The second stage: BM25 (as a share of the best candidate's) plus these weights times
    the coverage (0-1), the names test (0 or 1), the date nearness (0, 0.5 or 1), and, when
    the prompt asks when or for a name, whether the note says when or holds a name (0 or 1)."""

    coverage: float
    names: float
    date: float
    when: float = 0.0
    name: float = 0.0


# Chosen on the tuning part of LoCoMo's development half (docs/recall.md has the grid).
WEIGHTS = Weights(coverage=0.5, names=0.2, date=0.75, when=0.3, name=0.4)


@dataclass(frozen=True)
class SearchHit:
    level: str
    filename: str
    path: Path
    type: str
    title: str
    summary: str
    content: str
    score: float  # the second stage's
    bm25: float  # the first stage's
    coverage: float
    names_ok: bool
    snippet: str
    date_nearness: float = 0.0
    tells_when: bool = False  # the prompt asks when and the note says when
    tells_name: bool = False  # the prompt asks for a name and the note holds one

    @property
    def tokens(self) -> int:
        return count_tokens(self.content)


@dataclass
class SearchResult:
    query: str
    hits: list[SearchHit]
    indexed: dict[str, int] = field(default_factory=dict)  # notes (re)analysed per level
    in_memory: bool = False  # the cache could not be used


def cache_dir(settings: Settings) -> Path:
    return settings.user_home / "cache" / "search"


def load_states(settings: Settings, level: str | None) -> list[StoreState]:
    from memcli.core.stores import levels_for, open_stores

    levels = levels_for(level)
    with open_stores(settings, levels) as stores:
        return [stores[lvl] for lvl in levels]


def search(settings: Settings, query: str, *, level: str | None = None,
           limit: int = 10) -> SearchResult:
    """The notes of the stores ranked for QUERY, best first, with a snippet each."""
    if not query.strip():  # a script that lost its variable: "no note matches" would hide it
        raise InputError("the search query is empty: give the words to look for")
    return search_states(load_states(settings, level), query, cache_dir(settings), limit=limit,
                         today=settings.moment().date())


def search_states(states: Sequence[StoreState], query: str, cache: Path | None, *,
                  limit: int = 10, today: date | None = None) -> SearchResult:
    """QUERY over STATES; TODAY (the day it is asked) lets "yesterday" and the like count."""
    terms = query_terms(query)
    names = entity_terms(query)
    dates = named_dates(query, today)
    asks = _Asks(when=asks_when(query), name=asks_name(query))
    result = SearchResult(query, [])
    for state in states:
        if not state.exists or not state.heads:
            continue
        index = StoreIndex.open(cache, state)
        try:
            result.indexed[state.level] = index.stats.indexed
            result.in_memory = result.in_memory or index.stats.in_memory
            hits = index.ranked(terms, max(limit, CANDIDATES))
            if dates:
                hits += _dated(index, terms, dates, {h.filename for h in hits})
            judge = _Judge(index, terms, names)
            result.hits.extend(_hit(state, h, judge, terms, dates, asks) for h in hits)
        finally:
            index.close()
    result.hits = reranked(result.hits)
    del result.hits[limit:]
    return result


def _dated(index: StoreIndex, terms: Analyzed, dates: Named, found: set[str]) -> list[Hit]:
    """The notes written on the days the prompt names that BM25 did not find: "what did
    Maria share on 16 June?" is answered by a note of that day whatever its words."""
    return [h for h in index.dated(terms, dates, CANDIDATES) if h.filename not in found]


def reranked(hits: Sequence[SearchHit], weights: Weights = WEIGHTS) -> list[SearchHit]:
    """HITS scored and ordered by the second stage, best first."""
    best = max((h.bm25 for h in hits), default=0.0)
    scored = [replace(h, score=round(rerank_score(h, best, weights), 4)) for h in hits]
    scored.sort(key=lambda h: (-h.score, h.level, h.filename))
    return scored


def rerank_score(hit: SearchHit, best: float, weights: Weights = WEIGHTS) -> float:
    share = hit.bm25 / best if best > 0 else 0.0
    return (share + weights.coverage * hit.coverage + weights.names * hit.names_ok
            + weights.date * hit.date_nearness + weights.when * hit.tells_when
            + weights.name * hit.tells_name)


class _Judge:
    """Coverage and names of a note against one prompt, with one store's statistics."""

    def __init__(self, index: StoreIndex, terms: Analyzed, names: Sequence[str]) -> None:
        frequencies = index.document_frequencies([*terms.words, *names])
        total = index.documents
        self.weights = {token(t): _idf(total, frequencies[t])
                        for t in terms.words if t in frequencies}
        unknown = [t for t in terms.words if t not in frequencies]
        self.unknown = UNKNOWN_WEIGHT * _idf(total, 0) * len(unknown)
        # Only names the store knows can tell notes apart; an unknown one says nothing.
        self.names = [token(n) for n in names if n in frequencies]
        self.given = frozenset(names)  # every name the prompt holds, known or not

    def coverage(self, hit: Hit) -> float:
        whole = sum(self.weights.values()) + self.unknown
        if not self.weights:
            return 0.0
        return sum(w for t, w in self.weights.items() if t in hit.words) / whole

    def names_ok(self, hit: Hit) -> bool:
        return all(name in hit.words for name in self.names)


def _idf(documents: int, frequency: int) -> float:
    return math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))


@dataclass(frozen=True)
class _Asks:
    """What kind of answer a prompt asks for, besides its words."""

    when: bool  # a time: "when did we…", "how long…"
    name: bool  # a name or a title: "what book…", "the name of…"


def _hit(state: StoreState, hit: Hit, judge: _Judge, terms: Analyzed,
         dates: Named, asks: _Asks) -> SearchHit:
    """A candidate, scored by BM25 alone until :func:`reranked`."""
    note: Note = state.notes[hit.filename]
    return SearchHit(
        level=state.level, filename=hit.filename, path=state.path / hit.filename,
        type=note.type, title=safe_line(note.title), summary=safe_line(note.summary),
        content=note.content,
        score=hit.score, bm25=hit.score, coverage=round(judge.coverage(hit), 4),
        names_ok=judge.names_ok(hit), snippet=for_agent(snippet(note.content, terms)),
        date_nearness=nearness(dates, (note.created, note.updated)) if dates else 0.0,
        tells_when=asks.when and tells_when(note.content),
        tells_name=asks.name and tells_name(note.content, judge.given),
    )


def for_agent(text: str) -> str:
    """TEXT as search and recall hand it to an agent (or a terminal): secrets redacted, and
    no control or invisible character. A cloned repository's notes were never reviewed by
    the person: tag characters spell instructions a model reads and nobody sees, and escape
    sequences drive the terminal that shows them."""
    from memcli.invisible import safe_text

    return safe_text(without_secrets(text))


def without_secrets(text: str) -> str:
    """TEXT with secrets a person typed into a note by hand redacted (memcli's own writes
    redact them already): what search and recall print may go into an agent's prompt."""
    from memcli.redact import find_secrets, redact

    return redact(text)[0] if find_secrets(text) else text


# ---------------------------------------------------------------------- snippets

# A full stop ends a sentence only before a space and a word that does not start in lower
# case, or the end: `https://wiki.example.com`, `./... before` and `v1.4` stay whole.
_SENTENCE = re.compile(r"(?:[^\n.!?。！？]+|[.!?](?=\S|[ \t]+[a-zß-öø-ÿ]))+[.!?。！？]?")
_WORD = re.compile(r"\w+")


def snippet(text: str, terms: Analyzed, width: int = SNIPPET_CHARS) -> str:
    """The sentence of TEXT that holds the most query terms, on one line, cut to WIDTH."""
    wanted = set(terms.words)
    best, best_score = "", -1
    for match in _SENTENCE.finditer(text):
        sentence = " ".join(match.group().split())
        if not sentence:
            continue
        score = _sentence_score(sentence, wanted)
        if score > best_score:
            best, best_score = sentence, score
    if len(best) <= width:
        return best
    return best[: width - 1].rstrip() + "…"


def _sentence_score(sentence: str, wanted: set[str]) -> int:
    lowered = normalise(sentence)
    words = {stem(w) for w in _WORD.findall(lowered)}
    cjk = sum(1 for term in wanted if len(term) <= 2 and term in lowered)
    return len(words & wanted) + cjk


# ---------------------------------------------------------------------- recall


@dataclass
class RecallResult:
    prompt: str
    notes: list[SearchHit]
    text: str
    budget: int
    threshold: float
    considered: int  # candidates ranked before the relevance test

    @property
    def tokens(self) -> int:
        return count_tokens(self.text)


def recall(settings: Settings, prompt: str, *, budget: int = DEFAULT_BUDGET,
           level: str | None = None, threshold: float = RECALL_THRESHOLD) -> RecallResult:
    """The bodies of the notes relevant to PROMPT within BUDGET tokens; none when none is."""
    found = search(settings, prompt, level=level, limit=CANDIDATES)
    return select(found, budget=budget, threshold=threshold)


def relevant(hits: Sequence[SearchHit], threshold: float = RECALL_THRESHOLD) -> list[SearchHit]:
    return [h for h in hits if h.coverage >= threshold and h.names_ok]


def select(found: SearchResult, *, budget: int = DEFAULT_BUDGET,
           threshold: float = RECALL_THRESHOLD) -> RecallResult:
    chosen: list[SearchHit] = []
    used = count_tokens(_frame())
    for hit in relevant(found.hits, threshold)[:MAX_RECALLED]:
        cost = count_tokens(_section(hit))
        if used + cost <= budget:
            chosen.append(hit)
            used += cost
    text = for_agent(_frame() + "".join(_section(h) for h in chosen)) if chosen else ""
    return RecallResult(found.query, chosen, text, budget, threshold, len(found.hits))


def _frame() -> str:
    return "## Recalled Memory\n(memcli notes relevant to this prompt, most relevant first)\n"


def _section(hit: SearchHit) -> str:
    return f"\n### [{hit.type}] {hit.title} ({hit.level}/{hit.filename})\n{hit.content}\n"
