"""`memcli memory-tool`: Anthropic's memory tool calls (memory_20250818) against the stores.

Each call is what the model sends as the tool_use input; memcli prints the tool result.
memcli runs in process (``memenv.call``, the answer a subprocess gives); the exit status of
a real process is the last test's.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import MemEnv


def call(memenv: MemEnv, **tool_input: Any) -> tuple[int, str]:
    done = memenv.call("memory-tool", input=json.dumps(tool_input))
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, done.stdout


def test_a_session_of_tool_calls(memenv: MemEnv) -> None:
    status, text = call(memenv, command="create", path="/memories/project/test-command.md",
                        file_text="# Test command\n\nRun `make check` before committing.\n")
    assert status == 0, text
    assert "/memories/project/project_knowledge_test-command.md" in text
    assert memenv.notes("project") == ["project_knowledge_test-command.md"]
    assert "Test command" in memenv.index("project")

    status, listing = call(memenv, command="view", path="/memories")
    assert status == 0
    assert "/memories/project/project_knowledge_test-command.md" in listing
    assert "/memories/user/" in listing

    path = "/memories/project/project_knowledge_test-command.md"
    status, shown = call(memenv, command="view", path=path)
    assert status == 0 and "\tRun `make check` before committing." in shown
    assert shown.splitlines()[1].startswith("     1\t---")

    # The summary holds the same words: the body's line is the one match with its newline.
    assert call(memenv, command="str_replace", path=path, old_str="make check",
                new_str="make test")[0] == 1
    status, text = call(memenv, command="str_replace", path=path,
                        old_str="\nRun `make check`", new_str="\nRun `make test`")
    assert status == 0, text
    note = (memenv.project / "project_knowledge_test-command.md").read_text("utf-8")
    assert "Run `make test` before committing." in note

    lines = note.splitlines()
    status, text = call(memenv, command="insert", path=path, insert_line=len(lines),
                        insert_text="CI runs the same command.")
    assert status == 0, text
    assert (memenv.project / "project_knowledge_test-command.md").read_text(
        "utf-8").rstrip().endswith("CI runs the same command.")

    # A rename never crosses stores: a model would publish a user's note in the repository,
    # or take a project's note into one person's home (issue 25).
    before = memenv.stores_snapshot()
    status, text = call(memenv, command="rename", old_path=path,
                        new_path="/memories/user/user_preference_my-test-habit.md")
    assert status == 1 and "different stores" in text, text
    assert memenv.stores_snapshot() == before

    status, text = call(memenv, command="rename", old_path=path,
                        new_path="/memories/project/user_preference_my-test-habit.md")
    assert status == 0, text
    assert memenv.notes("project") == ["user_preference_my-test-habit.md"]
    moved = (memenv.project / "user_preference_my-test-habit.md").read_text("utf-8")
    assert "CI runs the same command." in moved and "title: My test habit" in moved

    # A model's delete is refused unless the person trusts the tool (issue 25, item 5).
    status, text = call(memenv, command="delete",
                        path="/memories/project/user_preference_my-test-habit.md")
    # It names what lifts the refusal here: the tool has no --allow-delete flag.
    assert status == 1 and "needs MEMCLI_TRUST_WRITES=memory-tool" in text, text
    assert memenv.notes("project") == ["user_preference_my-test-habit.md"]
    trusted = memenv.call("memory-tool", input=json.dumps(
        {"command": "delete", "path": "/memories/project/user_preference_my-test-habit.md"}),
        env={"MEMCLI_TRUST_WRITES": "memory-tool"})
    assert trusted.returncode == 0, trusted.stdout
    assert memenv.notes("project") == []
    logged = memenv.call("log", "--json")
    vias = {t["source"].get("via") for t in json.loads(logged.stdout)["transactions"]}
    assert vias == {"memory-tool"}, logged.stdout


@pytest.mark.parametrize(("tool_input", "message"), [
    ({"command": "view", "path": "/etc/passwd"}, "must start with /memories"),
    ({"command": "view", "path": "/memories/../secrets"}, "no '..'"),
    ({"command": "create", "path": "/memories/team/x.md", "file_text": "x"}, "project/ and user/"),
    ({"command": "create", "path": "/memories/project/a/b.md", "file_text": "x"}, "directly in"),
    ({"command": "view", "path": "/memories/project/missing.md"}, "does not exist"),
    ({"command": "delete", "path": "/memories/project"}, "that is a folder"),
    ({"command": "fly", "path": "/memories"}, "unknown command"),
])
def test_mistakes_come_back_as_errors_and_change_nothing(memenv: MemEnv,
                                                         tool_input: dict[str, Any],
                                                         message: str) -> None:
    before = memenv.stores_snapshot()
    status, text = call(memenv, **tool_input)
    assert status == 1 and text.startswith("Error: ") and message in text, text
    assert memenv.stores_snapshot() == before


def test_create_refuses_to_overwrite_and_str_replace_needs_one_match(memenv: MemEnv) -> None:
    path = "/memories/project/project_knowledge_deploys.md"
    assert call(memenv, command="create", path=path,
                file_text="Deploys go to staging, then staging is checked.\n")[0] == 0
    status, text = call(memenv, command="create", path=path, file_text="Other.\n")
    assert status == 1 and "already exists" in text
    status, text = call(memenv, command="str_replace", path=path, old_str="staging",
                        new_str="prod")
    # Twice in the body, twice more in the summary derived from it.
    assert status == 1 and "appears 4 times" in text
    assert "staging, then staging" in (memenv.project / "project_knowledge_deploys.md"
                                       ).read_text("utf-8")


def test_a_secret_written_through_the_tool_is_redacted(memenv: MemEnv) -> None:
    key = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8I9j0" * 4
    status, _ = call(memenv, command="create", path="/memories/user/api.md",
                     file_text=f"The API key is {key}\n")
    assert status == 0
    stored = "".join(p.read_text("utf-8") for p in memenv.user.glob("*.md"))
    assert key not in stored and "[REDACTED" in stored


def test_bad_json_is_a_one_line_usage_error(memenv: MemEnv) -> None:
    done = memenv.run("memory-tool", input="{nope")
    assert done.returncode == 2 and done.stderr.startswith("memcli: error: ")
