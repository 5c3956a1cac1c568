"""One note per topic: statements of a turn merged, and matched against the notes already stored."""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from memcli.extraction.haystack import haystack_of, holds
from memcli.extraction.key_index import KeyIndex, key_index_of
from memcli.extraction.rules.changed_values import (
    changed_value,
    content_words,
    search_words,
    subject_words,
    value_kinds,
    with_new_value,
)
from memcli.extraction.rules.model import MAX_REASON_CHARS, MAX_SUMMARY_CHARS, Finding, KnownNote
from memcli.extraction.rules.not_changes import not_a_change
from memcli.extraction.rules.revisions import says_change
from memcli.extraction.rules.sentences import shorten
from memcli.extraction.rules.slots import (
    salient_names,
    shared_slot,
    slot_tools,
    slots_of,
)
from memcli.extraction.rules.statements import title_terms
from memcli.extraction.rules.subjects import subject_in_common
from memcli.safety.invisible_chars import strip_invisible


def dedupe(findings: list[Finding]) -> list[Finding]:
    # The later statement wins but keeps the place of the first, so the order stays that
    # of first appearance.
    out: list[Finding] = []
    for finding in findings:
        # A bare correction ("no wait, it's on Fridays") is of the nearest earlier statement
        # of its level that holds such a value, not of the first one.
        for i in reversed(range(len(out))):
            corrected = (_bare_correction(out[i], finding)
                         if out[i].level == finding.level else None)
            if corrected is not None:
                out[i] = corrected
                break
        else:
            for i, earlier in enumerate(out):
                if _same_topic(earlier, finding):
                    out[i] = finding
                    break
            else:
                out.append(finding)
    return out


def _bare_correction(a: Finding, b: Finding) -> Finding | None:
    """A, its value replaced by the one B says, when B is a correction that says a value and
    nothing of what it is the value of ("the release review is every Tuesday. no wait,
    it's on Wednesdays"), else None."""
    if not changing(b) or subject_words(b.quote) or changed_value(b.quote, a.content) is None:
        return None
    content = with_new_value(a.content, b.quote)
    if content is None:
        return None
    return replace(a, title=with_new_value(a.title, b.quote) or a.title, content=content,
                   quote=b.quote, changes=True)


def _same_topic(a: Finding, b: Finding) -> bool:
    if a.level != b.level:
        return False
    if title_key(a.title) == title_key(b.title) or bool(a.terms & b.terms):
        return True
    # "we use yarn. no wait, we moved to pnpm": one slot, the later value stands; "the demo
    # is every Thursday. no wait, it's on Fridays": one value of one kind.
    return changing(b) and (shared_slot(a.content, b.content) is not None
                            or changed_value(b.quote, a.content) is not None)


def changing(finding: Finding) -> bool:
    """It changes a fact the store may hold: the learned detector says so, or the person's
    words say that something is no longer what it was; not a one-off, a question, a
    hypothetical, someone else's words or a status (:mod:`.not_changes`). (A cue rule's
    correction, "never use pip", is a rule of its own: it finds its note by its title or
    its terms.)"""
    return ((finding.learned and finding.changes) or says_change(finding.quote)
            or says_change(finding.content)) and not_a_change(finding.quote) is None


def title_key(title: str) -> str:
    text = unicodedata.normalize("NFC", strip_invisible(title)).casefold()
    return " ".join(text.split()).rstrip(".。")


