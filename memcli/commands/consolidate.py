"""`memcli consolidate`: propose an operations document that tidies a store; never write.

What the rules provider proposes, each operation with a ``kind`` and a ``reason``:

- ``expired``: delete a note whose ``expires`` date is over;
- ``duplicate``: two notes of one level whose titles hold the same words (or one word more
  among four or more) and whose contents mostly agree: the newer is updated with what only
  the older said, the older is deleted;
- ``contradiction``: the same pair shape, but contents that disagree: the newer statement
  wins, the older is deleted;
- ``shorten``: when ``context`` cuts entries off, shorter summaries for the longest index
  lines, so that the cut entries fit.

The document is what `memcli apply` reads (`memcli consolidate | memcli apply --dry-run -`);
its deletes are held back unless apply is given ``--allow-delete``. The LLM providers get a
consolidation prompt with the store's notes and answer the same kind of document.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from memcli.commands.consolidate_proposal import Proposal
from memcli.commands.context import context_of, fresh_entries
from memcli.settings.config import Settings
from memcli.store.folder import StoreState
from memcli.store.freshness import is_past
from memcli.store.index import MAX_CONTEXT_BYTES, MAX_CONTEXT_LINES, render_line
from memcli.store.names import LEVELS
from memcli.writes.stores import levels_for, open_stores

SAME_CONTENT = 0.5  # word overlap (Jaccard) above which a pair says the same thing
SHORT_SUMMARY = 60
MIN_NEAR_TOKENS = 4
_WORD = re.compile(r"[^\W_]+")
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")


@dataclass(frozen=True)
class _Note:
    level: str
    filename: str
    title: str
    summary: str
    content: str
    updated: str
    expires: str


def propose(settings: Settings, level: str | None = None,
            provider: str | None = None) -> Proposal:
    """The proposal of the chosen provider (rules unless told otherwise)."""
    chosen = provider or "rules"
    if chosen == "auto":
        from memcli.providers.auto import resolve_auto

        settings, _ = resolve_auto(settings, None)
        chosen = settings.provider
    if chosen == "rules":
        return consolidate(settings, level)
    from memcli.commands.consolidate_llm import ask_model

    return ask_model(settings, level, chosen)


def consolidate(settings: Settings, level: str | None = None) -> Proposal:
    """The rules provider's proposal for the chosen stores (read under their locks)."""
    levels = levels_for(level, settings)
    now = settings.moment()
    with open_stores(settings, LEVELS) as stores:
        base = {lvl: stores[lvl].fingerprint for lvl in stores}
        proposal = Proposal([], base, "rules")
        notes = {lvl: _notes(stores[lvl]) for lvl in levels if lvl in stores}
        expired = {(n.level, n.filename) for lvl in notes for n in notes[lvl]
                   if n.expires and is_past(n.expires, now)}
        for lvl, found in notes.items():
            proposal.operations += _expired(n for n in found if (lvl, n.filename) in expired)
            live = [n for n in found if (lvl, n.filename) not in expired]
            proposal.operations += _pairs(live)
        proposal.operations += _shorten(settings, stores, now, levels, proposal)
    return proposal


def _notes(state: StoreState) -> list[_Note]:
    found = []
    for name in sorted(state.heads):
        note = state.notes[name]
        head = state.heads[name]
        found.append(_Note(state.level, name, note.title or head.entry.title, note.summary,
                           note.content, note.updated, head.expires))
    return found


def _expired(notes: Iterable[_Note]) -> list[dict[str, Any]]:
    return [{"action": "delete", "level": n.level, "filename": n.filename, "kind": "expired",
             "reason": f"expired on {n.expires}"} for n in notes]


# --------------------------------------------------------------------------- pairs


def _tokens(text: str) -> list[str]:
    from memcli.text import title_tokens

    return title_tokens(text)


def _keys(title: str) -> set[frozenset[str]]:
    """Buckets a title falls in: its word set, (4+ words) each set with one word less, and
    the setting it names ("Test command" and "Running the tests": see
    memcli.extraction.rules.slots)."""
    from memcli.extraction.rules.slots import title_slot

    words = frozenset(_tokens(title))
    keys = {words} if words else set()
    if len(words) >= MIN_NEAR_TOKENS:
        keys |= {words - {w} for w in words}
    slot = title_slot(title)
    if slot is not None:
        keys.add(frozenset({"\0slot " + slot}))  # no title token holds a NUL
    return keys


