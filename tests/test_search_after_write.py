"""The search cache after memcli's own writes: the next search analyses only the notes that
were written (no rebuild), finds them, and never returns a changed note's old text."""

from __future__ import annotations

import json
from typing import Any

from note_sets import write_project_notes


def _search(env: Any, query: str) -> tuple[list[str], dict[str, int]]:
    """The files `search --json QUERY` finds, and the notes it (re)analysed per level."""
    result = env.invoke("search", "--json", "--limit", "5", query)
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    return [h["file"] for h in found["results"]], found["indexed"]


def test_a_search_after_memcli_writes_indexes_only_what_they_wrote(memenv: Any) -> None:
    # 250 notes: the edit and the delete leave two dead rows, below the share that rebuilds.
    notes = {f"project_knowledge_routine-{i:02d}.md": (
        f"Routine {i}", f"Routine check number {i}.", f"The nightly routine check {i} passed.")
        for i in range(250)}
    write_project_notes(memenv, notes)
    assert _search(memenv, "routine check")[1] == {"project": 250}  # the first: a build

    # The words after the first sentence are in the body alone (not the title or summary).
    added = memenv.invoke("add", "The staging deploy reads a queue. Its retries go to the "
                                 "zebra mailbox.")
    assert added.exit_code == 0, added.output
    found, indexed = _search(memenv, "zebra mailbox")
    assert indexed == {"project": 1} and len(found) == 1
    new = found[0]

    edited = memenv.apply([{"action": "update", "level": "project", "filename": new,
                            "content": "The staging deploy reads the green queue now."}])
    assert edited.exit_code == 0, edited.output
    found, indexed = _search(memenv, "green queue")
    assert indexed == {"project": 1} and found[:1] == [new]
    # The old text is in the cache still (a dead row), never in an answer.
    assert _search(memenv, "zebra mailbox") == ([], {"project": 0})

    removed = memenv.apply([{"action": "delete", "level": "project", "filename": new}],
                           "--allow-delete")
    assert removed.exit_code == 0, removed.output
    found, indexed = _search(memenv, "green queue staging")
    assert indexed == {"project": 0} and new not in found
