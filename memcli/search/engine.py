"""`search`: rank the notes of both stores for a query (`recall`, in
:mod:`memcli.search.recall`, decides which of them are relevant).

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
  between 0 and 1, so one threshold (:data:`memcli.search.recall.RECALL_THRESHOLD`) works
  on any store;
- *names*: a prompt that names someone or something (a capitalised word inside a sentence)
  that the store knows is about that name; notes that do not hold it are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from memcli.errors import InputError
from memcli.safety.invisible_chars import safe_line
from memcli.search import stems
from memcli.search._fts_sync import Progress
from memcli.search.analyze import (
    Analyzed,
    clauses,
    entity_terms,
    normalise,
    query_terms,
    stem,
)
from memcli.search.coverage import Judge
from memcli.search.cues import asks_name, tells_name
from memcli.search.dates import Named, asks_when, named_dates, nearness, note_date, tells_when
from memcli.search.fts import Hit, StoreIndex
from memcli.search.topic import topic_terms
from memcli.settings.config import Settings
from memcli.settings.zone import UTC, Zone
from memcli.store.folder import StoreState
from memcli.store.freshness import is_past
from memcli.store.notes import Note
from memcli.tokens import count_tokens

CANDIDATES = 50
SNIPPET_CHARS = 160
# A query or prompt longer than this is searched by its first MAX_QUERY_CHARS characters
# (cut at a space when there is one), and the result says so: the analysis of a query is
# linear but not cheap (a 6 MB query took 37 s), and no question runs to 16,000 characters.
MAX_QUERY_CHARS = 16_384


@dataclass(frozen=True)
class Weights:
    """The second stage: BM25 (as a share of the best candidate's) plus these weights times
    the coverage (0-1), the names test (0 or 1), the date nearness (0, 0.5 or 1), and, when
    the prompt asks when or for a name, whether the note says when or holds a name (0 or 1),
    and whether its title starts with a name the prompt asks about (`subject`, 0 or 1).
    A note that covers none of the prompt, of no day it names, counts its BM25 share times
    `unmatched`: it matched by the 4-grams of other words or by generic words alone."""

    coverage: float
    names: float
    date: float
    when: float = 0.0
    name: float = 0.0
    unmatched: float = 1.0
    subject: float = 0.0


# Chosen on the tuning part of LoCoMo's development half (docs/recall.md has the grid); the
# coverage weight (0.5 before the coding vocabulary) on it and the development coding set.
# `unmatched` (1.0 before round 3 of issue 28): "bring up the backend on my machine" ranked
# the note on background jobs (`back` in its 4-grams) above the one on running the app
# locally, and recall, which stops at a first note that is not relevant, returned nothing.
# From 0.25 to 0.75 LoCoMo's tuning part does not move and the development coding set gains
# the same two prompts (docs/recall.md).
# `subject` (round 4 of issue 28): "what did Maria do?" is answered by a note about Maria
# ("Maria volunteers at…"), more than by one that names her in passing ("John admires
# Maria's…"). 0.2 chosen on LoCoMo's conversations 1-3 (0.1: no gain; 0.2 and 0.4 the same).
WEIGHTS = Weights(coverage=1.5, names=0.2, date=0.75, when=0.3, name=0.4, unmatched=0.5,
                  subject=0.2)


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
    snippet: str  # filled only for the hits shown (see with_snippets)
    date_nearness: float = 0.0
    tells_when: bool = False  # the prompt asks when and the note says when
    tells_name: bool = False  # the prompt asks for a name and the note holds one
    # Its title starts with a name the prompt asks about: the note is about it.
    subject: bool = False
    # The coverage of the prompt's topic (its words without its dates and the words that ask
    # about activity in general) when it names a time; the coverage otherwise.
    topic_coverage: float = 0.0
    # The share of the prompt it holds in the prompt's own specific words (no concept of
    # the vocabulary, no generic word): see :func:`memcli.search.recall.trimmed`.
    literal: float = 0.0
    held: int = 0  # how many of the prompt's specific words it holds (or their concepts)
    held_known: int = 0  # ... of which the vocabulary knows (coding tasks and tools)
    asked: int = 0  # how many things the prompt asks for
    written: str = ""  # the later of the note's `created` and `updated` (ISO)
    expired: bool = False  # its `expires` date is over at the time of the search
    # What the agent is told when the note's cited code changed or is gone (docs/anchors.md).
    warning: str = ""

    @property
    def tokens(self) -> int:
        return count_tokens(self.content)


@dataclass
class SearchResult:
    query: str
    hits: list[SearchHit]
    indexed: dict[str, int] = field(default_factory=dict)  # notes (re)analysed per level
    in_memory: bool = False  # the cache could not be used
    dated: bool = False  # the query names a day, a week or a month
    terms: Analyzed | None = field(default=None, repr=False, compare=False)  # the query's
    time_only: bool = False  # ... and nothing else: "what did we do yesterday?"
    cut_from: int = 0  # the query's length when it was cut to MAX_QUERY_CHARS, else 0


def cache_dir(settings: Settings) -> Path:
    return settings.user_home / "cache" / "search"


def load_states(settings: Settings, level: str | None) -> list[StoreState]:
    from memcli.writes.stores import open_stores, reading_levels

    levels = reading_levels(level, settings)
    # Without their bodies: the index reads a note's bytes when they changed, and a hit's
    # when it is shown (a 100,000-note store held whole is 70 MB more at the peak).
    with open_stores(settings, levels, bodies=False) as stores:
        return [stores[lvl] for lvl in levels]


def search(settings: Settings, query: str, *, level: str | None = None,
           limit: int | None = 10, states: Sequence[StoreState] | None = None,
           progress: Progress | None = None) -> SearchResult:
    """The notes of the stores ranked for QUERY, best first, with a snippet each (LIMIT of
    them; None: every candidate). STATES: the stores, when the caller read them already.
    PROGRESS hears of a long index build."""
    if not query.strip():  # a script that lost its variable: "no note matches" would hide it
        raise InputError("the search query is empty: give the words to look for")
    cut_from = 0
    if len(query) > MAX_QUERY_CHARS:
        cut_from, query = len(query), cut_query(query)
    found = search_states(load_states(settings, level) if states is None else states, query,
                          cache_dir(settings), limit=limit, now=settings.moment(),
                          zone=settings.zone, progress=progress)
    found.cut_from = cut_from
    return found


def cut_query(query: str) -> str:
    """The first MAX_QUERY_CHARS characters of QUERY, ending at a space when one is near."""
    head = query[:MAX_QUERY_CHARS]
    space = head.rfind(" ", MAX_QUERY_CHARS // 2)
    return head[:space] if space > 0 else head


def search_states(states: Sequence[StoreState], query: str, cache: Path | None, *,
                  limit: int | None = 10, now: datetime | None = None,
                  zone: Zone = UTC, progress: Progress | None = None) -> SearchResult:
    """QUERY over STATES; NOW (when it is asked, as the person's wall time) lets "yesterday"
    and the like count, and tells the notes that expired; the days of the notes are the
    person's, in ZONE."""
    if cache is not None:
        stems.load(cache)  # before the first analysis: the vocabulary's terms are stemmed
    terms = query_terms(query)
    names = entity_terms(query)
    dates = named_dates(query, None if now is None else now.date())
    topic = topic_terms(query, dates) if dates else None
    asks = _Asks(when=asks_when(query), name=asks_name(query))
    clause_terms = [query_terms(c) for c in clauses(query)]
    result = SearchResult(query, [], dated=bool(dates), time_only=topic is not None
                          and not topic.words, terms=terms)
    for state in states:
        if not state.exists or not state.heads:
            continue
        index = StoreIndex.open(cache, state, progress)
        try:
            result.indexed[state.level] = index.stats.indexed
            result.in_memory = result.in_memory or index.stats.in_memory
            hits = index.ranked(terms, max(limit or 0, CANDIDATES))
            if topic is not None:  # the prompt names a time
                hits += index.dated(topic, dates, CANDIDATES, without={h.filename for h in hits},
                                    zone=zone)
            judge = Judge(index, terms, names, topic, clause_terms)
            result.hits.extend(_hit(state, h, judge, dates, asks, now, zone) for h in hits)
        finally:
            index.close()
    if cache is not None:
        stems.save(cache)
    result.hits = reranked(result.hits)
    if limit is not None:
        del result.hits[limit:]
        result.hits = with_snippets(result.hits, terms)
    return result


def with_snippets(hits: Sequence[SearchHit], terms: Analyzed | None) -> list[SearchHit]:
    """HITS with their snippets: made for the hits shown only (each costs a pass over the
    note's sentences and a scan for secrets; a dated prompt brings a hundred candidates)."""
    if terms is None:
        return list(hits)
    return [replace(h, snippet=for_agent(snippet(shown(h).content, terms))) for h in hits]


def reranked(hits: Sequence[SearchHit], weights: Weights = WEIGHTS) -> list[SearchHit]:
    """HITS scored and ordered by the second stage, best first."""
    best = max((h.bm25 for h in hits), default=0.0)
    scored = [replace(h, score=round(rerank_score(h, best, weights), 4)) for h in hits]
    scored.sort(key=lambda h: (-h.score, h.level, h.filename))
    return scored


def rerank_score(hit: SearchHit, best: float, weights: Weights = WEIGHTS) -> float:
    share = hit.bm25 / best if best > 0 else 0.0
    if hit.coverage == 0 and hit.date_nearness == 0:
        share *= weights.unmatched
    return (share + weights.coverage * hit.coverage + weights.names * hit.names_ok
            + weights.date * hit.date_nearness + weights.when * hit.tells_when
            + weights.name * hit.tells_name + weights.subject * hit.subject)


@dataclass(frozen=True)
class _Asks:
    """What kind of answer a prompt asks for, besides its words."""

    when: bool  # a time: "when did we…", "how long…"
    name: bool  # a name or a title: "what book…", "the name of…"


def _hit(state: StoreState, hit: Hit, judge: Judge, dates: Named, asks: _Asks,
         now: datetime | None, zone: Zone = UTC) -> SearchHit:
    """A candidate, scored by BM25 alone until :func:`reranked`."""
    note: Note = hit.note if hit.note is not None else state.notes[hit.filename]
    stamps = [s for s in (note.created, note.updated) if note_date(s) is not None]
    expires = state.heads[hit.filename].expires
    held = judge.held(hit)
    return SearchHit(
        level=state.level, filename=hit.filename, path=state.path / hit.filename,
        type=note.type, title=safe_line(without_secrets(shown_text(state.level, note.title))),
        summary=safe_line(without_secrets(shown_text(state.level, note.summary))),
        content=note.content,
        score=hit.score, bm25=hit.score, coverage=round(judge.coverage(hit), 4),
        names_ok=judge.names_ok(hit), snippet="",
        date_nearness=nearness(dates, stamps, zone) if dates else 0.0,
        tells_when=asks.when and tells_when(note.content),
        tells_name=asks.name and tells_name(note.content, judge.given),
        subject=bool(judge.given) and title_subject(note.title) in judge.given,
        topic_coverage=round(judge.topic.of(hit), 4), literal=round(judge.literal(hit), 4),
        held=held[0], held_known=held[1], asked=judge.prompt.asked,
        written=max(stamps, default=""),
        expired=bool(now and expires and is_past(expires, now)),
    )


def title_subject(title: str) -> str:
    """The stem of TITLE's first word (the note's subject when it is a name), or ""."""
    first = _WORD.search(normalise(title))
    return stem(first.group()) if first else ""


def shown(hit: SearchHit) -> SearchHit:
    """HIT as an agent is handed it: a project or team note without the text it hides
    when it is rendered. Only for the hits shown: each such note is parsed as Markdown."""
    content = shown_text(hit.level, hit.content)
    return hit if content is hit.content else replace(hit, content=content)


def shown_text(level: str, text: str) -> str:
    """A project or team note's TEXT without its HTML comments and link-definition
    comments, each replaced by a mark: a repository's notes (and a team store's) were never
    reviewed by the person, and a reviewer who read one on GitHub never saw them
    (docs/security.md). Only the user's own store is trusted."""
    from memcli.safety.hidden_markup import might_hide

    if level == "user" or not might_hide(text):
        return text
    from memcli.safety.hidden_markup import without_hidden

    return without_hidden(text)


def for_agent(text: str) -> str:
    """TEXT as search and recall hand it to an agent (or a terminal): secrets redacted, and
    no control or invisible character. A cloned repository's notes were never reviewed by
    the person: tag characters spell instructions a model reads and nobody sees, and escape
    sequences drive the terminal that shows them."""
    from memcli.safety.invisible_chars import safe_text

    return safe_text(without_secrets(text))


def without_secrets(text: str) -> str:
    """TEXT with secrets a person typed into a note by hand redacted (memcli's own writes
    redact them already): what search and recall print may go into an agent's prompt."""
    from memcli.safety.redact import find_secrets, redact

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
