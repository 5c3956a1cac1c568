"""The derived search index of one store: SQLite FTS5 over analysed terms, kept in a cache.

The index lives outside the store (``<memcli home>/cache/search/<hash of the store path>.db``)
because it is derived data: deleting it loses nothing. Each note's row carries a digest of
the note's bytes, so every search brings the index up to date by re-analysing only the notes
whose bytes changed and dropping those that are gone. FTS5 holds the terms that
:mod:`memcli.search.analyze` produced (written as plain ASCII tokens, so SQLite's own
tokenizer only splits on spaces) and ranks with its built-in BM25.

A second table holds when each note was created and updated (the instant in UTC, or the bare
day a person wrote), so that a prompt naming a day ("what did we decide yesterday?") can
consider every note written then, even one that shares no word with the prompt
(:meth:`StoreIndex.dated`). Instants, not days: which day an instant falls on is the
person's zone's to say, and the cache is shared by every zone a command runs in.

When the cache cannot be used (a read-only or full disk, a corrupt file, another process
holding it too long) the index is built in memory for this one command instead: search
never fails because of its cache.
"""


from __future__ import annotations

import hashlib
import sqlite3
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from memcli.search._fts_schema import (
    BUSY_TIMEOUT_MS,
    create,
    current,
    discard_corrupt,
    drop,
    instant,
    reclaim,
)
from memcli.search._fts_sync import Progress, SyncStats, note_text, sync
from memcli.search.analyze import Analyzed
from memcli.search.dates import Named
from memcli.search.index_terms import note_columns
from memcli.search.index_terms import token as token  # coverage and tests import it here
from memcli.settings.zone import UTC, Zone
from memcli.store.folder import StoreState
from memcli.store.notes import Note

# Weight of the 4-gram column against the word column in FTS5's bm25(); chosen on the
# tuning part of LoCoMo's development half (docs/recall.md).
GRAM_WEIGHT = 0.4
# Weight of the concepts column: a note that holds a prompt's concept but not its words ranks
# below one that holds the words. Chosen on the development coding set and LoCoMo's tuning
# part (docs/recall.md).
CONCEPT_WEIGHT = 0.5
# The most notes of the named days looked at for the candidates (a month of a big store).
MAX_DATED = 5000


@dataclass(frozen=True)
class Hit:
    filename: str
    score: float  # BM25, higher is better
    words: frozenset[str]  # the note's word terms, for coverage and names
    concepts: frozenset[str] = frozenset()  # the vocabulary's concepts it holds
    # The note as read to analyse its terms (search shows it: not read twice).
    note: Note | None = field(default=None, compare=False, repr=False)



def cache_path(cache_dir: Path, store: Path) -> Path:
    key = hashlib.sha256(str(store.resolve()).encode()).hexdigest()[:24]
    return cache_dir / f"{key}.db"


