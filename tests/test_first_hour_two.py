"""The first hour, part two (issue 34): repeating a step, long `add` text, finding notes,
sync conflicts, and the small answers a newcomer gets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TURN = (ROOT / "examples" / "turn.jsonl").read_text("utf-8")

# --------------------------------------------------------------------------- repeating a step


def test_applying_the_same_document_again_is_unchanged_and_exit_0(memenv: Any) -> None:
    extracted = memenv.run("extract", input=TURN)
    assert extracted.returncode == 0, extracted.stderr
    ops = memenv.root / "ops.json"
    ops.write_text(extracted.stdout, "utf-8")
    first = memenv.run("apply", str(ops))
    assert first.returncode == 0, first.stderr
    files = {p: p.read_bytes() for p in memenv.root.rglob("*.md")}
    again = memenv.run("apply", str(ops))
    assert again.returncode == 0, again.stderr
    assert "rejected" not in again.stderr and "stale base" not in again.stderr, again.stderr
    assert again.stdout.count("already says this") == 4, again.stdout
    assert again.stderr.strip().endswith("4 unchanged; 0 files; nothing written")
    assert {p: p.read_bytes() for p in memenv.root.rglob("*.md")} == files
    # --on-conflict rename makes no "-2" copy of a note that already says it.
    renamed = memenv.run("apply", "--on-conflict", "rename", str(ops))
    assert renamed.returncode == 0 and "unchanged" in renamed.stderr, renamed.stderr
    assert {p: p.read_bytes() for p in memenv.root.rglob("*.md")} == files
    # extract --apply of the same turn says the same, with the same status.
    applied = memenv.run("extract", "--apply", input=TURN)
    assert applied.returncode == 0, applied.stderr
    assert applied.stdout.count("already says this") == 4, applied.stdout


def test_a_create_that_differs_from_the_note_is_still_a_conflict(memenv: Any) -> None:
    op = {"action": "create", "level": "project", "type": "project_knowledge",
          "title": "Test command", "content": "Run make test."}
    assert memenv.apply([op]).exit_code == 0
    changed = memenv.run("apply", "-", input=json.dumps([dict(op, content="Run tox.")]))
    assert changed.returncode == 1
    assert "duplicate" in changed.stderr
