"""The stores a command works on: which ones a --level means, opening them (locked, any
interrupted batch finished, read), and committing changes with their history records."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.errors import ConfigError, InputError
from memcli.paths import resolved
from memcli.settings.config import Settings
from memcli.store.folder import StoreState, load_store
from memcli.store.names import LEVELS, NO_PROJECT
from memcli.writes.opening import locked

if TYPE_CHECKING:
    from memcli.writes.history import Operation, Source
    from memcli.writes.plan_result import Outcome
    from memcli.writes.transaction import Change


def levels_for(level: str | None, settings: Settings | None = None) -> tuple[str, ...]:
    """The stores a --level value means; without a project here, `all` means the user store."""
    if level not in (None, "all", *LEVELS):
        raise InputError(f"unknown level '{level}'; use project, user or all")
    if settings is not None and no_project(settings):
        if level == "project":
            raise ConfigError(settings.closed or f"{NO_PROJECT}, or use --level user")
        return ("user",)
    return LEVELS if level in (None, "all") else (level,)


def reading_levels(level: str | None, settings: Settings) -> tuple[str, ...]:
    """The stores a --level means for a command that only reads (show, search, recall):
    the project and user stores as :func:`levels_for` says, then every team store; a team
    store's name means that store alone. No write ever takes a team store's name."""
    team_names = tuple(team.name for team in settings.teams)
    if level is not None and level in team_names:
        return (level,)
    if level not in (None, "all", *LEVELS):
        settings.require_teams()  # the name may be of a team store the typo left out
        teams = f", all or a team store ({', '.join(team_names)})" if team_names else " or all"
        raise InputError(f"unknown level '{level}'; use project, user{teams}")
    return levels_for(level, settings) + (team_names if level in (None, "all") else ())


def store_path(settings: Settings, level: str) -> Path:
    """The folder of a level: the project or user store, or a team store's clone."""
    if level in LEVELS:
        return settings.store_for(level)
    from memcli.settings.teams import find_team

    team = find_team(settings.teams, level)
    if team is None:
        settings.require_teams()
        raise InputError(f"unknown level '{level}'")
    return team.folder


def no_project(settings: Settings) -> bool:
    """True in the home folder, where the discovered project store is the user's own, and
    for an unattended run whose project level is closed (`Settings.for_unattended`).

    A project store that a person set to the user store's folder is a mistake, not "no
    project": that is refused, since each level would rewrite the other's MEMORY.md.
    """
    if settings.closed is not None:
        return True
    if resolved(settings.project_store) != resolved(settings.user_store):
        return False
    chosen = settings.sources.get("project_store")
    if chosen is not None and chosen.source != "default":
        raise ConfigError(
            f"the project store and the user store are the same folder "
            f"({settings.user_store}, from {chosen.source}); point --project-store or "
            "--user-store somewhere else"
        )
    return True


@contextmanager
def open_stores(settings: Settings, levels: Sequence[str], create: Sequence[str] = (), *,
                bodies: bool = True) -> Iterator[dict[str, StoreState]]:
    """Lock the stores (fixed order), finish any interrupted batch, and read them (without
    BODIES, only what the index needs of each note is kept).

    Without a project here only the user store is opened: two levels in one folder would
    each rewrite the other's MEMORY.md. A team store among LEVELS is read without a lock:
    memcli never writes one (only `apply --store` does, in its clone, on a branch).
    """
    teams = [lvl for lvl in levels if lvl not in LEVELS]
    with locked_levels(settings, [lvl for lvl in levels if lvl in LEVELS], create) as folders:
        states = {lvl: load_store(lvl, folder, bodies=bodies) for lvl, folder in folders.items()}
        states.update((name, load_store(name, store_path(settings, name), bodies=bodies))
                      for name in teams)
        yield states


@contextmanager
def locked_levels(settings: Settings, levels: Sequence[str], create: Sequence[str] = (),
                  listings: dict[Path, list[str]] | None = None, *,
                  lend: bool = False) -> Iterator[dict[str, Path]]:
    """Lock the project and user stores and finish any interrupted batch, reading nothing:
    the folders of LEVELS (of the user store alone without a project here), for a command
    that reads only what it needs of them (`extract`, see :func:`open_stores`). LISTINGS:
    see :func:`memcli.writes.opening.locked`. LEND: while these locks are held, the reads and
    writes this thread makes of the stores take them again without waiting
    (:class:`memcli.writes.locks.StoreLocks`)."""
    levels = [lvl for lvl in levels if lvl in LEVELS]
    if no_project(settings):
        levels = [lvl for lvl in levels if lvl == "user"]
        create = [lvl for lvl in create if lvl == "user"]
    # Both stores are locked even when one is read: recovering a two-store batch needs both,
    # and taking them together keeps the one global lock order.
    paths = list(dict.fromkeys(settings.store_for(lvl) for lvl in LEVELS))
    creating = [settings.store_for(lvl) for lvl in create]
    # The user store holds what a person said about themselves: only they may read it.
    with locked(paths, settings.lock_timeout, creating, private=[settings.user_store],
                listings=listings, lend=lend):
        yield {lvl: settings.store_for(lvl) for lvl in levels}


def commit_recorded(settings: Settings, changes: Sequence[Change], source: Source,
                    operations: Sequence[Operation] = (),
                    inbox: Sequence[Change] = ()) -> str | None:
    """Commit changes together with their history records (one transaction); its id.

    INBOX: proposals written to (or taken out of) the review inbox in the same transaction;
    the history records the notes' changes only."""
    from memcli.writes.history import journal, new_transaction_id
    from memcli.writes.transaction import (
        commit,  # the write path: not loaded by a command that reads
    )

    if not changes:
        commit(inbox)
        return None
    stores = [(lvl, settings.store_for(lvl)) for lvl in LEVELS]
    txn_id = new_transaction_id()
    records = journal(changes, stores, source=source, now=settings.timestamp(),
                      operations=operations, txn_id=txn_id)
    commit([*changes, *records, *inbox])
    return txn_id


def applied_operations(outcomes: Sequence[Outcome]) -> list[Operation]:
    """The operations a plan applied, as the history records them."""
    from memcli.writes.history import Operation

    return [Operation(o.action, o.level, o.filename, o.reason, o.message)
            for o in outcomes if o.status == "applied"]


def store_problems(state: StoreState) -> list[str]:
    """Why each note of a store that memcli cannot use is left out (broken, unreadable, or
    not a regular file); the other notes are used as usual."""
    unsafe = (f"{name}: {why}; memcli leaves it alone" for name, why in state.unsafe.items())
    problems = sorted([*state.broken.values(), *unsafe])
    if state.index_problem:
        problems.insert(0, state.index_problem)
    return problems


def lock_made_at(folder: Path) -> int | None:
    """When the lock file this process holds in FOLDER was made (its change time, in
    nanoseconds on the store's own clock), None when the store is not locked (read-only).
    Anything in the store that changed after it changed after the lock was taken."""
    from memcli.writes.locks import LOCK_NAME

    try:
        return os.stat(folder / LOCK_NAME, follow_symlinks=False).st_ctime_ns
    except OSError:
        return None
