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
import os
import sqlite3
import zlib
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import UTC as UTC_TZ
from datetime import date, datetime, timedelta
from pathlib import Path

from memcli.errors import BrokenNoteError, StoreError
from memcli.search.analyze import Analyzed, analyzer_version
from memcli.search.dates import Named, note_time
from memcli.search.index_terms import note_columns
from memcli.search.index_terms import token as token  # coverage and tests import it here
from memcli.settings.zone import UTC, Zone
from memcli.store.folder import StoreState
from memcli.store.notes import Note, decode_note, parse_note_text

# 2: the `days` table (the days each note was created and updated on).
# 3: `days.day` holds instants in UTC (a bare day only where the note gives no time).
# 4: the `concepts` column (the coding vocabulary's concepts a note holds); contentless,
#    with a compressed copy of each note's terms in `notes.terms`.
# 5: `notes.terms` keeps the Latin tokens the 4-grams come from, not the 4-grams.
# 6: `notes.text` keeps the analysed text, compressed, instead of the terms (a third of the
#    size): a hit's terms, and a changed note's old ones, are analysed again from it;
#    `days` keyed by (day, note) without a rowid, no index on `notes.filename`;
#    `notes.stamp`: a note file's inode, size and times, so that its bytes are read again
#    only when they changed.
SCHEMA_VERSION = "6"
# Weight of the 4-gram column against the word column in FTS5's bm25(); chosen on the
# tuning part of LoCoMo's development half (docs/recall.md).
GRAM_WEIGHT = 0.4
# Weight of the concepts column: a note that holds a prompt's concept but not its words ranks
# below one that holds the words. Chosen on the development coding set and LoCoMo's tuning
# part (docs/recall.md).
CONCEPT_WEIGHT = 0.5
BUSY_TIMEOUT_MS = 2000
# A note file changed this recently is digested again at the next sync whatever its stamp:
# file systems keep times to a few milliseconds (some to two seconds).
RACY_NS = 3_000_000_000
# The most notes of the named days looked at for the candidates (a month of a big store).
MAX_DATED = 5000


# Told (level, notes analysed, notes to analyse) while an index is built or updated.
Progress = Callable[[str, int, int], None]
PROGRESS_EVERY = 500


@dataclass(frozen=True)
class Hit:
    filename: str
    score: float  # BM25, higher is better
    words: frozenset[str]  # the note's word terms, for coverage and names
    concepts: frozenset[str] = frozenset()  # the vocabulary's concepts it holds


@dataclass
class SyncStats:
    indexed: int = 0  # notes (re)analysed by this sync
    removed: int = 0
    in_memory: bool = False


def cache_path(cache_dir: Path, store: Path) -> Path:
    key = hashlib.sha256(str(store.resolve()).encode()).hexdigest()[:24]
    return cache_dir / f"{key}.db"


def note_text(note: Note) -> str:
    return f"{note.title}\n{note.summary}\n{note.body}"


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class StoreIndex:
    """One store's index, open for one command."""

    def __init__(self, db: sqlite3.Connection, stats: SyncStats) -> None:
        self.db = db
        self.stats = stats
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
                    if attempt or not _discard_corrupt(path):
                        break
                except (sqlite3.Error, OSError):
                    break
        db = sqlite3.connect(":memory:", isolation_level=None)
        _create(db)
        stats = _sync(db, state, progress)
        stats.in_memory = True
        return cls(db, stats)

    @classmethod
    def _open_cached(cls, path: Path, state: StoreState,
                     progress: Progress | None = None) -> StoreIndex:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            if not _current(db):
                _drop(db)
                _create(db)
            return cls(db, _sync(db, state, progress, clock=Path(f"{path}.lock")))
        except BaseException:
            db.close()
            raise

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ reading

    @property
    def documents(self) -> int:
        if self._docs is None:
            self._docs = int(self.db.execute("SELECT count(*) FROM notes").fetchone()[0])
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
            "SELECT n.filename, bm25(fts, 1.0, ?, ?) AS rank, n.text FROM fts "
            "JOIN notes n ON n.id = fts.rowid WHERE fts MATCH ? ORDER BY rank LIMIT ?",
            (GRAM_WEIGHT, CONCEPT_WEIGHT, expression, limit),
        )
        return [_hit(name, -rank, text) for name, rank, text in rows]

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
        rows = self.db.execute(
            "SELECT n.id, n.filename FROM notes n "
            "JOIN (SELECT note, max(day) AS latest FROM days "
            f"WHERE {where} GROUP BY note) d ON d.note = n.id "
            "ORDER BY d.latest DESC, n.id DESC LIMIT ?",
            (*params, MAX_DATED + len(without)))
        dated = [(row_id, name) for row_id, name in rows if name not in without]
        if not dated:
            return []
        held: Counter[int] = Counter()
        for term in dict.fromkeys(token(t) for t in [*query.words, *query.pairs]):
            held.update(row_id for (row_id,) in self.db.execute(
                "SELECT rowid FROM fts WHERE fts MATCH ?", (f'words : "{term}"',)))
        # sorted() is stable: the most recent first among equals.
        chosen = sorted(dated, key=lambda row: -held[row[0]])[:limit]
        marks = ",".join("?" * len(chosen))
        texts = dict(self.db.execute(f"SELECT id, text FROM notes WHERE id IN ({marks})",
                                     [row_id for row_id, _ in chosen]))
        return [_hit(name, 0.0, texts[row_id]) for row_id, name in chosen]


