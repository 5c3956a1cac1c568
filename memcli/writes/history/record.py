"""A history record: its types and its JSON format (docs/history.md).

A record holds the time, the command and its source, each operation with its reason, and
the before and after content of every file the transaction changed in one store. Notes are
kept whole; ``MEMORY.md``, which can be large and changes by a line or two, is kept as the
lines that differ plus the lengths of the common head and tail (and both hashes, so that a
restore can check it starts from the right bytes). Records are repository content: decoding
treats them as untrusted.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = 1


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
    # The hook job whose extraction this is: a worker killed after the commit finds the
    # record by it and does not extract the turns again (memcli.hooks.cursor).
    job: str | None = None
    # Who asked for the write: "cli", "hook", "memory-tool", "mcp:<client name>".
    via: str | None = "cli"
    # The review inbox's proposal this transaction accepted (`memcli review`).
    proposal: str | None = None

    def as_json(self) -> dict[str, str]:
        fields = (("session", self.session), ("transcript", self.transcript),
                  ("provider", self.provider), ("model", self.model), ("job", self.job),
                  ("via", self.via), ("proposal", self.proposal))
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
    texts = [as_text(item.before), as_text(item.after)]
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


def as_text(data: bytes | None) -> str | bool | None:
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
