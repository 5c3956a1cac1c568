"""What a newcomer meets: safe flags, one-line usage errors, names, defaults, help, layout."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memcli.cli import register
from memcli.cli._app import PLACES, command_order

OP = {"action": "create", "level": "project", "type": "project_knowledge",
      "title": "Lint first", "content": "Run ruff before every commit."}
TURN = json.dumps({"role": "user", "content": "Remember that the test command is make test."})

# --------------------------------------------------------------------------- contradictory flags


@pytest.mark.parametrize("flags", [["--apply", "--dry-run"], ["-n", "--apply"],
                                   ["--apply", "--show-prompt"]])
def test_contradictory_extract_flags_are_a_usage_error_and_write_nothing(
        memenv: Any, flags: list[str]) -> None:
    done = memenv.call("extract", *flags, input=TURN + "\n")
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "contradict" in done.stderr
    assert not memenv.project.exists()


def test_show_note_with_paths_contradicts(memenv: Any) -> None:
    result = memenv.invoke("show", "anything", "--paths")
    assert result.exit_code == 2 and "NOTE and --paths contradict" in result.stderr


# --------------------------------------------------------------------------- apply reads replies


@pytest.mark.parametrize("reply", [
    "```json\n" + json.dumps([OP]) + "\n```\n",
    "Here are the operations you asked for:\n" + json.dumps({"operations": [OP]}) + "\nDone.",
    "<think>the person wants lint first</think>\n" + json.dumps([OP]),
    json.dumps(OP),
])
def test_apply_accepts_what_an_llm_answers(memenv: Any, reply: str) -> None:
    result = memenv.invoke("apply", "-", input=reply)
    assert result.exit_code == 0, result.stderr
    assert memenv.notes("project") == ["project_knowledge_lint-first.md"]


def test_apply_still_validates_every_operation_of_a_reply(memenv: Any) -> None:
    bad = dict(OP, level="team")
    result = memenv.invoke("apply", "-", input="Sure!\n```json\n" + json.dumps([OP, bad]) + "\n```")
    assert result.exit_code == 1
    assert "rejected #2" in result.stderr
    assert memenv.notes("project") == ["project_knowledge_lint-first.md"]


def test_apply_of_prose_without_operations_is_one_line_exit_2(memenv: Any) -> None:
    done = memenv.call("apply", "-", input="I could not find anything worth remembering.")
    assert done.returncode == 2
    assert done.stderr.startswith("memcli: error: the operations document is not JSON")
    assert done.stderr.count("\n") == 1


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(("args", "expected"), [
    (["show", "--bogus"], "memcli: error: no such option --bogus (see memcli show --help)"),
    (["list"], "memcli: error: no command 'list'; did you mean `memcli show`? "
               "(see memcli --help)"),
    (["extract", "--level", "user"],
     "memcli: error: no such option --level (see memcli extract --help)"),
    (["rm"], "memcli: error: missing argument 'NOTE...' (see memcli rm --help)"),
    (["add", "--level", "team", "x"], "memcli: error: unknown level 'team'; use project or user"),
    (["show", "--level", "team"], "memcli: error: unknown level 'team'; use project, user or all"),
])
def test_usage_errors_are_one_line_and_exit_2(memenv: Any, args: list[str],
                                               expected: str) -> None:
    done = memenv.call(*args)
    assert done.returncode == 2
    assert done.stderr == expected + "\n"
    assert "Traceback" not in done.stderr and "Usage:" not in done.stderr


def test_global_options_work_after_the_subcommand(memenv: Any, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    done = memenv.call("show", "--paths", "--json", "--project-store", str(elsewhere))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["project"] == str(elsewhere)
    done = memenv.call("add", f"--project-store={elsewhere}", "Use uv, not pip.")
    assert done.returncode == 0, done.stderr
    assert (elsewhere / "project_knowledge_use-uv-not-pip.md").exists()
    # After `--` it is the memory's text, not an option.
    done = memenv.call("add", "--", "--project-store")
    assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------- add defaults


@pytest.mark.parametrize(("flags", "level", "note_type"), [
    (["--level", "user"], "user", "user_preference"),
    (["--type", "preference"], "user", "user_preference"),
    (["--type", "preference", "--level", "project"], "project", "user_preference"),
    (["--type", "feedback"], "project", "correction_feedback"),
    ([], "project", "project_knowledge"),
])
def test_add_level_and_type_agree_by_default(memenv: Any, flags: list[str], level: str,
                                             note_type: str) -> None:
    result = memenv.invoke("add", *flags, "Keep it brief.")
    assert result.exit_code == 0, result.stderr
    assert memenv.notes(level) == [f"{note_type}_keep-it-brief.md"]
    other = "project" if level == "user" else "user"
    assert memenv.notes(other) == []


def test_a_long_add_lints_clean(memenv: Any) -> None:
    text = ("Use the shared staging cluster for integration tests because the local docker "
            "compose setup diverged from production months ago and nobody maintains it, so "
            "its results mislead and caused two bad releases this quarter.")
    assert memenv.invoke("add", text).exit_code == 0
    lines = [line for line in memenv.index("project").splitlines() if line.startswith("- [")]
    assert len(lines) == 1 and len(lines[0]) <= 200
    lint = memenv.invoke("lint", "--json")
    assert lint.exit_code == 0, lint.stdout
    assert json.loads(lint.stdout)["findings"] == []


def test_the_add_help_example_gets_its_whole_sentence_as_title(memenv: Any) -> None:
    # `./... before` is not the end of a sentence: the title was once "Run go test ./".
    assert memenv.invoke("add", "Run go test ./... before tagging a release.").exit_code == 0
    assert "- [project_knowledge] Run go test ./... before tagging a release — Run go test "\
        "./... before tagging a release. (project_knowledge_run-go-test-before-tagging-a-"\
        "release.md)" in memenv.index("project")


@pytest.mark.parametrize(("content", "summary"), [
    ("Use uv. Then run the tests.", "Use uv."),
    ("See e.g. the wiki. It moved.", "See e.g. the wiki."),
    ("Done!  Next, deploy.", "Done!"),
    ("用 uv。然后跑测试。", "用 uv。"),
])
def test_a_summary_is_the_first_sentence(content: str, summary: str) -> None:
    from memcli.text import derive_summary

    assert derive_summary(content) == summary


def test_counts_of_one_are_singular(memenv: Any) -> None:
    turn = (Path(__file__).parents[1] / "examples" / "turn.jsonl").read_text("utf-8")
    done = memenv.invoke("extract", "--apply", input=turn)
    assert done.exit_code == 0, done.stderr
    assert ("memcli: transcript: 6 messages; skipped 1 record that is not a message"
            "\n") in done.stderr
    status = memenv.invoke("status").stdout
    assert "\nuser: 1 note; context shows 1 (1 line, " in status, status


# --------------------------------------------------------------------------- names


@pytest.fixture
def noted(memenv: Any) -> Any:
    assert memenv.invoke("add", "Use pnpm, not npm.").exit_code == 0
    assert memenv.invoke("add", "--level", "user", "Keep it brief.").exit_code == 0
    return memenv


@pytest.mark.parametrize("name", [
    "project/project_knowledge_use-pnpm-not-npm.md",
    ".memcli/memory/project_knowledge_use-pnpm-not-npm.md",
    "project_knowledge_use-pnpm-not-npm",
    "project_knowledge_use-pnpm-not-npm.md",
    "use-pnpm-not-npm",
    "Use pnpm, not npm",
    "use pnpm, not npm.",
])
def test_show_accepts_every_name_memcli_prints(noted: Any, name: str) -> None:
    result = noted.invoke("show", name, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["file"] == "project_knowledge_use-pnpm-not-npm.md"


def test_a_level_prefix_limits_the_search(noted: Any) -> None:
    assert noted.invoke("show", "user/keep-it-brief").exit_code == 0
    result = noted.invoke("show", "project/keep-it-brief")
    assert result.exit_code == 1 and "no note matches" in result.stderr


def test_rm_accepts_what_show_prints(noted: Any) -> None:
    result = noted.invoke("rm", "--yes", "user/user_preference_keep-it-brief.md")
    assert result.exit_code == 0, result.stderr
    assert noted.notes("user") == []


# --------------------------------------------------------------------------- lint --json


def test_lint_json_is_format_json(noted: Any) -> None:
    as_json = noted.invoke("lint", "--json")
    as_format = noted.invoke("lint", "--format", "json")
    assert as_json.exit_code == as_format.exit_code == 0
    assert json.loads(as_json.stdout) == json.loads(as_format.stdout)
    both = noted.invoke("lint", "--json", "--format", "github")
    assert both.exit_code == 2 and "contradict" in both.stderr


# --------------------------------------------------------------------------- help


def _help(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "memcli", *args, "--help"], capture_output=True,
                          text=True, env={**os.environ, "COLUMNS": "80"}, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


# Every command module imported: each registers its commands, and their places in the help.
register()
COMMANDS = command_order(PLACES)


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in ("hook", "import", "export")])
def test_every_command_help_has_an_example_and_named_choices(command: str) -> None:
    text = _help(command)
    assert "Example" in text
    assert "<str>" not in text and "<float>" not in text


def _command_tree() -> list[tuple[str, str]]:
    """Every command line memcli registers (memcli's own table) and its help's source."""
    import inspect

    from memcli.cli import register
    from memcli.cli._app import GROUPS, command_paths

    register()
    return [("memcli", ""), *((f"memcli {path}", inspect.getdoc(function) if function
                               else GROUPS[path].help) for path, function in command_paths())]


_EXAMPLE_HEAD = re.compile(r"^\s*Examples?(?: \([^)]*\))?:[ \t]*(.*)$")


def _examples(help_source: str) -> list[str]:
    """The example commands a help text gives: after "Example:", inline or one a line."""
    found: list[str] = []
    lines = iter(help_source.splitlines())
    for line in lines:
        head = _EXAMPLE_HEAD.match(line)
        if head is None:
            continue
        if head.group(1):
            found.extend(part.strip() for part in head.group(1).split(";  "))
            continue
        for follow in lines:
            if not follow.strip():
                break
            if follow.strip() != "\b":
                found.append(follow.strip())
    return found


COMMAND_TREE = _command_tree()


def _help_at_80_columns(name: str) -> str:
    """`NAME --help` as memcli prints it on an 80-column terminal."""
    from typer.testing import CliRunner

    from memcli.cli import app_for

    argv = [*name.split()[1:], "--help"]
    result = CliRunner().invoke(app_for(argv), argv, env={"COLUMNS": "80"}, prog_name="memcli")
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(("name", "source"), COMMAND_TREE, ids=[name for name, _ in COMMAND_TREE])
def test_help_examples_are_whole_lines_on_an_80_column_terminal(name: str, source: str) -> None:
    # Reflowed, `... > ~/.local/share/bash-` and `completion/...` land on two lines, and a
    # command copied from the help breaks.
    shown = {line.strip() for line in _help_at_80_columns(name).splitlines()}
    for example in _examples(source):
        assert example in shown, f"{name} --help breaks its example {example!r}"


def test_help_lists_the_commands_in_the_order_a_newcomer_meets_them() -> None:
    # Each command states its own place (section, rank) where it is defined.
    text = _help()
    listed = re.findall(r"^  ([a-z-]+)  ", text.split("Options:", 1)[0], flags=re.MULTILINE)
    assert listed == [
        "extract", "apply", "add", "show", "search", "recall", "context", "rm",
        "status", "log", "undo", "restore", "review", "lint", "verify", "consolidate",
        "transcript",
        "hooks", "mcp", "sync", "import", "export", "config", "trust",
    ]
    plumbing = ["index", "merge-index", "hook", "memory-tool", "completion"]
    assert "  " + ", ".join(plumbing) + "\n" in text
    assert listed + plumbing == COMMANDS
    taken = sorted(PLACES.values())
    assert len(set(taken)) == len(taken), "two commands claim one place in the help"


def test_memcli_alone_prints_the_help_as_it_is() -> None:
    # It was wrapped as `memcli: error: usage: …` with `(see memcli --help)` glued to the
    # last command's summary.
    done = subprocess.run([sys.executable, "-m", "memcli"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "80"}, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr == _help(), done.stderr


def test_top_level_help_does_not_cut_its_own_summaries() -> None:
    commands = _help().split("Everyday:", 1)[1]
    assert "..." not in commands and "…" not in commands


def test_extract_help_says_what_extract_prints(memenv: Any) -> None:
    # The help once promised a dry-run diff; what comes out is the operations document.
    text = " ".join(_help("extract").split())
    assert "prints the operations document for `memcli apply`" in text
    assert "--dry-run shows them as a diff" in text
    done = memenv.invoke("extract", input=TURN + "\n")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["operations"][0]["title"] == "Test command"


def test_extract_help_names_the_variables_really_read() -> None:
    text = " ".join(_help("extract").split())
    assert "MEMCLI_BASE_URL, then OPENAI_BASE_URL" in text
    assert "--include-tools Also tool calls" in text
    assert "--include-thinking Also the model's thinking" in text
    assert "rules, auto, openai, anthropic, ollama, claude-code, codex, gemini or copilot" in text


@pytest.mark.parametrize("name", [name for name, _ in COMMAND_TREE])
def test_help_fits_an_80_column_terminal(name: str) -> None:
    # A metavar listing every choice (`--provider [rules|auto|...]`) or a long example ran
    # past column 80: the terminal wrapped it in the middle of a word.
    wide = [line for line in _help_at_80_columns(name).splitlines() if len(line) > 80]
    assert wide == [], f"{name} --help is wider than 80 columns"


# --------------------------------------------------------------------------- show layout


def test_show_on_an_80_column_terminal_fits(noted: Any) -> None:
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, **noted.env, "COLUMNS": "80"}
    proc = subprocess.Popen([sys.executable, "-m", "memcli", "show"], stdout=slave,
                            stderr=subprocess.PIPE, env=env, cwd=noted.repo)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert proc.wait(timeout=30) == 0
    lines = re.sub(r"\x1b\[[0-9;]*m", "", out.decode()).replace("\r", "").splitlines()
    assert lines and all(len(line) <= 80 for line in lines), lines
    assert len(lines) == 6  # two stores: a heading and two lines a note
    assert any("Use pnpm, not npm" in line for line in lines)


# --------------------------------------------------------------------------- where you are


@pytest.fixture
def at_home(memenv: Any) -> Any:
    """memcli run from the home folder, with no project store given."""
    home = memenv.root / "home"

    def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
        return memenv.call(*args, input=input, env={"MEMCLI_PROJECT_STORE": ""}, cwd=home)

    return run


@pytest.mark.skipif(os.name != "posix", reason="the account database is POSIX's")
def test_an_empty_home_is_the_account_s_home_not_the_root(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Path.home() answers "/" for HOME="" (cron, some CI): the user store was /.memcli/memory.
    import pwd

    from memcli.cli._process_state import home_folder

    monkeypatch.setenv("HOME", "")
    assert home_folder() == Path(pwd.getpwuid(os.getuid()).pw_dir)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert home_folder() == tmp_path


def test_user_level_work_works_in_the_home_folder(memenv: Any, at_home: Any) -> None:
    done = at_home("add", "Keep answers short.")
    assert done.returncode == 2
    assert "no project here" in done.stderr and "--level user" in done.stderr
    done = at_home("add", "--level", "user", "Keep answers short.")  # the advice, followed
    assert done.returncode == 0, done.stderr
    assert memenv.notes("user") == ["user_preference_keep-answers-short.md"]
    shown = at_home("show", "--paths", "--json")
    assert shown.returncode == 0 and set(json.loads(shown.stdout)) == {"user"}
    context = at_home("context")
    assert context.returncode == 0 and "Keep answers short" in context.stdout
    assert "## User Memory" in context.stdout


def test_extract_in_the_home_folder_writes_user_notes_and_says_why_not_project(
        memenv: Any, at_home: Any) -> None:
    turn = json.dumps({"role": "user", "content": "Remember that I prefer tabs over spaces. "
                                                  "The test command is make check."})
    done = at_home("extract", "--apply", input=turn + "\n")
    assert done.returncode == 1  # the project note was rejected, with the reason
    assert "no project here" in done.stderr
    assert [n for n in memenv.notes("user") if n.startswith("user_preference_")]
    assert not (memenv.root / "home" / ".memcli" / "memory" / "project_knowledge_test-command.md"
                ).exists()


def test_extract_apply_outside_git_says_where_it_created_the_project_store(
        memenv: Any, tmp_path: Path) -> None:
    folder = tmp_path / "scratch"
    folder.mkdir()
    turn = json.dumps({"role": "user", "content": "The test command is make check."})
    done = memenv.call("extract", "--apply", input=turn + "\n",
                      env={"MEMCLI_PROJECT_STORE": ""}, cwd=folder)
    assert done.returncode == 0, done.stderr
    store = folder / ".memcli" / "memory"
    assert f"memcli: created the project store at {store}" in done.stderr
    done = memenv.call("extract", "--apply", input=turn.replace("check", "test") + "\n",
                      env={"MEMCLI_PROJECT_STORE": ""}, cwd=folder)
    assert "created the project store" not in done.stderr


# --------------------------------------------------------------------------- broken notes

BROKEN = "---\ntype: project_knowledge\ntitle: Broken note\nsummary: [oops\n---\nBody.\n"


def test_a_broken_note_is_named_by_lint_with_the_parser_reason(memenv: Any) -> None:
    memenv.write_note("project", "project_knowledge_broken-note.md", raw=BROKEN.encode())
    result = memenv.invoke("lint")
    assert result.exit_code == 1
    assert "M203" in result.stdout and "not valid YAML at line" in result.stdout
    assert "(did not find expected ',' or ']')" in result.stdout


def test_index_check_never_says_up_to_date_when_it_fails(memenv: Any) -> None:
    assert memenv.invoke("add", "Use pnpm, not npm.").exit_code == 0
    memenv.write_note("project", "project_knowledge_broken-note.md", raw=BROKEN.encode())
    done = memenv.call("index", "--check", "--level", "project")
    assert done.returncode == 1
    assert "up to date" not in done.stderr
    assert "cannot be checked while 1 note is broken" in done.stderr


def test_show_title_finds_a_broken_note_and_says_it_is_broken(memenv: Any) -> None:
    memenv.write_note("project", "project_knowledge_broken-note.md", raw=BROKEN.encode())
    result = memenv.invoke("show", "Broken note")
    assert result.exit_code == 0
    assert "not valid YAML" in result.stderr
    assert result.stdout == BROKEN


# --------------------------------------------------------------------------- nothing found


def test_rules_say_why_they_found_nothing(memenv: Any) -> None:
    turn = "\n".join(json.dumps({"role": role, "content": text}) for role, text in [
        ("user", "can you fix the failing test please"), ("assistant", "Done."),
        ("user", "thanks, now the linter")])
    done = memenv.call("extract", input=turn + "\n")
    assert done.returncode == 0
    assert ("memcli: nothing lasting found in 2 messages from the person (the offline "
            "extractor keeps preferences, rules and facts") in done.stderr
    assert done.stderr.count("\n") == 1
    as_json = json.loads(memenv.call("extract", "--json", input=turn + "\n").stdout)
    assert as_json["operations"] == []
    assert as_json["notice"].startswith("nothing lasting found in 2 messages")


def test_no_notice_when_something_was_found(memenv: Any) -> None:
    done = memenv.call("extract", input=TURN + "\n")
    assert "nothing lasting found" not in done.stderr


# --------------------------------------------------------------------------- a broken setting


@pytest.fixture
def typo(memenv: Any) -> Any:
    """A project whose committed config has one typo, and one note."""
    assert memenv.invoke("add", "Use pnpm, not npm.").exit_code == 0
    config = memenv.repo / ".memcli" / "config.toml"
    config.write_text('# memcli settings\n[extract]\nprovider = "openai"\n', "utf-8")
    assert memenv.invoke("trust").exit_code == 0  # an untrusted one's provider is ignored
    # The typo made after the trust (`memcli trust` refuses an unknown provider), with the
    # trust record moved along, as a person who edits ~/.memcli/trust.json by hand would.
    trust_file = Path(memenv.env["MEMCLI_HOME"]) / "trust.json"
    typo = '# memcli settings\n[extract]\nprovider = "openia"\n'
    config.write_text(typo, "utf-8")
    records = json.loads(trust_file.read_text("utf-8"))
    records = {k: hashlib.sha256(typo.encode()).hexdigest() for k in records}
    trust_file.write_text(json.dumps(records), "utf-8")
    return memenv


@pytest.mark.parametrize("command", [["show"], ["context"], ["lint"], ["index", "--check"]])
def test_a_typo_in_config_does_not_stop_commands_that_do_not_use_it(
        typo: Any, command: list[str]) -> None:
    done = typo.call(*command, env={"MEMCLI_PROJECT_STORE": ""})
    assert done.returncode == 0, done.stderr
    assert ("config.toml:3: unknown provider 'openia'; use rules, auto, openai, anthropic, "
            "ollama, claude-code, codex, gemini, copilot") in done.stderr
    assert "warning" in done.stderr


def test_extract_names_the_file_the_line_and_the_valid_values(typo: Any) -> None:
    done = typo.call("extract", input=TURN + "\n", env={"MEMCLI_PROJECT_STORE": ""})
    assert done.returncode == 2
    config = typo.repo / ".memcli" / "config.toml"
    assert done.stderr == (f"memcli: error: {config}:3: unknown provider 'openia'; "
                           "use rules, auto, openai, anthropic, ollama, claude-code, codex, "
                           "gemini, copilot\n")
    flag_wins = typo.call("extract", "--provider", "rules", input=TURN + "\n",
                          env={"MEMCLI_PROJECT_STORE": ""})
    assert flag_wins.returncode == 0, flag_wins.stderr


def test_config_shows_what_it_read_and_the_error(typo: Any) -> None:
    done = typo.call("config", "--json", env={"MEMCLI_PROJECT_STORE": ""})
    assert done.returncode == 2
    shown = json.loads(done.stdout)
    assert shown["provider"]["value"] == "openia"
    assert shown["provider"]["source"] == "project config"
    assert "unknown provider 'openia'" in shown["provider"]["error"]
    assert shown["project_store"]["value"].endswith(".memcli/memory")


def test_the_session_start_hook_still_injects_the_context(typo: Any) -> None:
    payload = {"session_id": "s1", "transcript_path": "", "cwd": str(typo.repo),
               "hook_event_name": "SessionStart", "source": "startup"}
    done = typo.run("hook", "claude-code", input=json.dumps(payload),
                    env={"MEMCLI_PROJECT_STORE": ""})
    assert done.returncode == 0
    added = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Use pnpm, not npm" in added


def test_an_environment_value_is_named_by_its_variable(memenv: Any) -> None:
    done = memenv.call("extract", input=TURN + "\n", env={"MEMCLI_TIMEOUT": "soon"})
    assert done.returncode == 2
    assert "timeout must be a number of seconds, not 'soon' (from environment MEMCLI_TIMEOUT)" \
        in done.stderr
    assert memenv.call("show", env={"MEMCLI_TIMEOUT": "soon"}).returncode == 0
