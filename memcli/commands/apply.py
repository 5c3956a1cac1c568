"""`memcli apply`: an operations document validated against the stores as they are now,
planned, and written in one transaction (or shown as a diff)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.errors import InputError
from memcli.settings.config import Settings
from memcli.store.names import INDEX_NAME, LEVELS, NO_PROJECT
from memcli.writes.stores import applied_operations, commit_recorded, open_stores

if TYPE_CHECKING:
    from memcli.safety.unattended import Guard
    from memcli.store.folder import StoreState
    from memcli.writes.history import Source
    from memcli.writes.inbox import Proposal
    from memcli.writes.plan_result import FileChange, OnConflict, Outcome, Plan


@dataclass
class ApplyReport:
    outcomes: list[Outcome]
    files: list[FileChange]
    stale_levels: list[str]
    warnings: list[str]
    dry_run: bool
    written: bool
    diff: str = ""
    created: dict[str, Path] = field(default_factory=dict)  # stores this apply made
    # Unattended runs that changed an existing note: the transaction `memcli restore` takes
    # back (its history record holds the notes as they were).
    backup: str | None = None
    # The proposals this run left in the review inbox (the `review` setting), by id.
    proposed: list[str] = field(default_factory=list)

    @property
    def rejected(self) -> int:
        return sum(1 for o in self.outcomes if o.status == "rejected")

    @property
    def needs_attention(self) -> bool:
        return self.rejected > 0


def apply_text(settings: Settings, text: str, *, dry_run: bool = False, strict: bool = False,
               on_conflict: str = "fail", source: Source | None = None,
               allow_delete: bool = False, max_operations: int | None = None,
               guard: Guard | None = None) -> ApplyReport:
    """Apply an operations document of at most MAX_OPERATIONS operations (the default:
    operations.MAX_DOCUMENT_OPERATIONS)."""
    from memcli.operations.model import MAX_DOCUMENT_OPERATIONS, parse_document
    from memcli.safety.unattended import Guard

    document = parse_document(text, max_operations or MAX_DOCUMENT_OPERATIONS)
    # What `memcli consolidate` proposes deletes only when the person says so.
    if guard is None and document.consolidation and not allow_delete:
        guard = Guard(allow_delete=False)
    return apply_items(settings, document.items, document.base, dry_run=dry_run, strict=strict,
                       on_conflict=on_conflict, source=source, guard=guard)


def apply_items(settings: Settings, items: Sequence[object], base: dict[str, str], *,
                dry_run: bool = False, strict: bool = False,
                on_conflict: str = "fail", guard: Guard | None = None,
                source: Source | None = None, evidence: str = "",
                check: Callable[[], frozenset[tuple[str, str]]] | None = None) -> ApplyReport:
    """Validate the items, plan them against the locked stores and commit them with their
    history record; what the guard's review holds goes to the inbox in the same
    transaction, with EVIDENCE (the turn's words). CHECK runs under the stores' locks
    before anything is planned (`extract`: whether the notes it matched the items against
    changed since): it raises, or names the notes (level, file name) whose change the
    guard then refuses (memcli.safety.unattended.Guard.changed_since)."""
    from memcli.operations.model import validate_item
    from memcli.writes.plan import Planner

    parsed = [validate_item(i, raw) for i, raw in enumerate(items, start=1)]
    if any(isinstance(raw, dict) and raw.get("cites") for raw in items):
        from memcli.commands.anchoring import pin_parsed

        parsed = pin_parsed(settings, parsed)
    creating = [] if dry_run else sorted({p.op.level for p in parsed
                                          if p.op is not None and p.op.action == "create"})
    missing = {lvl: settings.store_for(lvl) for lvl in creating
               if not settings.store_for(lvl).exists()}
    with open_stores(settings, LEVELS, create=creating) as stores:
        if check is not None:
            from memcli.safety.unattended import Guard

            guard = replace(guard or Guard(), changed_since=check())
        planner = Planner(stores, now=settings.timestamp(),
                          on_conflict=conflict_policy(on_conflict), guard=guard,
                          no_project=settings.closed or NO_PROJECT)
        plan = planner.plan(parsed, base, strict=strict)
        proposals = [] if dry_run else _proposals(settings, stores, plan, source, guard,
                                                  evidence)
        written = not dry_run and bool(plan.changes)
        backup = None
        if written or proposals:
            backup = _commit(settings, plan, source, guard, proposals)
    report = ApplyReport(plan.outcomes, plan.files, plan.stale_levels, plan.warnings,
                         dry_run, written, backup=backup, proposed=[p.id for p in proposals])
    report.created = {lvl: path for lvl, path in missing.items() if written and path.is_dir()}
    if dry_run:
        report.diff = unified_diff(plan.files)
    return report


def _proposals(settings: Settings, stores: Mapping[str, StoreState], plan: Plan,
               source: Source | None, guard: Guard | None, evidence: str) -> list[Proposal]:
    """One proposal per store for the operations the plan holds for review."""
    from memcli.writes.history import Source
    from memcli.writes.inbox import new_proposal

    origin = {"command": (source or Source("apply")).command,
              **(source or Source("apply")).as_json()}
    if guard is not None and guard.unattended:
        origin["unattended"] = "yes"
    return [new_proposal(level, settings.timestamp(), ops, origin, evidence,
                         stores[level].fingerprint)
            for level, ops in plan.proposed.items() if ops and level in stores]


def _commit(settings: Settings, plan: Plan, source: Source | None,
            guard: Guard | None, proposals: Sequence[Proposal] = ()) -> str | None:
    """Commit a plan with its history record (and the proposals for the inbox); for an
    unattended run that changed an existing note, the transaction `memcli restore` takes
    back."""
    from memcli.writes.history import Source
    from memcli.writes.inbox import write_change

    source = source or Source("apply")
    if guard is not None and guard.unattended:
        source = replace(source, unattended=True)
    inbox = [write_change(settings.store_for(p.level), p) for p in proposals]
    txn_id = commit_recorded(settings, plan.changes, source, applied_operations(plan.outcomes),
                             inbox)
    overwrote = any(f.before is not None and f.filename != INDEX_NAME for f in plan.files)
    return txn_id if source.unattended and overwrote else None


def conflict_policy(value: str) -> OnConflict:
    if value == "fail":
        return "fail"
    if value == "update":
        return "update"
    if value == "rename":
        return "rename"
    raise InputError(f"unknown --on-conflict '{value}'; use fail, update or rename")


def unified_diff(files: Sequence[FileChange]) -> str:
    import difflib

    chunks: list[str] = []
    for change in files:
        before = _lines(change.before)
        after = _lines(change.after)
        old = f"a/{change.level}/{change.filename}" if change.before is not None else "/dev/null"
        new = f"b/{change.level}/{change.filename}" if change.after is not None else "/dev/null"
        chunks.extend(difflib.unified_diff(before, after, old, new))
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in chunks)


def _lines(data: bytes | None) -> list[str]:
    if data is None:
        return []
    return data.decode("utf-8", "replace").splitlines(keepends=True)
