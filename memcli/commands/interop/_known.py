"""What an import recognises as memcli's own export: export, then import, creates nothing.

Each format's export writes one unit per note (a Claude Code note file, a Codex MEMORY.md
block, a GEMINI.md bullet). A unit that is exactly what the export would write now for a
note the target store holds is that note coming back: it is left out, named, instead of
being proposed again (a duplicate to reject, or under another title a second note).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from memcli.commands.interop.results import ImportResult, LeftOut
from memcli.settings.config import Settings
from memcli.store.folder import StoreState
from memcli.writes.stores import open_stores

# What a format's export writes for one note of a store, by the note's file name.
Rendering = Callable[[StoreState, str], str | bytes]


@dataclass(frozen=True)
class Unit:
    """One piece of another tool's memory and the operation an import makes of it."""

    source: str  # where it came from, as the report names it ("MEMORY.md block 2")
    item: dict[str, Any]
    raw: str | bytes  # its text as found, compared with what an export writes


def new_items(settings: Settings, result: ImportResult, units: Sequence[Unit],
              rendering: Rendering) -> list[dict[str, Any]]:
    """The operations of UNITS that are not the target store's own notes exported; the
    sources of those kept are added to RESULT, the others to its left-out list."""
    exported = _exported(settings, result.level, rendering) if units else {}
    items: list[dict[str, Any]] = []
    for unit in units:
        name = exported.get(unit.raw)
        if name is not None:
            result.left_out.append(LeftOut(unit.source, f"already in the {result.level} "
                                           f"store as {name}", False))
            continue
        items.append(unit.item)
        result.sources.append(unit.source)
    return items


def _exported(settings: Settings, level: str, rendering: Rendering) -> dict[str | bytes, str]:
    with open_stores(settings, [level]) as stores:
        state = stores.get(level)
        if state is None:
            return {}
        return {rendering(state, name): name for name in state.heads}
