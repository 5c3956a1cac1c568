"""A change said against the store: "foi mal, é hg38", "demo moved to Fridays", "снова можно
генерики", "金曜もリリースOK". Such a sentence often holds nothing the cue rules or the
learned detector keep (no setting, no rule, no subject), yet, said after "a referência é
hg19", it changes that note. A sentence worded as a change (:func:`.revisions.says_change`)
that finds the stored note it changes (:func:`.duplicates.best_changed`) updates it, in
the person's words; one that finds none gives nothing, so a turn read alone (or against an
empty store) gives what it gave before.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from memcli.extraction.rules.changed_values import subject_words, with_new_value
from memcli.extraction.rules.dates import absolute_dates
from memcli.extraction.rules.duplicates import best_changed
from memcli.extraction.rules.model import Finding, KnownNote
from memcli.extraction.rules.revisions import says_change
from memcli.extraction.rules.sentences import cut_title
from memcli.extraction.rules.settings_said import sentence_of, statements


@dataclass(frozen=True)
class _Said:
    """A finding of the same turn (or an earlier message of it), as a note it may change."""

    level: str
    type: str
    title: str
    summary: str
    filename: str = ""


def changes_said(text: str, today: datetime.date, message: int, found: Sequence[Finding],
                 known: Sequence[KnownNote], earlier: Sequence[Finding] = ()
                 ) -> list[Finding]:
    """An update for each sentence of TEXT worded as a change that no finding of ``found``
    holds and that changes a note of KNOWN, or a finding of the turn (``found``) or of an
    EARLIER message: "the demo is every Thursday. no wait, Fridays" is one note."""
    out: list[Finding] = []
    changes = [(sentence, words) for sentence, words in statements(text, found)
               if says_change(words)]
    if not changes:  # the stores are read (and known loads them) only for a change
        return out
    said = [_Said(f.level, f.type, f.title, f.content) for f in (*earlier, *found)]
    for sentence, words in changes:
        # Asked of the stores as they are (their haystack is built once a turn), then of
        # what this turn said; on a tie, the turn's own statement is the later.
        stored = best_changed(words, "project", True, known)
        mine = best_changed(words, "project", True, said) if said else None
        match = mine if mine and (stored is None or mine[0] >= stored[0]) else stored
        if match is None:
            continue
        note = match[1]
        words = absolute_dates(words, today)
        title, content = cut_title(words), sentence_of(words)
        if isinstance(note, _Said):
            # dedupe() puts it in the finding's place; a bare correction keeps its subject
            kept = with_new_value(note.summary, words) if match[0] == 2 else None
            if kept is not None and not subject_words(words) & subject_words(note.summary):
                title, content = with_new_value(note.title, words) or note.title, kept
        # The note's level and type; a bare correction keeps its subject (duplicates.operation)
        out.append(Finding(note.level, note.type, title, content, sentence, frozenset(),
                           message, "a change said of a stored note",
                           f"the level and type of the note it changes ({note.filename})"
                           if note.filename else "the level and type of what it changes",
                           changes=True))
    return out
