"""How record files are named and numbered, and the bounds that prune old records."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memcli.writes.transaction import HISTORY_DIR

# Bounds, applied each time a record is written. The newest MIN_KEPT stay whatever their
# count or age, but not past MAX_BYTES: the byte bound holds whatever the records' sizes.
# The record of a destructive change (a note deleted, or emptied of most of its text) is
# pinned for MAX_AGE_DAYS: later writes push the other records out first, so 24 large
# applies cannot push a wipe's record (what `memcli undo` needs) out of the history.
MAX_RECORDS = 1000
MAX_AGE_DAYS = 180
MAX_BYTES = 64 * 1024 * 1024
MIN_KEPT = 20

_NAME = re.compile(r"(?P<seq>[0-9]{1,12})-(?P<stamp>[0-9]{1,14})-(?P<id>[0-9a-f]{4,32})\.json")


def record_name(seq: int, now: str, txn_id: str) -> str:
    stamp = re.sub(r"[^0-9]", "", now)[:14] or "0"
    return f"{seq:08d}-{stamp}-{txn_id}.json"


def next_sequence(stores: Iterable[Path]) -> int:
    """One more than the highest sequence number in any of the (locked) stores' histories.

    Every command locks both stores, so the numbers order the transactions of a project
    store and its user store together, even when the clock says otherwise.
    """
    highest = 0
    for store in stores:
        for name in record_names(store):
            highest = max(highest, int(name.split("-", 1)[0]))
    return highest + 1


def record_names(store: Path) -> list[str]:
    folder = store / HISTORY_DIR
    if folder.is_symlink():
        return []
    try:
        return sorted(n for n in os.listdir(folder) if _NAME.fullmatch(n))
    except OSError:
        return []


def prune(store: Path, now: str, new_size: int) -> list[str]:
    """The oldest records to drop so that, with a new one of new_size bytes, the bounds hold.

    Count and age drop the oldest first, down to MIN_KEPT. Bytes drop the oldest records
    that are not pinned (a destructive change younger than MAX_AGE_DAYS), then, only if the
    pinned ones alone pass the bound, the oldest pinned: the new record is never dropped.
    """
    names = record_names(store)  # oldest first (zero-padded sequence numbers)
    cutoff = _stamp_days_before(now, MAX_AGE_DAYS)
    sizes = {n: _size(store / HISTORY_DIR / n) for n in names}
    total = new_size + sum(sizes.values())
    drop: list[str] = []
    kept = len(names) + 1
    for name in names:
        if kept <= MIN_KEPT:
            break
        stamp = _NAME.fullmatch(name)["stamp"]  # type: ignore[index]
        too_old = cutoff is not None and len(stamp) == 14 and stamp < cutoff
        if kept > MAX_RECORDS or too_old:
            drop.append(name)
            kept -= 1
            total -= sizes[name]
    if total > MAX_BYTES:
        left = [n for n in names if n not in set(drop)]
        pinned = {n for n in left if _destructive(store / HISTORY_DIR / n)}
        for name in [n for n in left if n not in pinned] + [n for n in left if n in pinned]:
            if total <= MAX_BYTES:
                break
            drop.append(name)
            total -= sizes[name]
    return drop


def _destructive(path: Path) -> bool:
    """Whether a record deleted a note or emptied most of one (unreadable: not pinned)."""
    import json

    from memcli.safety.unattended import removes_most
    from memcli.store.names import INDEX_NAME

    try:
        with open(path, "rb") as handle:
            raw = json.loads(handle.read(MAX_BYTES + 1))
        files = raw["files"]
        for item in files:
            if item.get("file") == INDEX_NAME or item.get("encoding") == "base64":
                continue
            before, after = item.get("before"), item.get("after")
            if isinstance(before, str) and (after is None or (
                    isinstance(after, str) and removes_most(before, after))):
                return True
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return False
    return False


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _stamp_days_before(now: str, days: int) -> str | None:
    try:
        moment = datetime.fromisoformat(now.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment.astimezone(UTC) - timedelta(days=days)).strftime("%Y%m%d%H%M%S")
