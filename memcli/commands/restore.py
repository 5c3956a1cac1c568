"""`memcli restore`: take back what an unattended run (the hook, `extract --apply`) changed.

An unattended run's transaction is recorded in the history like any other, marked
``unattended``; its record holds the previous content of every note it changed. Restoring
one is an undo of that transaction (one new transaction: notes, MEMORY.md and its own
record, so a restore can be undone too), limited to the runs nobody reviewed.
"""

from __future__ import annotations

from memcli.commands.undo import UndoReport, undo
from memcli.settings.config import Settings
from memcli.store.names import INDEX_NAME, LEVELS
from memcli.writes.history import Transaction, transactions
from memcli.writes.opening import locked


def list_runs(settings: Settings) -> list[Transaction]:
    """The unattended runs that changed an existing note, newest first."""
    stores = {lvl: settings.store_for(lvl) for lvl in LEVELS}
    # Locked like any read: a batch a killed process left is finished (with its record) first.
    with locked(list(dict.fromkeys(stores.values())), settings.lock_timeout):
        found, _ = transactions(stores)
    return [t for t in found if t.unattended and any(
        f.before is not None and f.filename != INDEX_NAME for f in t.files)]


def restore(settings: Settings, run_id: str, *, force: bool = False,
            dry_run: bool = False) -> UndoReport:
    return undo(settings, run_id, force=force, dry_run=dry_run, restoring=True)