def _hit(name: str, score: float, text: bytes) -> Hit:
    words, _, concepts = note_columns(zlib.decompress(text).decode())
    return Hit(name, score, frozenset(words.split()), frozenset(concepts.split()))


def _discard_corrupt(path: Path) -> bool:
    """Remove the corrupt cache at PATH (and its WAL files) so that it is built again: else
    every later search would build an index in memory, at a first search's cost. Under a lock,
    and only while PATH is still the file found corrupt (still not a database): another
    process may have put a good one there meanwhile, which is kept. Whether to try again."""
    import fcntl

    try:
        with open(f"{path}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if _readable(path):
                return True  # another process rebuilt it
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            return True
    except OSError:
        return False


def _readable(path: Path) -> bool:
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        db.execute("SELECT count(*) FROM meta").fetchone()
        db.execute("SELECT count(*) FROM notes").fetchone()
        return True
    except sqlite3.OperationalError:
        return True  # no table, locked: not corrupt (a schema change rebuilds it)
    except sqlite3.DatabaseError:
        return False
    finally:
        db.close()


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
                   _instant(zone.start_of(first)), _instant(zone.start_of(after))]
    return " OR ".join(clauses), params


def _next_day(day: date) -> date:
    return day + timedelta(days=1) if day < date.max else day


