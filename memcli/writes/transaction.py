"""Crash-safe writes across both stores, under one exclusive lock per store.

A batch is committed in three steps (see docs/transactions.md for the argument):

1. *prepare*: in every store it touches, a hidden ``.memcli-txn-<id>/`` folder receives the
   new file contents and a manifest, all fsynced;
2. *commit point*: a ``COMMITTED`` marker is renamed into the txn folder of the primary
   store (the first in lock order) and the folder is fsynced;
3. *roll forward*: staged files are renamed over their targets, deleted notes unlinked,
   then the secondary txn folders are removed and the primary's last.

A batch's history record (and the old records it prunes) are changes of the same batch,
in the store's hidden history folder: after a crash there is never a change without its
record, nor a record without its change.

Any memcli command that opens a store first finishes or discards what a killed process
left: with the marker it rolls forward (every step is idempotent), without it it discards.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memcli.durable import fsync_dir, write_durably
from memcli.errors import StoreError
from memcli.store.names import PROPOSAL_NAME, TXN_PREFIX, inbox_folder, name_key
from memcli.writes.locks import StoreLocks, by_store_key, store_key

MANIFEST = "manifest.json"
COMMITTED = "COMMITTED"
STAGED = "files"
HISTORY_DIR = ".memcli-history"
# History records are named <sequence>-<time>-<id>.json (memcli.writes.history writes them).
_RECORD_NAME = re.compile(r"[0-9]{1,12}-[0-9]{1,14}-[0-9a-f]{4,32}\.json")
_PROPOSAL_NAME = re.compile(PROPOSAL_NAME)
_PRIVATE = 0o600
# A new file's mode before the umask: the project store is committed, so its files are
# what any checkout makes; a store folder only its owner may open gets private files.
_SHARED = 0o666
_PRIVATE_DIR = 0o700


@dataclass(frozen=True)
class Change:
    """The new bytes of one file of a store, or None to delete it.

    ``history`` marks a record of the store's history folder rather than a store file;
    ``inbox`` a proposal of the store's review inbox (``memcli.store.names.inbox_folder``),
    so that a proposal is written, or taken out when accepted, in the batch that decides it.
    """

    store: Path
    filename: str
    data: bytes | None
    history: bool = False
    inbox: bool = False


def is_private_folder(path: Path) -> bool:
    """True when only the folder's owner may open it (no group or other permission bits)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0
    except OSError:
        return False


def new_file_mode(folder: Path, filename: str, private: bool) -> tuple[int, bool]:
    """The mode a store file is written with, and whether it is exact (not under the umask).

    A file that exists keeps its mode (a note a person made 0600 stays 0600); a new file in
    a private store folder is 0600, elsewhere it is what the umask makes of 0666.
    """
    try:
        found = os.lstat(os.path.join(folder, filename))  # a str: no Path per note
    except OSError:
        return (_PRIVATE if private else _SHARED), False
    if stat.S_ISREG(found.st_mode):
        return stat.S_IMODE(found.st_mode) & 0o777, True
    return (_PRIVATE if private else _SHARED), False


def commit(changes: Sequence[Change]) -> None:
    """Apply all changes atomically across their stores; the caller holds every store lock."""
    if not changes:
        return
    by_store = by_store_key(changes, lambda change: change.store)
    paths = {key: group[0].store for key, group in by_store.items()}
    order = sorted(by_store)
    txn_id = os.urandom(8).hex()  # what secrets.token_hex does, without importing random
    primary = paths[order[0]]
    txn_dirs = [
        _prepare(paths[k], by_store[k], txn_id, primary, [paths[o] for o in order])
        for k in order
    ]
    try:
        _mark_committed(txn_dirs[0])
    except OSError as exc:
        for txn_dir in txn_dirs:
            shutil.rmtree(txn_dir, ignore_errors=True)
        raise StoreError(
            f"could not commit the batch ({exc.strerror}); nothing was changed"
        ) from None
    try:
        _roll_forward_all(txn_dirs)
    except OSError as exc:
        raise StoreError(
            f"the batch is committed but could not be finished ({exc.strerror}); "
            "the next memcli command finishes it"
        ) from None


