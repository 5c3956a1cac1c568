"""Writing the history: the record files that go with a batch's changes.

A record is staged and committed with the change it describes (it is one more file of the
same transaction, in the store's hidden ``.memcli-history/`` folder), so a crash can never
leave a change without its record or a record without its change. Old records the bounds
drop are deletions of the same transaction.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable, Sequence
from pathlib import Path

from memcli.store.names import INDEX_NAME
from memcli.writes.history.bounds import next_sequence, prune, record_name
from memcli.writes.history.record import (
    FileRecord,
    Operation,
    Record,
    Source,
    as_text,
    encode,
    sha256,
)
from memcli.writes.locks import by_store_key, store_key
from memcli.writes.transaction import Change


def new_transaction_id() -> str:
    return secrets.token_hex(4)


def journal(changes: Sequence[Change], stores: Iterable[tuple[str, Path]], *, source: Source,
            now: str, operations: Iterable[Operation] = (),
            txn_id: str | None = None) -> list[Change]:
    """The history changes (new records, pruned old ones) that go with a batch's changes.

    ``stores`` are the locked stores as (level, folder). Called under their locks, before
    commit; reads the files' current bytes as the "before" of the record. The records get
    ``txn_id`` (a new id when None).
    """
    if not changes:
        return []
    locked = list(stores)
    level_of = {store_key(path): level for level, path in locked}
    by_store = by_store_key(changes, lambda change: change.store)
    touched = sorted(level_of[k] for k in by_store)
    seq = next_sequence(path for _, path in locked)
    txn_id = txn_id or new_transaction_id()
    ops = list(operations)
    out: list[Change] = []
    for key, store_changes in by_store.items():
        level = level_of[key]
        store = store_changes[0].store
        files = [_file_record(level, c) for c in store_changes]
        record = Record(txn_id, seq, now, level, touched, source.command, source.as_json(),
                        [o.as_json() for o in ops if o.level in (level, None)], files,
                        source.undoes, source.unattended)
        data = encode(record)
        name = record_name(seq, now, txn_id)
        out.append(Change(store, name, data, history=True))
        out.extend(Change(store, old, None, history=True)
                   for old in prune(store, now, len(data)))
    return out


def _file_record(level: str, change: Change) -> FileRecord:
    before = _read(change.store / change.filename)
    after = change.data
    if change.filename != INDEX_NAME or before is None or after is None:
        item = FileRecord(level, change.filename, before, after)
    else:
        head, tail = _common_lines(before, after)
        item = FileRecord(level, change.filename, before[head: len(before) - tail],
                          after[head: len(after) - tail], head, tail, sha256(before),
                          sha256(after))
    return _without_secrets(item)


def _without_secrets(item: FileRecord) -> FileRecord:
    """A secret a person wrote into a note by hand (and memcli then removed or redacted)
    must not live on in the history: it is redacted here too, and the record says so.

    Only the old content is scanned: what memcli writes is redacted already, and a batch
    of a thousand creates has no old content at all."""
    from memcli.safety.redact import redact

    text = as_text(item.before)
    if not isinstance(text, str):
        return item
    cleaned = redact(text)[0]
    if cleaned == text:
        return item
    return dataclasses.replace(item, before=cleaned.encode(), redacted=True)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        return None


def _common_lines(before: bytes, after: bytes) -> tuple[int, int]:
    """Byte lengths of the common head and tail of two files, in whole lines, not overlapping."""
    old = before.splitlines(keepends=True)
    new = after.splitlines(keepends=True)
    limit = min(len(old), len(new))
    first = 0
    while first < limit and old[first] == new[first]:
        first += 1
    last = 0
    while last < limit - first and old[-1 - last] == new[-1 - last]:
        last += 1
    head = sum(len(line) for line in old[:first])
    tail = sum(len(line) for line in old[len(old) - last:])
    return head, tail
