"""`hooks install --extractor`: the agent's own CLI as the hooks' extractor, end to end.

The agent CLI is a stand-in on PATH (tests/agentstandin.py); the hook runs as the agent
would run it: the command string from the settings file, through a shell.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from agentstandin import calls, environment, install
from conftest import MemEnv
from fakeserver import FakeServer

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


def _stop_event(memenv: MemEnv, folders: list[Path], extra: dict[str, str]) -> Path:
    """Fire the installed Stop hook as Claude Code would, with FOLDERS (and memcli's own
    folder) as the agent's PATH; the hook log, once the job has ended."""
    [stop] = commands(memenv)["Stop"]
    # The project has its store (an unattended run makes none outside a git work tree).
    (memenv.repo / ".memcli" / "memory").mkdir(parents=True, exist_ok=True)
    transcript = memenv.root / "session.jsonl"
    transcript.write_text(TURN, "utf-8")
    payload = {"session_id": "s1", "transcript_path": str(transcript), "cwd": str(memenv.repo),
               "hook_event_name": "Stop", "stop_hook_active": False}
    path = os.pathsep.join([*map(str, folders), str(Path(sys.executable).parent)])
    env = {**os.environ, **memenv.env, **extra, "PATH": path,
           "STANDIN_HOOK": stop, "STANDIN_HOOK_PAYLOAD": json.dumps(payload)}
    for name in ("MEMCLI_PROJECT_STORE", "OPENAI_API_KEY", "ANTHROPIC_API_KEY",
                 "MEMCLI_API_KEY", "MEMCLI_PROVIDER"):
        env.pop(name, None)
    done = subprocess.run(stop, shell=True, input=json.dumps(payload).encode(), env=env,
                          cwd=memenv.repo, capture_output=True, timeout=DEADLINE, check=False)
    assert done.returncode == 0 and done.stdout == b"", done.stderr
    hook_log = Path(memenv.env["MEMCLI_HOME"]) / "logs" / "hook.log"
    _wait_for(lambda: hook_log.exists() and "done (extract exited" in hook_log.read_text(
        "utf-8"), "the job's end", hook_log)
    return hook_log


@pytest.mark.parametrize("mode", ["good", "hook"])
def test_a_stop_event_writes_notes_through_the_agent_s_cli(memenv: MemEnv, tmp_path: Path,
                                                           mode: str) -> None:
    """In "hook" mode the stand-in fires the installed Stop hook itself (as `claude -p`
    runs the person's hooks): no second job, no second call."""
    memenv.invoke("hooks", "install", "--agent", "claude-code", "--extractor", "agent")
    folder = tmp_path / "bin"
    install(folder, "claude-code")
    log = memenv.root / "calls.jsonl"
    hook_log = _stop_event(memenv, [folder], environment(folder, log, mode))
    notes = memenv.repo / ".memcli" / "memory"
    assert (notes / "project_knowledge_tests-run-with-uv.md").exists(), hook_log.read_text()
    assert "done (extract exited 0)" in hook_log.read_text("utf-8")
    made = calls(log)
    assert len(made) == 1, made
    argv = made[0]["argv"]
    assert isinstance(argv, list) and "haiku" in argv and made[0]["marker"] == "1"
    assert hook_log.read_text("utf-8").count("queued ") == 1


# --------------------------------------------------------------------------- auto by default


def _closed_url() -> str:
    with FakeServer() as server:
        return server.url + "/v1"  # closed when the block ends: no local server answers


