"""Reading the history back: one store's records, and transactions across both stores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memcli.paths import read_regular_file
from memcli.writes.history.bounds import MAX_BYTES, record_names
from memcli.writes.history.record import FileRecord, Record, decode
from memcli.writes.transaction import HISTORY_DIR


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
    names = record_names(store)
    for name in names[-newest:] if newest else names:
        path = folder / name
        try:
            # A record is a regular file within the history's own bound, read without
            # following a link: a checkout can commit a FIFO (`memcli log` waited forever)
            # or a link to /dev/zero (it crashed) under a record's name.
            data = read_regular_file(path, MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                raise ValueError(f"{name} is larger than the whole history may be")
            records.append(decode(data, path))
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
