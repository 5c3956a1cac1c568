"""Transcript input that is not one UTF-8 text: a session folder (OpenCode keeps one file per
message and part), a compressed rollout (Codex), another encoding, a log still being written."""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import BinaryIO

from memcli.errors import InputError
from memcli.transcripts.formats.opencode import load_session

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_GZIP_MAGIC = b"\x1f\x8b"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_MAGICS = (_ZSTD_MAGIC, _GZIP_MAGIC, _SQLITE_MAGIC, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
# The most bytes of a transcript memcli reads (decompressed too).
MAX_TRANSCRIPT_BYTES = 512 * 1024 * 1024


@dataclass(frozen=True)
class TranscriptFile:
    """A transcript file, read where it lies: line by line, or from its end for the last
    turn, rather than loaded whole. ``handle`` is one already open (stdin redirected from a
    file), read from where it stands; ``path`` then only names it in messages."""

    path: Path
    limit: int = MAX_TRANSCRIPT_BYTES
    handle: BinaryIO | None = None


class Blob:
    """A transcript's bytes, read in pieces: a file (never loaded whole) or bytes in memory.
    Positions count from ``base``, where the transcript starts in the file."""

    def __init__(self, handle: BinaryIO, size: int, base: int = 0) -> None:
        self.handle = handle
        self.size = size
        self.base = base

    def read(self, start: int, end: int) -> bytes:
        self.handle.seek(self.base + start)
        return self.handle.read(max(end - start, 0))

    def stream(self, start: int = 0) -> BinaryIO:
        """The bytes from ``start`` on, as a stream of lines."""
        self.handle.seek(self.base + start)
        return self.handle


@contextmanager
def open_blob(source: TranscriptFile | bytes) -> Iterator[Blob]:
    if isinstance(source, bytes):
        yield Blob(io.BytesIO(source), len(source))
        return
    try:
        handle = source.handle or open(source.path, "rb")  # noqa: SIM115 - closed below
        base = handle.tell()
        size = os.fstat(handle.fileno()).st_size - base
    except OSError as exc:
        raise InputError(f"cannot read {source.path}: {exc.strerror}") from None
    with contextlib.nullcontext() if source.handle else handle:
        if size > source.limit:
            raise InputError(f"the transcript in {source.path} is larger than "
                             f"{source.limit // (1024 * 1024)} MiB, the most memcli reads; "
                             "split it")
        yield Blob(handle, size, base)


def is_plain_text(head: bytes) -> bool:
    """Whether bytes starting with ``head`` are UTF-8 text as they are: not compressed, not
    UTF-16, not a database (those are decoded whole, by :func:`decode_transcript`)."""
    return not head.startswith(_MAGICS)


def decode_line(raw: bytes, offset: int, last: bool) -> str:
    """One line of a UTF-8 transcript; ``offset`` is where it starts (for the error). The
    last line of a log being written may end inside a character: that half goes."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if last and exc.reason == "unexpected end of data" and exc.end == len(raw):
            return raw[: exc.start].decode("utf-8")
        raise InputError(f"the transcript is not valid UTF-8 (byte {offset + exc.start})"
                         ) from None


def folder_as_text(folder: Path) -> str:
    """A session folder's messages as JSON lines, the form every reader takes."""
    records = load_session(folder)
    if not records:
        raise InputError(
            f"{folder} holds no transcript messages; a folder is read as an OpenCode session "
            "(storage/message/<session>/); pass a transcript file otherwise"
        )
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def decode_transcript(data: bytes, limit: int) -> str:
    """A transcript's bytes as text.

    Codex compresses a rollout idle for a week to ``rollout-*.jsonl.zst``; it is read as it
    is. Windows PowerShell 5 writes what is redirected to a file as UTF-16 with a byte order
    mark. A log being written may end inside a character: that half character is dropped
    (its line is incomplete anyway). Any other byte that is not UTF-8 is an error.
    """
    if data.startswith(_ZSTD_MAGIC):
        data = _unzstd(data, limit)
    elif data.startswith(_GZIP_MAGIC):
        raise InputError("the transcript is gzip-compressed; decompress it first "
                         "(gunzip -k FILE)")
    elif data.startswith(_SQLITE_MAGIC):
        raise InputError("the transcript is an SQLite database, not a log (Cursor and Goose "
                         "keep chats in one: export the chat, with Cursor's Export Chat or "
                         "goose session export --format json, and pass that file)")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError(f"the transcript is not valid UTF-16 (byte {exc.start})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # the positions count from after a byte order mark
        bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
        if exc.reason == "unexpected end of data" and exc.end == len(data) - bom:
            return data[: bom + exc.start].decode("utf-8-sig")
        raise InputError(f"the transcript is not valid UTF-8 (byte {exc.start})") from None


def _unzstd(data: bytes, limit: int) -> bytes:
    """Every zstd frame in ``data`` (Codex appends frames), at most ``limit`` bytes of them;
    a file cut short gives what its complete part holds."""
    zstd = _zstd_module()
    out: list[bytes] = []
    total = 0
    while data:
        decompressor = zstd.ZstdDecompressor()
        try:
            chunk = decompressor.decompress(data, max_length=limit - total + 1)
        except zstd.ZstdError as exc:
            if out:
                break  # garbage after complete frames: a file being rewritten
            raise InputError(f"the transcript is not valid zstd data ({exc})") from None
        total += len(chunk)
        out.append(chunk)
        if total > limit:
            raise InputError(f"the transcript is larger than {limit // (1024 * 1024)} MiB "
                             "once decompressed, the most memcli reads; split it")
        if not decompressor.eof:
            if not total:
                raise InputError("the transcript is not valid zstd data (it is cut short "
                                 "before its first block)")
            break  # the last frame is incomplete
        data = decompressor.unused_data
    return b"".join(out)


def _zstd_module() -> ModuleType:
    if sys.version_info >= (3, 14):
        from compression import zstd
    else:
        from backports import zstd
    return zstd
