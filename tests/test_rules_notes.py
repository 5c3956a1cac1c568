"""`memcli extract --provider rules --apply` on small transcripts: the notes that come out
(title, type, level) and the junk that must not."""

from __future__ import annotations

import json

import frontmatter

from tests.conftest import MemEnv


def _turns(*messages: tuple[str, str]) -> str:
    return "".join(json.dumps({"role": role, "content": text}, ensure_ascii=False) + "\n"
                   for role, text in messages)


def _extract(memenv: MemEnv, *messages: tuple[str, str]) -> set[tuple[str, str, str]]:
    """(level, type, title) of every note the stores hold after the extraction."""
    result = memenv.invoke("extract", "--provider", "rules", "--apply", input=_turns(*messages))
    assert result.exit_code == 0, result.stderr
    return _notes(memenv)


def _notes(memenv: MemEnv) -> set[tuple[str, str, str]]:
    notes = set()
    for level in ("project", "user"):
        folder = memenv.store(level)
        for path in folder.glob("*.md") if folder.is_dir() else ():
            if path.name != "MEMORY.md":
                meta = frontmatter.loads(path.read_text("utf-8")).metadata
                notes.add((level, str(meta["type"]), str(meta["title"])))
    return notes


def test_two_asking_first_rules_of_one_transcript_are_two_notes(memenv: MemEnv) -> None:
    # Both are "ask first" rules of the assistant's behaviour; each names its own moment,
    # so the second must not overwrite the first.
    notes = _extract(memenv, ("user", "Always ask before deleting files."),
                     ("assistant", "Understood, I will ask before deleting anything."),
                     ("user", "Ask me before running migrations."))
    assert notes == {("user", "correction_feedback", "Asking before deleting files"),
                     ("user", "correction_feedback", "Asking before running migrations")}


def test_two_chinese_asking_first_rules_are_two_notes(memenv: MemEnv) -> None:
    notes = _extract(memenv, ("user", "删文件之前先问我"),
                     ("user", "没有我的许可，不许随意新建文件"))
    assert notes == {("user", "correction_feedback", "删文件前先问我"),
                     ("user", "correction_feedback", "新建文件前先问我")}


def test_asking_first_again_for_the_same_moment_updates_its_note(memenv: MemEnv) -> None:
    _extract(memenv, ("user", "Always ask before deleting files."))
    notes = _extract(memenv, ("user", "You should ask me before deleting files, every time."))
    assert notes == {("user", "correction_feedback", "Asking before deleting files")}


def test_two_style_settings_of_one_turn_both_survive(memenv: MemEnv) -> None:
    notes = _extract(memenv, ("user", "From now on answer in Chinese. Keep your answers short."))
    assert notes == {("user", "user_preference", "Answer language"),
                     ("user", "user_preference", "Answer length")}


def test_questions_tasks_and_the_assistants_words_give_no_note(memenv: MemEnv) -> None:
    notes = _extract(
        memenv,
        ("user", "Should we always use pnpm?"),
        ("assistant", "I'll remember that you prefer pnpm. Always use pnpm here."),
        ("user", "Fix the failing test in auth."),
        ("user", "If we moved to Bun, would the lockfile change?"),
        ("user", "帮我把 README 里的安装步骤更新一下"),
        ("user", "ugh, way too long"))
    assert notes == set()
    assert not memenv.project.is_dir() or not any(
        p.name != "MEMORY.md" for p in memenv.project.glob("*.md"))


def test_a_task_described_in_prose_keeps_none_of_its_steps(memenv: MemEnv) -> None:
    # Five sentences of prose: "Sort imports alphabetically" and "use camelCase for
    # variables" are steps of this task here, while the same lines pasted as list items
    # are rules.
    task = ("I need the settings page reworked. Split it into two tabs. "
            "Sort imports alphabetically. Use camelCase for variables. "
            "Then open a pull request.")
    assert _extract(memenv, ("user", task)) == set()
    notes = _extract(memenv, ("user", "- Sort imports alphabetically\n"
                                      "- Use camelCase for variables"))
    assert notes == {("project", "project_knowledge", "Sort imports alphabetically"),
                     ("project", "project_knowledge", "Use camelCase for variables")}


