"""The stored notes a conversation may change: memcli's own search over the turn's text.

The extraction prompt shows them whole (:mod:`memcli.extraction.prompt`), so that "we moved
from Heroku to Fly.io" becomes an update of the Heroku note and not a second note.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.search.engine import SearchHit, search_states, shown
from memcli.settings.zone import UTC, Zone

if TYPE_CHECKING:
    from memcli.store.folder import StoreState

# A note must hold this share of the turn's weighted words (search's coverage) to be
# related: a turn is long, so the bar is lower than recall's for a prompt.
RELATED_COVERAGE = 0.1
# The turn's text the search reads: its newest part, where a change is said.
QUERY_CHARS = 4_000


def related_hits(states: Sequence[StoreState], text: str, cache: Path | None, *,
                 limit: int, now: datetime | None = None, zone: Zone = UTC) -> list[SearchHit]:
    """At most LIMIT unexpired notes of STATES related to TEXT, best first, as an agent is
    handed them (a project note's hidden markup left out)."""
    query = text[-QUERY_CHARS:]
    if not query.strip() or not any(state.exists and state.heads for state in states):
        return []
    found = search_states(states, query, cache, limit=None, now=now, zone=zone)
    hits = [h for h in found.hits if not h.expired and h.coverage >= RELATED_COVERAGE]
    return [shown(hit) for hit in hits[:limit]]
