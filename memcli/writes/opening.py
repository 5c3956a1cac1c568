"""Opening stores for a command: their locks taken, and what a killed process left finished.

Every command that reads or writes a store holds its lock, and first finishes or discards a
batch a killed process left (``memcli.writes.transaction.recover``). Such a batch is a folder named
``.memcli-txn-*`` in the store: a listing of the store's names tells whether there is one,
so a command that only reads (`lint`, `show`, `context`) loads the write path's module only
when there is something to recover.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from memcli.store.names import TXN_PREFIX
from memcli.writes.locks import StoreLocks


@contextlib.contextmanager
def locked(stores: Sequence[Path], timeout: float, create: Sequence[Path] = (),
           private: Sequence[Path] = ()) -> Iterator[StoreLocks]:
    """Lock the stores, finish what a killed process left, and yield the locks.

    A store in CREATE is made when missing; one also in PRIVATE is made 0700.
    """
    with StoreLocks(stores, timeout, create, private) as locks:
        if any(_may_hold_a_batch(store) for store in locks.held):
            from memcli.writes.transaction import recover

            recover(locks)
        yield locks


def _may_hold_a_batch(store: Path) -> bool:
    """Whether the store holds an entry named like a batch folder (recover checks it is one)."""
    try:
        with os.scandir(store) as entries:
            return any(entry.name.startswith(TXN_PREFIX) for entry in entries)
    except OSError:
        return False
