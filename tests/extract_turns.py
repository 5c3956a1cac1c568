"""Say one turn to `memcli extract` and read what the stores hold after it (shared by the
extractor's tests of corrections and of the learned detector)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import MemEnv


def say(memenv: MemEnv, text: str, *flags: str) -> dict[str, Any]:
    """`memcli extract --json FLAGS` on one typed line; its JSON report."""
    line = json.dumps({"role": "user", "content": text}, ensure_ascii=False) + "\n"
    result = memenv.invoke("extract", "--json", *flags, input=line)
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def notes_in(folder: Path) -> dict[str, str]:
    """Each note of a store folder by file name (the index left out)."""
    if not folder.is_dir():
        return {}
    return {p.name: p.read_text("utf-8") for p in sorted(folder.glob("*.md"))
            if p.name != "MEMORY.md"}


def naming(notes: dict[str, str], *words: str) -> list[str]:
    """The notes that hold any of the words (case-folded)."""
    return [name for name, text in notes.items()
            if any(w.casefold() in text.casefold() for w in words)]
