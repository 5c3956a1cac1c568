"""Exclusive locks on the stores, always taken in one global order.

Every command that reads or writes a store holds its lock (a reader too: recovering a
batch a killed process left needs it). ``memcli.transaction.locked`` takes the locks and
then finishes such batches.
"""

from __future__ import annotations

import contextlib
import errno
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
                 create: Sequence[Path] = ()) -> None:
        unique = {store_key(p): p for p in [*stores, *create]}
        self._stores = [unique[k] for k in sorted(unique)]
        self._timeout = timeout
        self._create = {store_key(p) for p in create}
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
            self._created.extend(_make_store(store))
        elif not store.is_dir():
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


def _make_store(store: Path) -> list[Path]:
    """Create the store folder and its missing parents; return those created, outermost first."""
    missing = [p for p in [store, *store.parents] if not p.exists()][::-1]
    try:
        store.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the store {store}: {exc.strerror}") from None
    if not store.is_dir():
        raise StoreError(f"{store} is not a folder; point the store setting at a folder")
    return missing
