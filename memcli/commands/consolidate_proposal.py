"""What `memcli consolidate` proposes: an operations document with a kind on each operation."""

from __future__ import annotations

from dataclasses import dataclass, field

from memcli.json_values import JsonObject

KINDS = ("duplicate", "contradiction", "expired", "shorten")
MARKER = "consolidate"  # the document key apply looks for before deleting anything


@dataclass
class Proposal:
    operations: list[JsonObject]
    base: dict[str, str]
    provider: str
    notes: list[str] = field(default_factory=list)  # what could not be proposed, and why

    def counts(self) -> dict[str, int]:
        """Proposals per kind (a merge is one proposal of two operations)."""
        seen: dict[str, set[str]] = {kind: set() for kind in KINDS}
        for op in self.operations:
            seen[str(op["kind"])].add(str(op.get("pair") or op["filename"]))
        return {kind: len(found) for kind, found in seen.items()}
