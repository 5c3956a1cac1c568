"""Checks shared by the crash tests: does the history tell exactly the change that survived?"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

HISTORY_DIR = ".memcli-history"


def read_history(stores: Mapping[str, Path]) -> dict[str, dict[str, Any]]:
    """Each store's history records by file name, parsed."""
    found: dict[str, dict[str, Any]] = {}
    for level, store in stores.items():
        folder = store / HISTORY_DIR
        names = sorted(folder.glob("*.json")) if folder.is_dir() else []
        found[level] = {p.name: json.loads(p.read_bytes()) for p in names}
    return found


def record_problems(before: dict[str, Any], after: dict[str, Any],
                    old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]]) -> list[str]:
    """What is wrong with the history after a batch that changed `before` into `after`."""
    problems: list[str] = []
    ids = set()
    for level in ("project", "user"):
        if not set(old[level]) <= set(new[level]):
            problems.append(f"{level}: an older record vanished")
        added = [new[level][n] for n in sorted(set(new[level]) - set(old[level]))]
        changed = {k for k in before[level].keys() | after[level].keys()
                   if before[level].get(k) != after[level].get(k)}
        if not changed:
            if added:
                problems.append(f"{level}: a record without a change")
            continue
        if len(added) != 1:
            problems.append(f"{level}: {len(added)} new records for one change")
            continue
        record = added[0]
        ids.add(record["id"])
        described = {f["file"] for f in record["files"]}
        if described != changed:
            problems.append(f"{level}: the record names {sorted(described ^ changed)} wrongly")
        for item in record["files"]:
            problems += _file_problems(level, item, before[level], after[level])
    if len(ids) > 1:
        problems.append("the two stores' records have different ids")
    return problems


def _file_problems(level: str, item: dict[str, Any], before: dict[str, Any],
                   after: dict[str, Any]) -> list[str]:
    name = item["file"]
    old, new = before.get(name), after.get(name)
    trimmed = item.get("trimmed")
    if trimmed:
        if (trimmed["before_sha256"] != _sha(old) or trimmed["after_sha256"] != _sha(new)):
            return [f"{level}/{name}: the record's hashes are not of the files"]
        return []
    as_bytes = [None if v is None else v.encode() for v in (item["before"], item["after"])]
    if as_bytes != [old, new]:
        return [f"{level}/{name}: the record's contents are not the files'"]
    return []


def _sha(data: bytes | None) -> str | None:
    return None if data is None else "sha256:" + hashlib.sha256(data).hexdigest()
