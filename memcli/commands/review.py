"""`memcli review`: the proposals an unattended run left in the inbox, accepted or rejected.

Accepting a proposal is `memcli apply` of its operations by the person: the same checks,
planned against the stores as they are now (re-planned when a store moved since), written
in one transaction that also takes the proposal out of the inbox. Every decision is taken
under the stores' locks, with the proposal read again there: two reviews at once, or one
killed half-way, never apply a proposal twice (the second finds it gone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from memcli.settings.config import Settings
from memcli.settings.review import DEFAULT_EXPIRY_DAYS
from memcli.store.folder import StoreState, load_store
from memcli.store.names import LEVELS, NO_PROJECT
from memcli.writes.inbox import Proposal, expired, read_inbox, remove_change
from memcli.writes.stores import applied_operations, commit_recorded, open_stores

Verdict = Literal["accepted", "rejected", "gone", "stale", "expired", "unchanged"]


@dataclass
class Pending:
    """A proposal as it would apply now: its diff, or why it no longer applies."""

    proposal: Proposal
    diff: str = ""
    problems: list[str] = field(default_factory=list)
    moved: bool = False  # its store changed since it was proposed (it is re-planned)


@dataclass
class Inbox:
    pending: list[Pending]
    expired: list[Proposal]
    problems: list[str]  # files of an inbox that are no proposal


@dataclass
class Decision:
    id: str
    verdict: Verdict
    message: str = ""
    transaction: str | None = None


@dataclass
class Decisions:
    decisions: list[Decision]
    expired: list[Proposal]

    @property
    def needs_attention(self) -> bool:
        return any(d.verdict in ("gone", "stale") for d in self.decisions)


def waiting(settings: Settings) -> dict[str, int]:
    """How many proposals wait in each store's inbox (status, the session-start hook)."""
    from memcli.writes.inbox import count

    return {lvl: count(settings.store_for(lvl)) for lvl in _levels(settings)}


def list_inbox(settings: Settings, *, expiry_days: int = DEFAULT_EXPIRY_DAYS) -> Inbox:
    """The proposals waiting, each with its diff against the stores as they are now; the
    expired ones are taken out (and listed as such)."""
    with open_stores(settings, LEVELS, create=_holding(settings)) as stores:
        proposals, problems, gone = _read(settings, stores, expiry_days)
        pending = [_preview(settings, stores, p) for p in proposals]
    return Inbox(pending, gone, problems)


def decide(settings: Settings, ids: Sequence[str] | None, *, accept: bool,
           edited: Mapping[str, list[dict[str, Any]]] | None = None,
           expiry_days: int = DEFAULT_EXPIRY_DAYS) -> Decisions:
    """Accept (or reject) the proposals IDS (None: all of them), each in its own transaction.
    EDITED: operations a person rewrote, by proposal id, used instead of the proposal's."""
    results: list[Decision] = []
    with open_stores(settings, LEVELS, create=_holding(settings)) as stores:
        proposals, _, gone = _read(settings, stores, expiry_days)
        by_id = {p.id: p for p in proposals}
        old = {p.id for p in gone}
        for wanted in (list(by_id) if ids is None else list(dict.fromkeys(ids))):
            proposal = by_id.get(wanted)
            if proposal is None:
                results.append(Decision(wanted, "expired" if wanted in old else "gone",
                                        "expired and taken out" if wanted in old else
                                        "no such proposal (already accepted or rejected?)"))
                continue
            store = settings.store_for(proposal.level)
            if not accept:
                commit_recorded(settings, [], _source(proposal), (),
                                [remove_change(store, proposal.id)])
                results.append(Decision(wanted, "rejected", "taken out of the inbox"))
                continue
            ops = (edited or {}).get(wanted, proposal.operations)
            results.append(_accept(settings, stores, proposal, ops))
            stores = {lvl: load_store(lvl, settings.store_for(lvl)) for lvl in stores}
    return Decisions(results, gone)


def _accept(settings: Settings, stores: dict[str, StoreState], proposal: Proposal,
            operations: list[dict[str, Any]]) -> Decision:
    """Plan a proposal against the stores as they are now; commit it with its removal."""
    plan, problems = _plan(settings, stores, proposal, operations)
    if problems:
        return Decision(proposal.id, "stale", "no longer applies: " + "; ".join(problems))
    store = settings.store_for(proposal.level)
    txn = commit_recorded(settings, plan.changes, _source(proposal),
                          applied_operations(plan.outcomes),
                          [remove_change(store, proposal.id)])
    if not plan.changes:
        return Decision(proposal.id, "unchanged", "the store already says this; taken out")
    moved = " (re-planned: the store changed since it was proposed)" if plan.stale_levels else ""
    return Decision(proposal.id, "accepted", f"applied{moved}", txn)


def _plan(settings: Settings, stores: dict[str, StoreState], proposal: Proposal,
          operations: list[dict[str, Any]]) -> tuple[Any, list[str]]:
    from memcli.operations.model import validate_item
    from memcli.writes.plan import Planner

    wrong = [o for o in operations if o.get("level") != proposal.level]
    if wrong:
        return None, [f"an operation is for the {wrong[0].get('level')!r} store, not the "
                      f"{proposal.level} store whose inbox holds it"]
    parsed = [validate_item(i, raw) for i, raw in enumerate(operations, start=1)]
    planner = Planner(stores, now=settings.timestamp(), on_conflict="fail",
                      no_project=settings.closed or NO_PROJECT)
    plan = planner.plan(parsed, {proposal.level: proposal.base}, strict=True)
    return plan, [f"#{o.position} {o.message}" for o in plan.rejected]


def _preview(settings: Settings, stores: dict[str, StoreState], proposal: Proposal) -> Pending:
    from memcli.commands.apply import unified_diff

    plan, problems = _plan(settings, stores, proposal, proposal.operations)
    if problems:
        return Pending(proposal, problems=problems)
    return Pending(proposal, unified_diff(plan.files), moved=bool(plan.stale_levels))


def _read(settings: Settings, stores: Mapping[str, StoreState], expiry_days: int
          ) -> tuple[list[Proposal], list[str], list[Proposal]]:
    """The proposals of the open stores' inboxes; the expired ones taken out (one batch)."""
    proposals: list[Proposal] = []
    problems: list[str] = []
    for level in stores:
        found, bad = read_inbox(settings.store_for(level), level)
        proposals.extend(found)
        problems.extend(bad)
    now = settings.timestamp()
    old = [p for p in proposals if expired(p, now, expiry_days)]
    if old:
        commit_recorded(settings, [], _source(old[0]), (),
                        [remove_change(settings.store_for(p.level), p.id) for p in old])
    fresh = [p for p in proposals if p not in old]
    fresh.sort(key=lambda p: (p.created, p.id))
    return fresh, problems, old


def _source(proposal: Proposal) -> Any:
    """The history's source of an accepted proposal: `review`, with the proposal's origin."""
    from memcli.writes.history import Source

    origin = proposal.source
    return Source("review", session=origin.get("session") or None,
                  transcript=origin.get("transcript") or None,
                  provider=origin.get("provider") or None, model=origin.get("model") or None,
                  job=origin.get("job") or None, via=origin.get("via") or "cli",
                  proposal=proposal.id)


def _holding(settings: Settings) -> list[str]:
    """The levels whose inbox holds a proposal: their store is made if it is missing (a
    proposal's acceptance or removal is a batch of that store)."""
    return [lvl for lvl, n in waiting(settings).items() if n]


def _levels(settings: Settings) -> tuple[str, ...]:
    from memcli.writes.stores import no_project

    return ("user",) if no_project(settings) else LEVELS
