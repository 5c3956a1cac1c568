"""The anchors of a store's notes, checked in one batch: what `verify`, `status`,
`context` and `recall` share (docs/anchors.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from memcli.store.anchor_check import AnchorCheck, check
from memcli.store.anchor_repository import Repository, repository_root
from memcli.store.folder import StoreState


@dataclass
class NoteAnchors:
    """One note's anchors, checked."""

    level: str
    filename: str
    title: str
    checks: list[AnchorCheck]

    @property
    def stale(self) -> bool:
        return any(c.stale for c in self.checks)


def check_state(state: StoreState, root: Path, names: Iterable[str] | None = None,
                env: Mapping[str, str] | None = None) -> list[NoteAnchors]:
    """The anchors of STATE's notes (NAMES only, when given) checked in one batch."""
    chosen = sorted(state.heads if names is None else names)
    cited = [(name, state.heads[name]) for name in chosen if state.heads[name].cites]
    if not cited:
        return []
    repo = Repository(root, env)
    results = iter(check(repo, [a for _, head in cited for a in head.cites]))
    return [NoteAnchors(state.level, name, head.title, [next(results) for _ in head.cites])
            for name, head in cited]


def stale_notes(project_root: Path, state: StoreState) -> dict[str, str]:
    """The project notes whose anchors changed or are gone, each with what to say of it
    (`context`, `recall` and `status` mark them)."""
    if state.level != "project" or not any(h.cites for h in state.heads.values()):
        return {}
    found = check_state(state, repository_root(project_root))
    return {n.filename: mark(n) for n in found if n.stale}


def mark(note: NoteAnchors) -> str:
    """What an agent is told of a note whose cited code changed."""
    stale = [c for c in note.checks if c.stale]
    gone = [c.anchor.label for c in stale if c.state == "gone"]
    changed = [c.anchor.label for c in stale if c.state == "changed"]
    parts = []
    if changed:
        parts.append(f"cited file changed since this was written: {', '.join(changed[:3])}")
    if gone:
        parts.append(f"cited file gone: {', '.join(gone[:3])}")
    return "; ".join(parts) + " (check before relying on it)"
