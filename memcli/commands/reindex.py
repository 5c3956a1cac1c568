"""`memcli index`: each store's MEMORY.md rebuilt from its notes, or checked against them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memcli.settings.config import Settings
from memcli.store.names import INDEX_NAME
from memcli.writes.stores import commit_recorded, levels_for, open_stores


@dataclass
class IndexResult:
    level: str
    path: Path
    up_to_date: bool
    changed: bool
    broken: list[str] = field(default_factory=list)


def rebuild_index(settings: Settings, level: str | None, *, check: bool) -> list[IndexResult]:
    from memcli.writes.history import Source
    from memcli.writes.transaction import Change

    levels = levels_for(level, settings)
    results: list[IndexResult] = []
    with open_stores(settings, levels, bodies=False) as stores:
        changes: list[Change] = []
        for lvl, state in stores.items():
            if not state.exists:
                continue
            # A store with nothing in it needs no index: that is what a batch killed right
            # after creating the store folder leaves, and it reads exactly like no store.
            empty = state.index_bytes is None and not (state.heads or state.broken
                                                       or state.unsafe)
            fresh = empty or state.index_is_fresh()
            results.append(IndexResult(lvl, state.path / INDEX_NAME, fresh,
                                       not fresh and not check, sorted(state.broken.values())))
            if not fresh and not check:
                changes.append(Change(state.path, INDEX_NAME, state.rendered_index().encode()))
            # Nothing past here needs the notes' heads, and the commit below holds the new
            # indexes and their history records at once: on 100,000 notes a level the heads
            # alone are some 60 MB a level.
            state.heads.clear()
        commit_recorded(settings, changes, Source("index"))
    return results
