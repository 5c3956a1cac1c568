"""The previous bytes of every note an unattended run changed, kept so it can be restored.

A run's backup is one folder under ``<memcli home>/backups/``: a manifest (when, which
store each level was) and the notes as they were before the run, by level. Only the last
``KEEP_RUNS`` runs are kept. ``memcli restore`` lists them and puts one back.

This is the small stand-in for the history the transaction will keep (undo): when that
lands, a run's history entry holds the same bytes and this module can go.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memcli.errors import InputError, NotFoundError
from memcli.names import INDEX_NAME, parse_note_name

KEEP_RUNS = 50
MANIFEST = "manifest.json"
_RUN_ID = re.compile(r"^[0-9]{8}T[0-9]{6}Z-[0-9]+(?:-[0-9]+)?$")


@dataclass(frozen=True)
class Previous:
    level: str
    store: Path
    filename: str
    data: bytes


@dataclass(frozen=True)
class Run:
    run_id: str
    when: str
    notes: list[tuple[str, str]]  # (level, filename)
    stores: dict[str, str]


def backups_dir(home: Path) -> Path:
    return home / "backups"


def keep(home: Path, previous: Sequence[Previous], when: str, pid: int) -> str | None:
    """Write the notes' previous bytes; the run's id, or None when nothing was changed."""
    notes = [p for p in previous if p.filename != INDEX_NAME]
    if not notes:
        return None
    root = backups_dir(home)
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    stamp = re.sub(r"[^0-9TZ]", "", when)[:16]
    run_id = f"{stamp}-{pid}"
    n = 1
    while (root / run_id).exists():
        n += 1
        run_id = f"{stamp}-{pid}-{n}"
    folder = root / run_id
    folder.mkdir(mode=0o700)
    from memcli.transaction import write_durably

    for p in notes:
        (folder / p.level).mkdir(exist_ok=True, mode=0o700)
        write_durably(folder / p.level / p.filename, p.data, mode=0o600)
    manifest = {"when": when, "stores": {p.level: str(p.store) for p in notes},
                "notes": [[p.level, p.filename] for p in notes]}
    write_durably(folder / MANIFEST, json.dumps(manifest, indent=1).encode(), mode=0o600)
    _prune(root)
    return run_id


def _prune(root: Path) -> None:
    runs = sorted(n for n in os.listdir(root) if _RUN_ID.match(n))
    for name in runs[:-KEEP_RUNS]:
        shutil.rmtree(root / name, ignore_errors=True)


def runs(home: Path) -> list[Run]:
    """The kept runs, newest first."""
    root = backups_dir(home)
    try:
        names = sorted((n for n in os.listdir(root) if _RUN_ID.match(n)), reverse=True)
    except FileNotFoundError:
        return []
    out = []
    for name in names:
        run = _read(root / name)
        if run is not None:
            out.append(run)
    return out


def _read(folder: Path) -> Run | None:
    try:
        data = json.loads((folder / MANIFEST).read_bytes())
        notes = [(str(level), str(filename)) for level, filename in data["notes"]]
        stores = {str(k): str(v) for k, v in data["stores"].items()}
        return Run(folder.name, str(data["when"]), notes, stores)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def load(home: Path, run_id: str) -> tuple[Run, list[Previous]]:
    """A run and the bytes it kept."""
    if not _RUN_ID.match(run_id):
        raise InputError(f"{run_id!r} is not a backup id; `memcli restore --list` shows them")
    folder = backups_dir(home) / run_id
    run = _read(folder)
    if run is None:
        raise NotFoundError(f"no backup {run_id}; `memcli restore --list` shows them")
    previous = []
    for level, filename in run.notes:
        if parse_note_name(filename) is None or level not in run.stores:
            continue  # a hand-edited manifest: never write outside a store
        data = (folder / level / filename).read_bytes()
        previous.append(Previous(level, Path(run.stores[level]), filename, data))
    return run, previous
