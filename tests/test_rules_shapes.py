"""Three ways people phrase a lasting statement that the rules extractor must read whole: a
statement with ", never <where or how>" after it, a choice followed by its reason, and
"I'd rather you …"; and the kind of tests a command runs."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from memcli.extraction.rules import extract_rules
from memcli.messages import Message

TODAY = datetime.date(2026, 5, 12)


def ops(text: str) -> list[dict[str, Any]]:
    return extract_rules([Message("user", text)], [], today=TODAY)


@pytest.mark.parametrize("text", [
    "remember: amounts are stored as integer cents, never as floats",
    "for the record, api keys come from the environment, never hardcoded in the source",
    "remember that the schema changes through migrations, never edited by hand",
])
def test_never_after_a_comma_without_a_verb_belongs_to_the_statement(text: str) -> None:
    [found] = ops(text)
    assert "never" in found["content"] and not found["title"].startswith("Never")


@pytest.mark.parametrize(("text", "count"), [
    ("always squash before merging, never push to main directly", 2),
    ("always answer in Chinese, never use emojis", 2),
])
def test_never_before_a_verb_starts_a_second_instruction(text: str, count: int) -> None:
    assert len(ops(text)) == count


@pytest.mark.parametrize(("text", "title", "kept"), [
    ("use pnpm instead of npm, the lockfile is pnpm-lock.yaml", "Package manager", "lockfile"),
    ("switch to httpx instead of requests, we need async", "HTTP client", "async"),
    ("用 pnpm 而不是 npm，因为锁文件是 pnpm-lock.yaml", "Package manager", "锁文件"),
])
def test_a_choice_keeps_its_reason_and_its_topic(text: str, title: str, kept: str) -> None:
    [found] = ops(text)
    assert found["title"] == title and found["type"] == "correction_feedback"
    assert kept in found["content"]


def test_a_choice_for_this_moment_only_is_still_not_kept() -> None:
    assert ops("use the staging db instead of prod, just for this test") == []


@pytest.mark.parametrize("text", [
    "I'd rather you use ISO country codes than full names",
    "I'd rather you used pathlib than os.path",
    "I'd rather you didn't add comments that repeat the code",
    "I'd prefer it if you asked before adding a dependency",
])
def test_id_rather_you_is_a_preference(text: str) -> None:
    [found] = ops(text)
    assert (found["level"], found["type"]) == ("user", "user_preference")


@pytest.mark.parametrize("text", [
    "I'd rather you fix the login bug first",  # today's order of work
    "I'd rather you didn't, thanks",
    "I'd rather you had told me earlier",  # a complaint
    "I'd rather you didn't touch that file",  # points at the screen
])
def test_id_rather_you_about_now_is_not_kept(text: str) -> None:
    assert ops(text) == []


def test_unit_and_end_to_end_test_commands_are_two_topics() -> None:
    [unit] = ops("跑单元测试用 make unit")
    [e2e] = ops("跑端到端测试用 make e2e")
    [integration] = ops("run the integration tests with make integration")
    assert (unit["title"], e2e["title"], integration["title"]) == (
        "Unit test command", "E2E test command", "Integration test command")


@pytest.mark.parametrize(("text", "title"), [
    ("we never mock the database in the integration tests", None),
    ("we never hardcode urls, they come from config", None),
    ("`make check` is the test command", "Test command"),
    ("npm run lint is the lint command", "Lint command"),
    ("每次改完配置都要重启服务", None),
    ("always add docstrings to public functions, sphinx builds the docs from them here", None),
])
def test_more_lasting_statements(text: str, title: str | None) -> None:
    [found] = ops(text)
    assert found["type"] == "project_knowledge"
    assert title is None or found["title"] == title


@pytest.mark.parametrize(("text", "title"), [
    ("we switched to pnpm, stop using npm", "Package manager"),
    ("我们换成 pnpm 了，别再用 npm", "Package manager"),
    ("we moved to vitest, don't use jest anymore", "Test runner"),
])
def test_a_move_to_a_tool_is_a_choice(text: str, title: str) -> None:
    [found] = ops(text)
    assert (found["type"], found["title"]) == ("correction_feedback", title)


def test_a_lead_word_before_a_preference_is_skipped() -> None:
    [found] = ops("personally I prefer tabs over spaces")
    assert (found["level"], found["type"]) == ("user", "user_preference")


@pytest.mark.parametrize("text", [
    "this is the slowest command in the repo",
    "the migration is the riskiest script we have",
    "改完这个文件要跑一下测试",
    "add a test here, the parser needs it here",
    "honestly I don't know why it fails",
])
def test_look_alikes_are_not_kept(text: str) -> None:
    assert ops(text) == []
