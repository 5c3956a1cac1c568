"""`memcli apply --store NAME`: a change to a team store, proposed as a commit in its clone.

The operations go through the same validation, planning and transaction as any apply, with
the clone's folder as the one store they may touch; the commit lands on a new branch (on
the followed branch for an "rw" store) and nothing is pushed: the result names the command
that pushes it for review.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memcli.commands.apply import ApplyReport, apply_items
from memcli.commands.gitstore.teams import Proposal, propose, require_team
from memcli.errors import InputError
from memcli.settings.config import Settings


@dataclass
class TeamApply:
    team: str
    report: ApplyReport
    proposal: Proposal | None  # None: a dry run, or nothing was applied

    @property
    def needs_attention(self) -> bool:
        return self.report.needs_attention


def apply_to_team(settings: Settings, name: str, text: str, env: Mapping[str, str], *,
                  dry_run: bool = False, strict: bool = False,
                  on_conflict: str = "fail") -> TeamApply:
    from memcli.operations.model import parse_document
    from memcli.writes.history import Source

    settings.require_teams()
    team = require_team(settings.teams, name)
    items = [_for_team(item, name) for item in parse_document(text).items]
    fields = {field: getattr(settings, field) for field in settings.__match_args__}
    # The clone is the project level of this one apply: the user store is out of reach.
    fields.update(project_store=team.folder, closed=None)
    scoped = Settings(**fields)
    source = Source(f"apply --store {name}")

    def run(dry: bool) -> ApplyReport:
        return _named(apply_items(scoped, items, {}, dry_run=dry, strict=strict,
                                  on_conflict=on_conflict, source=source), name)

    if dry_run:
        return TeamApply(name, run(True), None)
    reports: list[ApplyReport] = []

    def write() -> bool:
        reports.append(run(False))
        return reports[-1].written

    stamp = settings.moment().strftime("%Y%m%d-%H%M%S")
    proposal = propose(team, env, stamp, write)
    return TeamApply(name, reports[-1], proposal)


def _named(report: ApplyReport, name: str) -> ApplyReport:
    """The report with the team store's name where the planner said "project" (its level
    for this apply), so that the outcomes and the diff say which store they change."""
    from dataclasses import replace

    from memcli.commands.apply import unified_diff

    for outcome in report.outcomes:
        if outcome.level == "project":
            outcome.level = name
            outcome.message = outcome.message.replace("project/", f"{name}/", 1)
    files = [replace(f, level=name) if f.level == "project" else f for f in report.files]
    return replace(report, files=files, diff=unified_diff(files) if report.diff else "")


def _for_team(item: object, name: str) -> object:
    """An operation of the document, aimed at the team store (its level says NAME, or
    nothing); any other level is refused, since the team store is the one this apply writes."""
    if not isinstance(item, Mapping):
        return item  # validation reports it
    level = item.get("level")
    if level not in (None, "", name):
        raise InputError(f"an operation has level {level!r}; with --store {name} every "
                         f"operation's level is {name!r} (or none)")
    changed: dict[str, Any] = dict(item)
    changed["level"] = "project"
    return changed
