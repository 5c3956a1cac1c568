"""`memcli context`: the memory block for an agent's prompt, expired notes left out and
secrets typed into a note by hand kept out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from memcli.settings.config import Settings
from memcli.store.context_block import ContextBlock, build_context
from memcli.store.folder import StoreState
from memcli.store.index import IndexEntry
from memcli.store.names import LEVELS
from memcli.writes.stores import open_stores, reading_levels, store_problems


def context(settings: Settings, budget: int | None = None,
            level: str | None = None) -> ContextBlock:
    """The memory block for a system prompt; BUDGET caps its (estimated) tokens; LEVEL
    (project, user, all or a team store's name) chooses the stores, all by default."""
    levels = reading_levels(level, settings)
    names = tuple(name for name in levels if name not in LEVELS)
    with open_stores(settings, levels, bodies=False) as stores:
        project, user, expired = fresh_entries(stores, settings.moment())
        teams = {}
        for name in names:
            gone = stores[name].expired(settings.moment())
            expired += len(gone)
            teams[name] = [e for e in stores[name].entries() if e.filename not in gone]
        problems = tuple(p for state in stores.values() for p in store_problems(state))
        project = marked(project, stale_of(settings, stores.get("project")))
    # A repository's notes and a team's were never reviewed by the person.
    project = _without_hidden(project)
    teams = {name: _without_hidden(entries) for name, entries in teams.items()}
    block = context_of(settings, project, user, expired, budget, teams)
    from memcli.safety.redact import find_secrets

    # The block goes into an agent's prompt: a secret a person typed into a note by hand
    # (writes through memcli redact it) stays out. One scan of the block is the common path;
    # the entries are redacted one by one only when it finds something, and the block is
    # rebuilt so that the budget counts what is shown.
    if find_secrets(block.text):
        block = context_of(settings, _redacted(project), _redacted(user), expired, budget,
                           {name: _redacted(entries) for name, entries in teams.items()})
    return replace(block, problems=problems)


def context_of(settings: Settings, project: Sequence[IndexEntry], user: Sequence[IndexEntry],
               expired: int, budget: int | None = None,
               teams: Mapping[str, Sequence[IndexEntry]] | None = None) -> ContextBlock:
    """The context block of these entries, as `memcli context` prints it (before redaction)."""
    folders = {team.name: team.folder for team in settings.teams}
    return build_context(project, user, project_where=_relative_where(settings),
                         user_where=_home_relative(settings.user_store, settings.home),
                         max_tokens=budget, expired=expired,
                         teams=[(name, _home_relative(folders[name], settings.home), entries)
                                for name, entries in (teams or {}).items()])


def fresh_entries(stores: dict[str, StoreState], now: datetime
                   ) -> tuple[list[IndexEntry], list[IndexEntry], int]:
    """Each level's index entries without the expired notes, and how many those were."""
    kept: dict[str, list[IndexEntry]] = {}
    expired = 0
    for level in LEVELS:
        state = stores.get(level)
        if state is None:
            kept[level] = []
            continue
        gone = state.expired(now)
        expired += len(gone)
        kept[level] = [e for e in state.entries() if e.filename not in gone]
    return kept["project"], kept["user"], expired


def stale_of(settings: Settings, state: StoreState | None) -> dict[str, str]:
    """The project notes whose cited code changed or is gone, with what to tell the agent."""
    if state is None or not any(h.cites for h in state.heads.values()):
        return {}  # the common case: the anchors' checks are not even imported
    from memcli.store.anchor_notes import stale_notes

    return stale_notes(settings.project_root, state)


def marked(entries: list[IndexEntry], stale: Mapping[str, str]) -> list[IndexEntry]:
    """ENTRIES, those of STALE notes marked so that the agent checks before relying on them
    (docs/anchors.md)."""
    if not stale:
        return entries
    return [e.replace(summary=f"{e.summary} [{stale[e.filename]}]") if e.filename in stale
            else e for e in entries]


def _without_hidden(entries: list[IndexEntry]) -> list[IndexEntry]:
    """A repository's entries without the text their titles and summaries hide when
    MEMORY.md is rendered (an HTML comment): a reviewer on GitHub never saw it."""
    from memcli.safety.hidden_markup import might_hide

    if not any(might_hide(e.title) or might_hide(e.summary) for e in entries):
        return entries
    from memcli.safety.hidden_markup import without_hidden

    return [e.replace(title=without_hidden(e.title), summary=without_hidden(e.summary))
            for e in entries]


def _redacted(entries: Sequence[IndexEntry]) -> list[IndexEntry]:
    from memcli.safety.redact import redact

    return [e.replace(title=redact(e.title)[0], summary=redact(e.summary)[0])
            for e in entries]


def _home_relative(path: Path, home: Path | None) -> str:
    """~/… for paths in the home folder: shorter in a prompt, and no user name in it."""
    if home is None or not path.is_relative_to(home):
        return str(path)
    return "~/" + str(path.relative_to(home))


def _relative_where(settings: Settings) -> str:
    """Where the project notes are; said plainly when not in the current repository, since
    an agent takes them as this project's."""
    outside = settings.outside_repository()
    if outside is not None:
        return f"{settings.project_store}, {outside}"
    try:
        return str(settings.project_store.relative_to(settings.project_root))
    except ValueError:
        return str(settings.project_store)
