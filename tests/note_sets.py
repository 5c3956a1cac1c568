"""Writing a set of project notes, {file name: (title, summary, body)}, into a test's store,
and asking `search` and `recall` about them."""

from __future__ import annotations

import json
from typing import Any


def write_project_notes(memenv: Any, notes: dict[str, tuple[str, str, str]]) -> Any:
    """Each note with its type from its file name and one fixed `updated` time; MEMENV back."""
    for name, (title, summary, body) in notes.items():
        note_type = "_".join(name.split("_")[:2])
        memenv.write_note("project", name, {"type": note_type, "title": title,
                                            "summary": summary,
                                            "updated": "2026-11-29T10:00:00Z"}, body + "\n")
    return memenv


def searched(env: Any, prompt: str) -> list[str]:
    """The files `memcli search --json --limit 20 PROMPT` finds, best first."""
    result = env.invoke("search", "--json", "--limit", "20", prompt)
    assert result.exit_code == 0, result.output
    return [h["file"] for h in json.loads(result.stdout)["results"]]


def recalled(env: Any, prompt: str) -> list[str]:
    """The files `memcli recall --json PROMPT` hands over, in its order."""
    result = env.invoke("recall", "--json", prompt)
    assert result.exit_code == 0, result.output
    return [n["file"] for n in json.loads(result.stdout)["notes"]]