def test_a_pasted_rules_file_gives_one_note_per_line(memenv: MemEnv) -> None:
    # The shapes rules files are written in, with no cue word: "Label: value" lines, where a
    # kind of thing lives, prohibitions on a kind of thing, a standard to follow.
    rules = "\n".join([
        "## Commands", "- Test: `make test`", "- Package manager: pnpm",
        "## Conventions", "- Naming: snake_case for functions",
        "- Tests live in tests/, run them with make test",
        "- Do not edit generated protobuf files", "- Follow PEP 8",
        "- Commit messages follow Conventional Commits"])
    notes = _extract(memenv, ("user", rules))
    assert notes == {
        ("project", "project_knowledge", "Test command"),
        ("project", "project_knowledge", "Package manager"),
        ("project", "project_knowledge", "Naming: snake_case for functions"),
        ("project", "project_knowledge", "Tests live in tests/"),
        ("project", "project_knowledge", "Do not edit generated protobuf files"),
        ("project", "project_knowledge", "Follow PEP 8"),
        ("project", "project_knowledge", "Commit messages follow Conventional Commits")}


def test_chinese_rules_with_no_cue_word(memenv: MemEnv) -> None:
    notes = _extract(memenv, ("user", "- 禁止使用 any\n- 测试放在 tests 目录下\n"
                                      "- 包管理器：pnpm\n- 遵循 PEP 8 规范\n- 回复使用中文"))
    assert notes == {("project", "project_knowledge", "禁止使用 any"),
                     ("project", "project_knowledge", "测试放在 tests 目录下"),
                     ("project", "project_knowledge", "Package manager"),
                     ("project", "project_knowledge", "遵循 PEP 8 规范"),
                     ("user", "user_preference", "Answer language")}


def test_a_new_value_of_a_setting_updates_its_note(memenv: MemEnv) -> None:
    _extract(memenv, ("user", "Package manager: npm"))
    notes = _extract(memenv, ("user", "Package manager: pnpm"))
    assert notes == {("project", "project_knowledge", "Package manager")}
    [path] = [p for p in memenv.project.glob("*.md") if p.name != "MEMORY.md"]
    assert "pnpm" in path.read_text("utf-8")


def test_the_persons_own_machine_goes_to_the_user_store(memenv: MemEnv) -> None:
    notes = _extract(memenv, ("user", "I'm on Windows, so give me PowerShell commands."),
                     ("user", "I use Neovim."))
    assert notes == {("user", "user_preference", "Operating system"),
                     ("user", "user_preference", "Editor")}


def test_the_same_shapes_said_of_the_moment_give_no_note(memenv: MemEnv) -> None:
    notes = _extract(
        memenv,
        ("user", "Status: done"), ("user", "Problem: the build fails"),
        ("user", "Build: N/A (add when available)"), ("user", "The bug is in src/auth.py."),
        ("user", "Don't run the migrations yet."), ("user", "Follow the plan we discussed."),
        ("user", "For the login page, use a modal."), ("user", "Our database is down again."),
        ("user", "不要改这个文件"), ("user", "这个 bug 在 utils 目录里"),
        ("user", "用 map 重写一下"), ("user", "问题：构建失败了"), ("user", "必须今天修好"),
        ("user", "把组件放在 components 目录下"))
    assert notes == set()


def test_a_topics_label_gives_way_to_the_rule_after_it(memenv: MemEnv) -> None:
    notes = _extract(memenv, ("user", "- **Git**: never force-push to main\n"
                                      "- **禁止 emoji**: 代码中不使用 emoji\n"
                                      "- No magic numbers\n"
                                      "- When fixing a bug, add a regression test"))
    assert notes == {("project", "project_knowledge", "Never force-push to main"),
                     ("project", "project_knowledge", "代码中不使用 emoji"),
                     ("project", "project_knowledge", "No magic numbers"),
                     ("project", "project_knowledge", "When fixing a bug, add a regression test")}


def test_talk_shaped_like_those_rules_gives_no_note(memenv: MemEnv) -> None:
    notes = _extract(memenv, ("user", "No worries."), ("user", "No errors on CI."),
                     ("user", "Example: always use pnpm"), ("user", "When you're done, push."),
                     ("user", "代码要改一下"), ("user", "回答一下这个问题"),
                     ("user", "The test command is:\n```\nmake test\n```"))
    # only the last: a command given after "is:", kept as before
    assert notes == {("project", "project_knowledge", "Test command")}


def test_imperatives_after_a_question_are_steps_of_the_request(memenv: MemEnv) -> None:
    notes = _extract(memenv, ("user", "can you check if issue #11903 is fixed? use subagents "
                                      "to investigate"),
                     ("user", "Could you clean up the imports? Sort imports alphabetically."))
    assert notes == set()
    # a cue word still counts after a question
    notes = _extract(memenv, ("user", "Can you fix the login page? Also, never commit directly "
                                      "to main."))
    assert notes == {("project", "project_knowledge", "Never commit directly to main")}
