"""An extractor's reply checked, operation by operation: each valid one kept as written
(what it would hide in a rendered note made visible), each invalid one rejected with its
reason, those past MAX_OPERATIONS dropped and counted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memcli.operations.model import AnyOp

# One turn rarely holds more than a handful of memories; a reply with dozens is a model
# running away (or obeying an injected instruction), not a conversation worth keeping.
MAX_OPERATIONS = 25


@dataclass(frozen=True)
class Dropped:
    """An operation of the reply past MAX_OPERATIONS: where it was, and what it was."""

    position: int
    action: str  # create, update, delete; "invalid" for one that would have been rejected
    title: str | None = None  # a create's or update's title, a delete's file name


def _revealed(op: dict[str, object]) -> dict[str, object]:
    """OP with what its text would hide in a rendered note made visible (an HTML comment
    written as text): an extractor's note must not carry words a reviewer never sees."""
    from memcli.safety.hidden_markup import might_hide, reveal

    changed = {key: reveal(value) for key in ("title", "summary", "content")
               if isinstance(value := op.get(key), str) and might_hide(value)}
    return {**op, **changed} if changed else op


def _dropped(position: int, op: AnyOp | None) -> Dropped:
    if op is None:
        return Dropped(position, "invalid")
    return Dropped(position, op.action, getattr(op, "title", None) or getattr(op, "filename", None))


@dataclass
class Checked:
    """What :func:`validate` made of a reply."""

    operations: list[dict[str, object]] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)  # of each operation in the reply
    rejected: list[tuple[int, str]] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)


def validate(items: Sequence[Any], allow_delete: bool) -> Checked:
    """Keep each valid operation as the model wrote it; report each invalid one with its reason."""
    from memcli.operations.model import as_dict, validate_item

    result = Checked()
    kept = 0
    for position, raw in enumerate(items, start=1):
        parsed = validate_item(position, raw)
        if parsed.skipped:
            continue
        if kept >= MAX_OPERATIONS:
            # Past the cap the reply is a runaway: one line counts what it held (a line per
            # operation was 56 lines of noise), `--json` lists them.
            result.dropped.append(_dropped(position, parsed.op))
        elif parsed.op is None:
            result.rejected.append((position, parsed.error or "invalid"))
        elif parsed.op.action == "delete" and not allow_delete:
            result.rejected.append((position, "extract does not delete notes without "
                                    "--allow-delete; review it and use `memcli rm`"))
        else:
            result.operations.append(_revealed(as_dict(parsed.op)))
            result.positions.append(position)
            kept += 1
    return result
