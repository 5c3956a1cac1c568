"""No duplicates: a statement that nearly repeats a stored note updates it (the default for
extract), is refused with the note named (--on-conflict fail) or kept (rename); a
contradiction replaces the old statement."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from memcli.extraction.concepts import concept_keys
from memcli.extraction.dedupe import merge_near_duplicates
from memcli.extraction.similarity import find_near


@dataclass(frozen=True)
class Stored:
    level: str
    type: str
    title: str
    summary: str
    filename: str


def stored(title: str, summary: str = "", level: str = "project") -> Stored:
    return Stored(level, "project_knowledge", title, summary or title + ".",
                  "project_knowledge_x.md")


@pytest.mark.parametrize(("new", "old", "why"), [
    ("build workflows", "Build workflow", "the same title words"),  # case and plural
    ("Never commit to main!!", "never commit to main.", "the same title words"),  # punctuation
    ("Never commit to main directly", "Never commit directly to main", "the same title words"),
    ("Feature\u200b flags\u00a0default to off", "Feature flags default to off",
     "the same title words"),  # zero-width space and no-break space
    ("ＵＴＣ timestamps", "UTC timestamps", "the same title words"),  # full-width letters
    ("Re-run flaky tests twice", "Rerun flaky tests twice", "the same title words"),
    ("Always squash fixup commits before review", "Squash fixup commits before review",
     "the same title words"),  # one word more among four
    ("测试命令", "Test command", "the same topic (test command)"),  # English and Chinese
    ("Answer language", "回答语言", "the same topic (answer language)"),
    ("Use npm instead of pnpm", "Use pnpm", "the same choice (Package manager)"),
    ("用 httpx 而不是 requests", "Use requests", "the same choice (HTTP client)"),
    ("Use uv", "Package manager", "the same choice (Package manager)"),
])
def test_near_duplicate_shapes(new: str, old: str, why: str) -> None:
    near = find_near("project", new, "", [stored(old)])
    assert near is not None and near.why == why
    assert near.title == old


@pytest.mark.parametrize(("new", "old"), [
    ("Use pytest", "Use ruff"),  # different kinds of tool
    ("Deploy on Fridays", "Deploy key"),
    ("Use uv", "pip install needs --user"),  # names a tool but chooses none
    ("Test command", "Build command"),
    ("Node.js version", "Python version"),
    ("Fixtures go in tests/data", "Migrations are generated with alembic"),
])
def test_different_topics_stay_apart(new: str, old: str) -> None:
    assert find_near("project", new, "", [stored(old)]) is None


def test_other_level_is_not_a_duplicate() -> None:
    assert find_near("user", "Build workflow", "", [stored("Build workflow")]) is None


def test_same_statement_under_another_title() -> None:
    old = stored("Timestamps", "All timestamps in the db are UTC.")
    near = find_near("project", "Database times", "all timestamps in the DB are utc", [old])
    assert near is not None and near.why == "the same statement"


def _create(title: str, content: str = "Body text here.") -> dict[str, Any]:
    return {"action": "create", "level": "project", "type": "project_knowledge",
            "title": title, "content": content, "reason": "user said: 'x'"}


def test_update_policy_turns_the_create_into_an_update_of_the_note() -> None:
    old = Stored("project", "correction_feedback", "Use pnpm", "Use pnpm.",
                 "correction_feedback_use-pnpm.md")
    out = merge_near_duplicates([_create("Use npm instead of pnpm", "Use npm instead of pnpm.")],
                                [old], "update")
    assert out.refused == []
    [op] = out.operations
    assert op["action"] == "update" and op["filename"] == "correction_feedback_use-pnpm.md"
    assert op["content"] == "Use npm instead of pnpm." and op["title"] == "Use pnpm"
    assert "the same choice" in str(op["reason"])
    assert [m.outcome for m in out.merged] == ["updated"]


def test_fail_policy_refuses_and_names_the_candidate() -> None:
    out = merge_near_duplicates([_create("build workflows")], [stored("Build workflow")], "fail")
    assert out.operations == []
    [(index, why)] = out.refused
    assert index == 0 and "project/project_knowledge_x.md" in why and "'Build workflow'" in why


def test_rename_policy_keeps_both() -> None:
    out = merge_near_duplicates([_create("build workflows")], [stored("Build workflow")], "rename")
    assert [op["action"] for op in out.operations] == ["create"]
    assert [m.outcome for m in out.merged] == ["kept"]


def test_a_repeat_within_one_turn_replaces_the_earlier_create_in_its_place() -> None:
    ops = [_create("Build workflow", "First."), _create("Other topic entirely"),
           _create("build workflows", "Second.")]
    out = merge_near_duplicates(ops, [], "update")
    assert [op["content"] for op in out.operations] == ["Second.", "Body text here."]


# --------------------------------------------------------------------------- end to end


def _turn(text: str) -> str:
    return json.dumps({"role": "user", "content": text}, ensure_ascii=False) + "\n"


def _extract(cli: Any, text: str, *flags: str) -> Any:
    return cli("extract", "--provider", "rules", "--apply", *flags, input=_turn(text))


def test_saying_it_again_differently_updates_the_one_note(cli: Any, memenv: Any) -> None:
    for text in ("never force push to shared branches", "Never force-push to shared branch!",
                 "never force push to shared branches."):
        assert _extract(cli, text).exit_code == 0
    assert len(memenv.notes("project")) == 1


def test_a_contradiction_replaces_the_old_statement(cli: Any, memenv: Any) -> None:
    assert _extract(cli, "always use pnpm").exit_code == 0
    assert _extract(cli, "use npm instead of pnpm").exit_code == 0
    [name] = memenv.notes("project")
    body = (memenv.project / name).read_text("utf-8")
    assert "npm instead of pnpm" in body and "Always use pnpm" not in body


def test_english_and_chinese_topic_titles_are_one_note(cli: Any, memenv: Any) -> None:
    assert _extract(cli, "the test command is make test").exit_code == 0
    assert _extract(cli, "测试命令是 make check").exit_code == 0
    [name] = memenv.notes("project")
    assert "make check" in (memenv.project / name).read_text("utf-8")


def test_on_conflict_fail_reports_the_candidate_and_writes_nothing(cli: Any, memenv: Any) -> None:
    assert _extract(cli, "remember that feature flags default to off").exit_code == 0
    before = memenv.stores_snapshot()
    # Not the same title once the invisible character is gone (that one is an update of the
    # note by title): a plural and a case apart, which only the near-duplicate check sees.
    result = _extract(cli, "remember that Feature\u200b flag defaults to OFF!", "--on-conflict",
                      "fail", "--json")
    assert result.exit_code == 1
    rejected = json.loads(result.stdout)["rejected"]
    assert "nearly repeats project/" in rejected[0]["reason"]
    assert memenv.stores_snapshot() == before


# --------------------------------------------------------------------------- two languages
# One rule said in English and again in Chinese is one note; two rules that differ in one
# concept (commit or push, before or after, which folder) stay two notes.


@pytest.mark.parametrize(("english", "chinese"), [
    ("Never commit directly to main", "永远不要直接提交到 main"),
    ("Never force-push to shared branches", "永远不要强推共享分支"),
    ("Always run the tests before committing", "提交前一定要先跑测试"),
    ("Don't edit generated files by hand", "生成的文件不要手动改"),
    ("Never commit secrets", "永远不要提交密钥"),
    ("Don't use killall", "永远不要用 killall"),
    # the kind of thing, "用" or "直接" left unsaid on one side; the rest agrees
    ("Never push directly to main unless I explicitly tell you to",
     "永远不要直接 push 到 main 分支，除非我明确指示"),
    ("Never commit .env files", "别把 .env 提交到仓库"),
    ("Always write commit messages in Chinese", "提交信息一律用中文写"),
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
    ("永远不要跳过 CI 检查", "Never skip pre-commit hooks"),
    ("永远不要删除 .env.example 文件", "Never commit .env files"),
    ("代码注释一律用英文", "Always write commit messages in Chinese"),
    ("永远不要用 killall", "Don't use pkill"),  # only the shared words left would be "not"
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


def test_saying_a_rule_again_in_chinese_updates_the_english_note(cli: Any, memenv: Any) -> None:
    assert _extract(cli, "never commit directly to main").exit_code == 0
    assert _extract(cli, "永远不要直接提交到 main").exit_code == 0
    [name] = memenv.notes("project")
    assert "永远不要直接提交到 main" in (memenv.project / name).read_text("utf-8")


def test_a_near_but_different_rule_in_chinese_is_a_second_note(cli: Any, memenv: Any) -> None:
    assert _extract(cli, "never commit directly to main").exit_code == 0
    assert _extract(cli, "永远不要直接推送到 main").exit_code == 0
    assert len(memenv.notes("project")) == 2