def _prepare(store: Path, changes: list[Change], txn_id: str, primary: Path,
             stores: list[Path]) -> Path:
    txn_dir = store / f"{TXN_PREFIX}{txn_id}"
    try:
        # Staged files hold the new notes: private until they are renamed into place.
        txn_dir.mkdir(mode=_PRIVATE_DIR)
        (txn_dir / STAGED).mkdir(mode=_PRIVATE_DIR)
        manifest: dict[str, Any] = {
            "id": txn_id,
            "primary": str(primary.resolve()),
            "stores": [str(s.resolve()) for s in stores],
        }
        notes = [c for c in changes if not c.history and not c.inbox]
        manifest["writes"], manifest["deletes"] = _stage(txn_dir, notes, 0,
                                                         is_private_folder(store))
        records = [c for c in changes if c.history]
        if records:
            _make_history_dir(store)
            writes, deletes = _stage(txn_dir, records, len(notes), True)
            manifest["history"] = {"writes": writes, "deletes": deletes}
        proposals = [c for c in changes if c.inbox]
        if proposals:
            _make_private_dir(inbox_folder(store), store.parent)
            writes, deletes = _stage(txn_dir, proposals, len(notes) + len(records), True)
            manifest["inbox"] = {"writes": writes, "deletes": deletes}
        fsync_dir(txn_dir / STAGED)
        import json  # here, not at the top: only a commit writes a manifest

        write_durably(txn_dir / MANIFEST, json.dumps(manifest, ensure_ascii=False).encode(),
                      _PRIVATE)
        fsync_dir(txn_dir)
        fsync_dir(store)
    except OSError as exc:
        shutil.rmtree(txn_dir, ignore_errors=True)
        raise StoreError(f"cannot write to {store}: {exc.strerror}; nothing was changed") from None
    return txn_dir


def _stage(txn_dir: Path, changes: list[Change], first: int,
           private: bool) -> tuple[dict[str, str], list[str]]:
    """Write each change's bytes under files/ with the mode its target will have."""
    writes: dict[str, str] = {}
    deletes: list[str] = []
    # Paths as text: a batch of 1,000 notes built 3,000 Path objects here.
    staged_dir = os.path.join(txn_dir, STAGED)
    for number, change in enumerate(changes, start=first):
        if change.data is None:
            deletes.append(change.filename)
            continue
        staged = f"{number}"
        folder = (txn_dir.parent / HISTORY_DIR if change.history
                  else inbox_folder(txn_dir.parent) if change.inbox else txn_dir.parent)
        mode, exact = new_file_mode(folder, change.filename, private)
        write_durably(os.path.join(staged_dir, staged), change.data, mode, exact=exact)
        writes[change.filename] = staged
    return writes, deletes


def _make_history_dir(store: Path) -> None:
    """The history folder, private (a record holds the old content of notes)."""
    _make_private_dir(store / HISTORY_DIR, store)


def _make_private_dir(folder: Path, parent: Path) -> None:
    """A private folder git leaves out (the history, an inbox: local, and holding notes)."""
    if folder.is_symlink():
        raise OSError(errno.ELOOP, f"{folder.name} is a symlink")
    if not folder.is_dir():
        folder.mkdir(mode=0o700)
        # Local: git leaves it out unless a person removes this file.
        write_durably(folder / ".gitignore", b"*\n", _PRIVATE)
        fsync_dir(folder)
        fsync_dir(parent)


def _mark_committed(txn_dir: Path) -> None:
    temp = txn_dir / (COMMITTED + ".tmp")
    write_durably(temp, b"", _PRIVATE)
    os.replace(temp, txn_dir / COMMITTED)
    fsync_dir(txn_dir)


def _roll_forward_all(txn_dirs: Sequence[Path]) -> None:
    """Finish a committed batch; the primary's folder (holding the marker) goes last."""
    for txn_dir in txn_dirs:
        _roll_forward(txn_dir)
    for txn_dir in [*txn_dirs[1:], txn_dirs[0]]:
        _remove_txn_dir(txn_dir)


def _roll_forward(txn_dir: Path) -> None:
    store = txn_dir.parent
    manifest = _read_manifest(txn_dir)
    if manifest is None:
        return
    _move_staged(txn_dir, manifest["writes"], store)
    deletes = manifest["deletes"]
    written = {name_key(name): store / name for name in manifest["writes"]} if deletes else {}
    for filename in deletes:
        twin = written.get(name_key(filename))
        if twin is not None and _same_file(store / filename, twin):
            # On a case-insensitive filesystem a deleted project_knowledge_Build.md and a
            # written project_knowledge_build.md are one file: it holds the new note now.
            continue
        with contextlib.suppress(FileNotFoundError):
            (store / filename).unlink()
    fsync_dir(store)
    history = manifest.get("history")
    if history:
        _roll_history_forward(txn_dir, history, txn_dir.parent / HISTORY_DIR)
    proposals = manifest.get("inbox")
    if proposals:
        _roll_history_forward(txn_dir, proposals, inbox_folder(txn_dir.parent))


def _roll_history_forward(txn_dir: Path, history: dict[str, Any], folder: Path) -> None:
    """The history records (or the inbox's proposals) of a committed batch, into FOLDER."""
    if folder.is_symlink() or not folder.is_dir():
        return  # replaced by something else since the prepare: never write through it
    _move_staged(txn_dir, history["writes"], folder)
    for filename in history["deletes"]:
        with contextlib.suppress(FileNotFoundError):
            (folder / filename).unlink()
    fsync_dir(folder)