class StoreIndex:
    """One store's index, open for one command."""

    def __init__(self, db: sqlite3.Connection, stats: SyncStats, state: StoreState) -> None:
        self.db = db
        self.stats = stats
        self.state = state  # a hit's terms are analysed from its file
        self._docs: int | None = None

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, cache_dir: Path | None, state: StoreState,
             progress: Progress | None = None) -> StoreIndex:
        """STATE's index, brought up to date (in memory when CACHE_DIR is None or unusable);
        PROGRESS is told how far a build or update is."""
        if cache_dir is not None:
            path = cache_path(cache_dir, state.path)
            for attempt in range(2):
                try:
                    return cls._open_cached(path, state, progress)
                except sqlite3.OperationalError:
                    break  # locked too long, read-only, full: an index of this command only
                except sqlite3.DatabaseError:  # not a database, or a malformed one
                    if attempt or not discard_corrupt(path):
                        break
                except (sqlite3.Error, OSError):
                    break
        db = sqlite3.connect(":memory:", isolation_level=None)
        create(db)
        stats = sync(db, state, progress)
        stats.in_memory = True
        return cls(db, stats, state)

    @classmethod
    def _open_cached(cls, path: Path, state: StoreState,
                     progress: Progress | None = None) -> StoreIndex:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            if not current(db):
                drop(db)
                create(db)
            stats = sync(db, state, progress, clock=Path(f"{path}.lock"))
            if stats.indexed or stats.removed:
                reclaim(db)
            return cls(db, stats, state)
        except BaseException:
            db.close()
            raise

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ reading

    @property
    def documents(self) -> int:
        """The FTS rows, dead ones included: what the document frequencies count in."""
        if self._docs is None:
            # One statement, one snapshot: a rebuild committed between two reads would pair
            # the live rows after it with the dead rows before it.
            (live, dead_rows) = self.db.execute(
                "SELECT (SELECT count(*) FROM notes), "
                "(SELECT value FROM meta WHERE key = 'dead')").fetchone()
            self._docs = int(live) + (0 if dead_rows is None else int(dead_rows))
        return self._docs

    def document_frequencies(self, terms: Iterable[str], column: str = "words"
                             ) -> dict[str, int]:
        """How many notes hold each term of COLUMN (`words`, `concepts`): terms no note
        holds are left out."""
        by_token = {token(t): t for t in terms}
        if not by_token:
            return {}
        marks = ",".join("?" * len(by_token))
        rows = self.db.execute(
            f"SELECT term, doc FROM vocab WHERE col = ? AND term IN ({marks})",
            [column, *by_token],
        )
        return {by_token[term]: int(doc) for term, doc in rows}

    def ranked(self, query: Analyzed, limit: int) -> list[Hit]:
        expression = _match_expression(query)
        if not expression:
            return []
        rows = self.db.execute(
            # The join leaves out the dead rows (changed and removed notes' old terms).
            "SELECT n.filename, bm25(fts, ?, 1.0, ?) AS rank FROM fts "
            "JOIN notes n ON n.id = fts.rowid WHERE fts MATCH ? ORDER BY rank LIMIT ?",
            (GRAM_WEIGHT, CONCEPT_WEIGHT, expression, limit),
        )
        # A note another command indexed after this one read the store is not this one's.
        return [self._hit(name, -rank) for name, rank in rows if name in self.state.heads]

    def dated(self, query: Analyzed, named: Named, limit: int,
              without: Collection[str] = (), zone: Zone = UTC) -> list[Hit]:
        """At most LIMIT notes created or updated on a day (or in a month) NAMED names, those
        holding most of QUERY's word terms first (then the most recently written), all at
        score 0, leaving out the notes WITHOUT names (the candidates BM25 found already):
        left out after the cut, they would take the places of notes of that day. The days
        are the person's, in ZONE.

        Not ranked by BM25: FTS5 answers a MATCH limited to a list of rows one row at a
        time (0.5 s for a month of a 10,000-note store); the notes that hold each term,
        one MATCH a term over the whole index, take milliseconds.
        """
        where, params = _day_clause(named, zone)
        if not where:
            return []
        # The notes' row ids and the terms' rowids read in one snapshot: a rebuild committed
        # between the two reads would give the same notes other row ids.
        self.db.execute("BEGIN")
        try:
            return self._dated(query, where, params, limit, without)
        finally:
            self.db.execute("COMMIT")

    def _dated(self, query: Analyzed, where: str, params: list[str], limit: int,
               without: Collection[str]) -> list[Hit]:
        rows = self.db.execute(
            "SELECT n.id, n.filename FROM notes n "
            "JOIN (SELECT note, max(day) AS latest FROM days "
            f"WHERE {where} GROUP BY note) d ON d.note = n.id "
            "ORDER BY d.latest DESC, n.id DESC LIMIT ?",
            (*params, MAX_DATED + len(without)))
        heads = self.state.heads  # see ranked()
        dated = [(row_id, name) for row_id, name in rows
                 if name not in without and name in heads]
        if not dated:
            return []
        held: Counter[int] = Counter()
        for term in dict.fromkeys(token(t) for t in [*query.words, *query.pairs]):
            held.update(row_id for (row_id,) in self.db.execute(
                "SELECT rowid FROM fts WHERE fts MATCH ?", (f'words : "{term}"',)))
        # sorted() is stable: the most recent first among equals.
        chosen = sorted(dated, key=lambda row: -held[row[0]])[:limit]
        return [self._hit(name, 0.0) for _, name in chosen]

    def _hit(self, name: str, score: float) -> Hit:
        """A hit, its terms analysed from its file as it is now (the index's row is of
        the same bytes, unless the file changed since this command's sync: then the newer)."""
        note = self.state.notes[name]
        words, _, concepts = note_columns(note_text(note))
        return Hit(name, score, frozenset(words.split()), frozenset(concepts.split()), note)


def _day_clause(named: Named, zone: Zone = UTC) -> tuple[str, list[str]]:
    """An SQL condition on `days.day` for the days and months NAMED names in ZONE, and its
    values: a bare day is that day; an instant, when it falls between the day's first
    instant in the zone and the next day's."""
    spans = [(day, _next_day(day)) for day in named.days]
    spans += [(date(year, month, 1), _next_month(year, month)) for year, month in named.months]
    clauses: list[str] = []
    params: list[str] = []
    for first, after in spans:
        clauses.append("(length(day) = 10 AND day >= ? AND day < ?)"
                       " OR (length(day) > 10 AND day >= ? AND day < ?)")
        params += [first.isoformat(), after.isoformat(),
                   instant(zone.start_of(first)), instant(zone.start_of(after))]
    return " OR ".join(clauses), params


def _next_day(day: date) -> date:
    return day + timedelta(days=1) if day < date.max else day


def _next_month(year: int, month: int) -> date:
    return date(year + month // 12, month % 12 + 1, 1) if (year, month) < (9999, 12) else date.max



def _match_expression(query: Analyzed) -> str:
    words = " OR ".join(f'"{token(t)}"' for t in [*query.words, *query.pairs])
    grams = " OR ".join(f'"{token(t)}"' for t in query.grams)
    concepts = " OR ".join(f'"{token(t)}"' for t in query.concepts)
    parts = [f"words : ({words})" if words else "", f"grams : ({grams})" if grams else "",
             f"concepts : ({concepts})" if concepts else ""]
    return " OR ".join(p for p in parts if p)
