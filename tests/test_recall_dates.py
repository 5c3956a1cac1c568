"""Time in search and recall: the day expressions a prompt names, counted from the clock that
enters at the CLI (MEMCLI_NOW here: Sunday 2026-11-29), and what `recall` hands back for
them, on real stores in tmp_path."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from memcli.search.dates import named_dates
from memcli.search.topic import topic_terms

SUNDAY = date(2026, 11, 29)  # the conftest's MEMCLI_NOW


def _days(text: str, today: date = SUNDAY) -> list[str]:
    return [d.isoformat() for d in named_dates(text, today).days]


def _months(text: str, today: date = SUNDAY) -> list[tuple[int, int]]:
    return list(named_dates(text, today).months)


LAST_WEEK = [f"2026-11-{d}" for d in range(16, 23)]
THIS_WEEK = [f"2026-11-{d}" for d in range(23, 30)]


@pytest.mark.parametrize(("text", "days"), [
    ("what did we do yesterday?", ["2026-11-28"]),
    ("and today?", ["2026-11-29"]),
    ("the day before yesterday", ["2026-11-27"]),
    ("what changed on Monday?", ["2026-11-23"]),
    ("last Friday", ["2026-11-27"]),
    ("what did I decide last week?", LAST_WEEK),
    ("what did we do this week", THIS_WEEK),
    ("3 days ago", ["2026-11-26"]),
    ("a couple of days ago", ["2026-11-27"]),
    ("two weeks ago", [f"2026-11-{d:02}" for d in range(9, 16)]),
    ("the past 3 days", ["2026-11-29", "2026-11-28", "2026-11-27"]),
    ("on 3 March", ["2026-03-03"]),
    ("December 3rd", ["2025-12-03"]),  # not yet this year: last year's
    ("on 2026-11-30", ["2026-11-30"]),  # an absolute day, even after today
    ("2026/11/20", ["2026-11-20"]),
    ("昨天我们做了什么？", ["2026-11-28"]),
    ("今天", ["2026-11-29"]),
    ("前天", ["2026-11-27"]),
    ("上周改了什么", LAST_WEEK),
    ("这周", THIS_WEEK),
    ("三天前的笔记", ["2026-11-26"]),
    ("3天前", ["2026-11-26"]),
    ("两周前", [f"2026-11-{d:02}" for d in range(9, 16)]),
    ("上周一", ["2026-11-16"]),
    ("周五决定了什么", ["2026-11-27"]),
    ("3月5日决定了什么", ["2026-03-05"]),
    ("十二月三号", ["2025-12-03"]),
    ("2026年3月5日", ["2026-03-05"]),
    ("昨日何をしましたか", ["2026-11-28"]),  # Japanese shares the word
    ("over the weekend", ["2026-11-28", "2026-11-29"]),  # under way on a Sunday
    ("last weekend", ["2026-11-21", "2026-11-22"]),
    ("周末做了什么", ["2026-11-28", "2026-11-29"]),
    ("上周末", ["2026-11-21", "2026-11-22"]),
    ("上礼拜天", ["2026-11-22"]),
])
def test_day_expressions_count_from_the_day_asked(text: str, days: list[str]) -> None:
    assert _days(text) == days


@pytest.mark.parametrize(("text", "months"), [
    ("notes from March", [(2026, 3)]),
    ("what changed in december", [(2025, 12)]),
    ("the March release", [(2026, 3)]),
    ("what did we do last month?", [(2026, 10)]),
    ("this month", [(2026, 11)]),
    ("two months ago", [(2026, 9)]),
    ("in May", [(2026, 5)]),
    ("上个月", [(2026, 10)]),
    ("这个月", [(2026, 11)]),
    ("三个月前", [(2026, 8)]),
    ("3月的笔记", [(2026, 3)]),
    ("2026年3月", [(2026, 3)]),
])
def test_month_expressions_count_from_the_day_asked(text: str,
                                                    months: list[tuple[int, int]]) -> None:
    assert _months(text) == months


@pytest.mark.parametrize("text", [
    "you may skip it", "May I see the notes?", "march through the list", "a weekly job",
    "run the tests", "一个月一次", "3 people", "what is the test command?"])
def test_words_that_name_no_time(text: str) -> None:
    assert not named_dates(text, SUNDAY)


def test_the_weekend_asked_on_a_weekday_is_the_last_one() -> None:
    wednesday = date(2026, 11, 25)
    for text in ("what did we do over the weekend?", "last weekend", "周末"):
        assert _days(text, wednesday) == ["2026-11-21", "2026-11-22"], text


def test_only_absolute_dates_without_the_day_asked() -> None:
    assert not named_dates("what did we do yesterday, in March, on 3 March? 昨天")
    assert _days("on 2026-11-20", None) == ["2026-11-20"]  # type: ignore[arg-type]
    assert _days("2026年11月20日", None) == ["2026-11-20"]  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "topic"), [
    ("what did we do yesterday?", []),
    ("what did I decide last week?", []),
    ("what changed on Monday?", []),
    ("notes from March", []),
    ("remind me what we worked on this week", []),
    ("昨天我们做了什么？", []),
    ("上周改了什么", []),
    ("三天前的笔记", []),
    ("昨日何をしましたか", []),
    ("what did we decide about the deploy queue yesterday?", ["deploy", "queue"]),
    ("what broke yesterday?", ["break"]),
    ("昨天的数据库迁移", ["数据", "据库", "库迁", "迁移"]),
])
def test_what_a_dated_prompt_asks_about_besides_the_time(text: str, topic: list[str]) -> None:
    assert topic_terms(text, named_dates(text, SUNDAY)).words == topic


# ---------------------------------------------------------------------- recall on a store


def _note(env: Any, name: str, title: str, body: str, created: str,
          updated: str | None = None, **extra: str) -> None:
    env.write_note("project", f"project_knowledge_{name}.md", {
        "type": "project_knowledge", "title": title, "summary": f"{title}.",
        "created": created, "updated": updated or created, **extra}, body + "\n")


@pytest.fixture
def dated_store(memenv: Any) -> Any:
    _note(memenv, "queue", "Deploy queue retries",
          "The deploy queue retries three times before paging.", "2026-11-28T09:00:00Z")
    _note(memenv, "disk", "Staging disk", "The staging database moved to a larger disk.",
          "2026-11-28T15:00:00Z")
    # Created long ago, updated on Tuesday: a note of Tuesday too.
    _note(memenv, "lint", "Lint rules", "Ruff replaces flake8; lines up to 100 characters.",
          "2026-10-01T09:00:00Z", "2026-11-24T11:00:00Z")
    _note(memenv, "release", "Release train", "Releases go out every second Tuesday.",
          "2026-03-05T09:00:00Z")
    _note(memenv, "migrations", "数据库迁移", "数据库迁移用 Alembic，先在测试环境跑。",
          "2026-11-27T09:00:00Z")
    _note(memenv, "freeze", "Deploy freeze", "No deploys to production until the audit ends.",
          "2026-11-28T08:00:00Z", expires="2026-11-28T20:00:00Z")
    return memenv


def recalled(env: Any, prompt: str, *args: str, now: str | None = None) -> list[str]:
    result = env.invoke("recall", "--json", *args, prompt,
                        env={"MEMCLI_NOW": now} if now else None)
    assert result.exit_code == 0, result.output
    return [n["file"].removeprefix("project_knowledge_").removesuffix(".md")
            for n in json.loads(result.stdout)["notes"]]


@pytest.mark.parametrize(("prompt", "notes"), [
    # Most recent first; the expired freeze note is left out, as `context` leaves it out.
    ("what did we do yesterday?", ["disk", "queue"]),
    ("昨天我们做了什么？", ["disk", "queue"]),
    ("what changed on Tuesday?", ["lint"]),  # its `updated` day
    ("what did I work on this week?", ["disk", "queue", "migrations", "lint"]),
    ("前天做了什么", ["migrations"]),
    ("notes from March", ["release"]),
    ("3月5日决定了什么", ["release"]),
    ("what did we do on 2026-11-27?", ["migrations"]),
])
def test_a_time_alone_recalls_the_notes_of_that_time(dated_store: Any, prompt: str,
                                                     notes: list[str]) -> None:
    assert recalled(dated_store, prompt) == notes


@pytest.mark.parametrize("prompt", [
    "what did we do on Monday?",  # 2026-11-23: no note
    "what did I decide last week?",
    "上周改了什么",
    "what changed in August?",
    "what did we do on 2026-11-30?",
])
def test_a_time_no_note_has_recalls_nothing(dated_store: Any, prompt: str) -> None:
    result = dated_store.invoke("recall", prompt)
    assert result.exit_code == 0 and result.stdout == ""


def test_a_time_and_a_topic_need_both(dated_store: Any) -> None:
    assert recalled(dated_store, "what did we decide about the deploy queue yesterday?") == [
        "queue"]
    assert recalled(dated_store, "昨天的数据库迁移怎么做") == ["migrations"]  # a day before: near
    assert recalled(dated_store, "what about the deploy queue in March?") == []  # wrong time
    assert recalled(dated_store, "what did we decide about kubernetes yesterday?") == []
    # The same topic without a time is recalled whatever its date.
    assert recalled(dated_store, "how often does the deploy queue retry?") == ["queue"]


def test_yesterday_is_the_day_before_the_clock(dated_store: Any) -> None:
    assert recalled(dated_store, "what did we do yesterday?",
                    now="2026-11-28T10:00:00Z") == ["migrations"]
    assert recalled(dated_store, "what did we do yesterday?",
                    now="2026-11-25T10:00:00Z") == ["lint"]


def test_a_time_alone_fills_the_budget_most_recent_first(memenv: Any) -> None:
    for hour in range(10, 22):
        _note(memenv, f"n{hour}", f"Step {hour}", f"Step {hour}: " + "word " * 60,
              f"2026-11-28T{hour}:00:00Z")
    result = memenv.invoke("recall", "--json", "--budget", "300", "what did we do yesterday?")
    payload = json.loads(result.stdout)
    files = [n["file"] for n in payload["notes"]]
    assert files == [f"project_knowledge_n{h}.md" for h in range(21, 21 - len(files), -1)]
    assert 1 < len(files) < 12 and payload["tokens"] <= 300
    assert "most recent first" in payload["text"]


def test_search_lists_the_notes_of_a_day_other_notes_share_words_with(memenv: Any) -> None:
    # 60 notes of the day hold the prompt's word: BM25's 50 candidates are all among them.
    # The note of that day that shares no word must still be a candidate (it was cut with
    # the 50 dated ones that hold the word, then found to be in BM25's list already).
    for number in range(60):
        _note(memenv, f"deploy-{number}", f"Deploy {number}", f"We deploy service {number}.",
              "2026-11-20T09:00:00Z")
    _note(memenv, "disk", "Disk", "The database moved to a larger disk.", "2026-11-20T08:00:00Z")
    _note(memenv, "other", "Other day", "The cache moved to the runner.", "2026-11-21T08:00:00Z")
    result = memenv.invoke("search", "--json", "--limit", "200",
                           "what did we deploy on 2026-11-20?")
    found = [h["file"] for h in json.loads(result.stdout)["results"]]
    assert "project_knowledge_disk.md" in found
    assert "project_knowledge_other.md" not in found
    assert len(found) == 61


def test_an_expired_note_is_searched_but_never_recalled(dated_store: Any) -> None:
    found = dated_store.invoke("search", "--json", "deploy freeze production audit")
    assert json.loads(found.stdout)["results"][0]["file"] == "project_knowledge_freeze.md"
    assert "freeze" not in recalled(dated_store, "is there a deploy freeze on production?")
    # Before it expired, the same prompt recalls it.
    assert recalled(dated_store, "is there a deploy freeze on production?",
                    now="2026-11-28T12:00:00Z")[0] == "freeze"
