"""M212-M214: a note's `expires` and `review_after` dates, against the command's clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from memcli.commands.lint._report import Finding, finding
from memcli.commands.lint._scan import FileScan, StoreScan, key_line
from memcli.store.freshness import EXPIRES, REVIEW_AFTER, as_text, is_past, valid
from memcli.store.notes import Note


def freshness(scan: StoreScan, file: FileScan, now: datetime) -> Iterator[Finding]:
    note = file.note
    if note is None or (EXPIRES not in note.meta and REVIEW_AFTER not in note.meta):
        return iter(())  # most notes have neither date: no generator, no path
    return _dates(note, file.shown, now)


def _dates(note: Note, path: str, now: datetime) -> Iterator[Finding]:
    for key in (EXPIRES, REVIEW_AFTER):
        value = note.meta.get(key)
        if not valid(value):
            yield finding("M214", path, key_line(note, key),
                          f"{key} is not a date; write it like 2026-12-31 (a note is never "
                          "hidden because of an unreadable date)")
    if is_past(note.meta.get(EXPIRES), now):
        yield finding("M212", path, key_line(note, EXPIRES),
                      f"the note expired on {as_text(note.meta.get(EXPIRES))} and `memcli "
                      "context` leaves it out; delete it, or move expires to a later date")
    if is_past(note.meta.get(REVIEW_AFTER), now):
        yield finding("M213", path, key_line(note, REVIEW_AFTER),
                      f"the note was due for review on {as_text(note.meta.get(REVIEW_AFTER))}; "
                      "check that it still holds, then move review_after on or remove it")
