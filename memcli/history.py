"""Each store's history: one JSON record per applied transaction (docs/history.md).

A record is staged and committed with the change it describes (it is one more file of the
same transaction, in the store's hidden ``.memcli-history/`` folder), so a crash can never
leave a change without its record or a record without its change.

A record holds the time, the command and its source, each operation with its reason, and
the before and after content of every file the transaction changed in that store. Notes are
kept whole; ``MEMORY.md``, which can be large and changes by a line or two, is kept as the
lines that differ plus the lengths of the common head and tail (and both hashes, so that a
restore can check it starts from the right bytes).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import os
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memcli.names import INDEX_NAME
from memcli.transaction import HISTORY_DIR, Change

FORMAT = 1
# Bounds, applied each time a record is written (the newest MIN_KEPT always stay):
MAX_RECORDS = 1000
MAX_AGE_DAYS = 180
MAX_BYTES = 64 * 1024 * 1024
MIN_KEPT = 20

_NAME = re.compile(r"(?P<seq>[0-9]{1,12})-(?P<stamp>[0-9]{1,14})-(?P<id>[0-9a-f]{4,32})\.json")


@dataclass(frozen=True)
class Source:
    """What made a transaction: the command, and the session and model behind it if any."""

    command: str
    session: str | None = None
    transcript: str | None = None
    provider: str | None = None
    model: str | None = None
    undoes: str | None = None
    # An unattended run (the hook, extract --apply): `memcli restore` lists its records.
    unattended: bool = False

    def as_json(self) -> dict[str, str]:
        fields = (("session", self.session), ("transcript", self.transcript),
                  ("provider", self.provider), ("model", self.model))
        return {k: v for k, v in fields if v}


@dataclass(frozen=True)
class FileRecord:
    """One changed file. For a trimmed file (the index) before/after hold only the middle."""

    level: str
    filename: str
    before: bytes | None
    after: bytes | None
    head: int = 0
    tail: int = 0
    before_sha256: str | None = None
    after_sha256: str | None = None
    redacted: bool = False  # a secret was cut out of the content kept here

    @property
    def trimmed(self) -> bool:
        return self.before_sha256 is not None or self.after_sha256 is not None

    @property
    def kind(self) -> str:
        if self.before is None:
            return "created"
        return "deleted" if self.after is None else "modified"

    def before_from(self, current: bytes | None) -> bytes | None:
        """The whole file before the transaction, given the file as the transaction left it."""
        if not self.trimmed:
            return self.before
        if self.before is None:
            return None
        if current is None or sha256(current) != self.after_sha256:
            raise ValueError("the file changed since")
        return current[: self.head] + self.before + current[len(current) - self.tail:]

    def matches_after(self, current: bytes | None) -> bool:
        if self.trimmed:
            if self.after is None:
                return current is None
            return current is not None and sha256(current) == self.after_sha256
        return current == self.after


@dataclass
class Record:
    """One store's record of one transaction."""

    id: str
    seq: int
    time: str
    level: str
    levels: list[str]
    command: str
    source: dict[str, str]
    operations: list[dict[str, Any]]
    files: list[FileRecord]
    undoes: str | None = None
    unattended: bool = False
    path: Path | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Operation:
    """An operation that was applied, as the record keeps it."""

    action: str
    level: str | None
    filename: str | None
    reason: str | None = None
    message: str = ""

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action, "level": self.level,
                                "file": self.filename}
        if self.reason:
            data["reason"] = self.reason
        if self.message:
            data["message"] = self.message
        return data


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- writing


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
    level_of = {_key(path): level for level, path in locked}
    by_store: dict[str, list[Change]] = {}
    for change in changes:
        by_store.setdefault(_key(change.store), []).append(change)
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


def record_name(seq: int, now: str, txn_id: str) -> str:
    stamp = re.sub(r"[^0-9]", "", now)[:14] or "0"
    return f"{seq:08d}-{stamp}-{txn_id}.json"


def _key(path: Path) -> str:
    return str(path.resolve())


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
    from memcli.redact import redact

    text = _as_text(item.before)
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


def next_sequence(stores: Iterable[Path]) -> int:
    """One more than the highest sequence number in any of the (locked) stores' histories.

    Every command locks both stores, so the numbers order the transactions of a project
    store and its user store together, even when the clock says otherwise.
    """
    highest = 0
    for store in stores:
        for name in _record_names(store):
            highest = max(highest, int(name.split("-", 1)[0]))
    return highest + 1


def _record_names(store: Path) -> list[str]:
    folder = store / HISTORY_DIR
    if folder.is_symlink():
        return []
    try:
        return sorted(n for n in os.listdir(folder) if _NAME.fullmatch(n))
    except OSError:
        return []


def prune(store: Path, now: str, new_size: int) -> list[str]:
    """The oldest records to drop so that, with a new one of new_size bytes, the bounds hold."""
    names = _record_names(store)  # oldest first (zero-padded sequence numbers)
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
        if kept > MAX_RECORDS or total > MAX_BYTES or too_old:
            drop.append(name)
            kept -= 1
            total -= sizes[name]
    return drop


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


# --------------------------------------------------------------------------- format


def encode(record: Record) -> bytes:
    data = {
        "memcli_history": FORMAT,
        "id": record.id,
        "seq": record.seq,
        "time": record.time,
        "level": record.level,
        "levels": record.levels,
        "command": record.command,
        "source": record.source,
        "undoes": record.undoes,
        "operations": record.operations,
        "files": [_encode_file(f) for f in record.files],
    }
    if record.unattended:
        data["unattended"] = True
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode()


