"""`memcli hooks install` and `memcli hooks status` on existing settings files.

Each agent's file starts with another tool's hooks and keys of its own; installing must
keep them byte for byte in meaning, add memcli once, and change nothing the second time.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import MemEnv
from fakeserver import FakeServer

OTHER_TOOL = "python3 ~/.local/bin/other-tool.py"

# What each agent's settings file held before, in that agent's own shape.
EXISTING: dict[str, tuple[str, dict[str, Any]]] = {
    "claude-code": (".claude/settings.json", {
        "permissions": {"allow": ["Bash(make check)"]},
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": OTHER_TOOL}]}],
                  "PreToolUse": [{"matcher": "Bash",
                                  "hooks": [{"type": "command", "command": OTHER_TOOL}]}]}}),
    "codex": (".codex/hooks.json", {
        "hooks": {"SessionStart": [{"matcher": "startup|resume",
                                    "hooks": [{"type": "command", "command": OTHER_TOOL,
                                               "timeout": 5}]}]}}),
    "gemini": (".gemini/settings.json", {
        "general": {"vimMode": True},
        "hooks": {"AfterAgent": [{"matcher": "*", "hooks": [
            {"name": "other", "type": "command", "command": OTHER_TOOL, "timeout": 5000}]}]}}),
    "copilot": (".github/hooks/memcli.json", {
        "version": 1,
        "hooks": {"agentStop": [{"type": "command", "bash": OTHER_TOOL, "timeoutSec": 10}]}}),
}

EVENTS = {
    "claude-code": ["SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"],
    "codex": ["SessionStart", "UserPromptSubmit", "Stop", "PreCompact"],
    "gemini": ["SessionStart", "BeforeAgent", "AfterAgent", "PreCompress"],
    "copilot": ["sessionStart", "agentStop", "preCompact"],
}


def commands(document: dict[str, Any], event: str) -> list[str]:
    found = []
    for entry in document["hooks"].get(event, []):
        if "bash" in entry:
            found.append(entry["bash"])
        for hook in entry.get("hooks", []):
            found.append(hook["command"])
    return found


@pytest.mark.parametrize("agent", list(EXISTING))
def test_install_merges_keeps_other_hooks_and_is_idempotent(memenv: MemEnv, agent: str) -> None:
    relative, before = EXISTING[agent]
    path = memenv.repo / relative
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(before, indent=4), "utf-8")

    preview = memenv.call("hooks", "install", "--agent", agent, "--dry-run")
    assert preview.returncode == 0, preview.stderr
    assert json.loads(path.read_text("utf-8")) == before  # a dry run writes nothing
    assert f"memcli hook {agent}" in preview.stdout and preview.stdout.count("\n+") >= 3
    # Which file: `+++ b/settings.json` alone did not say (.claude/ or .gemini/?).
    assert preview.stdout.startswith(f"--- a/{relative}\n+++ b/{relative}\n")

    done = memenv.call("hooks", "install", "--agent", agent)
    assert done.returncode == 0, done.stderr
    after = json.loads(path.read_text("utf-8"))
    for event in EVENTS[agent]:
        ours = [c for c in commands(after, event) if c.startswith("memcli hook")]
        assert len(ours) == 1, (event, after)
        assert ours[0].split()[:3] == ["memcli", "hook", agent]
        # Issue 27: a hook memcli adds extracts with what the person has (auto).
        assert ours[0].endswith(" --extractor auto"), ours
    # Everything that was there is still there, unchanged.
    for key, value in before.items():
        if key != "hooks":
            assert after[key] == value
    for event, entries in before["hooks"].items():
        assert after["hooks"][event][: len(entries)] == entries
    if agent == "gemini":
        hook = after["hooks"]["SessionStart"][0]["hooks"][0]
        assert hook["timeout"] == 30_000  # milliseconds

    text = path.read_text("utf-8")
    again = memenv.call("hooks", "install", "--agent", agent)
    assert again.returncode == 0 and "nothing changed" in again.stdout
    assert path.read_text("utf-8") == text
    assert "already there" in memenv.call("hooks", "install", "--agent", agent,
                                         "--dry-run").stdout


def test_install_at_user_scope_writes_under_home_and_codex_home(memenv: MemEnv,
                                                                tmp_path: Path) -> None:
    home = Path(memenv.env["HOME"])
    done = memenv.call("hooks", "install", "--agent", "claude-code", "--scope", "user")
    assert done.returncode == 0, done.stderr
    assert "memcli hook claude-code" in (home / ".claude" / "settings.json").read_text()
    codex_home = tmp_path / "codex-home"
    done = memenv.call("hooks", "install", "--agent", "codex", "--scope", "user",
                      env={"CODEX_HOME": str(codex_home)})
    assert done.returncode == 0, done.stderr
    assert "memcli hook codex" in (codex_home / "hooks.json").read_text()
    copilot = memenv.call("hooks", "install", "--agent", "copilot", "--scope", "user")
    assert copilot.returncode == 0
    written = json.loads((home / ".copilot" / "hooks" / "memcli.json").read_text())
    assert written["version"] == 1
    assert not (memenv.repo / ".claude").exists()


def test_a_hook_a_person_changed_counts_as_installed(memenv: MemEnv) -> None:
    path = memenv.repo / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    mine = {"type": "command", "command": "memcli --user-store ~/notes hook claude-code",
            "timeout": 10}
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [mine]}]}}), "utf-8")
    assert memenv.call("hooks", "install", "--agent", "claude-code").returncode == 0
    after = json.loads(path.read_text("utf-8"))
    assert after["hooks"]["Stop"] == [{"hooks": [mine]}]
    assert "SessionStart" in after["hooks"]


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"hooks": []}',
                                     '{"hooks": {"Stop": {"hooks": []}}}'],
                         ids=["not-json", "array", "hooks-not-object", "event-not-list"])
def test_a_settings_file_memcli_cannot_read_is_an_error_and_untouched(
        memenv: MemEnv, content: str) -> None:
    path = memenv.repo / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(content, "utf-8")
    done = memenv.call("hooks", "install", "--agent", "claude-code")
    assert done.returncode == 2
    assert done.stderr.startswith("memcli: error: ") and done.stderr.count("\n") == 1
    assert path.read_text("utf-8") == content
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]


def test_a_settings_file_that_is_a_symlink_is_refused(memenv: MemEnv, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    target.write_text("{}", "utf-8")
    link = memenv.repo / ".codex" / "hooks.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(target)
    done = memenv.call("hooks", "install", "--agent", "codex")
    assert done.returncode == 2 and "symbolic link" in done.stderr
    assert target.read_text("utf-8") == "{}"


def test_unknown_agent_or_scope_is_a_usage_error(memenv: MemEnv) -> None:
    assert memenv.call("hooks", "install", "--agent", "vim").returncode == 2
    assert memenv.call("hooks", "install", "--agent", "codex", "--scope", "team").returncode == 2


def test_status_shows_what_is_wired_where(memenv: MemEnv, tmp_path: Path) -> None:
    memenv.call("hooks", "install", "--agent", "gemini")
    path = memenv.repo / ".codex" / "hooks.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "memcli hook codex"}]}]}}), "utf-8")
    # No agent CLI on PATH, no key, and nothing answers at the configured local server.
    with FakeServer() as server:
        closed = server.url + "/v1"
    only_git = tmp_path / "bin-git-only"  # status reads .gitattributes with git
    only_git.mkdir()
    (only_git / "git").symlink_to(shutil.which("git") or "/usr/bin/git")
    env = {"PATH": str(only_git), "MEMCLI_BASE_URL": closed}
    done = memenv.call("hooks", "status", "--json", env=env)
    assert done.returncode == 0, done.stderr
    rows = {(r["agent"], r["scope"]): r for r in json.loads(done.stdout)["agents"]}
    gemini = rows[("gemini", "project")]
    assert gemini["wired"] == EVENTS["gemini"] and gemini["extractor"] == "auto"
    assert gemini["auto"]["provider"] == "rules"
    assert gemini["auto"]["reason"].startswith("`gemini` is not on PATH; no API key is set")
    assert rows[("codex", "project")]["wired"] == ["Stop"]
    assert rows[("codex", "project")]["missing"] == ["SessionStart", "UserPromptSubmit",
                                                     "PreCompact"]
    # A hook written without --extractor runs the settings' provider (rules): no auto.
    assert rows[("codex", "project")]["extractors"] == {"Stop": None}
    assert rows[("codex", "project")]["auto"] is None
    assert rows[("claude-code", "user")] == {
        "agent": "claude-code", "scope": "user", "exists": False, "wired": [],
        "missing": EVENTS["claude-code"], "extractor": None, "extractors": {}, "auto": None,
        "disabled": None,
        "path": str(Path(memenv.env["HOME"]) / ".claude" / "settings.json")}
    text = memenv.call("hooks", "status", env=env).stdout
    assert "gemini       project  wired: SessionStart, BeforeAgent, AfterAgent, PreCompress" \
           "; extractor: auto; auto now: rules (`gemini` is not on PATH;" in text
    assert "codex        project  wired: Stop; missing: SessionStart, UserPromptSubmit, " \
           "PreCompact; extractor: the settings’ provider  (" in text


def test_install_warns_when_the_agent_cannot_find_memcli(memenv: MemEnv, tmp_path: Path) -> None:
    # After the README's venv install without activating it, `memcli` is not on PATH and
    # every hook the agent runs would fail where nobody sees it.
    empty = tmp_path / "bin-without-memcli"
    empty.mkdir()
    missing = memenv.call("hooks", "install", "--agent", "codex", env={"PATH": str(empty)})
    assert missing.returncode == 0, missing.stderr
    assert "memcli: warning: memcli is not on PATH" in missing.stderr
    assert (memenv.repo / ".codex/hooks.json").exists()  # the warning does not stop the install

    found = tmp_path / "bin-with-memcli"
    found.mkdir()
    (found / "memcli").write_text("#!/bin/sh\n", "utf-8")
    (found / "memcli").chmod(0o755)
    again = memenv.call("hooks", "install", "--agent", "gemini", env={"PATH": str(found)})
    assert again.returncode == 0, again.stderr
    assert "not on PATH" not in again.stderr
