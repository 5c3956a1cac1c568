"""Days are the person's: "yesterday", "on Monday", 昨天, `expires` and "tomorrow" in a
transcript count in the zone TZ (else the system's) names, across a midnight where UTC's day
and theirs differ. Timestamps stay UTC. The zone enters at the CLI (Settings.zone); MEMCLI_NOW
still fixes the instant.

Named zones need the system's time zone database; a POSIX TZ string (`<+13>-13`) does not.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from memcli.settings.zone import Zone
from tests.conftest import MemEnv

_ZONEINFO = Path("/usr/share/zoneinfo")
needs_zones = pytest.mark.skipif(not (_ZONEINFO / "Pacific" / "Auckland").exists(),
                                 reason="no system time zone database")

# 2026-12-01T10:00Z is Tuesday 23:00 in Auckland (+13) and Tuesday 02:00 in Los Angeles (-8).
NOW = "2026-12-01T10:00:00Z"
# Written at 2026-11-30T23:30Z: Monday for UTC and Los Angeles, Tuesday 12:30 in Auckland.
WRITTEN = "2026-11-30T23:30:00Z"


def _recalled(memenv: MemEnv, prompt: str, zone: str, now: str = NOW) -> list[str]:
    result = memenv.invoke("recall", prompt, "--json", env={"TZ": zone, "MEMCLI_NOW": now})
    assert result.exit_code == 0, result.output
    return [note["title"] for note in json.loads(result.stdout)["notes"]]


@pytest.fixture
def written(memenv: MemEnv) -> MemEnv:
    added = memenv.invoke("add", "The deploy queue moved to Redis streams.", "--title",
                          "Deploy queue", env={"MEMCLI_NOW": WRITTEN, "TZ": "Pacific/Auckland"})
    assert added.exit_code == 0, added.output
    return memenv


def test_timestamps_stay_utc_whatever_the_zone(written: MemEnv) -> None:
    text = (written.project / "project_knowledge_deploy-queue.md").read_text("utf-8")
    assert f"created: {WRITTEN}" in text


@needs_zones
@pytest.mark.parametrize(("zone", "yesterday", "today"), [
    ("UTC", True, False),
    ("Pacific/Auckland", False, True),  # written today, their Tuesday
    ("America/Los_Angeles", True, False),
    ("<+13>-13", False, True),  # a POSIX TZ string, as the C library reads it
])
def test_recall_counts_days_in_the_person_s_zone(written: MemEnv, zone: str, yesterday: bool,
                                                   today: bool) -> None:
    found = ["Deploy queue"]
    assert _recalled(written, "what did we do yesterday?", zone) == (found if yesterday else [])
    assert _recalled(written, "昨天我们做了什么？", zone) == (found if yesterday else [])
    assert _recalled(written, "what did we do today?", zone) == (found if today else [])
    # "on Monday": the note's day is Monday for UTC and Los Angeles, Tuesday in Auckland
    assert _recalled(written, "what changed on Monday?", zone) == (found if yesterday else [])
    assert _recalled(written, "周一改了什么？", zone) == (found if yesterday else [])


@needs_zones
def test_one_search_cache_serves_every_zone(written: MemEnv) -> None:
    # The cache keeps instants, not days: asking in one zone, then another, then the first
    # again answers each in its own days (no cache of the first zone's days answers wrong).
    for zone, expected in (("Pacific/Auckland", []), ("America/Los_Angeles", ["Deploy queue"]),
                           ("Pacific/Auckland", []), ("UTC", ["Deploy queue"])):
        assert _recalled(written, "what did we do yesterday?", zone) == expected, zone


@needs_zones
def test_a_week_is_the_person_s_week(written: MemEnv) -> None:
    # Monday 2026-12-07 01:00 in Auckland is still Sunday 12:00 in UTC: for Auckland the note
    # (their Tuesday 1 December) was last week; for UTC (Monday 30 November) this week.
    now = "2026-12-06T12:00:00Z"
    assert _recalled(written, "what did I decide last week?", "Pacific/Auckland", now) == [
        "Deploy queue"]
    assert _recalled(written, "what did I decide last week?", "UTC", now) == []
    assert _recalled(written, "what did we do this week?", "UTC", now) == ["Deploy queue"]


@needs_zones
def test_a_note_s_day_uses_the_offset_of_its_own_date(memenv: MemEnv) -> None:
    # 2026-07-01T11:30Z is 23:30 on 1 July in Auckland's winter (+12); with December's +13
    # it would be 2 July.
    added = memenv.invoke("add", "We froze the schema.", "--title", "Schema freeze",
                          env={"MEMCLI_NOW": "2026-07-01T11:30:00Z"})
    assert added.exit_code == 0, added.output
    assert _recalled(memenv, "what did we do on 2026-07-01?", "Pacific/Auckland") == [
        "Schema freeze"]
    assert _recalled(memenv, "what did we do on 2026-07-02?", "Pacific/Auckland") == []


@needs_zones
@pytest.mark.parametrize(("zone", "expired"), [
    ("UTC", False), ("America/Los_Angeles", False), ("Pacific/Auckland", True)])
def test_expires_ends_at_the_person_s_midnight(memenv: MemEnv, zone: str, expired: bool) -> None:
    added = memenv.invoke("add", "--expires", "2026-12-24", "Code freeze: no merges to main.")
    assert added.exit_code == 0, added.output
    env = {"TZ": zone, "MEMCLI_NOW": "2026-12-24T12:00:00Z"}  # Auckland: 25 December, 01:00
    context = memenv.invoke("context", env=env)
    assert ("Code freeze" not in context.stdout) == expired
    status = json.loads(memenv.invoke("status", "--json", env=env).stdout)
    project = next(lv for lv in status["levels"] if lv["level"] == "project")
    assert bool(project["expired"]) == expired
    lint = memenv.invoke("lint", "--format", "json", env=env)
    assert ("M212" in lint.stdout) == expired, lint.stdout


@needs_zones
@pytest.mark.parametrize(("zone", "day"), [
    ("UTC", "2026-12-02"), ("America/Los_Angeles", "2026-12-02"),
    ("Pacific/Auckland", "2026-12-03")])  # 20:00Z is Wednesday 09:00 in Auckland
def test_tomorrow_in_a_transcript_is_the_person_s_tomorrow(memenv: MemEnv, zone: str,
                                                          day: str) -> None:
    turn = json.dumps({"role": "user", "content": "Remember that the release is tomorrow."})
    result = memenv.invoke("extract", input=turn + "\n",
                           env={"TZ": zone, "MEMCLI_NOW": "2026-12-01T20:00:00Z"})
    assert result.exit_code == 0, result.output
    operations: list[dict[str, Any]] = json.loads(result.stdout)["operations"]
    assert [op["content"] for op in operations] == [f"The release is {day}."]


@needs_zones
def test_a_subprocess_reads_tz_from_its_environment(written: MemEnv) -> None:
    for zone, expected in (("Pacific/Auckland", []), ("America/Los_Angeles", ["Deploy queue"])):
        done = written.run("recall", "what did we do yesterday?", "--json",
                           env={"TZ": zone, "MEMCLI_NOW": NOW})
        assert done.returncode == 0, done.stderr
        assert [n["title"] for n in json.loads(done.stdout)["notes"]] == expected


def test_memcli_now_with_an_offset_is_an_instant_and_tz_the_zone(written: MemEnv) -> None:
    # 2026-12-01T23:00+13:00 is NOW; the zone is still TZ's (here +13, as a POSIX string).
    same = "2026-12-01T23:00:00+13:00"
    assert _recalled(written, "what did we do today?", "<+13>-13", same) == ["Deploy queue"]
    assert _recalled(written, "what did we do today?", "<-08>8", same) == []


def test_config_says_where_the_zone_came_from(memenv: MemEnv) -> None:
    shown = json.loads(memenv.invoke("config", "--json", env={"TZ": "<+13>-13"}).stdout)
    assert shown["zone"] == {"value": "<+13>-13", "source": "environment TZ"}


# --------------------------------------------------------------------------- the zone itself


def _summer_from(change: dt.datetime) -> Zone:
    """+12, then +13 from CHANGE on (as Auckland in September)."""
    at = change.timestamp()
    return Zone(lambda seconds: 13 * 3600 if seconds >= at else 12 * 3600)


def test_a_day_starts_at_the_zone_s_own_midnight_across_a_change() -> None:
    change = dt.datetime(2026, 9, 26, 14, 0, tzinfo=dt.UTC)  # 27 September 02:00 local
    zone = _summer_from(change)
    assert zone.start_of(dt.date(2026, 9, 27)) == dt.datetime(2026, 9, 26, 12, 0, tzinfo=dt.UTC)
    assert zone.start_of(dt.date(2026, 9, 28)) == dt.datetime(2026, 9, 27, 11, 0, tzinfo=dt.UTC)
    late = dt.datetime(2026, 9, 27, 10, 59, tzinfo=dt.UTC)
    assert zone.day_of(late) == dt.date(2026, 9, 27)
    assert zone.day_of(late + dt.timedelta(minutes=1)) == dt.date(2026, 9, 28)


def test_an_instant_outside_the_calendar_keeps_its_utc_day() -> None:
    zone = Zone(lambda _seconds: 13 * 3600)
    last = dt.datetime(9999, 12, 31, 23, 0, tzinfo=dt.UTC)
    assert zone.day_of(last) == dt.date(9999, 12, 31)
    assert zone.start_of(dt.date(1, 1, 1)) == dt.datetime(1, 1, 1, tzinfo=dt.UTC)
