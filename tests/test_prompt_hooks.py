"""Prompt-time recall through the hooks: Claude Code's and Codex CLI's UserPromptSubmit, Gemini
CLI's BeforeAgent.

Run as the agents run them: `memcli hook AGENT` in a subprocess, the payload on stdin. The
notes they recall are added, the reference recall made and the hooks installed in process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import call_memcli

DEADLINE = 60


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "repo"
    (repo / ".memcli").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("MEMCLI_", "OPENAI_", "ANTHROPIC_"))}
    env = {**keep, "HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"),
           "MEMCLI_NOW": "2026-11-30T12:00:00Z", "NO_COLOR": "1"}
    for text, title in (("Run the unit tests with `make check`, never plain pytest.",
                         "Test command"),
                        ("Deploys go through `make deploy ENV=staging` first.", "Deploys")):
        done = call_memcli("add", text, "--title", title, env=env, cwd=repo)
        assert done.returncode == 0, done.stderr
    return repo, env


def memcli(args: list[str], env: dict[str, str], cwd: Path,
           payload: dict[str, Any] | None = None) -> subprocess.CompletedProcess[str]:
    data = json.dumps(payload) if payload is not None else None
    return subprocess.run([sys.executable, "-m", "memcli", *args], input=data, text=True,
                          capture_output=True, env=env, cwd=cwd, timeout=DEADLINE, check=False)


def prompt_payload(repo: Path, prompt: str) -> dict[str, Any]:
    return {"session_id": "s-1", "transcript_path": str(repo / "t.jsonl"), "cwd": str(repo),
            "permission_mode": "default", "hook_event_name": "UserPromptSubmit",
            "prompt": prompt}


def test_user_prompt_submit_adds_the_recalled_notes(
        project: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    repo, env = project
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    prompt = "how do I run the unit tests?"
    # Claude Code passes the project folder in the payload; the hook trusts it over its cwd.
    done = memcli(["hook", "claude-code"], env, elsewhere, prompt_payload(repo, prompt))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert set(output) == {"hookSpecificOutput"}
    specific = output["hookSpecificOutput"]
    assert set(specific) == {"hookEventName", "additionalContext"}
    assert specific["hookEventName"] == "UserPromptSubmit"
    recalled = call_memcli("recall", prompt, env=env, cwd=repo)
    assert specific["additionalContext"] == recalled.stdout
    assert "make check" in specific["additionalContext"]
    assert "make deploy" not in specific["additionalContext"]


def test_user_prompt_submit_with_nothing_relevant_prints_nothing(
        project: tuple[Path, dict[str, str]]) -> None:
    repo, env = project
    for prompt in ("write a haiku about the autumn sea", "", "   "):
        done = memcli(["hook", "claude-code"], env, repo, prompt_payload(repo, prompt))
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""


def test_gemini_before_agent_adds_the_recalled_notes(
        project: tuple[Path, dict[str, str]]) -> None:
    repo, env = project
    payload = {"session_id": "g-1", "transcript_path": "", "cwd": str(repo),
               "hook_event_name": "BeforeAgent", "timestamp": "2026-11-30T12:00:00Z",
               "prompt": "deploy to staging"}
    done = memcli(["hook", "gemini"], env, repo, payload)
    assert done.returncode == 0, done.stderr
    specific = json.loads(done.stdout)["hookSpecificOutput"]
    assert specific["hookEventName"] == "BeforeAgent"
    assert "make deploy ENV=staging" in specific["additionalContext"]
    payload["prompt"] = "translate this paragraph to French"
    quiet = memcli(["hook", "gemini"], env, repo, payload)
    assert quiet.returncode == 0 and json.loads(quiet.stdout) == {}


def codex_prompt_payload(repo: Path, prompt: str, **extra: Any) -> dict[str, Any]:
    """Every field Codex's UserPromptSubmit input schema requires, and no other."""
    return {"session_id": "019a-codex-session", "turn_id": "019a-turn-3",
            "transcript_path": None, "cwd": str(repo), "hook_event_name": "UserPromptSubmit",
            "model": "gpt-5-codex", "permission_mode": "default", "prompt": prompt, **extra}


def test_codex_user_prompt_submit_adds_the_recalled_notes(
        project: tuple[Path, dict[str, str]]) -> None:
    repo, env = project
    prompt = "how do I run the unit tests?"
    done = memcli(["hook", "codex"], env, repo, codex_prompt_payload(repo, prompt))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    # Codex checks the answer against its schema: hookSpecificOutput may hold only these two.
    assert output == {"hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit",
        "additionalContext": call_memcli("recall", prompt, env=env, cwd=repo).stdout}}
    assert "make check" in output["hookSpecificOutput"]["additionalContext"]


def test_codex_user_prompt_submit_with_nothing_relevant_or_from_a_subagent_prints_nothing(
        project: tuple[Path, dict[str, str]]) -> None:
    repo, env = project
    quiet = [codex_prompt_payload(repo, "write a haiku about the autumn sea"),
             codex_prompt_payload(repo, ""),
             codex_prompt_payload(repo, "how do I run the unit tests?", agent_id="019a-child",
                                  agent_type="explorer")]
    for payload in quiet:
        done = memcli(["hook", "codex"], env, repo, payload)
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""  # Codex reads empty stdout as "nothing to add"


def test_hooks_install_wires_the_prompt_events(project: tuple[Path, dict[str, str]]) -> None:
    repo, env = project
    assert call_memcli("hooks", "install", "--agent", "claude-code", env=env,
                       cwd=repo).returncode == 0
    settings = json.loads((repo / ".claude" / "settings.json").read_text("utf-8"))
    commands = [h["command"] for group in settings["hooks"]["UserPromptSubmit"]
                for h in group["hooks"]]
    assert commands == ["memcli hook claude-code --extractor auto"]
    assert call_memcli("hooks", "install", "--agent", "codex", env=env, cwd=repo).returncode == 0
    hooks = json.loads((repo / ".codex" / "hooks.json").read_text("utf-8"))["hooks"]
    assert [h["command"] for group in hooks["UserPromptSubmit"] for h in group["hooks"]] == [
        "memcli hook codex --extractor auto"]
