"""The schema of a store's search cache (memcli.search.fts): its tables, the version that
says when they are built again, and what a corrupt cache file is.

The days table's format is here too (:func:`instant`): syncing writes it, querying reads it.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC as UTC_TZ
from datetime import datetime
from pathlib import Path

from memcli.search.analyze import analyzer_version

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
# 7: the `grams` column first (no column marker before its postings: the most numerous,
#    a tenth less index) and FTS5's `hashsize` at HASH_BYTES (fewer, larger segments: no
#    pages freed by merges, 40 % less inserting); the digest kept as 16 bytes, not hex;
#    `notes.text` compressed against a dictionary of the store's first notes (meta's
#    `dictionary`: :func:`packer`), two fifths smaller.
# 8: no copy of the notes' text (the dictionary and `notes.text` gone): a changed or removed
#    note's FTS row is left in place, dead (no `notes` row joins it), and counted in meta's
#    `dead`; the index is emptied and built again when the dead rows pass a share of the
#    live ones (_fts_sync.REBUILD_SHARE). `notes.id` AUTOINCREMENT: a dead row's id is never
#    given to another note. A hit's terms are analysed from its file.
SCHEMA_VERSION = "8"
# How many bytes of postings FTS5 gathers in memory before it writes a segment (its default
# is 1 MiB): a 10,000-note level then writes two segments instead of eighteen that are
# merged as they come (the merges' pages were left free in the file, 1.6 MB a level).
HASH_BYTES = 8 << 20
# SQLite's auto_vacuum mode that keeps free pages until told to give them back.
INCREMENTAL = 2
RECLAIM_PAGES = 256  # 1 MiB of free pages
BUSY_TIMEOUT_MS = 2000


def current(db: sqlite3.Connection) -> bool:
    try:
        rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError:
        return False
    if (rows.get("schema"), rows.get("analyzer")) != (SCHEMA_VERSION, analyzer_version()):
        return False
    # A `dead` that is no count (a damaged or hand-edited cache) would fail every search:
    # the cache is taken as corrupt and built again.
    return _is_count(rows.get("dead", "0"))


def _is_count(value: object) -> bool:
    return isinstance(value, str | int) and str(value).isdecimal()


def drop(db: sqlite3.Connection) -> None:
    for table in ("vocab", "fts", "days", "notes", "meta"):
        db.execute(f"DROP TABLE IF EXISTS {table}")
    if db.execute("PRAGMA auto_vacuum").fetchone()[0] != INCREMENTAL:
        # A cache of an older schema: the file emptied, so that it can give pages back.
        db.execute(f"PRAGMA auto_vacuum = {INCREMENTAL}")
        db.execute("VACUUM")


def reclaim(db: sqlite3.Connection) -> None:
    """Give the file system back the pages FTS5's merges left free, when they are many: a
    100,000-note build merges its segments as it goes (4 % of the file left free at 50,000
    notes); the pages a small update frees are used again by the next."""
    try:
        if db.execute("PRAGMA freelist_count").fetchone()[0] >= RECLAIM_PAGES:
            db.executescript("PRAGMA incremental_vacuum")  # stepped to the end: a page a step
    except sqlite3.OperationalError:
        pass  # another process writes: the next update gives them back


def create(db: sqlite3.Connection) -> None:
    # Before the first table (a new file; drop() empties an old one): free pages can be
    # given back (reclaim).
    db.execute(f"PRAGMA auto_vacuum = {INCREMENTAL}")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    # No copy of the note's text (a tenth of the cache, and compressing it a tenth of a
    # build): the FTS table is contentless, so a changed note's row, which FTS5 can delete
    # only given what it held, is left dead instead (see _fts_sync); a hit's terms are
    # analysed from its file, which search reads to show it anyway.
    # AUTOINCREMENT: a new row never takes a dead row's id (FTS5 would merge the two).
    # No index on `filename`: a sync reads every row, nothing looks one up by its name.
    # `stamp`: the note file's inode, size and times when its bytes were digested (NULL when
    # the bytes are to be digested at every sync: see _fts_sync.sync).
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, "
               "filename TEXT NOT NULL, digest BLOB NOT NULL, stamp INTEGER)")
    # Plain ASCII tokens separated by spaces: no tokenizer folding to disagree with ours.
    # `grams` first: FTS5 marks each posting of a column but the first by its column's
    # number, and the 4-grams are two thirds of the tokens. BM25 is the same whatever the
    # order (the weights go with the columns: fts.ranked).
    db.execute("CREATE VIRTUAL TABLE fts USING fts5(grams, words, concepts, content = '', "
               "tokenize = \"ascii tokenchars '_'\")")
    db.execute("INSERT INTO fts (fts, rank) VALUES ('hashsize', ?)", (HASH_BYTES,))
    db.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'col')")
    # Keyed by the day (what a prompt's days look up), without a rowid of its own. No index
    # by note (a third of the table): a sync deletes the days of its changed notes in one
    # pass over the table (_fts_sync.STALE_BATCH notes a pass).
    db.execute("CREATE TABLE days (day TEXT NOT NULL, note INTEGER NOT NULL, "
               "PRIMARY KEY (day, note)) WITHOUT ROWID")
    db.executemany("INSERT INTO meta VALUES (?, ?)",
                   [("schema", SCHEMA_VERSION), ("analyzer", analyzer_version())])


def dead(db: sqlite3.Connection) -> int:
    """How many FTS rows no note joins any more (changed or removed notes' old rows)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'dead'").fetchone()
    return 0 if row is None else int(row[0])


def set_dead(db: sqlite3.Connection, count: int) -> None:
    db.execute("INSERT OR REPLACE INTO meta VALUES ('dead', ?)", (str(count),))


def discard_corrupt(path: Path) -> bool:
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


def instant(moment: datetime) -> str:
    return moment.astimezone(UTC_TZ).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"
