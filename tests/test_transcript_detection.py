"""Which format every transcript fixture is detected as, file by file.

A new reader must not take records another format wrote: this table was written when each
fixture was added, and a reader that starts claiming another format's records (or stops
recognising its own) changes a row. Every fixture file is in it, so a new one needs a row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memcli.transcripts import read_transcript
from memcli.transcripts.source import decode_transcript

HERE = Path(__file__).parent / "fixtures" / "transcripts"
NOT_TRANSCRIPTS = {"README.md", "SOURCES.md"}

DETECTED: dict[str, dict[str, int]] = {
    "claude-code/cclog-async-agents.jsonl": {"claude-code": 7},
    "claude-code/cclog-dag-compact-after-rewind.jsonl": {"claude-code": 12},
    "claude-code/cclog-dag-fork.jsonl": {"claude-code": 11},
    "claude-code/cclog-minimal-showcase.jsonl": {"claude-code": 11},
    "claude-code/cclog-real-deep-manifest-2.0.55.jsonl": {"claude-code": 316},
    "claude-code/cclog-sidechain-integrated.jsonl": {"claude-code": 6},
    "claude-code/cclog-teammates.jsonl": {"claude-code": 22},
    "claude-code/simonw-sample-session-loglines.json": {"claude-code": 1},
    "cline/cline-api_conversation_history-probe.json": {"cline": 1},
    "codex/cclog-codex-rollout-synthetic.jsonl": {"codex": 14},
    "codex/codemie-rollout-2026-05-11T13-28-45.jsonl": {"codex": 99},
    "codex/vct-codex.jsonl": {"codex": 110},
    "copilot-cli/copilot-cli-agent-sessions-small.jsonl": {"copilot-cli": 32},
    "cursor-agent/cursor-agent-transcript-agent-sessions-small.jsonl": {"cursor-agent": 5},
    "extra/aider-chat-history.md": {"aider": 14},
    "extra/anthropic-messages-request.json": {"anthropic": 1},
    "extra/claude-agent-sdk-stream.jsonl": {"claude-stream-json": 9},
    "extra/claude-code-export.txt": {"claude-export": 17},
    "extra/claude-code-injected.jsonl": {"claude-code": 12},
    "extra/claude-code-queued-prompts.jsonl": {"claude-code": 21},
    # issue 29
    "extra/cline-mcp-result-first.json": {"cline": 1},
    "extra/cline-task-injected.json": {"cline": 1},
    "extra/cline-task-lines.jsonl": {"cline": 4},
    "extra/droid-session-no-ids.jsonl": {"pi": 5},
    "extra/iflow-session.jsonl": {"claude-code": 8},
    "extra/kimi-wire-1.4-replies.jsonl": {"kimi-wire": 18},
    "extra/kimi-wire-subagent.jsonl": {"kimi-wire": 5},
    "extra/pi-session-branched.jsonl": {"pi": 8},
    "extra/pi-session-v1.jsonl": {"pi": 8},
    "extra/specstory-history-cursor.md": {"specstory": 5},
    "extra/specstory-history.md": {"specstory": 8},
    "extra/qwenpaw-session.json": {"qwenpaw": 1},
    "extra/qwenpaw-session-state.json": {"qwenpaw": 1},
    "extra/claude-code-subagent.jsonl": {"claude-code": 4},
    "extra/claude-print-json.json": {"claude-stream-json": 1},
    "extra/claude-stream-json.jsonl": {"claude-stream-json": 6},
    "extra/cline-ui_messages.json": {"cline": 1},
    "extra/roo-ui_messages.json": {"cline": 1},
    "extra/antigravity-transcript.jsonl": {"antigravity": 11},
    "extra/codebuddy-session.jsonl": {"codebuddy": 12},
    "extra/codex-exec-json.jsonl": {"codex-exec": 7},
    "extra/codex-exec-legacy-json.jsonl": {"codex-exec": 9},
    "extra/codex-injected-context.jsonl": {"codex": 12},
    "extra/codex-inter-agent-rollout.jsonl": {"codex": 11},
    "extra/codex-legacy-rollout.jsonl": {"codex": 15},
    "extra/codex-subagent-rollout.jsonl": {"codex": 10},
    "extra/continue-session.json": {"continue": 1},
    "extra/copilot-chat-session.json": {"copilot-chat": 1},
    "extra/copilot-chat-session.jsonl": {"copilot-chat": 1},
    "extra/copilot-cli-share.md": {"copilot-share": 9},
    "extra/cursor-agent-user-query.jsonl": {"cursor-agent": 7},
    "extra/cursor-export-chat.md": {"cursor-export": 6},
    "extra/cursor-stream-json.jsonl": {"cursor-stream-json": 10},
    "extra/droid-stream-json.jsonl": {"droid-stream-json": 6},
    "extra/gemini-chat-share.md": {"gemini": 8},
    "extra/gemini-api-request.json": {"gemini": 1},
    "extra/gemini-api-response.json": {"gemini": 1},
    "extra/gemini-checkpoint-history.json": {"gemini": 1},
    "extra/gemini-checkpoint-legacy.json": {"gemini": 1},
    "extra/gemini-print-json.json": {"gemini-stream-json": 1},
    "extra/gemini-stream-json.jsonl": {"gemini-stream-json": 10},
    "extra/goose-session.jsonl": {"goose": 6},
    "extra/grok-chat-history.jsonl": {"grok": 11},
    "extra/kimi-wire-steer.jsonl": {"kimi-wire": 15},
    "extra/openai-chat-request.json": {"openai": 1},
    "extra/openai-chat-response.json": {"openai": 1},
    "extra/openai-responses-request.json": {"openai": 1},
    "extra/openai-responses-response.json": {"openai": 1},
    "extra/opencode-export.json": {"opencode": 1},
    "extra/opencode-run-json.jsonl": {"opencode-run": 9},
    "extra/openhands-trajectory.json": {"openhands": 1},
    "extra/sharegpt-rows.json": {"sharegpt": 1},
    "gemini/agentsessions-gemini-jsonl_v040.jsonl": {"gemini": 5},
    "gemini/codemie-logs.json": {"gemini": 1},
    "gemini/gemini-rewind-session_context-probe.jsonl": {"gemini": 13},
    "gemini/vct-gemini-cli-session-redacted.jsonl": {"gemini": 28},
    "kimi-wire/kimi-wire-codemie-sample.jsonl": {"kimi-wire": 18},
    "openai-chat/cookbook-01-testing-example.jsonl": {"openai": 11},
    "openai-chat/kimi-cli-context-subagent.head16.jsonl": {"openai": 16},
    "openai-chat/miniswe-local.traj.json": {"openai": 1},
    "pi/pi-agent-sessions-small.jsonl": {"pi": 9},
    "qwen-code/qwen-code-agent-sessions.jsonl": {"qwen-code": 6},
}


def fixture_files() -> set[str]:
    # an OpenCode session is a folder of files, read as a folder (tested beside its reader)
    return {p.relative_to(HERE).as_posix() for p in HERE.rglob("*")
            if p.is_file() and p.name not in NOT_TRANSCRIPTS and "opencode" not in p.parts}


def test_every_fixture_has_a_row() -> None:
    assert fixture_files() == set(DETECTED)


@pytest.mark.parametrize("name", sorted(DETECTED))
def test_fixture_is_detected_as_before(name: str) -> None:
    text = decode_transcript((HERE / name).read_bytes(), 1 << 26)
    assert read_transcript(text).formats == DETECTED[name]
