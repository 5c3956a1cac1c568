"""Writing a set of project notes, {file name: (title, summary, body)}, into a test's store."""

from __future__ import annotations

from typing import Any


def write_project_notes(memenv: Any, notes: dict[str, tuple[str, str, str]]) -> Any:
    """Each note with its type from its file name and one fixed `updated` time; MEMENV back."""
    for name, (title, summary, body) in notes.items():
        note_type = "_".join(name.split("_")[:2])
        memenv.write_note("project", name, {"type": note_type, "title": title,
                                            "summary": summary,
                                            "updated": "2026-11-29T10:00:00Z"}, body + "\n")
    return memenv
