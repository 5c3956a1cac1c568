"""`memcli lint`: check stores for anything that would mislead an agent or a reviewer.

Everything here returns values; rendering is in :mod:`memcli.render`. A store is read
through :mod:`memcli.store.folder`, one file at a time (one read per file, one secret scan per
file), into the same :class:`StoreState` the writer uses, so that an index finding means
exactly "`memcli index` would rewrite this line".

Anything a person can put in a store must be survivable: files that are not UTF-8, YAML
that is a list or a bomb, huge notes, folders named like notes. The YAML loader already
shares aliased nodes (loading a "billion laughs" is cheap); what would blow up is walking
or comparing such a value, so frontmatter that expands too far is reported and never
touched by ``--fix``.

The package follows the checks' seams: `_scan` (reading), `_notes` (one file), `_index`
(MEMORY.md), `_duplicates` (titles), `_fix` (--fix), `_targets` (which stores),
`_report` (codes, findings, the report).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from memcli.commands.lint._anchors import CitedNotes, stale_anchors
from memcli.commands.lint._duplicates import (
    both_levels,
    conflict_copies,
    near_duplicate_titles,
    near_duplicates,
)
from memcli.commands.lint._freshness import freshness
from memcli.commands.lint._index import check_index
from memcli.commands.lint._instructions import instruction_overlaps
from memcli.commands.lint._notes import check_note, store_files, text_problems
from memcli.commands.lint._report import (
    CODES,
    CheckedStore,
    Finding,
    LintReport,
    display,
    finding,
    finding_order,
)
from memcli.commands.lint._scan import FileScan, StoreScan, scan_store
from memcli.commands.lint._targets import Target, targets
from memcli.settings.config import Settings
from memcli.store.folder import collector_paused
from memcli.writes.opening import locked

if TYPE_CHECKING:
    from memcli.commands.lint._fix import StoreFix
    from memcli.writes.transaction import Change

__all__ = ["CODES", "CheckedStore", "Finding", "LintReport", "near_duplicates", "run_lint",
           "scan_store"]


def run_lint(settings: Settings, paths: Iterable[str], *, fix: bool,
             level: str | None = None, strict: bool = False) -> LintReport:
    """Check the stores (under their locks); with fix, repair what is safe and check again.
    STRICT: warnings need attention as errors do."""
    chosen = targets(settings, paths, level)
    with collector_paused():
        return _checked(settings, chosen, fix, strict)


def _checked(settings: Settings, chosen: list[Target], fix: bool, strict: bool) -> LintReport:
    report = LintReport(strict)
    with locked([t.path for t in chosen], settings.lock_timeout):
        runs = [_StoreRun(t, settings, fix) for t in chosen]
        if fix:
            changes = [c for run in runs for c in run.changes]
            report.fixed = [done for run in runs for done in run.done]
            if changes:
                _commit_fixes(settings, chosen, changes, report.fixed)
                runs = [_StoreRun(t, settings, False) for t in chosen]
    findings = [f for run in runs for f in run.findings]
    levels = {run.scan.level: run.scan for run in runs if run.scan.exists}
    if len(levels) == 2:
        findings.extend(both_levels(levels["project"], levels["user"]))
    findings.extend(instruction_overlaps(settings.project_root, (run.scan for run in runs)))
    findings.extend(stale_anchors(settings.project_root, [run.cited for run in runs]))
    report.findings = sorted(findings, key=finding_order)
    report.stores = [CheckedStore(run.scan.level, display(run.scan.path, settings.cwd),
                                  run.scan.exists, len(run.scan.notes)) for run in runs]
    return report


def _commit_fixes(settings: Settings, chosen: list[Target], changes: list[Change],
                  fixed: list[str]) -> None:
    """The repairs and their history record, in one transaction."""
    from memcli.writes.history import Operation, Source, journal
    from memcli.writes.transaction import commit

    stores = [(t.level, t.path) for t in chosen]
    fixes = [Operation("fix", None, None, reason=what) for what in fixed]
    commit([*changes, *journal(changes, stores, source=Source("lint --fix"),
                               now=settings.timestamp(), operations=fixes)])


class _StoreRun:
    """One store checked (and, with fix, its repairs planned) in one pass over its files."""

    def __init__(self, target: Target, settings: Settings, fix: bool) -> None:
        self.target = target
        self.settings = settings
        self.fix = fix
        self.findings: list[Finding] = []
        self.changes: list[Change] = []
        self.done: list[str] = []
        self._plan: StoreFix | None = None
        self._now = self.settings.moment()  # one clock for the whole pass
        self.cited = CitedNotes(target.level)
        self.scan = scan_store(self.target.level, self.target.path, self._visit,
                               cwd=self.settings.cwd)
        scan = self.scan
        if not scan.exists:
            return
        if scan.problem:
            self.findings.append(finding(scan.problem_code, scan.shown, None,
                                         f"{scan.problem}; point the store setting at a "
                                         "readable folder"))
            return
        self.findings.extend(store_files(scan))
        self.findings.extend(check_index(scan, scan.state()))
        self.findings.extend(near_duplicate_titles(scan))
        self.findings.extend(conflict_copies(scan))
        if self._plan is not None or self.fix:
            # --fix only: the repairs' module is not loaded for a check.
            from memcli.commands.lint._fix import finish_fixes, start_fixes

            plan = self._plan if self._plan is not None else start_fixes(scan, self._clock)
            self.changes, self.done = finish_fixes(plan)
        # This store's own checks are done. The scan is kept while the other store is
        # checked (for M304 and M309, which need its notes' names and titles only), so what
        # only its own checks needed goes: on 100,000 notes, the index is 50 MB, the names
        # 20 MB and the heads 50 MB.
        if scan.index is not None:
            scan.index.text, scan.index.data = "", b""
        scan.names = {}
        for facts in scan.notes.values():
            facts.head = None

    def _clock(self) -> datetime:
        return self.settings.moment()

    def _visit(self, scan: StoreScan, file: FileScan) -> None:
        self.findings.extend(text_problems(scan, file))
        self.findings.extend(check_note(scan, file))
        self.findings.extend(freshness(scan, file, self._now))
        self.findings.extend(self.cited.visit(file))
        if self.fix:
            from memcli.commands.lint._fix import fix_note, start_fixes

            if self._plan is None:
                self._plan = start_fixes(scan, self._clock)
            fix_note(self._plan, file)
