"""One note per topic: statements of a turn merged, and matched against the notes already stored."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from memcli.extraction.haystack import haystack_of, holds
from memcli.extraction.key_index import KeyIndex, key_index_of
from memcli.extraction.rules.model import MAX_REASON_CHARS, MAX_SUMMARY_CHARS, Finding, KnownNote
from memcli.extraction.rules.revisions import says_change
from memcli.extraction.rules.sentences import shorten
from memcli.extraction.rules.slots import (
    salient_names,
    shared_names,
    shared_slot,
    slot_tools,
    slots_of,
)
from memcli.extraction.rules.statements import title_terms
from memcli.safety.invisible_chars import strip_invisible


def dedupe(findings: list[Finding]) -> list[Finding]:
    # The later statement wins but keeps the place of the first, so the order stays that
    # of first appearance.
    out: list[Finding] = []
    for finding in findings:
        for i, earlier in enumerate(out):
            if _same_topic(earlier, finding):
                out[i] = finding
                break
        else:
            out.append(finding)
    return out


def _same_topic(a: Finding, b: Finding) -> bool:
    if a.level != b.level:
        return False
    if title_key(a.title) == title_key(b.title) or bool(a.terms & b.terms):
        return True
    # "we use yarn. no wait, we moved to pnpm": one slot, the later value stands.
    return changing(b) and shared_slot(a.content, b.content) is not None


def changing(finding: Finding) -> bool:
    """It changes a fact the store may hold: the learned detector says so, or the person's
    words say that something is no longer what it was. (A cue rule's correction, "never use
    pip", is a rule of its own: it finds its note by its title or its terms.)"""
    return ((finding.learned and finding.changes) or says_change(finding.quote)
            or says_change(finding.content))


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
    return {"action": "update", "level": match.level, "filename": match.filename,
            "type": match.type, "title": match.title if same else finding.title,
            "summary": summary, "content": finding.content, "reason": reason}


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
    """The stored note a statement changes: one that fills the same slot with another value
    ("we moved to Fly.io" and "Deploy with Heroku"), else, for a statement that changes a
    fact ("you can use moment again"), one that names a tool or name it names."""
    change = changing(finding)
    if not (finding.learned or change):
        # a cue rule's finding changes a stored one only when worded as a change
        return None
    keys = key_index_of(known)
    mine = finding.title + " " + finding.content
    slots = slots_of(mine)
    filled = [slot for slot, tools in slots.items() if tools]
    # A note fills a slot only with one of the slot's tools, which its text then holds.
    tools = [tool for slot in filled for tool in slot_tools(slot)]
    for note in _ordered(finding, known, keys, "S", filled, tools):
        theirs = slots_of(note.title + " " + getattr(note, "summary", ""))
        if any(theirs.get(slot) for slot in filled) and (
                change or note.level == finding.level):
            return note
    if not change:
        return None
    names = salient_names(mine)
    for note in _ordered(finding, known, keys, "n", names, names):
        if shared_names(mine, note.title + " " + getattr(note, "summary", "")):
            return note
    return None


def _ordered(finding: Finding, known: Sequence[KnownNote], keys: KeyIndex | None, kind: str,
             values: Iterable[str], words: Iterable[str]) -> Iterator[KnownNote]:
    """The notes ``haystack.holding(WORDS)`` finds, those of the statement's level first,
    each level in stored order; with KEYS, only those among them with a key KIND of VALUES
    (all the notes that can answer), found as they are asked for."""
    words = list(words)
    if keys is None:
        pool = haystack_of(known).holding(words)
        yield from sorted((known[i] for i in pool), key=lambda note: note.level != finding.level)
        return
    values = list(values)
    for same in (True, False):
        for i in keys.iter_holding(kind, values):
            note = known[i]
            if (note.level == finding.level) == same and holds(note, words):
                yield note
