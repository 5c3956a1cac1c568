"""The rules extractor dates time-bound statements (`expires`), and only those."""

from __future__ import annotations

import datetime
import json

import pytest

from memcli.extraction.rules.expiry import OPEN_ENDED_DAYS, expires_for
from tests.conftest import MemEnv

TUESDAY = datetime.date(2026, 12, 1)


@pytest.mark.parametrize(("text", "expected"), [
    ("Use the staging cluster until Friday.", "2026-12-04"),
    ("Until 2026-12-07 call the old API.", "2026-12-07"),
    ("This week we deploy from release/1.2.", "2026-12-06"),
    ("For the rest of the month, page Ana first.", "2026-12-31"),
    ("During the code freeze, merge only fixes.",
     (TUESDAY + datetime.timedelta(days=OPEN_ENDED_DAYS)).isoformat()),
    ("本周内不要合并到 main 分支。", "2026-12-06"),
    ("2026-12-02 之前不要发布。", "2026-12-02"),
    ("冻结期间只合并修复。", (TUESDAY + datetime.timedelta(days=OPEN_ENDED_DAYS)).isoformat()),
    ("Always run pytest before pushing.", None),
    ("By the way, use pnpm.", None),
    ("Until 2020-01-01 it was different.", None),  # a bound in the past dates nothing
    ("本周五开会", None),  # a day of this week is a date, not a bound
])
def test_expires_for(text: str, expected: str | None) -> None:
    assert expires_for(text, TUESDAY) == expected


def test_extract_writes_the_date_into_the_note_and_context_drops_it_later(
        memenv: MemEnv) -> None:
    turn = "".join(json.dumps({"role": "user", "content": text}) + "\n" for text in (
        "Remember that until Friday we deploy from the staging cluster.",
        "Always run pytest before pushing."))
    now = {"MEMCLI_NOW": "2026-12-01T10:00:00Z"}
    result = memenv.invoke("extract", "--provider", "rules", "--apply", input=turn, env=now)
    assert result.exit_code == 0, result.stderr
    notes = {p.name: p.read_text() for p in memenv.project.glob("*.md") if p.name != "MEMORY.md"}
    bounded = [text for text in notes.values() if "staging cluster" in text]
    assert len(bounded) == 1 and "\nexpires: 2026-12-04\n" in bounded[0]
    assert all("expires" not in text for text in notes.values() if "pytest" in text)
    later = memenv.invoke("context", env={"MEMCLI_NOW": "2026-12-05T10:00:00Z"}).stdout
    assert "staging cluster" not in later and "(1 expired memory entries left out" in later
