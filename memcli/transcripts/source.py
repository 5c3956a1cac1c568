"""Transcript input that is not one text: a session folder (OpenCode keeps one file per
message and part)."""

from __future__ import annotations

import json
from pathlib import Path

from memcli.errors import InputError
from memcli.transcripts.formats.opencode import load_session


def folder_as_text(folder: Path) -> str:
    """A session folder's messages as JSON lines, the form every reader takes."""
    records = load_session(folder)
    if not records:
        raise InputError(
            f"{folder} holds no transcript messages; a folder is read as an OpenCode session "
            "(storage/message/<session>/); pass a transcript file otherwise"
        )
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
