"""One rule said in English and again in Chinese is one note; two rules that differ in one
concept (commit or push, before or after, which folder) stay two notes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from memcli.concepts import concept_keys
from memcli.similar import find_near


@dataclass(frozen=True)
class Stored:
    level: str
    type: str
    title: str
    summary: str
    filename: str


def stored(title: str, summary: str = "") -> Stored:
    return Stored("project", "project_knowledge", title, summary or title + ".", "x.md")


@pytest.mark.parametrize(("english", "chinese"), [
    ("Never commit directly to main", "永远不要直接提交到 main"),
    ("Never force-push to shared branches", "永远不要强推共享分支"),
    ("Always run the tests before committing", "提交前一定要先跑测试"),
    ("Don't edit generated files by hand", "生成的文件不要手动改"),
    ("Never commit secrets", "永远不要提交密钥"),
    ("Don't use killall", "永远不要用 killall"),
])
def test_one_rule_in_two_languages_is_one_note(english: str, chinese: str) -> None:
    for new, old in ((chinese, english), (english, chinese)):
        near = find_near("project", new, "", [stored(old)])
        assert near is not None and near.why == "the same statement in another language"


def test_two_chinese_wordings_of_one_rule_are_one_note() -> None:
    near = find_near("project", "提交之前要跑一遍测试", "", [stored("提交前一定要先跑测试")])
    assert near is not None


@pytest.mark.parametrize(("new", "old"), [
    ("永远不要直接推送到 main", "Never commit directly to main"),  # push, not commit
    ("永远不要直接提交到 develop", "Never commit directly to main"),  # another branch
    ("合并后一定要跑测试", "Always run the tests before committing"),  # after merging
    ("永远不要手动改锁文件", "Never commit secrets"),
    ("总是直接提交到 main", "Never commit directly to main"),  # the opposite rule
    ("不要手动修改 dist/ 下的文件", "Never edit files under vendor/ by hand"),
])
def test_near_but_different_rules_stay_apart(new: str, old: str) -> None:
    assert find_near("project", new, "", [stored(old)]) is None


def test_an_unknown_chinese_word_makes_the_statement_incomparable() -> None:
    # 喵 is in no lexicon: the known words alone must not decide that two rules are one.
    assert concept_keys("永远不要喵提交到 main") is None
    assert find_near("project", "永远不要喵提交到 main", "",
                     [stored("Never commit to main")]) is None


def test_english_words_the_lexicon_does_not_know_still_have_to_match() -> None:
    keys = concept_keys("never commit the frobnicator config")
    assert keys is not None and "frobnicator" in keys
    assert find_near("project", "永远不要提交配置", "",
                     [stored("Never commit the frobnicator config")]) is None


def test_a_statement_that_says_too_little_is_no_match() -> None:
    assert find_near("project", "不要", "", [stored("No")]) is None


# --------------------------------------------------------------------------- end to end


def _extract(cli: Any, text: str) -> Any:
    turn = json.dumps({"role": "user", "content": text}, ensure_ascii=False) + "\n"
    return cli("extract", "--provider", "rules", "--apply", input=turn)


def test_saying_a_rule_again_in_chinese_updates_the_english_note(cli: Any, memenv: Any) -> None:
    assert _extract(cli, "never commit directly to main").exit_code == 0
    assert _extract(cli, "永远不要直接提交到 main").exit_code == 0
    [name] = memenv.notes("project")
    assert "永远不要直接提交到 main" in (memenv.project / name).read_text("utf-8")


def test_a_near_but_different_rule_in_chinese_is_a_second_note(cli: Any, memenv: Any) -> None:
    assert _extract(cli, "never commit directly to main").exit_code == 0
    assert _extract(cli, "永远不要直接推送到 main").exit_code == 0
    assert len(memenv.notes("project")) == 2
