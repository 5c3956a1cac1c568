"""M217-M219: a note's anchors (`cites:`, docs/anchors.md) against the working tree.

Each note's `cites` is read as the note is visited (M217 for an entry that is not an anchor
into the repository); the project notes' anchors are then checked in one batch, one
`git ls-files` for the whole store, as `memcli verify` checks them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memcli.commands.lint._report import Finding, finding
from memcli.commands.lint._scan import FileScan
from memcli.store.anchors import CITES, Anchor, parse_cites


class CitedNotes:
    """The anchors of one store's notes, kept (small) until the store's files are read."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.notes: list[tuple[str, int, list[Anchor]]] = []  # shown path, line, anchors

    def visit(self, file: FileScan) -> Iterator[Finding]:
        note = file.note
        if note is None or CITES not in note.meta:
            return
        line = _key_line(note.frontmatter)
        anchors, problems = parse_cites(note.meta[CITES])
        for problem in problems:
            yield finding("M217", file.shown, line, f"{problem}; write a path relative to the "
                          "repository root (docs/anchors.md)")
        if anchors and self.level != "project":
            yield finding("M217", file.shown, line, "cites in a user note: anchors point into "
                          "a repository, so only project notes carry them; drop cites")
        elif anchors:
            self.notes.append((file.shown, line, anchors))


def stale_anchors(project_root: Path, cited: list[CitedNotes]) -> Iterator[Finding]:
    from memcli.store.anchor_check import check
    from memcli.store.anchor_repository import Repository, repository_root

    notes = [n for store in cited for n in store.notes]
    if not notes:
        return
    results = iter(check(Repository(repository_root(project_root)),
                         [a for _, _, anchors in notes for a in anchors]))
    for shown, line, anchors in notes:
        for result in (next(results) for _ in anchors):
            if result.state == "changed":
                yield finding("M218", shown, line,
                              f"the cited {result.anchor.label} changed since the note was "
                              f"pinned ({result.detail}); check the note, then `memcli verify "
                              "--repin`")
            elif result.state == "gone":
                yield finding("M219", shown, line,
                              f"the cited {result.anchor.label} is gone ({result.detail}); "
                              "check the note, then `memcli verify --repin`")


def _key_line(frontmatter: str) -> int:
    """The file line of the `cites:` key (1 when it cannot be found)."""
    at = frontmatter.find(CITES + ":")
    while at > 0 and frontmatter[at - 1] != "\n":
        at = frontmatter.find(CITES + ":", at + 1)
    return 1 if at < 0 else frontmatter.count("\n", 0, at) + 2
