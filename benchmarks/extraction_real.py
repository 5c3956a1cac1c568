"""The ``real`` split of ``extraction.py``: the messages people typed in the transcript
fixtures other tools wrote (``../shared/fixtures/transcripts`` beside the repository),
labelled by reference in ``data/extraction/real_labels.jsonl`` (see REAL.md).

The rows hold no text (the transcripts' licences vary and ``../shared`` is not vendored):
each names a file, the n-th message of role ``user`` of memcli's read of it, and the SHA-1
of that message's text. The text is read here through memcli's own reader, as
``memcli transcript`` reads it, and a hash that differs stops the run: the reader changed
what it calls a person's message, and those rows must be labelled again.

Never tuned on: aggregate figures only (``extraction.py`` refuses ``--failures`` for it).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "extraction"
LABELS = DATA / "real_labels.jsonl"
# ``../shared`` beside the repository (the shared checkout's sibling), never copied into it.
TRANSCRIPTS = Path(__file__).resolve().parent.parent / ".." / "shared" / "fixtures" / \
    "transcripts"
# A session kept as one file per message (OpenCode's storage) is read as its folder.
FOLDER_SESSIONS = ("opencode",)


class RealSplitError(Exception):
    """The labels no longer match what memcli reads from the fixtures."""


def sessions(folder: Path) -> list[str]:
    """Every transcript under FOLDER, as a path relative to it: each file but the Markdown
    notes, and each folder of ``FOLDER_SESSIONS`` as one session."""
    found: list[str] = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if rel.parts[0] in FOLDER_SESSIONS:
            if len(rel.parts) == 1 and path.is_dir():
                found.append(rel.as_posix())
            continue
        if path.is_file() and path.suffix != ".md":
            found.append(rel.as_posix())
    return found


def _source(path: Path) -> Any:
    """What memcli's reader reads for PATH, as ``memcli transcript PATH`` hands it over."""
    from memcli.transcripts.source import TranscriptFile, folder_as_text

    return folder_as_text(path) if path.is_dir() else TranscriptFile(path)


def user_messages(path: Path) -> list[str]:
    """The texts of the messages of role ``user`` of memcli's read of PATH, in order."""
    from memcli.transcripts.reader import read_transcript

    return [m.text for m in read_transcript(_source(path)).messages if m.role == "user"]


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def load_rows(folder: Path, labels: Path = LABELS) -> list[dict[str, Any]]:
    """The labelled rows of LABELS, each with its ``id`` and its ``text`` read from FOLDER.
    Raises RealSplitError naming every row whose message is gone or whose hash differs."""
    rows = [json.loads(line) for line in labels.read_text("utf-8").splitlines()
            if line.strip()]
    read: dict[str, list[str]] = {}
    wrong: list[str] = []
    for row in rows:
        name = row["file"]
        if name not in read:
            path = folder / name
            read[name] = user_messages(path) if path.exists() else []
        texts = read[name]
        row["id"] = f"{name}#{row['index']}"
        if row["index"] >= len(texts):
            wrong.append(f"{row['id']}: memcli reads {len(texts)} user messages there")
        elif sha1(texts[row["index"]]) != row["sha1"]:
            wrong.append(f"{row['id']}: the text memcli reads has another SHA-1")
        else:
            row["text"] = texts[row["index"]]
    if wrong:
        raise RealSplitError(
            f"{len(wrong)} of {len(rows)} labelled rows no longer match what memcli reads "
            f"from {folder} (the reader or the fixtures changed; label them again, see "
            "REAL.md): " + "; ".join(wrong[:5]) + (" ..." if len(wrong) > 5 else ""))
    return rows


def notes_per_session(folder: Path, mode: str, today: datetime.date,
                      flags_env: Callable[[Path], tuple[Any, dict[str, str]]] | None = None
                      ) -> dict[str, int]:
    """How many notes ``memcli extract SESSION`` (the whole session, empty stores) would
    write for each session under FOLDER with the offline extractor in MODE; FLAGS_ENV gives
    another provider's flags and environment for a work folder. A session memcli cannot
    read counts -1."""
    from memcli.commands.extract import ExtractOptions, run_extract
    from memcli.errors import MemcliError
    from memcli.settings.resolve import Flags, resolve

    counts: dict[str, int] = {}
    for name in sessions(folder):
        with tempfile.TemporaryDirectory() as tmp:
            workdir = Path(tmp)
            if flags_env is None:
                flags = Flags(project_store=str(workdir / "project"),
                              user_store=str(workdir / "user"))
                env = {"MEMCLI_HOME": str(workdir / "home"),
                       "MEMCLI_NOW": today.isoformat() + "T09:00:00Z"}
            else:
                flags, env = flags_env(workdir)
            settings = resolve(flags, env, workdir)
            try:
                result = run_extract(settings, _source(folder / name),
                                     ExtractOptions(rules_mode=mode))
            except MemcliError:
                counts[name] = -1
                continue
        counts[name] = len(result.operations)
    return counts


def session_lines(split: str, counts: dict[str, dict[str, int]]) -> list[str]:
    """The per-session note counts of each mode: a total line, then one line a session."""
    lines = []
    for mode, per in counts.items():
        read = [n for n in per.values() if n >= 0]
        lines.append(f"{split:<13} notes `extract SESSION` writes ({mode}): {sum(read)} in "
                     f"{len(read)} sessions, {sum(1 for n in read if n)} sessions with any"
                     + (f"; {len(per) - len(read)} unreadable" if len(read) < len(per) else ""))
    names = next(iter(counts.values()), {})
    for name in names:
        cells = ", ".join(f"{mode} {per[name]}" for mode, per in counts.items())
        lines.append(f"        {name}: {cells}")
    return lines