def test_install_names_auto_by_default_and_keeps_a_person_s_choice(memenv: MemEnv) -> None:
    """Issue 27 item 2: auto is the default `hooks install` configures; an explicit choice
    replaces it, and a later install without --extractor leaves the choice alone."""
    done = memenv.invoke("hooks", "install", "--agent", "claude-code")
    assert done.exit_code == 0, done.stderr
    assert "(extractor: auto)" in done.stdout
    assert {tuple(c) for c in commands(memenv).values()} == {
        ("memcli hook claude-code --extractor auto",)}
    path = memenv.repo / ".claude" / "settings.json"
    text = path.read_text("utf-8")
    again = memenv.invoke("hooks", "install", "--agent", "claude-code")
    assert "nothing changed" in again.stdout and path.read_text("utf-8") == text

    chosen = memenv.invoke("hooks", "install", "--agent", "claude-code", "--extractor", "rules")
    assert chosen.exit_code == 0 and "set the extractor of SessionStart" in chosen.stdout
    assert commands(memenv)["Stop"] == ["memcli hook claude-code --extractor rules"]
    text = path.read_text("utf-8")
    kept = memenv.invoke("hooks", "install", "--agent", "claude-code")
    assert "nothing changed" in kept.stdout and path.read_text("utf-8") == text


def test_status_says_what_auto_chooses_now(memenv: MemEnv, tmp_path: Path) -> None:
    memenv.invoke("hooks", "install", "--agent", "claude-code")
    folder = tmp_path / "bin"
    install(folder, "claude-code")
    base = {"MEMCLI_BASE_URL": _closed_url(), "MEMCLI_PROVIDER": "rules"}
    with_cli = {**base, **environment(folder, memenv.root / "calls.jsonl")}
    without = {**base, "PATH": os.environ.get("PATH", "")}  # no `claude` on this machine's

    def row(env: dict[str, str]) -> dict[str, Any]:
        shown = memenv.invoke("hooks", "status", "--json", env=env)
        assert shown.exit_code == 0, shown.stderr
        return next(r for r in json.loads(shown.stdout)["agents"]
                    if r["agent"] == "claude-code" and r["scope"] == "project")

    found = row(with_cli)
    assert found["extractor"] == "auto" and found["auto"]["provider"] == "claude-code"
    assert "`claude` is on PATH" in found["auto"]["reason"]
    if shutil.which("claude", path=without["PATH"]) is None:
        missing = row(without)
        assert missing["auto"]["provider"] == "rules"
        assert missing["auto"]["reason"].startswith("`claude` is not on PATH;")
    keyed = row({**with_cli, "OPENAI_API_KEY": "sk-test"})
    assert keyed["auto"] == {"provider": "openai", "reason": "OPENAI_API_KEY is set"}
    text = memenv.invoke("hooks", "status", env=with_cli).stdout
    assert "extractor: auto; auto now: claude-code (the Claude Code hook runs it" in text
    # The other agents' hooks are not installed: nothing to resolve for them.
    assert [r["auto"] for r in json.loads(memenv.invoke(
        "hooks", "status", "--json", env=with_cli).stdout)["agents"]
        if r["agent"] != "claude-code"] == [None] * 6


def test_a_default_hook_without_the_agent_s_cli_falls_back_to_the_rules(
        memenv: MemEnv, tmp_path: Path) -> None:
    """auto finds no `claude`, no key and no local server: the rules write the notes, and
    the hook log says why in one line."""
    memenv.invoke("hooks", "install", "--agent", "claude-code")
    empty = tmp_path / "no-agent-cli"
    empty.mkdir()
    assert shutil.which("claude", path=f"{empty}{os.pathsep}{Path(sys.executable).parent}") \
        is None
    closed = _closed_url()
    hook_log = _stop_event(memenv, [empty], {"MEMCLI_BASE_URL": closed,
                                             "STANDIN_LOG": str(memenv.root / "calls.jsonl")})
    text = hook_log.read_text("utf-8")
    assert "done (extract exited 0)" in text, text
    said = [ln for ln in text.splitlines() if "provider auto chose" in ln]
    assert len(said) == 1, text
    assert said[0].endswith("memcli: provider auto chose rules: `claude` is not on PATH; no "
                            "API key is set and no local model server answers at "
                            f"{closed} (memcli's rules run offline)"), said
    notes = sorted(p.name for p in (memenv.repo / ".memcli" / "memory").glob("*_*.md"))
    assert notes == ["correction_feedback_package-manager.md",
                     "project_knowledge_test-command.md"], text
    assert not (memenv.root / "calls.jsonl").exists()
    assert text.count("Traceback") == 0