def operation(finding: Finding, known: Sequence[KnownNote]) -> dict[str, Any]:
    match = _matching_note(finding, known)
    summary = shorten(finding.content, MAX_SUMMARY_CHARS)
    reason = "user said: '" + shorten(finding.quote, MAX_REASON_CHARS) + "'"
    if match is None or (match.level != finding.level and not (
            finding.changes or changing(finding))):
        return {"action": "create", "level": finding.level, "type": finding.type,
                "title": finding.title, "summary": summary, "content": finding.content,
                "reason": reason}
    # Same title: keep the stored spelling so that an update does not churn the title.
    same = title_key(match.title) == title_key(finding.title)
    title, content = match.title if same else finding.title, finding.content
    kept = _with_new_value(finding, match)
    if kept is not None:
        title, content = kept
        summary = shorten(content, MAX_SUMMARY_CHARS)
    return {"action": "update", "level": match.level, "filename": match.filename,
            "type": match.type, "title": title, "summary": summary, "content": content,
            "reason": reason}


def _with_new_value(finding: Finding, note: KnownNote) -> tuple[str, str] | None:
    """A bare correction ("sorry, wrong, it's hg38") says only the new value: the note keeps
    its title and subject with that value in place of the old (the reason keeps the
    person's words). None for a statement that says its subject."""
    stored = getattr(note, "summary", "") or note.title
    if (changed_value(finding.quote, stored) is None
            or subject_words(finding.quote) & subject_words(stored)):
        return None
    content = with_new_value(stored, finding.quote)
    if content is None:
        return None
    return with_new_value(note.title, finding.quote) or note.title, content


def _matching_note(finding: Finding, known: Sequence[KnownNote]) -> KnownNote | None:
    # Each question is asked of the notes that can answer it, in the stored order (see
    # memcli.extraction.haystack and note_keys): the first note that answers is the one it
    # always was.
    keys = key_index_of(known)
    key = title_key(finding.title)
    # A title of the same words holds its longest word.
    words = key.split()
    longest = [max(words, key=len)] if words else []
    if keys is None:
        haystack = haystack_of(known)
        pool: Iterable[int] = (haystack.holding_or_beyond_ascii(longest, titles=True)
                               if words else range(len(known)))
    else:
        pool = (i for i in keys.iter_holding("K", [key])
                if not words or holds(known[i], longest, or_beyond_ascii=True, titles=True))
    for i in pool:
        note = known[i]
        if note.level == finding.level and title_key(note.title) == key:
            return note
    if not_a_change(finding.quote) is not None:
        # "for this PR use yarn, not pnpm": what it says of a note's subject is for a moment,
        # a question or someone else's; only the note of its very title is its own.
        return None
    if finding.terms:
        # "Use X, not Y", "Don't use Y" (and 用X，不用Y, beyond ASCII).
        pool = (haystack_of(known).holding_or_beyond_ascii(["use"], titles=True)
                if keys is None else
                (i for i in keys.iter_holding("m", finding.terms)
                 if holds(known[i], ["use"], or_beyond_ascii=True, titles=True)))
        for i in pool:
            note = known[i]
            if note.level == finding.level and title_terms(note.title) & finding.terms:
                return note
    return _changed_note(finding, known)


def _changed_note(finding: Finding, known: Sequence[KnownNote]) -> KnownNote | None:
    """The stored note a statement changes: the one that matches it best, never the first
    in file order. Best: a note of the same setting holding a value the statement names
    ("we moved to Fly.io, Heroku is gone" and "Deploy with Heroku"), then a note of the same
    setting, then, for a statement worded as a change, a note holding another value of one
    kind (:mod:`.changed_values`: "demo moved to Fridays" and "the demo is on Thursdays"),
    then one sharing a name or content words ("снова можно генерики" and its
    prohibition). Ties go to the note sharing more words, then to the statement's level."""
    change = changing(finding)
    if not (finding.learned or change):
        # a cue rule's finding changes a stored one only when worded as a change
        return None
    # A line apart: the content opens a sentence of its own (slots: "Render the docs").
    mine = finding.title + "\n" + finding.content
    best = best_changed(mine, finding.level, change, known)
    return best[1] if best else None