def _next_month(year: int, month: int) -> date:
    return date(year + month // 12, month % 12 + 1, 1) if (year, month) < (9999, 12) else date.max


def note_days(note: Note) -> set[str]:
    """When NOTE was created and updated: each an instant in UTC (`…T…Z`, which sorts as
    time does), or the bare day (ISO) a person wrote without a time."""
    found: set[str] = set()
    for stamp in {note.created, note.updated}:  # mostly the same: parsed once
        when = note_time(stamp)
        if isinstance(when, datetime):
            try:
                found.add(_instant(when))
                continue
            except OverflowError:  # year 1 ahead of UTC: its day is as good
                when = when.date()
        if when is not None:
            found.add(when.isoformat())
    return found


def _instant(moment: datetime) -> str:
    return moment.astimezone(UTC_TZ).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


def _match_expression(query: Analyzed) -> str:
    words = " OR ".join(f'"{token(t)}"' for t in [*query.words, *query.pairs])
    grams = " OR ".join(f'"{token(t)}"' for t in query.grams)
    concepts = " OR ".join(f'"{token(t)}"' for t in query.concepts)
    parts = [f"words : ({words})" if words else "", f"grams : ({grams})" if grams else "",
             f"concepts : ({concepts})" if concepts else ""]
    return " OR ".join(p for p in parts if p)


# ---------------------------------------------------------------------- schema and sync


def _current(db: sqlite3.Connection) -> bool:
    try:
        rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError:
        return False
    return rows == {"schema": SCHEMA_VERSION, "analyzer": analyzer_version()}


def _drop(db: sqlite3.Connection) -> None:
    for table in ("vocab", "fts", "days", "notes", "meta"):
        db.execute(f"DROP TABLE IF EXISTS {table}")


def _create(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    # `text`: the text the note's terms were analysed from, compressed. The FTS table keeps
    # no copy of its own (contentless): a hit's terms (what coverage reads) and a changed
    # note's old terms (what its row is deleted by) are analysed again from this one, a
    # third of the size of the terms.
    # No index on `filename`: a sync reads every row, nothing looks one up by its name.
    # `stamp`: the note file's inode, size and times when its bytes were digested (NULL when
    # the bytes are to be digested at every sync: see _sync).
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, filename TEXT NOT NULL, "
               "digest TEXT NOT NULL, stamp INTEGER, text BLOB NOT NULL)")
    # Plain ASCII tokens separated by spaces: no tokenizer folding to disagree with ours.
    db.execute("CREATE VIRTUAL TABLE fts USING fts5(words, grams, concepts, content = '', "
               "tokenize = \"ascii tokenchars '_'\")")
    db.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'col')")
    # Keyed by the day (what a prompt's days look up), without a rowid of its own.
    db.execute("CREATE TABLE days (day TEXT NOT NULL, note INTEGER NOT NULL, "
               "PRIMARY KEY (day, note)) WITHOUT ROWID")
    db.execute("CREATE INDEX days_by_note ON days (note)")
    db.executemany("INSERT INTO meta VALUES (?, ?)",
                   [("schema", SCHEMA_VERSION), ("analyzer", analyzer_version())])


def _sync(db: sqlite3.Connection, state: StoreState, progress: Progress | None = None,
          clock: Path | None = None) -> SyncStats:
    """Bring the index in line with STATE's notes: one transaction, only what changed.

    A note whose bytes STATE kept is compared by a digest of them. One it did not keep (a
    search reads the stores without their bodies: a 100,000-note store is never held in
    memory whole) by its file's inode, size and times, and read and digested only when they
    changed; its bytes are read once more to index it. A file written less than RACY_NS
    before the sync (the time of the file system, by touching CLOCK) keeps no such stamp:
    a second write within the file system's timestamp granularity could leave them as they
    were. Without CLOCK (an index in memory) nothing is stamped.
    """
    stats = SyncStats()
    found = _file_stats(state)
    plan = _Plan(db, state, found)
    if plan.idle:
        return stats
    db.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have updated the index between the plan and the lock: planned
        # again from what the index holds now, no note is indexed twice.
        if plan.known != _known(db):
            plan = _Plan(db, state, found)
        known, wanted, restamp, stale, fresh = (plan.known, plan.wanted, plan.restamp,
                                                plan.stale, plan.fresh)
        stamps = _trusted(found, clock)
        db.executemany("UPDATE notes SET stamp = ? WHERE id = ?",
                       [(stamps.get(name), known[name][0]) for name in restamp])
        for row_id in stale:  # a contentless table deletes a row given what it held
            (text,) = db.execute("SELECT text FROM notes WHERE id = ?", (row_id,)).fetchone()
            words, grams, concepts = note_columns(zlib.decompress(text).decode())
            db.execute("INSERT INTO fts (fts, rowid, words, grams, concepts) "
                       "VALUES ('delete', ?, ?, ?, ?)", (row_id, words, grams, concepts))
        db.executemany("DELETE FROM days WHERE note = ?", [(i,) for i in stale])
        db.executemany("DELETE FROM notes WHERE id = ?", [(i,) for i in stale])
        (last,) = db.execute("SELECT coalesce(max(id), 0) FROM notes").fetchone()
        for start in range(0, len(fresh), PROGRESS_EVERY):
            if progress is not None:
                progress(state.level, start, len(fresh))
            # A batch at a time, in three executemany calls: a call per row per table cost
            # a fifth of the inserting.
            rows, fts_rows, day_rows = [], [], []
            for row_id, name in enumerate(fresh[start:start + PROGRESS_EVERY], last + start + 1):
                data = _read(state, name)
                note = None if data is None else _parsed(name, data)
                if data is None or note is None:
                    continue  # gone or broken since the store was read: the next search sees
                text = note_text(note)
                words, grams, concepts = note_columns(text)
                rows.append((row_id, name, digest(data), stamps.get(name),
                             zlib.compress(text.encode(), 6)))
                fts_rows.append((row_id, words, grams, concepts))
                day_rows += [(row_id, day) for day in note_days(note)]
                stats.indexed += 1
            db.executemany("INSERT INTO notes (id, filename, digest, stamp, text) "
                           "VALUES (?, ?, ?, ?, ?)", rows)
            db.executemany("INSERT INTO fts (rowid, words, grams, concepts) VALUES (?, ?, ?, ?)",
                           fts_rows)
            db.executemany("INSERT INTO days (note, day) VALUES (?, ?)", day_rows)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    stats.removed = len(known.keys() - wanted.keys())
    return stats