def _move_staged(txn_dir: Path, writes: dict[str, str], folder: Path) -> None:
    """Rename each staged file into FOLDER; one already moved (a roll forward that a crash
    cut short, finished now) is skipped. Paths as text, and no stat before each rename:
    a batch of 1,000 notes built 3,000 Path objects and made 1,000 stat calls here."""
    staged_dir = os.path.join(txn_dir, STAGED)
    for filename, staged in writes.items():
        source = os.path.join(staged_dir, staged)
        try:
            os.replace(source, os.path.join(folder, filename))
        except FileNotFoundError:
            if os.path.lexists(source):  # the source is there: the target's folder is not
                raise


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _remove_txn_dir(txn_dir: Path) -> None:
    # The manifest goes first: a folder without one is an unfinished prepare, safe to discard.
    with contextlib.suppress(FileNotFoundError):
        (txn_dir / MANIFEST).unlink()
    shutil.rmtree(txn_dir, ignore_errors=True)
    with contextlib.suppress(OSError):
        fsync_dir(txn_dir.parent)


def _read_manifest(txn_dir: Path) -> dict[str, Any] | None:
    """The manifest, or None when there is none or it names anything but plain store files.

    A store may be committed to a repository, so a transaction folder may come from anyone:
    a manifest that points outside its store is treated as garbage, never rolled forward.
    """
    import json

    try:
        data = json.loads((txn_dir / MANIFEST).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("writes"), dict):
        return None
    writes, deletes = data["writes"], data.get("deletes")
    if not isinstance(deletes, list) or not all(_plain_name(n) for n in [*writes, *deletes]):
        return None
    if not all(isinstance(s, str) and s.isascii() and s.isdigit() for s in writes.values()):
        return None
    if (txn_dir / STAGED).is_symlink():
        return None  # staged files would be taken from (and moved out of) another folder
    if "history" in data and not _valid_history(data["history"], _RECORD_NAME):
        return None
    if "inbox" in data and not _valid_history(data["inbox"], _PROPOSAL_NAME):
        return None
    return data


def _valid_history(history: object, names_like: re.Pattern[str]) -> bool:
    if not isinstance(history, dict):
        return False
    writes, deletes = history.get("writes"), history.get("deletes")
    if not isinstance(writes, dict) or not isinstance(deletes, list):
        return False
    names = [*writes, *deletes]
    return (all(isinstance(n, str) and names_like.fullmatch(n) for n in names)
            and all(isinstance(s, str) and s.isascii() and s.isdigit()
                    for s in writes.values()))


def _plain_name(name: object) -> bool:
    """A file right inside a store: no separators, no '..', not hidden."""
    return (isinstance(name, str) and name not in ("", ".", "..") and not name.startswith(".")
            and not any(c in name for c in "/\\\x00"))


def _is_txn_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def pending(store: Path) -> list[Path]:
    # os.scandir and the name first: a Path for each of a big store's 10,000 notes cost
    # more than every other step of taking the lock.
    try:
        with os.scandir(store) as entries:
            found = [store / e.name for e in entries if e.name.startswith(TXN_PREFIX)]
        return sorted(p for p in found if _is_txn_dir(p))
    except OSError:
        return []


def recover(locks: StoreLocks) -> int:
    """Finish or discard every batch a killed process left in the locked stores."""
    finished = 0
    for store in list(locks.held):
        for txn_dir in pending(store):
            if txn_dir.exists():
                _recover_one(txn_dir, locks)
                finished += 1
    return finished


def _recover_one(txn_dir: Path, locks: StoreLocks) -> None:
    manifest = _read_manifest(txn_dir)
    if manifest is None:
        _remove_txn_dir(txn_dir)  # killed while preparing: never committed
        return
    name = txn_dir.name
    primary_dir = Path(str(manifest.get("primary", ""))) / name
    if not (primary_dir / COMMITTED).exists():
        _remove_txn_dir(txn_dir)
        return
    held = {store_key(p) for p in locks.held}
    dirs: list[Path] = []
    for store in _stores_primary_first(manifest):
        # Only a store that holds this batch's folder is locked: a manifest may name any path.
        if not _is_txn_dir(store / name):
            continue
        if store_key(store) not in held:
            locks.acquire(store)
        if _is_txn_dir(store / name):
            dirs.append(store / name)
    if dirs and dirs[0] == primary_dir:
        _roll_forward_all(dirs)
    else:
        for txn in dirs:
            _roll_forward(txn)
            _remove_txn_dir(txn)


def _stores_primary_first(manifest: dict[str, Any]) -> list[Path]:
    stores = [Path(str(s)) for s in manifest.get("stores", [])]
    primary = Path(str(manifest.get("primary", "")))
    return [primary] + [s for s in stores if s != primary]
