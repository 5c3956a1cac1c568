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
SCHEMA_VERSION = "6"
BUSY_TIMEOUT_MS = 2000


def current(db: sqlite3.Connection) -> bool:
    try:
        rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError:
        return False
    return rows == {"schema": SCHEMA_VERSION, "analyzer": analyzer_version()}


def drop(db: sqlite3.Connection) -> None:
    for table in ("vocab", "fts", "days", "notes", "meta"):
        db.execute(f"DROP TABLE IF EXISTS {table}")


def create(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    # `text`: the text the note's terms were analysed from, compressed. The FTS table keeps
    # no copy of its own (contentless): a hit's terms (what coverage reads) and a changed
    # note's old terms (what its row is deleted by) are analysed again from this one, a
    # third of the size of the terms.
    # No index on `filename`: a sync reads every row, nothing looks one up by its name.
    # `stamp`: the note file's inode, size and times when its bytes were digested (NULL when
    # the bytes are to be digested at every sync: see _fts_sync.sync).
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
