"""`memcli verify`: the project notes' anchors against the working tree, and `--repin`.

Each anchor is unchanged, changed (with a short diff summary), moved (the same content at
another path or lines), gone, or not pinned yet (docs/anchors.md). `--repin` accepts what
the repository holds now after a person has checked the note: moved anchors follow their
content, changed ones take its new digest, gone ones are dropped; the change is one
recorded update, like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memcli.commands.apply import ApplyReport
from memcli.errors import ConfigError, NotFoundError
from memcli.settings.config import Settings
from memcli.store.anchor_notes import NoteAnchors, check_state
from memcli.store.anchor_repository import Repository, repository_root
from memcli.store.anchors import anchors_of
from memcli.store.folder import StoreState
from memcli.store.names import NO_PROJECT
from memcli.writes.stores import no_project, open_stores

STATES = ("unchanged", "moved", "unpinned", "changed", "gone")


@dataclass
class VerifyReport:
    root: Path  # the repository the anchors point into
    notes: list[NoteAnchors]
    repinned: ApplyReport | None = None  # --repin: the update it made (or would make)
    dropped: list[str] = field(default_factory=list)  # --repin: gone anchors taken out
    staged: bool = False  # --staged: only the anchors of the files the commit changes

    def count(self, state: str) -> int:
        return sum(1 for n in self.notes for c in n.checks if c.state == state)

    @property
    def stale(self) -> bool:
        return any(n.stale for n in self.notes)

    @property
    def needs_attention(self) -> bool:
        if self.staged:  # the pre-commit check reports, it never stops a commit
            return False
        if self.repinned is not None:
            return self.repinned.needs_attention
        return self.stale


def verify(settings: Settings, names: Sequence[str] = ()) -> VerifyReport:
    """Check the anchors of the project notes NAMES (default: every note that has any)."""
    if no_project(settings):
        raise ConfigError(NO_PROJECT)
    root = repository_root(settings.project_root)
    with open_stores(settings, ("project",), bodies=False) as stores:
        state = stores["project"]
        chosen = _named(state, names) if names else None
        return VerifyReport(root, check_state(state, root, chosen))


def verify_staged(settings: Settings) -> VerifyReport:
    """The anchors whose file the staged commit changes and that no longer hold (the
    pre-commit hook's warning): the commit may be what makes those notes stale."""
    if no_project(settings):
        raise ConfigError(NO_PROJECT)
    root = repository_root(settings.project_root)
    staged = Repository(root).staged()
    with open_stores(settings, ("project",), bodies=False) as stores:
        state = stores["project"]
        names = [n for n, h in state.heads.items() if any(a.path in staged for a in h.cites)]
        notes = check_state(state, root, names) if names else []
    kept = [NoteAnchors(n.level, n.filename, n.title,
                        [c for c in n.checks if c.anchor.path in staged
                         and c.state != "unchanged"]) for n in notes]
    return VerifyReport(root, [n for n in kept if n.checks], staged=True)


def repin(settings: Settings, names: Sequence[str], *, dry_run: bool = False) -> VerifyReport:
    """Accept what the cited files hold now for the notes NAMES (checked by a person)."""
    from memcli.commands.apply import apply_items
    from memcli.writes.history import Source

    report = verify(settings, names)
    items: list[dict[str, object]] = []
    with open_stores(settings, ("project",)) as stores:
        state = stores["project"]
        for note in report.notes:
            current = state.notes[note.filename]
            kept = [c.now for c in note.checks if c.now is not None]
            report.dropped += [f"{note.filename}: {c.anchor.label}" for c in note.checks
                               if c.now is None]
            cites = [a.as_value() for a in kept]
            if cites != [a.as_value() for a in anchors_of(current.meta)]:
                items.append({"action": "update", "level": "project",
                              "filename": note.filename, "content": current.content,
                              "cites": cites, "reason": "verify --repin"})
    report.repinned = apply_items(settings, items, {}, dry_run=dry_run, strict=True,
                                  source=Source("verify --repin"))
    return report


def _named(state: StoreState, names: Sequence[str]) -> list[str]:
    from memcli.commands.lookup import NameQuery

    chosen: list[str] = []
    for name in names:
        query = NameQuery.of(name, {"project": state.path})
        found = [f for f, head in sorted(state.heads.items())
                 if query.means("project", f, head.title)]
        if not found:
            raise NotFoundError(f"no project note matches '{name}'")
        chosen += [f for f in found if f not in chosen]
    return chosen
