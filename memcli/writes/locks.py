"""Exclusive locks on the stores, always taken in one global order.

Every command that reads or writes a store holds its lock (a reader too: recovering a
batch a killed process left needs it). ``memcli.writes.opening.locked`` takes the locks and
then finishes such batches.

A lock is an ``flock`` on a file (POSIX only, like the rest of memcli's file handling),
taken without blocking and retried until the timeout, so that a lock held too long is a
clear error rather than a hang. The same lock is what ``filelock`` takes on POSIX, which
older memcli versions used: an old and a new memcli exclude each other.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from memcli.errors import LockTimeout, StoreError

_T = TypeVar("_T")
LOCK_NAME = ".memcli.lock"
# The first retry comes soon (a lock is mostly held for milliseconds), later ones no more
# often than this.
_FIRST_POLL = 0.005
_MAX_POLL = 0.05
# What flock answers when another open file holds the lock (or a signal cut the wait short).
_HELD = (errno.EWOULDBLOCK, errno.EAGAIN, errno.EINTR)


def store_key(path: Path) -> str:
    return str(path.resolve())


def by_store_key(changes: Iterable[_T], store: Callable[[_T], Path]) -> dict[str, list[_T]]:
    """CHANGES grouped by the store_key of their store, in first-seen order. Each distinct
    store is resolved once: a batch of 1,000 notes into one store resolved it 2,000 times."""
    keys: dict[Path, str] = {}
    groups: dict[str, list[_T]] = {}
    for change in changes:
        path = store(change)
        key = keys.get(path)
        if key is None:
            key = keys[path] = store_key(path)
        groups.setdefault(key, []).append(change)
    return groups


# The stores this thread holds locked and lends (StoreLocks(lend=True)), by store_key, and
# how many StoreLocks hold each. An flock is held by an open file, so a second lock of the
# same store in one thread would wait on itself: a command that holds the stores over a span
# (`extract`'s last match, see memcli.commands.extract) and reads or writes them within it
# takes them again here for free. Only lent locks: any other second lock still waits, as a
# second process's does. Per thread: two threads exclude each other, as two processes do.
_HELD_HERE = threading.local()


def _held_here() -> dict[str, int]:
    held: dict[str, int] | None = getattr(_HELD_HERE, "stores", None)
    if held is None:
        held = _HELD_HERE.stores = {}
    return held


class StoreLocks:
    """Exclusive locks on several stores, always taken in one global order (resolved path).

    A lock file lives inside its store; it is unlinked while still held, so that nothing is
    left behind. A process that wins the lock on a file someone has since unlinked holds
    nothing anyone else can see, so it opens the path again (``_lock_path``).
    """

    def __init__(self, stores: Sequence[Path], timeout: float,
                 create: Sequence[Path] = (), private: Sequence[Path] = (), *,
                 lend: bool = False) -> None:
        """LEND: the stores locked here are taken again, without waiting, by any StoreLocks
        made in this thread while these are held (see _HELD_HERE)."""
        self._lend = lend
        unique = {store_key(p): p for p in [*stores, *create]}
        self._stores = [unique[k] for k in sorted(unique)]
        self._timeout = timeout
        self._create = {store_key(p) for p in create}
        self._private = {store_key(p) for p in private}
        self._held: list[tuple[Path, int]] = []
        self._created: list[Path] = []
        self._again: list[str] = []  # the stores this thread held already (see _HELD_HERE)

    @property
    def held(self) -> list[Path]:
        if not self._again:
            return [path for path, _ in self._held]
        keys = {*self._again, *(store_key(path) for path, _ in self._held)}
        return [path for path in self._stores if store_key(path) in keys]

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
        key = store_key(store)
        here = _held_here()
        if here.get(key):
            here[key] += 1
            self._again.append(key)
            return True
        creating = key in self._create
        if creating:
            self._created.extend(_make_store(store, store_key(store) in self._private))
        elif not store.is_dir():
            return False
        try:
            fd = _lock_path(store / LOCK_NAME, self._timeout)
        except _Busy:
            raise LockTimeout(
                f"another memcli process has held the lock on {store} for {self._timeout:g} s; "
                "try again, or raise MEMCLI_LOCK_TIMEOUT"
            ) from None
        except OSError as exc:
            opening = exc.filename is not None  # os.open names the file, flock does not
            if opening and exc.errno in _READ_ONLY_ERRORS and not creating:
                return False  # a read-only store can still be read, just not locked
            where = f"{LOCK_NAME}: " if opening else ""
            raise StoreError(f"cannot lock {store}: {where}{exc.strerror}") from None
        self._held.append((store, fd))
        if self._lend:
            here[key] = 1
        return True

    def release(self) -> None:
        here = _held_here()
        while self._again:
            here[self._again.pop()] -= 1
        while self._held:
            store, fd = self._held.pop()
            here.pop(store_key(store), None)
            with contextlib.suppress(OSError):
                (store / LOCK_NAME).unlink()
            unlock(fd)
        # A store created for a batch that wrote nothing is removed again: never created on read.
        while self._created:
            with contextlib.suppress(OSError):
                self._created.pop().rmdir()


class _Busy(Exception):
    """Another open file held the lock for the whole timeout."""


def try_lock(path: Path) -> int | None:
    """A descriptor holding the exclusive lock on PATH (created if missing), or None when
    another process holds it; ``unlock`` lets it go. For lock files that stay in place."""
    try:
        return _lock_path(path, 0.0)
    except _Busy:
        return None


def unlock(fd: int) -> None:
    # Unlocked before the close: a child forked since would otherwise keep holding it.
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _lock_path(path: Path, timeout: float) -> int:
    """A descriptor of PATH holding its exclusive lock; _Busy after TIMEOUT seconds.

    An error opening the file (it names the file) or from flock itself is raised at
    once: retrying it would report a lock held by another process where none exists (a
    store in /proc, a lock file that is a link).
    """
    deadline = time.monotonic() + timeout
    pause = _FIRST_POLL
    while True:
        fd = _open_lock_file(path)
        try:
            locked = _try_flock(fd)
        except BaseException:
            os.close(fd)
            raise
        if locked and _still_at(path, fd):
            return fd
        os.close(fd)
        if locked:
            continue  # won the lock of a file its holder had unlinked: open the path again
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Busy(path)
        time.sleep(min(pause, left))
        pause = min(pause * 2, _MAX_POLL)


def _open_lock_file(path: Path) -> int:
    # O_NOFOLLOW: a lock file planted as a link is refused, never followed.
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)


def _try_flock(fd: int) -> bool:
    """Whether this descriptor got the lock; False when another open file holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in _HELD:
            return False
        raise
    return True


def _still_at(path: Path, fd: int) -> bool:
    """Whether the locked file is still the one at PATH (its holder may have unlinked it
    between our open and our lock, and another process created the path anew)."""
    try:
        named = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


# A read-only store, or a full disk, can still be read, just not locked. A write needs more
# than the empty lock file did (a folder, staged files), so it fails before it changes
# anything.
_READ_ONLY_ERRORS = (errno.EACCES, errno.EROFS, errno.EPERM, errno.ENOSPC, errno.EDQUOT)
_PRIVATE_DIR = 0o700


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