# At most so many candidates of one kind are weighed: the first in stored order (the
# project store's notes, then the user store's, each in file-name order). A real store has
# a handful; a store of 10,000 generated notes has thousands naming Heroku, and weighing
# them all cost more than the rest of the turn. With a note's keys, the first kind is the
# notes filling a setting with a tool the statement names for it; without (a list of
# notes), the notes whose text holds such a tool: the two differ only
# past 64 such notes (docs/performance.md, "Extraction on a big store").
_CANDIDATES = 64


def best_changed(mine: str, level: str, change: bool, known: Sequence[KnownNote]
                 ) -> tuple[int, KnownNote] | None:
    """The note of KNOWN that the text MINE changes and the strength of the match (4: the
    same setting and a value both name, 3: the same setting, 2: another value of one kind,
    1: a name or content words in common), else None. A text not worded as a change
    (CHANGE false) changes only a note of its LEVEL that fills the same setting. The notes
    that may match at 4 (those holding a value MINE names) are asked first: on a large
    store the others are many and need not be read."""
    keys = key_index_of(known)
    slots = slots_of(mine)
    filled = [slot for slot, tools in slots.items() if tools]
    named = {tool for slot in filled for tool in slots[slot]}
    # With keys, those filling a setting with a tool MINE names for it (the only notes that
    # answer 4): on more than _CANDIDATES of them, the first so many of those.
    found = _best(mine, level, change, known,
                  _pool(known, keys, "S", filled, named, [
                      f"{slot}={tool}" for slot in filled for tool in sorted(slots[slot])]),
                  slots, filled)
    if found is not None and found[0] == 4:
        return found
    tools = {tool for slot in filled for tool in slot_tools(slot)}
    pool = set(_pool(known, keys, "S", filled, tools))
    if change:
        names = salient_names(mine)
        pool |= set(_pool(known, keys, "n", names, names))
        words = search_words(mine)
        pool |= set(_pool(known, keys, "Q", value_kinds(mine), words))
        stems = content_words(mine)
        pool |= set(_pool(known, keys, "T", stems, stems))
    return _best(mine, level, change, known, sorted(pool), slots, filled)


def _pool(known: Sequence[KnownNote], keys: KeyIndex | None, kind: str, values: Iterable[str],
          words: Iterable[str], filled_with: list[str] | None = None) -> list[int]:
    """The positions of the first notes (at most _CANDIDATES) ``haystack.holding(WORDS)``
    finds; with KEYS, only those among them with a key KIND of VALUES (all the notes that
    can answer), or with FILLED_WITH, a key F ("setting=tool") of those."""
    words = [w for w in words if w]
    if keys is None:
        return haystack_of(known).holding(words)[:_CANDIDATES]
    found = (i for i in (keys.iter_holding(kind, list(values)) if filled_with is None
                         else keys.iter_holding("F", filled_with))
             if holds(known[i], words))
    return list(itertools.islice(found, _CANDIDATES))


def _best(mine: str, level: str, change: bool, known: Sequence[KnownNote], pool: list[int],
          slots: dict[str, frozenset[str]], filled: list[str]
          ) -> tuple[int, KnownNote] | None:
    mine_words = content_words(mine)
    best: tuple[tuple[int, int, bool, int], KnownNote] | None = None
    # A note fills a slot only with one of the slot's tools, which its text then holds.
    for i in pool:
        note = known[i]
        theirs_text = note.title + "\n" + getattr(note, "summary", "")
        strength = 0
        theirs = slots_of(theirs_text)
        same = [slot for slot in filled if theirs.get(slot)]
        if same and (change or note.level == level):
            strength = 4 if any(slots[s] & theirs[s] for s in same) else 3
        elif not change:
            continue
        elif changed_value(mine, theirs_text) is not None:
            strength = 2
        elif subject_in_common(mine, theirs_text):
            strength = 1
        if not strength:
            continue
        key = (strength, len(mine_words & content_words(theirs_text)), note.level == level, -i)
        if best is None or key > best[0]:
            best = (key, note)
    return (best[0][0], best[1]) if best else None
