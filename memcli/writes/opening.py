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
           private: Sequence[Path] = (), listings: dict[Path, list[str]] | None = None,
           *, lend: bool = False) -> Iterator[StoreLocks]:
    """Lock the stores, finish what a killed process left, and yield the locks.

    A store in CREATE is made when missing; one also in PRIVATE is made 0700. LISTINGS, when
    given, gets the names each store held under the lock when there was nothing to finish
    (the names a reader lists anyway: `extract` reads them instead of listing again).
    LEND: see :class:`StoreLocks`.
    """
    with StoreLocks(stores, timeout, create, private, lend=lend) as locks:
        names = {store: _names(store) for store in locks.held}
        if any(_holds_a_batch(listed) for listed in names.values()):
            from memcli.writes.transaction import recover

            recover(locks)
        elif listings is not None:
            listings.update({store: listed for store, listed in names.items() if listed})
        yield locks


def _names(store: Path) -> list[str] | None:
    try:
        return os.listdir(store)
    except OSError:
        return None


def _holds_a_batch(names: list[str] | None) -> bool:
    """Whether the names hold one like a batch folder's (recover checks it is one)."""
    # One search of the names joined, in C: a store of 10,000 notes is listed twice a turn.
    return names is not None and "\0" + TXN_PREFIX in "\0" + "\0".join(names)
