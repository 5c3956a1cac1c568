"""Bringing a store's search cache (memcli.search.fts) in line with the store's notes: what
changed since the last sync (by digest, or by the files' stamps), in one transaction.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memcli.errors import BrokenNoteError, StoreError
from memcli.search._fts_schema import dead, instant, set_dead
from memcli.search.dates import note_time
from memcli.search.index_terms import note_columns
from memcli.store.folder import StoreState, collector_paused
from memcli.store.notes import Note, decode_note, parse_note_text

# A note file changed this recently is digested again at the next sync whatever its stamp:
# file systems keep times to a few milliseconds (some to two seconds).
RACY_NS = 3_000_000_000

# Told (level, notes analysed, notes to analyse) while an index is built or updated.
Progress = Callable[[str, int, int], None]
PROGRESS_EVERY = 500
# The most notes whose days one statement deletes (SQLite takes 32,766 parameters).
STALE_BATCH = 500
# A changed or removed note's FTS row is left dead (FTS5 deletes a contentless row only given
# what it held, and the cache keeps no copy of that): it still counts in BM25's statistics
# (the number of rows, their average length, each term's document frequency), so the index
# is emptied and built again once the dead rows pass this share of the live ones, and
# REBUILD_FLOOR: on a store under 1,600 notes the share alone would rebuild the whole index
# at almost every edit (every one under 100 notes), a first search's cost for one note.
REBUILD_SHARE = 0.01
REBUILD_FLOOR = 16


@dataclass
class SyncStats:
    indexed: int = 0  # notes (re)analysed by this sync
    removed: int = 0
    in_memory: bool = False


def note_text(note: Note) -> str:
    return f"{note.title}\n{note.summary}\n{note.body}"


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def note_days(note: Note) -> set[str]:
    """When NOTE was created and updated: each an instant in UTC (`…T…Z`, which sorts as
    time does), or the bare day (ISO) a person wrote without a time."""
    found: set[str] = set()
    for stamp in {note.created, note.updated}:  # mostly the same: parsed once
        when = note_time(stamp)
        if isinstance(when, datetime):
            if _in_utc(stamp):  # what memcli writes: the instant already (8 us a note saved)
                found.add(stamp)
                continue
            try:
                found.add(instant(when))
                continue
            except OverflowError:  # year 1 ahead of UTC: its day is as good
                when = when.date()
        if when is not None:
            found.add(when.isoformat())
    return found



def _in_utc(stamp: str) -> bool:
    """Whether STAMP (which parses as an instant) is written as :func:`instant` writes one:
    `YYYY-MM-DDTHH:MM:SSZ`."""
    return (len(stamp) == 20 and stamp[19] == "Z" and stamp[10] == "T" and stamp[13] == ":"
            and stamp[16] == ":" and stamp[4] == "-" and stamp[7] == "-")


def sync(db: sqlite3.Connection, state: StoreState, progress: Progress | None = None,
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
    # A build allocates a few objects per token and makes no reference cycles: the cyclic
    # collector would walk the heads and the rows again and again (2-4 % of a first search).
    with collector_paused():
        return _sync(db, state, progress, clock)


def _sync(db: sqlite3.Connection, state: StoreState, progress: Progress | None,
          clock: Path | None) -> SyncStats:
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
        dead_rows = dead(db) + len(stale)
        if dead_rows > max(REBUILD_SHARE * len(wanted), REBUILD_FLOOR):
            # Too many dead rows: every note indexed again, from an empty index.
            db.execute("INSERT INTO fts (fts) VALUES ('delete-all')")
            db.execute("DELETE FROM days")
            db.execute("DELETE FROM notes")
            stale, fresh, dead_rows = [], list(wanted), 0
        for start in range(0, len(stale), STALE_BATCH):  # one pass over `days` a batch
            batch = stale[start:start + STALE_BATCH]
            marks = ",".join("?" * len(batch))
            db.execute(f"DELETE FROM days WHERE note IN ({marks})", batch)
        db.executemany("DELETE FROM notes WHERE id = ?", [(i,) for i in stale])
        set_dead(db, dead_rows)
        # AUTOINCREMENT's counter: above every id given, dead rows' included.
        (last,) = db.execute("SELECT coalesce(max(seq), 0) FROM sqlite_sequence "
                             "WHERE name = 'notes'").fetchone()
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
                words, grams, concepts = note_columns(note_text(note))
                rows.append((row_id, name, digest(data), stamps.get(name)))
                fts_rows.append((row_id, grams, words, concepts))
                day_rows += [(row_id, day) for day in note_days(note)]
                stats.indexed += 1
            db.executemany("INSERT INTO notes (id, filename, digest, stamp) VALUES (?, ?, ?, ?)",
                           rows)
            db.executemany("INSERT INTO fts (rowid, grams, words, concepts) VALUES (?, ?, ?, ?)",
                           fts_rows)
            db.executemany("INSERT INTO days (note, day) VALUES (?, ?)", day_rows)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    stats.removed = len(known.keys() - wanted.keys())
    return stats


Known = dict[str, tuple[int, bytes, int | None]]  # name -> (row id, digest, stamp)


def _known(db: sqlite3.Connection) -> Known:
    return {name: (row_id, dig, stamp) for row_id, name, dig, stamp
            in db.execute("SELECT id, filename, digest, stamp FROM notes")}


class _Plan:
    """What a sync changes: the notes it (re)indexes, the rows it drops, the stamps it
    updates, from what the index holds and the notes' files (FOUND: see _file_stats)."""

    def __init__(self, db: sqlite3.Connection, state: StoreState,
                 found: dict[str, tuple[int, int]]) -> None:
        self.known = known = _known(db)
        self.wanted: dict[str, bytes] = {}  # name -> digest (b'' for a new note not read yet)
        self.restamp: list[str] = []  # unchanged notes whose stamp changed
        for name in state.heads:
            row = known.get(name)
            if name in state.raw:
                self.wanted[name] = digest(state.raw[name])
            elif name not in found:
                continue  # gone since the store was read
            elif row is None:
                self.wanted[name] = b""
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
