"""Chat between two people about their lives gives no note: the cue words of a memory
("never", "always", "I love", "remember that", "must", "from now on") are words of any
conversation, and a statement that names someone's life and nothing of the work is set
aside. The same warm tone about the work is kept."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from memcli.extraction.rules import RulesTrace, extract_rules
from memcli.messages import Message

TODAY = datetime.date(2026, 5, 12)


def ops(text: str) -> list[dict[str, Any]]:
    return extract_rules([Message("user", text)], [], today=TODAY)


@pytest.mark.parametrize("text", [
    "Glad to cheer you on. Keep going and never give up!",
    "Keep smiling and never lose hope!",
    "Remember that your family is proud of you.",
    "Believe in yourself, Jon! You got this.",
    "I love camping trips with my fam, nature brings such peace.",
    "I love my grandma's apple pie, nothing beats it.",
    "Pets make us so much happier and never let us down.",
    "你一定要好好照顾自己，永远不要放弃梦想！",
    "我最喜欢和朋友去海边玩。",
])
def test_a_statement_about_someones_life_gives_nothing(text: str) -> None:
    assert ops(text) == []


@pytest.mark.parametrize("text", [
    "I love the ocean.",  # something in front of them
    "I love the way the frosting turned out!",
    "I like to collect jerseys.",  # an activity of their life
    "I love discovering new cities.",
])
def test_fond_words_about_a_thing_or_a_pastime_are_not_preferences(text: str) -> None:
    assert ops(text) == []


@pytest.mark.parametrize(("text", "words"), [
    ("I love type hints", "type hints"),
    ("I love early returns", "early returns"),
    ("I like dataclasses", "dataclasses"),
    ("I like to keep functions small", "functions small"),
    ("I love using `rg` to search", "rg"),
])
def test_fond_words_about_the_work_are_preferences(text: str, words: str) -> None:
    [found] = ops(text)
    assert (found["level"], found["type"]) == ("user", "user_preference")
    assert words in found["content"]


@pytest.mark.parametrize("text", [
    "They brighten up our day and always make us smile.",
    "You never shy away from a challenge and always try something new.",
    "She's full of energy and always puts a smile on my face.",
    "He never gives up and always stands up for justice.",
    "I'm gonna keep on going and never quit.",
])
def test_always_after_someone_goes_on_describing_them(text: str) -> None:
    assert ops(text) == []


def test_always_after_an_instruction_is_a_second_instruction() -> None:
    found = ops("Always answer in Chinese and never use emojis")
    assert [o["title"] for o in found] == ["Answer language", "Emoji use"]


@pytest.mark.parametrize("text", [
    "Always good to hear!", "Always happy to share them with you.",
    "Always staying filled with self-belief.", "Always up for something sweet.",
])
def test_always_before_no_verb_is_no_instruction(text: str) -> None:
    assert ops(text) == []


@pytest.mark.parametrize("text", [
    "Winning must have been so thrilling!",
    "Mentoring must be so rewarding.",
    "Having pets must be a wonderful experience.",
    "Congrats, you must be so stoked!",
    "The migration must be really painful.",  # a guess at a feeling, even about work
])
def test_a_guess_at_a_feeling_is_not_a_rule(text: str) -> None:
    assert ops(text) == []


@pytest.mark.parametrize("text", ["Tests must be deterministic",
                                  "Secrets must be stored in vault"])
def test_a_rule_with_must_is_still_a_rule(text: str) -> None:
    [found] = ops(text)
    assert found["type"] == "project_knowledge"


@pytest.mark.parametrize("text", [
    "But I'll also start writing down my favourite memories from now on.",
    "I'm gonna try yoga from now on.",
    "I'll keep an eye on CI from now on",
])
def test_what_the_speaker_means_to_do_is_not_a_rule_for_the_assistant(text: str) -> None:
    assert ops(text) == []


@pytest.mark.parametrize(("text", "words"), [
    ("going forward we'll use conventional commits", "conventional commits"),
    ("never give up on a flaky test, find the root cause", "root cause"),
    ("never deploy on a friday, I want my weekends free", "deploy"),
    ("Thanks, Sam! From now on, run the linter before every commit.", "linter"),
    ("以后周末不要发版，我要陪家人", "发版"),
])
def test_the_same_words_about_the_work_are_kept(text: str, words: str) -> None:
    [found] = ops(text)
    assert words in found["content"]


def test_explain_says_why_a_line_of_chat_is_left_out() -> None:
    trace = RulesTrace()
    extract_rules([Message("user", "Keep going and never give up!")], [], today=TODAY,
                  trace=trace)
    assert [s.why for s in trace.skipped] == [
        "about someone's life, nothing of the work ('give up')"]
