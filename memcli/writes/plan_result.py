"""What a plan says: each operation's outcome, each file's change, and the plan whole
(what ``apply`` shows, writes in one transaction, and decides its exit status from)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from memcli.writes.transaction import Change

OnConflict = Literal["fail", "update", "rename"]
Status = Literal["applied", "unchanged", "rejected", "skipped", "held", "proposed"]


@dataclass
class Outcome:
    """What happened to one operation of the batch."""

    position: int
    action: str
    level: str | None
    filename: str | None
    status: Status
    message: str = ""
    warnings: list[str] = field(default_factory=list)
    reason: str | None = None  # the operation's own "reason", shown in the dry-run


@dataclass(frozen=True)
class FileChange:
    level: str
    filename: str
    before: bytes | None
    after: bytes | None

    @property
    def kind(self) -> str:
        if self.before is None:
            return "created"
        return "deleted" if self.after is None else "modified"


@dataclass
class Plan:
    outcomes: list[Outcome]
    files: list[FileChange]
    stale_levels: list[str]
    warnings: list[str]
    changes: list[Change]
    # The operations that wait for review (the guard's `review`), by level, as they came.
    proposed: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def rejected(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "rejected"]