def _encode_file(item: FileRecord) -> dict[str, Any]:
    texts = [_as_text(item.before), _as_text(item.after)]
    binary = any(t is False for t in texts)
    data: dict[str, Any] = {"file": item.filename, "change": item.kind}
    if binary:
        data["encoding"] = "base64"
        data["before"] = _b64(item.before)
        data["after"] = _b64(item.after)
    else:
        data["before"], data["after"] = texts
    if item.redacted:
        data["redacted"] = True
    if item.trimmed:
        data["trimmed"] = {"head": item.head, "tail": item.tail,
                           "before_sha256": item.before_sha256,
                           "after_sha256": item.after_sha256}
    return data


def _as_text(data: bytes | None) -> str | bool | None:
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return False


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode()


def decode(data: bytes, path: Path | None = None) -> Record:
    """Parse a record; ValueError when it is not one (a record is repository content)."""
    raw = json.loads(data)
    if not isinstance(raw, dict) or raw.get("memcli_history") != FORMAT:
        raise ValueError("not a memcli history record")
    level = _str(raw, "level")
    files = [_decode_file(level, f) for f in _list(raw, "files")]
    levels = [str(x) for x in _list(raw, "levels")]
    source = raw.get("source")
    if not isinstance(source, dict):
        source = {}
    undoes = raw.get("undoes")
    seq = raw.get("seq")
    if not isinstance(seq, int):
        raise ValueError("no sequence number")
    return Record(_str(raw, "id"), seq, _str(raw, "time"), level, levels,
                  _str(raw, "command"), {str(k): str(v) for k, v in source.items()},
                  [o for o in _list(raw, "operations") if isinstance(o, dict)], files,
                  undoes if isinstance(undoes, str) else None, raw.get("unattended") is True,
                  path)


def _str(raw: Mapping[str, Any], key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str):
        raise ValueError(f"no {key}")
    return value


def _list(raw: Mapping[str, Any], key: str) -> list[Any]:
    value = raw.get(key)
    if not isinstance(value, list):
        raise ValueError(f"no {key}")
    return value


def _decode_file(level: str, raw: Any) -> FileRecord:
    if not isinstance(raw, dict):
        raise ValueError("a file entry is not an object")
    binary = raw.get("encoding") == "base64"
    before = _content(raw.get("before"), binary)
    after = _content(raw.get("after"), binary)
    redacted = raw.get("redacted") is True
    trimmed = raw.get("trimmed")
    if isinstance(trimmed, dict):
        return FileRecord(level, _str(raw, "file"), before, after,
                          int(trimmed.get("head", 0)), int(trimmed.get("tail", 0)),
                          trimmed.get("before_sha256"), trimmed.get("after_sha256"), redacted)
    return FileRecord(level, _str(raw, "file"), before, after, redacted=redacted)


def _content(value: Any, binary: bool) -> bytes | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("file content is not a string")
    return base64.b64decode(value) if binary else value.encode()


# --------------------------------------------------------------------------- reading


@dataclass
class Transaction:
    """A transaction as the history of both stores tells it (one record per store)."""

    records: list[Record]

    @property
    def id(self) -> str:
        return self.records[0].id

    @property
    def seq(self) -> int:
        return max(r.seq for r in self.records)

    @property
    def time(self) -> str:
        return self.records[0].time

    @property
    def command(self) -> str:
        return self.records[0].command

    @property
    def source(self) -> dict[str, str]:
        return self.records[0].source

    @property
    def undoes(self) -> str | None:
        return self.records[0].undoes

    @property
    def unattended(self) -> bool:
        return self.records[0].unattended

    @property
    def operations(self) -> list[dict[str, Any]]:
        return [o for r in self.records for o in r.operations]

    @property
    def files(self) -> list[FileRecord]:
        return [f for r in self.records for f in r.files]

    @property
    def levels(self) -> list[str]:
        return sorted({r.level for r in self.records})


def read_records(store: Path, newest: int | None = None) -> tuple[list[Record], list[str]]:
    """Every readable record of a store (or its newest few), oldest first, and the names of
    unreadable ones."""
    records: list[Record] = []
    bad: list[str] = []
    folder = store / HISTORY_DIR
    names = _record_names(store)
    for name in names[-newest:] if newest else names:
        path = folder / name
        try:
            records.append(decode(path.read_bytes(), path))
        except (OSError, ValueError, TypeError, KeyError):
            bad.append(name)
    return records, bad


def transactions(stores: Mapping[str, Path], newest: int | None = None
                 ) -> tuple[list[Transaction], list[str]]:
    """Both stores' records joined by transaction id, newest first (with ``newest``, only
    that many of each store's newest records are read)."""
    by_id: dict[str, list[Record]] = {}
    bad: list[str] = []
    for level, store in stores.items():
        records, unreadable = read_records(store, newest)
        bad.extend(f"{level}/{HISTORY_DIR}/{name}" for name in unreadable)
        for record in records:
            if record.level == level:
                by_id.setdefault(record.id, []).append(record)
    found = [Transaction(sorted(rs, key=lambda r: r.level)) for rs in by_id.values()]
    found.sort(key=lambda t: (t.seq, t.time, t.id), reverse=True)
    return found, bad