Known = dict[str, tuple[int, str, int | None]]  # name -> (row id, digest, stamp)


def _known(db: sqlite3.Connection) -> Known:
    return {name: (row_id, dig, stamp) for row_id, name, dig, stamp
            in db.execute("SELECT id, filename, digest, stamp FROM notes")}


class _Plan:
    """What a sync changes: the notes it (re)indexes, the rows it drops, the stamps it
    updates, from what the index holds and the notes' files (FOUND: see _file_stats)."""

    def __init__(self, db: sqlite3.Connection, state: StoreState,
                 found: dict[str, tuple[int, int]]) -> None:
        self.known = known = _known(db)
        self.wanted: dict[str, str] = {}  # name -> digest ('' for a new note not read yet)
        self.restamp: list[str] = []  # unchanged notes whose stamp changed
        for name in state.heads:
            row = known.get(name)
            if name in state.raw:
                self.wanted[name] = digest(state.raw[name])
            elif name not in found:
                continue  # gone since the store was read
            elif row is None:
                self.wanted[name] = ""
            elif row[2] is not None and row[2] == found[name][0]:
                self.wanted[name] = row[1]
            else:
                data = _read(state, name)
                if data is None:
                    continue
                self.wanted[name] = digest(data)
                if self.wanted[name] == row[1]:
                    self.restamp.append(name)
        self.stale = [row_id for name, (row_id, dig, _) in known.items()
                      if self.wanted.get(name) != dig]
        self.fresh = [name for name, dig in self.wanted.items()
                      if name not in known or known[name][1] != dig]
        self.idle = not self.stale and not self.fresh and not self.restamp


def _file_stats(state: StoreState) -> dict[str, tuple[int, int]]:
    """The files of the notes whose bytes STATE did not keep, as they are now: each its
    stamp and when it last changed (not the whole stat: 770 bytes a note, 77 MB at the
    peak of a 100,000-note build)."""
    found: dict[str, tuple[int, int]] = {}
    names = [name for name in state.heads if name not in state.raw]
    if not names:
        return found
    try:  # each looked up in the open folder: no walk of the whole path per note
        folder = os.open(state.path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return found
    try:
        for name in names:
            try:
                stat = os.stat(name, dir_fd=folder, follow_symlinks=False)
            except OSError:
                continue
            found[name] = (hash((stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)),
                           max(stat.st_mtime_ns, stat.st_ctime_ns))
    finally:
        os.close(folder)
    return found


def _trusted(found: dict[str, tuple[int, int]], clock: Path | None) -> dict[str, int]:
    """The stamps of FOUND that may stand for their files' bytes: those of files last
    changed RACY_NS or more before now, the time CLOCK is given when touched."""
    if clock is None or not found:
        return {}
    try:
        with open(clock, "a"):
            pass
        os.utime(clock)
        now = os.stat(clock).st_mtime_ns
    except OSError:
        return {}
    return {name: stamp for name, (stamp, changed) in found.items() if changed < now - RACY_NS}


def _read(state: StoreState, name: str) -> bytes | None:
    try:
        return state.bytes_of(name)
    except StoreError:
        return None


def _parsed(name: str, data: bytes) -> Note | None:
    try:
        return parse_note_text(name, decode_note(data)[0], data)
    except BrokenNoteError:
        return None
