"""A store's review inbox: proposals an unattended run left for a person to accept.

One proposal is one JSON file in ``memcli.store.names.inbox_folder(store)``: the operations
(for that store's level), the words of the turn behind them, where they came from (agent,
session, extractor, model) and the store's fingerprint they were planned against. A
proposal is written, and taken out when accepted or rejected, as a change of the same
transaction as the notes (``Change.inbox``): a killed review leaves it either waiting or
accepted, never both. Nothing reads the inbox but `memcli review` and the counts of
`memcli status` and the session-start hook: `context` and `recall` never see it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memcli.store.names import PROPOSAL_NAME, inbox_folder
from memcli.writes.transaction import Change

FORMAT = 1
# A proposal file larger than this is not one memcli wrote: it is left out, and said so.
MAX_PROPOSAL_BYTES = 4 * 1024 * 1024
# The turn's words kept with a proposal: what a person needs to judge it, not the session.
MAX_EVIDENCE_CHARS = 4000
_NAME = re.compile(PROPOSAL_NAME)


@dataclass(frozen=True)
class Proposal:
    id: str
    level: str
    created: str  # UTC, as the frontmatter writes times
    operations: list[dict[str, Any]]
    source: dict[str, str] = field(default_factory=dict)  # command, via, session, model…
    evidence: str = ""
    base: str = ""  # the store's fingerprint when it was planned

    @property
    def filename(self) -> str:
        return f"{self.id}.json"


def new_proposal(level: str, now: str, operations: Sequence[Mapping[str, Any]],
                 source: Mapping[str, str], evidence: str, base: str) -> Proposal:
    """A proposal made now (NOW as the frontmatter writes it: 2026-01-02T03:04:05Z)."""
    stamp = now.replace("-", "").replace(":", "").rstrip("Z")[:15]
    return Proposal(f"{stamp}-{os.urandom(4).hex()}", level, now, [dict(o) for o in operations],
                    dict(source), evidence[-MAX_EVIDENCE_CHARS:], base)


def encode(proposal: Proposal) -> bytes:
    body = {"format": FORMAT, "id": proposal.id, "level": proposal.level,
            "created": proposal.created, "source": proposal.source,
            "evidence": proposal.evidence, "base": proposal.base,
            "operations": proposal.operations}
    return (json.dumps(body, ensure_ascii=False, indent=2) + "\n").encode()


def write_change(store: Path, proposal: Proposal) -> Change:
    return Change(store, proposal.filename, encode(proposal), inbox=True)


def remove_change(store: Path, proposal_id: str) -> Change:
    return Change(store, f"{proposal_id}.json", None, inbox=True)


def read_inbox(store: Path, level: str) -> tuple[list[Proposal], list[str]]:
    """The store's proposals, oldest first, and why each unreadable file is left out."""
    folder = inbox_folder(store)
    try:
        names = sorted(n for n in os.listdir(folder) if _NAME.fullmatch(n))
    except OSError:
        return [], []
    found: list[Proposal] = []
    problems: list[str] = []
    for name in names:
        try:
            found.append(_decode(folder / name, level))
        except ValueError as exc:
            problems.append(f"{level} inbox: {name}: {exc}; it is left out")
    return found, problems


def count(store: Path) -> int:
    """How many proposals wait in the store's inbox (names only: nothing is parsed)."""
    try:
        return sum(1 for n in os.listdir(inbox_folder(store)) if _NAME.fullmatch(n))
    except OSError:
        return 0


def expired(proposal: Proposal, now: str, days: int) -> bool:
    """Whether the proposal is older than DAYS at NOW."""
    try:
        made = datetime.fromisoformat(proposal.created.replace("Z", "+00:00"))
        at = datetime.fromisoformat(now.replace("Z", "+00:00"))
    except ValueError:
        return True  # a date nobody can read: its age cannot keep it
    if made.tzinfo is None:
        made = made.replace(tzinfo=UTC)
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at - made > timedelta(days=days)


def _decode(path: Path, level: str) -> Proposal:
    from memcli.paths import read_regular_file

    try:
        data = read_regular_file(path, MAX_PROPOSAL_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"cannot read it ({exc.strerror or exc})") from None
    if len(data) > MAX_PROPOSAL_BYTES:
        raise ValueError(f"larger than {MAX_PROPOSAL_BYTES} bytes")
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError("not a JSON proposal") from None
    if not isinstance(body, dict):
        raise ValueError("not a JSON object")
    operations = body.get("operations")
    source = body.get("source")
    if (not isinstance(operations, list) or not all(isinstance(o, dict) for o in operations)
            or not isinstance(source, dict)):
        raise ValueError("its operations or its source are not what a proposal holds")
    return Proposal(path.stem, level, _text(body.get("created")), operations,
                    {str(k): _text(v) for k, v in source.items() if isinstance(v, str)},
                    _text(body.get("evidence")), _text(body.get("base")))


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
