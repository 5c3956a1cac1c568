"""`memcli status`: is my memory healthy? What context loads, what it cuts, what is stale.

Per level: the entries, lines, bytes and (estimated) tokens that ``context`` emits against
its cap, the notes the cap cuts (by name), expired notes and notes past their review date,
near-duplicate notes; and the newest transactions of the history.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memcli.commands.context import context_of, fresh_entries, marked
from memcli.settings.config import Settings
from memcli.store.folder import StoreState
from memcli.store.freshness import is_past
from memcli.store.index import MAX_CONTEXT_BYTES, MAX_CONTEXT_LINES, IndexEntry
from memcli.store.names import LEVELS
from memcli.tokens import count_tokens
from memcli.writes.history import Transaction, transactions
from memcli.writes.stores import open_stores

if TYPE_CHECKING:
    from memcli.store.anchor_notes import NoteAnchors

RECENT_TRANSACTIONS = 5


@dataclass
class Dated:
    filename: str
    date: str


@dataclass
class LevelStatus:
    level: str
    path: str
    exists: bool
    notes: int = 0
    broken: int = 0
    index_problem: str = ""  # why MEMORY.md cannot be read as text ('' when it can)
    shown: int = 0
    lines: int = 0
    bytes: int = 0
    tokens: int = 0
    cut: list[str] = field(default_factory=list)
    expired: list[Dated] = field(default_factory=list)
    review: list[Dated] = field(default_factory=list)
    near_duplicates: list[tuple[str, str, str]] = field(default_factory=list)  # a, b, why
    # How the store lies outside the current repository ('' when it does not).
    outside: str = ""
    anchors: int = 0  # anchors its notes cite (docs/anchors.md)
    anchors_changed: list[str] = field(default_factory=list)  # "note: path[:lines]"
    anchors_gone: list[str] = field(default_factory=list)
    proposals: int = 0  # proposals waiting in the store's review inbox (`memcli review`)


@dataclass
class StatusReport:
    levels: list[LevelStatus]
    lines: int
    bytes: int
    tokens: int
    transactions: list[Transaction]
    max_lines: int = MAX_CONTEXT_LINES
    max_bytes: int = MAX_CONTEXT_BYTES

    @property
    def healthy(self) -> bool:
        return not any(lv.cut or lv.expired or lv.review or lv.near_duplicates or lv.broken
                       or lv.index_problem or lv.anchors_changed or lv.anchors_gone
                       for lv in self.levels)


def status(settings: Settings) -> StatusReport:
    now = settings.moment()
    with open_stores(settings, LEVELS, bodies=False) as stores:
        project, user, expired = fresh_entries(stores, now)
        cited, stale = _checked_anchors(settings, stores.get("project"))
        # Measured as `context` prints it: with the marks of notes whose cited code changed.
        project = marked(project, stale)
        block = context_of(settings, project, user, expired)
        levels = [_level(stores[lvl], block.cut, now) for lvl in LEVELS if lvl in stores]
        if cited:
            _count_anchors(cited, levels[0])
    from memcli.writes.inbox import count

    for lv in levels:
        lv.proposals = count(settings.store_for(lv.level))
        if lv.level == "project":
            lv.outside = settings.outside_repository() or ""
        recent, _ = transactions({lvl: settings.store_for(lvl) for lvl in stores},
                                 newest=RECENT_TRANSACTIONS)
    _count_sections(block.text, levels)
    return StatusReport(levels, block.text.count("\n"), len(block.text.encode()),
                        count_tokens(block.text), recent[:RECENT_TRANSACTIONS])


def _level(state: StoreState, cut: tuple[IndexEntry, ...], now: dt.datetime) -> LevelStatus:
    result = LevelStatus(state.level, str(state.path), state.exists, len(state.heads),
                         len(state.broken), state.index_problem)
    result.cut = [e.filename for e in cut if e.level == state.level]
    for name, head in sorted(state.heads.items()):
        if head.expires and is_past(head.expires, now):
            result.expired.append(Dated(name, head.expires))
        elif head.review_after and is_past(head.review_after, now):
            result.review.append(Dated(name, head.review_after))
    result.near_duplicates = near_duplicates(state)
    return result


def _checked_anchors(settings: Settings, state: StoreState | None
                     ) -> tuple[list[NoteAnchors], dict[str, str]]:
    """The project notes' anchors checked, and the stale notes' marks (docs/anchors.md)."""
    if state is None or not any(h.cites for h in state.heads.values()):
        return [], {}  # the common case: the anchors' checks are not even imported
    from memcli.store.anchor_notes import check_state, mark
    from memcli.store.anchor_repository import repository_root

    cited = check_state(state, repository_root(settings.project_root))
    return cited, {n.filename: mark(n) for n in cited if n.stale}


def _count_anchors(cited: list[NoteAnchors], result: LevelStatus) -> None:
    """Count the project notes' anchors, and name the changed and gone ones."""
    for note in cited:
        for found in note.checks:
            result.anchors += 1
            named = f"{note.filename}: {found.anchor.label}"
            if found.state == "changed":
                result.anchors_changed.append(named)
            elif found.state == "gone":
                result.anchors_gone.append(named)


def near_duplicates(state: StoreState) -> list[tuple[str, str, str]]:
    """Pairs of notes of one store whose titles or summaries hold the same words.

    Bucketed by word set, so a store of 10,000 notes costs one pass, not a pass per pair.
    """
    from memcli.extraction.rules.slots import title_slot
    from memcli.text import title_tokens

    found: list[tuple[str, str, str]] = []
    topics: dict[str, list[str]] = {}  # "Test command" and "Running the tests"
    for name, head in sorted(state.heads.items()):
        slot = title_slot(head.entry.title)
        if slot is not None:
            topics.setdefault(slot, []).append(name)
    for slot, names in topics.items():
        found += [(names[0], other, f"the same setting ({slot})") for other in names[1:]]
    for what, part in (("the same title words", "title"), ("the same statement", "summary")):
        buckets: dict[frozenset[str], list[str]] = {}
        for name, head in sorted(state.heads.items()):
            text = head.entry.title if part == "title" else head.entry.summary
            words = frozenset(title_tokens(text))
            if len(words) >= 2 or (part == "title" and words):
                buckets.setdefault(words, []).append(name)
        for names in buckets.values():
            found += [(names[0], other, what) for other in names[1:]]
    seen: set[tuple[str, str]] = set()
    unique = []
    for a, b, why in found:
        if (a, b) not in seen:
            seen.add((a, b))
            unique.append((a, b, why))
    return unique


def _count_sections(text: str, levels: list[LevelStatus]) -> None:
    """Each level's share of the context block: its entry lines."""
    by_level = {lv.level: lv for lv in levels}
    current: LevelStatus | None = None
    for line in text.splitlines():
        if line == "## Project Memory":
            current = by_level.get("project")
        elif line == "## User Memory":
            current = by_level.get("user")
        elif current is not None and line.startswith("- ["):
            current.shown += 1
            current.lines += 1
            current.bytes += len(line.encode()) + 1
            current.tokens += count_tokens(line + "\n")

