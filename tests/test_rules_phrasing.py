"""Shapes of lasting statements found in public phrasing (CLAUDE.md rules, issue threads
quoting what people told their agents) that the rules extractor read as nothing before: a
repeated instruction ("I said use pnpm", 说了多少次了), a habit bound to a moment of the work,
a prohibition with its place or its alternative, a decision, a port or an address, the
words of a memory tool ("save this as a preference:"); and their one-off look-alikes."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import pytest

from memcli.extraction.rules import extract_rules
from memcli.messages import Message

TODAY = datetime.date(2026, 5, 12)


def ops(text: str) -> list[dict[str, Any]]:
    # The cue rules' reading (the learned detector beside them: test_learned_extractor.py).
    return extract_rules([Message("user", text)], [], today=TODAY, mode="rules")


def one(text: str) -> tuple[str, str, str]:
    [found] = ops(text)
    return found["level"], found["type"], found["title"]


def test_two_aspects_of_answers_are_two_topics() -> None:
    assert one("No, use bullet points.")[2] != one("From now on, bottom line first.")[2]


def test_a_habit_of_the_assistants_answers_follows_the_person() -> None:
    [found] = ops("播报结果的时候不要念路径和 ID")
    assert (found["level"], found["type"]) == ("user", "user_preference")


@pytest.mark.parametrize(("text", "title"), [
    ("I said use pnpm.", "Package manager"),
    ("I told you to use pytest", "Test runner"),
    ("不对，应该用 pnpm", "Package manager"),
    ("应该是 pnpm 而不是 npm", "Package manager"),
    ("我说过不要提交 lockfile", None),
])
def test_a_repeated_or_corrected_choice_is_a_correction(text: str, title: str | None) -> None:
    level, note_type, found = one(text)
    assert (level, note_type) == ("project", "correction_feedback")
    assert title is None or found == title


@pytest.mark.parametrize(("text", "title"), [
    ("说了多少次了，用中文回答", "Answer language"),
    ("No, use bullet points.", "Answer format"),
    ("回答的时候总是先给结论", "Answer order"),
    ("Always answer in neutral Spanish, no voseo.", "Answer language"),
    ("不要再叫我老大，叫我小李", "Form of address"),
])
def test_how_the_assistant_answers_follows_the_person(text: str, title: str) -> None:
    assert one(text) == ("user", "user_preference", title)


@pytest.mark.parametrize("text", [
    "I said it's fine",
    "no, the other one",
    "不对，再想想",
    "I told you about the build.",
])
def test_a_no_or_an_i_said_alone_keeps_nothing(text: str) -> None:
    assert ops(text) == []


@pytest.mark.parametrize("text", [
    "Run `pnpm run type-check` before committing.",
    "After every code change run pnpm lint and fix the errors.",
    "rebase on main before you open a PR",
    "每次任务完成后，到 AGENTS 文件夹下加一条工作记录",
    "播报结果的时候不要念路径和 ID",
])
def test_a_habit_bound_to_a_recurring_moment_is_kept(text: str) -> None:
    assert len(ops(text)) == 1


@pytest.mark.parametrize("text", [
    "run the tests before you push this",  # this change, now
    "write a test before you commit it",
    "Run the linter.",  # no moment: today's request
])
def test_a_habit_that_points_at_now_is_a_task(text: str) -> None:
    assert ops(text) == []


@pytest.mark.parametrize("text", [
    "Don't include PLAN.md in the git repo.",
    "Do not add co-authored-by lines to commits.",
    "不要在代码里加太多注释",
    "Do NOT test on localhost, use the HTTPS dev domain.",
    "严禁嵌套超过 3 层",
    "单个函数原则上不超过 50 行",
])
def test_a_prohibition_with_its_place_or_alternative_lasts(text: str) -> None:
    [found] = ops(text)
    assert (found["level"], found["type"]) == ("project", "project_knowledge")


@pytest.mark.parametrize("text", [
    "don't add that to the code",  # points at the screen
    "Don't add a test to the file.",  # not a place every change goes to
    "don't test it, use the staging box for now",
    "Do not write any code just yet.",
])
def test_a_prohibition_about_now_is_not_kept(text: str) -> None:
    assert ops(text) == []


def test_a_decision_is_a_fact_with_its_topic() -> None:
    [found] = ops("We decided to go with Postgres rather than SQLite, because the migration "
                  "needs concurrent writes.")
    assert (found["type"], found["title"]) == ("project_knowledge", "Database")
    assert "concurrent writes" in found["content"]


def test_two_ways_of_one_tool_are_not_a_tool_choice() -> None:
    [found] = ops("For repeatable installs use npm ci, not npm install.")
    assert found["title"] == "Use npm ci, not npm install"


@pytest.mark.parametrize(("text", "title"), [
    ("Locally the dashboard runs on port 3000.", "Dashboard port"),
    ("The dev server port is 5710 now, not 3000.", "Dev server port"),
    # a port number is not a version: "on port 5433" once made "Port version"
    ("btw the staging db is on port 5433", "Staging db port"),
    ("the staging server is staging.example.com", "Staging server address"),
    ("后端是 backend.example.cn", "后端地址"),
    ("Deploys are `railway up` from the repo root.", "Deployment"),
])
def test_where_a_part_listens_or_lives_is_a_fact_with_its_topic(text: str, title: str) -> None:
    assert one(text) == ("project", "project_knowledge", title)


@pytest.mark.parametrize("text", [
    "make it run on port 3000",
    "The build is slow, never fast",
    "it is at example.com",
])
def test_look_alike_facts_are_not_kept(text: str) -> None:
    assert ops(text) == []


def test_all_values_are_one_thing_never_another() -> None:
    [found] = ops("All money values are integer cents, never floats.")
    assert "never floats" in found["content"]


@pytest.mark.parametrize(("text", "expected"), [
    ("Save this as a preference: never put my name into code repos.",
     ("user", "user_preference")),
    ("add a global memory: don't save memories on your own, ask me first",
     ("user", "correction_feedback")),
    ("Add a rule: migrations are generated with alembic.", ("project", "project_knowledge")),
])
def test_the_words_of_a_memory_tool_are_a_cue(text: str, expected: tuple[str, str]) -> None:
    [found] = ops(text)
    assert (found["level"], found["type"]) == expected


@pytest.mark.parametrize("text", [
    "When you're not sure about my preferences, stop and ask, don't assume.",
    "If in doubt, ask me.",
    "没有我的许可，不许随意新建文件",
])
def test_asking_first_when_unsure_is_how_the_assistant_behaves(text: str) -> None:
    assert one(text)[:2] == ("user", "correction_feedback")


def test_if_is_still_a_hypothetical_otherwise() -> None:
    assert ops("If I told you never to push to main, would you listen?") == []


# --------------------------------------------------------------------------- rules files

@pytest.mark.parametrize("text", [
    "Files must have CRLF line endings.",
    "Commits must use Conventional Commits.",
    "Code must compile without warnings.",
    "处理 Bug 时必须找到根本原因",
    "UI 样式必须与现有内容保持一致",
    "Prefer file-scoped namespaces and single-line using directives.",
    "We don't use any mocking framework.",
    "For unit tests use xUnit and FluentAssertions.",
    "使用 uv run 来运行 python 程序或脚本",
    "默认用 DESeq2 做差异分析",
    "scripts/ is for one-off maintenance scripts",
    "chat-histories 文件夹用来存对话记录，别管它的内容",
    "Do not emit Arrange, Act or Assert comments in tests.",
    "Do not leave trailing whitespace when you add new code.",
    "在修改代码前，先了解上下文",
])
def test_a_line_of_a_rules_file_is_a_project_rule(text: str) -> None:
    [found] = ops(text)
    assert found["level"] == "project"


@pytest.mark.parametrize("text", [
    "The login page must be fixed today.",  # one thing, and its moment
    "This function must return a list.",
    "you must fix it",
    "你必须马上修好",
    "Prefer the second option.",
    "We don't use it anymore.",
    "For tests use this one.",
])
def test_a_modal_or_a_choice_about_one_thing_now_is_not_kept(text: str) -> None:
    assert ops(text) == []


@pytest.mark.parametrize(("text", "title"), [
    ("My editor is Sublime Text, and `subl -w` opens a file and waits.", "Editor"),
    ("My timezone is America/Chicago.", "Timezone"),
    ("我的时区是 UTC+8", "时区"),
])
def test_the_persons_own_setup_is_theirs(text: str, title: str) -> None:
    assert one(text) == ("user", "user_preference", title)


def test_we_dont_use_a_tool_does_not_take_the_tools_topic() -> None:
    [found] = ops("we don't use npm")
    assert found["title"] != "Package manager"


@pytest.mark.parametrize(("text", "expected"), [
    ("Add a preference to always load my API keys at session start.",
     ("user", "user_preference")),
    ("Write a permanent global rule: stop when I say stop.", ("user", "user_preference")),
    ("/remember the staging db is read-only", ("project", "project_knowledge")),
    ("/remember 我所有项目都用 TypeScript 严格模式", ("user", "user_preference")),
])
def test_more_words_of_memory_tools(text: str, expected: tuple[str, str]) -> None:
    [found] = ops(text)
    assert (found["level"], found["type"]) == expected


def test_add_a_note_to_a_file_is_a_task() -> None:
    assert ops("add a note to the README about the new flag") == []


@pytest.mark.parametrize("text", [
    "All responses must be in Chinese.",
    "Keep your answers short.",
    "尽量使用中文进行对话和交流。",
])
def test_what_all_answers_should_be_follows_the_person(text: str) -> None:
    [found] = ops(text)
    assert (found["level"], found["type"]) == ("user", "user_preference")


def test_asking_first_before_a_commit_is_still_how_the_assistant_behaves() -> None:
    [found] = ops("未明确要求前，不得修改代码、创建文件或执行命令")
    assert (found["level"], found["type"], found["title"]) == (
        "user", "correction_feedback", "修改代码、创建文件或执行命令前先问我")


# --------------------------------------------------------------------------- third round

@pytest.mark.parametrize("text", [
    "Tests should live in a /tests folder that mirrors the app structure.",
    "Lines are at most 120 characters.",
    "每行最多 120 字符",
    "规则文件不超过 12000 字符",
    "Use camelCase for variables and functions and PascalCase for components.",
    "Use async/await for asynchronous code.",
    "Python uses 4-space indentation and JS/TS uses 2 spaces.",
    "Python 用 snake_case，React 组件用 PascalCase",
    "Python 4 空格缩进，JS 和 TS 2 空格缩进",
    "注释用双语，中文为主",
    "测试文件统一放在 tests 目录",
    "提交信息遵循 Conventional Commits",
    "Don't hardcode secrets, use environment variables.",
    "不要硬编码密钥，用环境变量管理",
    "After updating any logic, check whether the existing tests need updating.",
])
def test_conventions_of_rules_files_third_round(text: str) -> None:
    [found] = ops(text)
    assert (found["level"], found["type"]) == ("project", "project_knowledge")


@pytest.mark.parametrize("text", [
    "Tests should be faster.",  # an opinion, not a rule
    "The tests should pass now.",
    "The file is under 100 lines.",  # one file
    "这个文件不超过 100 行",
    "Use a set for lookups.",
    "把这些统一改成 tabs",
    "不要急，用心做",
])
def test_look_alikes_of_conventions_third_round(text: str) -> None:
    assert ops(text) == []


@pytest.mark.parametrize(("text", "title"), [
    ("Ask specific questions when something is unclear.", "Asking when unsure"),
    ("不确定的时候主动问我", "Asking when unsure"),
    ("If in doubt, ask me.", "Asking when unsure"),
    ("Don't do anything beyond what I ask.", "Doing only what was asked"),
    ("Never modify files when I'm only asking a question.", "Doing only what was asked"),
])
def test_how_the_assistant_works_third_round(text: str, title: str) -> None:
    assert one(text) == ("user", "correction_feedback", title)


def test_asking_when_unsure_does_not_replace_asking_before_an_action() -> None:
    assert one("always ask before deleting files")[2] != one("If in doubt, ask me.")[2]


# --------------------------------------------------------------------- round 8: level words


@pytest.mark.parametrize("text", [
    "quit putting console.log everywhere",
    "stop hardcoding the bucket name everywhere, read it from settings",
    "use type hints everywhere",
    "don't put console.log anywhere",
    "avoid global state anywhere in the codebase",
])
def test_everywhere_said_of_the_code_stays_in_the_project(text: str) -> None:
    [found] = ops(text)
    assert found["level"] == "project"


@pytest.mark.parametrize("text", [
    "I prefer tabs in all my projects",
    "use tabs everywhere I code",
    "always use 2-space indentation, whatever the project",
    "no matter which repo, never force-push to main",  # the level words in another clause
    "always, in every project, run the formatter before committing",
])
def test_words_about_all_of_the_persons_projects_make_it_theirs(text: str) -> None:
    [found] = ops(text)
    assert (found["level"], found["type"]) == ("user", "user_preference")


@pytest.mark.parametrize("text", [
    "don't put console.log everywhere",
    "不要到处加 print",
])
def test_a_prohibition_everywhere_is_a_habit(text: str) -> None:
    [found] = ops(text)
    assert (found["level"], found["type"]) == ("project", "project_knowledge")


@pytest.mark.parametrize("text", ["don't go anywhere", "don't put it anywhere"])
def test_a_prohibition_everywhere_needs_what_not_to_do(text: str) -> None:
    assert ops(text) == []


# --------------------------------------------------------------------- round 8: said again

@pytest.mark.parametrize(("text", "title"), [
    ("I told you, we use uv", "Package manager"),
    ("like I said, we use uv", "Package manager"),
    ("as I said before, we use uv", "Package manager"),
    ("for the third time, we use pnpm", "Package manager"),
    ("how many times do I have to say it, we use pnpm", "Package manager"),
    ("How many times do I have to tell you? We use pnpm.", "Package manager"),
    ("we've been over this, use httpx not requests", "HTTP client"),
    ("we use pnpm, I already told you", "Package manager"),
    ("never push to main, like I said before", None),
    ("I keep telling you: don't mock the database", None),
    ("I've said it before and I'll say it again: never commit secrets", None),
    ("For the last time. Never push to main.", None),
    ("我都讲过好几遍了，用 yarn", "Package manager"),
    ("你要我说几遍，不要用 var", None),
    ("第三次了，别再用 moment.js", None),
    ("用 pnpm，我都说过了", "Package manager"),
])
def test_a_convention_said_again_weighs_as_a_correction(text: str, title: str | None) -> None:
    level, note_type, found = one(text)
    assert (level, note_type) == ("project", "correction_feedback")
    assert title is None or found == title


def test_a_convention_said_again_has_the_title_it_has_when_said_once() -> None:
    for again, once in [("like I said, never push to main", "never push to main"),
                        ("as I mentioned, the test command is make check",
                         "the test command is make check"),
                        ("我再说一遍：提交前先跑 lint", "提交前先跑 lint")]:
        assert one(again)[2] == one(once)[2]


def test_a_convention_said_again_updates_its_note() -> None:
    @dataclass(frozen=True)
    class Known:
        level: str
        type: str
        title: str
        summary: str
        filename: str

    known = [Known("project", "project_knowledge", "Package manager", "We use pnpm.",
                   "project_knowledge_package-manager.md")]
    [found] = extract_rules([Message("user", "like I said, we use pnpm")], known, today=TODAY)
    assert (found["action"], found["filename"]) == (
        "update", "project_knowledge_package-manager.md")


@pytest.mark.parametrize("text", [
    "like I said yesterday, the build was broken",  # news, said again
    "as I said, I'll be out on friday",
    "like I said, thanks for the help",
    "how many times do I have to restart this thing?",  # a question about now
    "how many times do I have to ask you to run the linter?",
    "我说过了，今天先不发版",
])
def test_saying_again_keeps_only_what_lasts(text: str) -> None:
    assert ops(text) == []
