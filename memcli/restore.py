"""`memcli restore`: put back the notes an unattended run overwrote (see memcli.backup)."""

from __future__ import annotations

from dataclasses import dataclass

from memcli.backup import Run, load, runs
from memcli.config import Settings
from memcli.errors import ConfigError
from memcli.names import LEVELS
from memcli.paths import resolved


@dataclass(frozen=True)
class Restored:
    run_id: str
    notes: list[tuple[str, str]]  # (level, filename)


def list_runs(settings: Settings) -> list[Run]:
    return runs(settings.user_home)


def restore(settings: Settings, run_id: str) -> Restored:
    """Write the kept bytes back into the stores they came from, then rebuild the indexes."""
    from memcli.core import commit_recorded, open_stores, rebuild_index
    from memcli.history import Source
    from memcli.transaction import Change

    run, previous = load(settings.user_home, run_id)
    for p in previous:
        if resolved(p.store) != resolved(settings.store_for(p.level)):
            raise ConfigError(f"backup {run_id} is of the {p.level} store {p.store}, not of "
                              f"{settings.store_for(p.level)}; run memcli where that store is "
                              "used, or pass --project-store/--user-store")
    with open_stores(settings, LEVELS):
        changes = [Change(settings.store_for(p.level), p.filename, p.data) for p in previous]
        commit_recorded(settings, changes, Source("restore"))
    rebuild_index(settings, None, check=False)
    return Restored(run.run_id, [(p.level, p.filename) for p in previous])

