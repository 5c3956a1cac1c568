"""Pinning the anchors an operation carries, before it is planned.

`memcli add --cite`, an extractor and an operations document may name anchors without a
digest: each is pinned here to what the repository holds at that moment, so that the note
records what it was written against. An anchor that cannot be pinned (no such file, a link,
a symbol not defined, lines past the end) rejects its operation, with the reason; a digest
the document already carries is kept (it was pinned when the document was made).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memcli.operations.model import CreateOp, Parsed, UpdateOp
from memcli.settings.config import Settings
from memcli.store.anchor_check import pin
from memcli.store.anchor_repository import Repository, repository_root
from memcli.store.anchors import AnchorError, cites_value, parse_entry

ONLY_PROJECT = ("cites are anchors into this repository: only project notes carry them "
                "(drop cites, or use --level project)")


def pin_parsed(settings: Settings, parsed: Sequence[Parsed]) -> list[Parsed]:
    """PARSED with every anchor pinned; an operation whose anchor cannot be is rejected."""
    if not any(isinstance(p.op, CreateOp | UpdateOp) and p.op.cites for p in parsed):
        return list(parsed)
    repo = Repository(repository_root(settings.project_root))
    out: list[Parsed] = []
    for item in parsed:
        op = item.op
        if not isinstance(op, CreateOp | UpdateOp) or not op.cites:
            out.append(item)
            continue
        if op.level != "project":
            out.append(Parsed(item.position, item.raw, None, ONLY_PROJECT))
            continue
        try:
            anchors = [a if a.digest else pin(repo, a) for a in map(parse_entry, op.cites)]
        except AnchorError as exc:
            out.append(Parsed(item.position, item.raw, None, f"cites: {exc}"))
            continue
        out.append(Parsed(item.position, item.raw, replace(op, cites=cites_value(anchors)),
                          None))
    return out
