"""The generic-imperative reader: a standing rule said with no cue word, and the one-off
requests of the same shape that must give nothing."""

from __future__ import annotations

import datetime

import pytest

from memcli.extraction.rules import RulesTrace, extract_rules
from memcli.messages import Message

TODAY = datetime.date(2026, 5, 12)


def _ops(text: str) -> list[dict[str, object]]:
    return extract_rules([Message("user", text)], [], today=TODAY)


@pytest.mark.parametrize(("text", "word"), [
    ("Prefix branches with feat/ or fix/.", "feat/"),
    ("Indent with 4 spaces.", "4 spaces"),
    ("Keep functions under 50 lines.", "50 lines"),
    ("Write commit messages in the imperative mood.", "imperative mood"),
    ("Sort imports alphabetically.", "alphabetically"),
    ("Use type hints on all public functions.", "type hints"),
    ("Use tabs in Makefiles.", "Makefiles"),
    ("Prefix your branches with `claude-`.", "claude-"),
    ("包管理器用 yarn", "yarn"),
    ("所有接口都要写单元测试", "单元测试"),
    ("分支名以 feat/ 开头", "feat/"),
    ("变量命名采用小驼峰", "小驼峰"),
    ("提交信息要简短", "简短"),
])
def test_a_generic_imperative_is_kept_for_the_project(text: str, word: str) -> None:
    ops = _ops(text)
    assert len(ops) == 1, ops
    assert word in str(ops[0]["content"])
    assert (ops[0]["level"], ops[0]["type"]) == ("project", "project_knowledge")


def test_the_reader_says_why_it_kept_a_rule_with_no_cue() -> None:
    trace = RulesTrace()
    extract_rules([Message("user", "Keep functions under 50 lines.")], [], today=TODAY,
                  trace=trace)
    assert [f.why for f in trace.kept] == ["an imperative about a kind of thing (no cue word)"]


def test_how_the_answers_look_goes_to_the_person() -> None:
    ops = _ops("Use bullet points.")
    assert [(op["level"], op["type"]) for op in ops] == [("user", "user_preference")]


@pytest.mark.parametrize("text", [
    "Use the debugger to find why this fails",
    "fix the login bug",
    "rename this function to load_config",
    "put it in utils.py",
    "run the tests",
    "use a dict here",
    "Indent the block above with 4 spaces",
    "Use camelCase for the variables in the file I sent",
    "Prefix the branch with feat/ before you push it",
    "Keep the function under 50 lines for now",
    "Write docstrings for the new classes you just added",
    "Write tests with pytest for the parser",
    "Use tabs in the Makefile you generated",
    "Did you use camelCase for variables?",
    "What if we prefix branches with feat/?",
    "I used 4 spaces for indentation yesterday",
    "帮我跑一下测试",
    "这里用 4 个空格缩进",
    "用 yarn 装一下依赖吧",
    "把刚才那个文件放到 utils 目录下",
    "变量名用驼峰吗？",
    "日期格式改成 YYYY-MM-DD 吧",
    "提交信息要写得清楚一点，这次太乱了",
])
def test_a_one_off_request_of_the_same_shape_gives_nothing(text: str) -> None:
    assert _ops(text) == []


def test_the_steps_of_a_task_described_at_length_are_not_rules() -> None:
    task = ("I have the platform open in Chrome. Use app tools to open the analytics tabs. "
            "I can paste screenshots. We need a demo of eight minutes.")
    assert _ops(task) == []
    # a rule's line among four sentences of prose is a step of the task too; alone it is kept
    steps = ("The release is tomorrow. Prefix branches with feat/. Then open a PR. "
             "Ping me when CI is green.")
    assert _ops(steps) == []
    assert len(_ops("Prefix branches with feat/.")) == 1


def test_the_lines_of_a_pasted_rules_list_are_read_one_by_one() -> None:
    pasted = ("- Prefix branches with feat/.\n- Indent with 4 spaces.\n"
              "- Keep functions under 50 lines.\n- Sort imports alphabetically.\n"
              "- Wrap lines at 100 characters.")
    contents = [str(op["content"]) for op in _ops(pasted)]
    assert len(contents) == 5, contents
    assert any("feat/" in c for c in contents) and any("100 characters" in c for c in contents)