def _pairs(notes: list[_Note]) -> list[dict[str, Any]]:
    buckets: dict[frozenset[str], list[_Note]] = {}
    for note in notes:
        for key in _keys(note.title):
            buckets.setdefault(key, []).append(note)
    done: set[str] = set()  # each note takes part in one proposal at most
    operations: list[dict[str, Any]] = []
    for key in sorted(buckets, key=lambda k: sorted(k)):
        group = [n for n in buckets[key] if n.filename not in done]
        if len(group) < 2:
            continue
        newer, older = _newest_first(group)[:2]
        done |= {newer.filename, older.filename}
        operations += _resolve(newer, older)
    return operations


def _newest_first(notes: list[_Note]) -> list[_Note]:
    return sorted(notes, key=lambda n: (n.updated, n.filename), reverse=True)


def overlap(a: str, b: str) -> float:
    left, right = set(_WORD.findall(a.lower())), set(_WORD.findall(b.lower()))
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def _resolve(newer: _Note, older: _Note) -> list[dict[str, Any]]:
    pair = f"{newer.level}/{newer.filename}+{older.filename}"
    if overlap(newer.content, older.content) >= SAME_CONTENT:
        extra = [s for s in _SENTENCE.split(older.content.strip())
                 if s and overlap(s, newer.content) < SAME_CONTENT]
        ops: list[dict[str, Any]] = []
        if extra:
            ops.append({"action": "update", "level": newer.level, "filename": newer.filename,
                        "content": newer.content.rstrip() + "\n\n" + " ".join(extra),
                        "kind": "duplicate", "pair": pair,
                        "reason": f"merged what only {older.filename} said"})
        ops.append({"action": "delete", "level": older.level, "filename": older.filename,
                    "kind": "duplicate", "pair": pair,
                    "reason": f"near-duplicate of the newer {newer.filename}"})
        return ops
    return [{"action": "delete", "level": older.level, "filename": older.filename,
             "kind": "contradiction", "pair": pair,
             "reason": f"contradicted by the newer {newer.filename} "
                       f"(updated {newer.updated or 'later'}): the newer statement wins"}]


# --------------------------------------------------------------------------- the cap


def _shorten(settings: Settings, stores: dict[str, StoreState], now: dt.datetime,
             levels: tuple[str, ...], proposal: Proposal) -> list[dict[str, Any]]:
    """Shorter summaries for the longest shown lines until the cut entries fit by bytes."""
    from memcli.text import shorten

    project, user, expired = fresh_entries(stores, now)
    block = context_of(settings, project, user, expired)
    if not block.cut:
        return []
    every = [*project, *user]
    needed = (len(block.text.encode()) + sum(len(render_line(e).encode()) + 1 for e in block.cut)
              - MAX_CONTEXT_BYTES)
    lines_over = block.text.count("\n") + len(block.cut) - MAX_CONTEXT_LINES
    if lines_over > 0:
        proposal.notes.append(
            f"{len(block.cut)} entries are cut and the line cap binds ({lines_over} lines "
            "over): shorter summaries cannot make them fit; merge or delete notes")
        return []
    touched = {op["filename"] for op in proposal.operations}
    ops: list[dict[str, Any]] = []
    shown = [e for e in every if e.level in levels and e.filename not in touched]
    for entry in sorted(shown, key=lambda e: len(e.summary), reverse=True):
        if needed <= 0:
            break
        short = shorten(entry.summary, SHORT_SUMMARY)
        saved = (len(render_line(entry).encode())
                 - len(render_line(entry.replace(summary=short)).encode()))
        if saved <= 0:
            break
        content = stores[entry.level].notes[entry.filename].content
        ops.append({"action": "update", "level": entry.level, "filename": entry.filename,
                    "content": content, "summary": short, "kind": "shorten",
                    "reason": f"the index is over its cap ({len(block.cut)} entries cut): "
                              "a shorter summary makes room"})
        needed -= saved
    return ops

