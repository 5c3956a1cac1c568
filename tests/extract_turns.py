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


def assert_replaces(memenv: MemEnv, first: str, then: str, new: str) -> None:
    """A project note saying FIRST, then the turn THEN: its one operation updates that note,
    which, applied, is the only note and holds NEW where FIRST was."""
    name = "project_knowledge_stored.md"
    memenv.write_note("project", name, {"type": "project_knowledge", "title": "Stored",
                                        "summary": first, "updated": "2026-01-01T00:00:00Z"},
                      first + "\n")
    assert memenv.invoke("index").exit_code == 0
    document = say(memenv, then)  # the person applies it: the guard may hold a rewrite
    assert [(op["action"], op["filename"]) for op in document["operations"]] == [
        ("update", name)], document["operations"]
    assert memenv.apply(document["operations"]).exit_code == 0
    notes = notes_in(memenv.project)
    assert list(notes) == [name]
    assert new in notes[name] and first not in notes[name]
