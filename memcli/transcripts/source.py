"""Transcript input that is not one UTF-8 text: a session folder (OpenCode keeps one file per
message and part), a compressed rollout (Codex), another encoding, a log still being written."""

from __future__ import annotations

import codecs
import json
import sys
from pathlib import Path
from types import ModuleType

from memcli.errors import InputError
from memcli.transcripts.formats.opencode import load_session

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_GZIP_MAGIC = b"\x1f\x8b"
_SQLITE_MAGIC = b"SQLite format 3\x00"


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
        raise InputError("the transcript is an SQLite database, not a log (Cursor keeps its "
                         "chats in one: use its Export Chat and pass the Markdown file)")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError(f"the transcript is not valid UTF-16 (byte {exc.start})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data" and exc.end == len(data):
            return data[: exc.start].decode("utf-8-sig")
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
