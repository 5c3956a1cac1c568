"""Exclusive locks on the stores, always taken in one global order.

Every command that reads or writes a store holds its lock (a reader too: recovering a
batch a killed process left needs it). ``memcli.transaction.locked`` takes the locks and
then finishes such batches.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memcli.errors import LockTimeout, StoreError

LOCK_NAME = ".memcli.lock"


def store_key(path: Path) -> str:
    return str(path.resolve())


class StoreLocks:
    """Exclusive locks on several stores, always taken in one global order (resolved path).

    A lock file lives inside its store; it is unlinked while still held, so that nothing is
    left behind, and filelock re-opens the path when it wins a lock on an unlinked file.
    """

    def __init__(self, stores: Sequence[Path], timeout: float,
                 create: Sequence[Path] = (), private: Sequence[Path] = ()) -> None:
        unique = {store_key(p): p for p in [*stores, *create]}
        self._stores = [unique[k] for k in sorted(unique)]
        self._timeout = timeout
        self._create = {store_key(p) for p in create}
        self._private = {store_key(p) for p in private}
        self._held: list[tuple[Path, Any]] = []
        self._created: list[Path] = []

    @property
    def held(self) -> list[Path]:
        return [path for path, _ in self._held]

    def __enter__(self) -> StoreLocks:
        try:
            for store in self._stores:
                self.acquire(store)
        except BaseException:
            self.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self, store: Path) -> bool:
        """Lock one store; False when it does not exist and may not be created, or is read-only."""
        creating = store_key(store) in self._create
        if creating:
            self._created.extend(_make_store(store, store_key(store) in self._private))
        elif not store.is_dir():
            return False
        if not _can_hold_lock(store, creating):
            return False
        from filelock import FileLock, Timeout

        lock = FileLock(str(store / LOCK_NAME), timeout=self._timeout, thread_local=False,
                        is_singleton=False)
        try:
            lock.acquire()
        except Timeout:
            raise LockTimeout(
                f"another memcli process has held the lock on {store} for {self._timeout:g} s; "
                "try again, or raise MEMCLI_LOCK_TIMEOUT"
            ) from None
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EROFS, errno.EPERM) and not creating:
                return False  # a read-only store can still be read, just not locked
            raise StoreError(f"cannot lock {store}: {exc.strerror}") from None
        self._held.append((store, lock))
        return True

    def release(self) -> None:
        while self._held:
            store, lock = self._held.pop()
            with contextlib.suppress(OSError):
                (store / LOCK_NAME).unlink()
            lock.release()
        # A store created for a batch that wrote nothing is removed again: never created on read.
        while self._created:
            with contextlib.suppress(OSError):
                self._created.pop().rmdir()


# A read-only store, or a full disk, can still be read, just not locked. A write needs more
# than the empty lock file did (a folder, staged files), so it fails before it changes
# anything.
_READ_ONLY_ERRORS = (errno.EACCES, errno.EROFS, errno.EPERM, errno.ENOSPC, errno.EDQUOT)
_PRIVATE_DIR = 0o700


def _can_hold_lock(store: Path, creating: bool) -> bool:
    """Whether the lock file can be opened in STORE; False for a read-only store.

    filelock retries an open that fails until its timeout, which would report a lock held
    by another process where none exists (a store in /proc, a lock file that is a link):
    the open is tried once here first, and a failure is said as it is.
    """
    path = store / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno in _READ_ONLY_ERRORS and not creating:
            return False
        raise StoreError(f"cannot lock {store}: {path.name}: {exc.strerror}") from None
    os.close(fd)
    return True


def _make_store(store: Path, private: bool = False) -> list[Path]:
    """Create the store folder and its missing parents; return those created, outermost first.

    A private store (the user's) and the folders made for it are 0700.
    """
    missing = [p for p in [store, *store.parents] if not p.exists()][::-1]
    try:
        if private:
            for folder in missing:
                folder.mkdir(mode=_PRIVATE_DIR, exist_ok=True)
        store.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the store {store}: {exc.strerror}") from None
    if not store.is_dir():
        raise StoreError(f"{store} is not a folder; point the store setting at a folder")
    return missing
