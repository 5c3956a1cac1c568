"""A time from a day up to now ("since last Tuesday", 上周二以来, "since March") and some days
ago ("the other day", "a few days ago", 前几天): recall reads them as ranges, not as one day;
a note made from a transcript writes them against the day they were said, in the person's
zone (TZ), as tests/test_time_zones.py sets it."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from memcli.extraction.rules.dates import absolute_dates
from memcli.search.dates import named_dates
from tests.conftest import MemEnv

TUESDAY = dt.date(2026, 5, 12)


def _days(prompt: str, today: dt.date = TUESDAY) -> list[str]:
    return sorted(d.isoformat() for d in named_dates(prompt, today).days)


def _span(first: str, last: str) -> list[str]:
    start, end = dt.date.fromisoformat(first), dt.date.fromisoformat(last)
    return [(start + dt.timedelta(days=i)).isoformat() for i in range((end - start).days + 1)]


@pytest.mark.parametrize(("prompt", "first"), [
    ("what changed since last Tuesday?", "2026-05-05"),
    ("what broke since yesterday?", "2026-05-11"),
    ("anything new since Friday?", "2026-05-08"),
    ("what did we decide since last week?", "2026-05-04"),  # from its Monday
    ("since 2026-05-01, what moved?", "2026-05-01"),
    ("上周二以来改了什么？", "2026-05-05"),
    ("自从三天前，我们做了什么？", "2026-05-09"),
    ("从上周一开始做了什么？", "2026-05-04"),
])
def test_since_a_day_is_every_day_from_it_to_today(prompt: str, first: str) -> None:
    assert _days(prompt) == _span(first, "2026-05-12")


def test_since_long_ago_is_the_months_from_then() -> None:
    assert named_dates("what changed since March?", TUESDAY).months == (
        (2026, 3), (2026, 4), (2026, 5))
    assert named_dates("since 2026-01-15", TUESDAY).months == tuple(
        (2026, m) for m in range(1, 6))


@pytest.mark.parametrize("prompt", ["what did we do the other day?",
                                    "what did we change a few days ago?", "前几天我们做了什么？"])
def test_the_other_day_is_a_few_days_ago_not_one_day(prompt: str) -> None:
    assert _days(prompt) == _span("2026-05-05", "2026-05-10")


@pytest.mark.parametrize(("prompt", "days"), [
    ("what did we do on Tuesday?", ["2026-05-05"]),  # a day, not a range
    ("从 3月5日到3月10日做了什么", ["2026-03-05", "2026-03-10"]),  # 从…到… is no "since"
    ("what changed since the release?", []),  # no day named: nothing to count from
])
def test_a_date_without_since_stays_what_it_was(prompt: str, days: list[str]) -> None:
    assert _days(prompt) == days


def test_since_counts_only_from_the_day_the_prompt_is_asked() -> None:
    # no day given (a benchmark's questions): an absolute date stays one day
    assert [d.isoformat() for d in named_dates("since 2026-05-01").days] == ["2026-05-01"]


@pytest.mark.parametrize(("said", "written"), [
    ("CI has been flaky since last Tuesday", "CI has been flaky since 2026-05-05"),
    ("we moved to pnpm the other day", "we moved to pnpm a few days before 2026-05-12"),
    ("last week we switched CI", "the week of 2026-05-04 we switched CI"),
    ("上周二开始测试一直挂", "2026-05-05 开始测试一直挂"),
    ("前几天换成了 pnpm", "2026-05-12 的前几天 换成了 pnpm"),
    ("上周我们换了 CI", "2026-05-04 那一周 我们换了 CI"),
    ("next Friday", "2026-05-22"),  # unchanged
])
def test_a_note_writes_past_days_against_the_day_they_were_said(said: str, written: str) -> None:
    assert absolute_dates(said, TUESDAY) == written


# ------------------------------------------------------------------- in the person's zone

_ZONEINFO = Path("/usr/share/zoneinfo")
needs_zones = pytest.mark.skipif(not (_ZONEINFO / "Pacific" / "Auckland").exists(),
                                 reason="no system time zone database")
NOW = "2026-12-01T10:00:00Z"  # Tuesday 1 December in UTC, Los Angeles (02:00), Auckland (23:00)
# Sunday 29 November for UTC and Los Angeles (15:30), Monday 30 November 12:30 in Auckland.
WRITTEN = "2026-11-29T23:30:00Z"


def _recalled(memenv: MemEnv, prompt: str, zone: str) -> list[str]:
    result = memenv.invoke("recall", prompt, "--json", env={"TZ": zone, "MEMCLI_NOW": NOW})
    assert result.exit_code == 0, result.output
    return [note["title"] for note in json.loads(result.stdout)["notes"]]


@pytest.fixture
def written(memenv: MemEnv) -> MemEnv:
    added = memenv.invoke("add", "The deploy queue moved to Redis streams.", "--title",
                          "Deploy queue", env={"MEMCLI_NOW": WRITTEN, "TZ": "UTC"})
    assert added.exit_code == 0, added.output
    return memenv


@needs_zones
@pytest.mark.parametrize(("zone", "their_yesterday"), [
    ("UTC", False), ("America/Los_Angeles", False), ("Pacific/Auckland", True),
    ("<+13>-13", True)])
def test_since_and_the_other_day_count_in_the_person_s_days(
        written: MemEnv, zone: str, their_yesterday: bool) -> None:
    found = ["Deploy queue"]
    # written on their Monday (Auckland): since yesterday; on their Sunday: the other day
    assert _recalled(written, "what changed since yesterday?", zone) == (
        found if their_yesterday else [])
    assert _recalled(written, "昨天以来改了什么？", zone) == (found if their_yesterday else [])
    assert _recalled(written, "what did we do the other day?", zone) == (
        [] if their_yesterday else found)
    assert _recalled(written, "what changed since Sunday?", zone) == found


@needs_zones
@pytest.mark.parametrize(("zone", "day"), [
    ("UTC", "2026-11-24"), ("America/Los_Angeles", "2026-11-24"),
    ("Pacific/Auckland", "2026-12-01")])  # 20:00Z is Wednesday 09:00 in Auckland
def test_since_last_tuesday_in_a_transcript_is_the_person_s(memenv: MemEnv, zone: str,
                                                            day: str) -> None:
    turn = json.dumps({"role": "user",
                       "content": "Remember that CI has been flaky since last Tuesday."})
    result = memenv.invoke("extract", input=turn + "\n",
                           env={"TZ": zone, "MEMCLI_NOW": "2026-12-01T20:00:00Z"})
    assert result.exit_code == 0, result.output
    operations: list[dict[str, Any]] = json.loads(result.stdout)["operations"]
    assert [op["content"] for op in operations] == [f"CI has been flaky since {day}."]
