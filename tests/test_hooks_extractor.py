"""`hooks install --extractor`: the agent's own CLI as the hooks' extractor, end to end.

The agent CLI is a stand-in on PATH (tests/agentstandin.py); the hook runs as the agent
would run it: the command string from the settings file, through a shell.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from agentstandin import calls, environment, install
from conftest import MemEnv

DEADLINE = 60.0
TURN = "\n".join(json.dumps(line) for line in (
    {"type": "user", "sessionId": "s1", "message": {"role": "user", "content":
     "No, use uv instead of pip in this repo. The test command is `uv run pytest -q`."}},
    {"type": "assistant", "sessionId": "s1",
     "message": {"role": "assistant", "content": [{"type": "text", "text": "Understood."}]}},
)) + "\n"


def settings_file(memenv: MemEnv) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((memenv.repo / ".claude" / "settings.json").read_text())
    return data


def commands(memenv: MemEnv) -> dict[str, list[str]]:
    return {event: [hook["command"] for entry in entries for hook in entry["hooks"]]
            for event, entries in settings_file(memenv)["hooks"].items()}


def test_install_names_the_agent_s_own_cli_and_status_shows_it(memenv: MemEnv) -> None:
    done = memenv.invoke("hooks", "install", "--agent", "claude-code", "--extractor", "agent")
    assert done.exit_code == 0, done.stderr
    assert "(extractor: claude-code)" in done.stdout
    assert commands(memenv)["Stop"] == ["memcli hook claude-code --extractor claude-code"]
    assert set(commands(memenv)) == {"SessionStart", "UserPromptSubmit", "Stop",
                                     "PreCompact", "SessionEnd"}
    again = memenv.invoke("hooks", "install", "--agent", "claude-code", "--extractor", "agent")
    assert "already there, nothing changed" in again.stdout
    status = json.loads(memenv.invoke("hooks", "status", "--json").stdout)
    row = next(r for r in status["agents"]
               if r["agent"] == "claude-code" and r["scope"] == "project")
    assert row["extractor"] == "claude-code" and row["missing"] == []


def test_a_new_extractor_replaces_the_old_one_and_keeps_other_hooks(memenv: MemEnv) -> None:
    path = memenv.repo / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    mine = {"hooks": [{"type": "command", "command": "./lint.sh"}]}
    path.write_text(json.dumps({"hooks": {"Stop": [mine]}, "model": "opus"}))
    memenv.invoke("hooks", "install", "--agent", "claude-code", "--extractor", "agent")
    done = memenv.invoke("hooks", "install", "--agent", "claude-code", "--extractor", "auto")
    assert done.exit_code == 0, done.stderr
    assert "set the extractor of SessionStart" in done.stdout
    assert commands(memenv)["Stop"] == ["./lint.sh", "memcli hook claude-code --extractor auto"]
    assert settings_file(memenv)["model"] == "opus"
    bad = memenv.invoke("hooks", "install", "--agent", "claude-code", "--extractor", "gpt")
    assert bad.exit_code == 2 and "unknown extractor 'gpt'" in bad.stderr


def _wait_for(condition: Any, what: str, log: Path) -> None:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    text = log.read_text("utf-8") if log.exists() else "(no log)"
    raise AssertionError(f"{what} did not happen in {DEADLINE} s; hook log:\n{text}")


@pytest.mark.parametrize("mode", ["good", "hook"])
def test_a_stop_event_writes_notes_through_the_agent_s_cli(memenv: MemEnv, tmp_path: Path,
                                                           mode: str) -> None:
    """In "hook" mode the stand-in fires the installed Stop hook itself (as `claude -p`
    runs the person's hooks): no second job, no second call."""
    memenv.invoke("hooks", "install", "--agent", "claude-code", "--extractor", "agent")
    [stop] = commands(memenv)["Stop"]
    # The project has its store (an unattended run makes none outside a git work tree).
    (memenv.repo / ".memcli" / "memory").mkdir(parents=True)
    folder = tmp_path / "bin"
    install(folder, "claude-code")
    transcript = memenv.root / "session.jsonl"
    transcript.write_text(TURN, "utf-8")
    payload = {"session_id": "s1", "transcript_path": str(transcript), "cwd": str(memenv.repo),
               "hook_event_name": "Stop", "stop_hook_active": False}
    log = memenv.root / "calls.jsonl"
    # The agent's PATH: the stand-in, and memcli's own folder (the `memcli` of the hook).
    path = os.pathsep.join([str(folder), str(Path(sys.executable).parent),
                            os.environ.get("PATH", "")])
    env = {**os.environ, **memenv.env, **environment(folder, log, mode), "PATH": path,
           "STANDIN_HOOK": stop, "STANDIN_HOOK_PAYLOAD": json.dumps(payload)}
    for name in ("MEMCLI_PROJECT_STORE", "OPENAI_API_KEY", "ANTHROPIC_API_KEY",
                 "MEMCLI_API_KEY", "MEMCLI_PROVIDER"):
        env.pop(name, None)
    done = subprocess.run(stop, shell=True, input=json.dumps(payload).encode(), env=env,
                          cwd=memenv.repo, capture_output=True, timeout=DEADLINE, check=False)
    assert done.returncode == 0 and done.stdout == b"", done.stderr
    hook_log = Path(memenv.env["MEMCLI_HOME"]) / "logs" / "hook.log"
    notes = memenv.repo / ".memcli" / "memory"
    _wait_for(lambda: (notes / "project_knowledge_tests-run-with-uv.md").exists(),
              "the note", hook_log)
    _wait_for(lambda: "done (extract exited 0)" in hook_log.read_text("utf-8"),
              "the job's end", hook_log)
    made = calls(log)
    assert len(made) == 1, made
    argv = made[0]["argv"]
    assert isinstance(argv, list) and "haiku" in argv and made[0]["marker"] == "1"
    assert hook_log.read_text("utf-8").count("queued ") == 1
