"""Agents' own session files and exports that memcli once refused or read wrong: Codex
agents' messages to each other, Copilot CLI's --share Markdown, Claude Code's /export text,
OpenHands trajectories, Continue and Goose sessions.

The fixtures are written from each tool's documented shape (see
tests/fixtures/transcripts/extra/README.md). The person's words must reach the rules
extractor; what other agents, the tools and the harness wrote must not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_memcli
from transcript_cli import EXTRA, extract, isolate

from memcli.transcripts import read_transcript


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return isolate(tmp_path, monkeypatch)


def texts(name: str, role: str, **options: Any) -> list[str]:
    transcript = read_transcript((EXTRA / name).read_text("utf-8"), **options)
    return [m.text for m in transcript.messages if m.role == role]


@pytest.mark.parametrize("name, fact", [
    ("codex-inter-agent-rollout.jsonl",
     "Money is always stored in integer cents in this codebase."),
    ("copilot-cli-share.md",
     "Our CI runs on self-hosted runners only, never on GitHub-hosted ones."),
    ("claude-code-export.txt",
     "Invoices in this project are always generated in UTC, never in local time."),
    ("openhands-trajectory.json", "Always write database migrations with Alembic, never by hand."),
    ("continue-session.json", "Always use cursor pagination, never page numbers."),
    ("goose-session.jsonl", "We use Hugo for the docs site, not Jekyll."),
    ("opencode-export.json", "Dates in this app are always ISO 8601 strings, never timestamps."),
])
def test_statement_in_the_session_is_extracted(env: Path, name: str, fact: str) -> None:
    assert fact in [op["content"] for op in extract(EXTRA / name)["operations"]]


@pytest.mark.parametrize("name, fmt", [
    ("copilot-cli-share.md", "copilot-share"),
    ("claude-code-export.txt", "claude-export"),
])
def test_transcript_command_names_the_export(name: str, fmt: str) -> None:
    result = invoke_memcli("transcript", "--json", str(EXTRA / name))
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert list(document["formats"]) == [fmt]
    assert {m["format"] for m in document["messages"]} == {fmt}


# ------------------------------------------------------------------------------------ Codex


def test_codex_agents_message_is_neither_the_person_nor_the_reply() -> None:
    name = "codex-inter-agent-rollout.jsonl"
    assert not any("AGENT_MESSAGE" in t for t in texts(name, "assistant"))
    # both of its copies (the rollout line and the response item the model saw) are one
    shown = texts(name, "tool", include_injected=True)
    assert [t for t in shown if "AGENT_MESSAGE" in t] == [
        "AGENT_MESSAGE: round_total is called from cart.py, invoice.py and refund.py."]


def test_codex_assistant_message_that_only_looks_like_json_is_a_reply() -> None:
    item = {"timestamp": "t", "type": "response_item", "payload": {
        "type": "message", "role": "assistant",
        "content": [{"type": "output_text", "text": '{"status": "ok", "recipient": 3}'}]}}
    assert texts_of(json.dumps(item)) == [("assistant", '{"status": "ok", "recipient": 3}')]


def texts_of(text: str, **options: Any) -> list[tuple[str, str]]:
    return [(m.role, m.text) for m in read_transcript(text, **options).messages]


# ------------------------------------------------------------------------------ Copilot CLI


def test_copilot_share_keeps_what_is_inside_fences_and_replies_in_place() -> None:
    name = "copilot-cli-share.md"
    replies = texts(name, "assistant")
    assert replies[1].startswith("### Why it failed\n\nThe `test` job asks")  # a reply heading
    tools = texts(name, "tool", include_tools=True)
    assert tools[0].startswith("[bash] **Show the failing step of the last run**")
    # a heading and a rule inside the tool's output fence do not open an entry
    assert "### not an entry: a heading inside the file\n---\njobs:" in tools[1]
    assert not any("NOTICE_TEXT" in t for t in tools)
    notices = texts(name, "tool", include_injected=True)
    assert notices == ["Info: NOTICE_TEXT Model changed to: claude-sonnet-4.5"]


def test_copilot_share_last_turn() -> None:
    text = (EXTRA / "copilot-cli-share.md").read_text("utf-8")
    assert texts_of(text, last_turn=True) == [
        ("user", "Add the gpu label to runner-3 then."),
        ("assistant", "Done: runner-3 now has the `gpu` label.")]


# ------------------------------------------------------------------------------ Claude Code


def test_claude_export_joins_what_the_terminal_wrapped() -> None:
    typed = texts("claude-code-export.txt", "user")
    assert typed[0] == ("The nightly invoice job fails since yesterday. Invoices in this "
                        "project are always generated in UTC, never in local time. Find out "
                        "why it fails.")
    reply = texts("claude-code-export.txt", "assistant")[1]
    assert reply == ("The job builds a naive `datetime` on line 41; the new timezone check in "
                     "the PDF renderer rejects it.\n\nI'd make it `datetime.now(UTC)`.")


def test_claude_export_commands_tools_and_thoughts_are_not_said() -> None:
    text = (EXTRA / "claude-code-export.txt").read_text("utf-8")
    transcript = read_transcript(text)
    assert transcript.dropped == {"slash command": 2, "shell escape": 2, "tool": 6,
                                  "thinking": 1}
    shown = "\n".join(m.text for m in transcript.messages)
    for absent in ("/model", "Sonnet 4.5", "git log", "SHELL_OUTPUT", "TOOL_OUTPUT",
                   "Bash(", "THINKING", "Update Todos"):
        assert absent not in shown, absent
    thoughts = texts("claude-code-export.txt", "thinking", include_thinking=True)
    assert thoughts == ["THINKING the job builds a naive datetime."]
    tools = texts("claude-code-export.txt", "tool", include_tools=True)
    assert tools[:2] == ["Read(src/jobs/invoices.py)", "Read 88 lines (ctrl+r to expand)"]


def test_claude_export_last_turn() -> None:
    text = (EXTRA / "claude-code-export.txt").read_text("utf-8")
    assert texts_of(text, last_turn=True) == [
        ("user", "Yes, fix it that way."),
        ("assistant", "Fixed: the job now uses `datetime.now(UTC)`.")]


def test_markdown_quotes_and_bullets_are_not_a_claude_export() -> None:
    # a note with "> " quotes and "● " bullets, but no ⏺ replies or ⎿ tool output
    note = "> Always run the linter.\n\n● first point\n  more of it\n"
    result = read_transcript(note)
    assert (result.formats, result.messages) == ({}, [])


# ----------------------------------------------------------------------- Amp (stream-json)


def test_amp_stream_json_reads_as_claude_print_mode() -> None:
    # ampcode.com/news/streaming-json: "Claude Code compatible" records
    session = "T-2775dc92-90ed-4f85-8b73-8f9766029e83"
    records = [
        {"type": "system", "subtype": "init", "cwd": "/w", "session_id": session,
         "tools": ["oracle"], "mcp_servers": []},
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "text", "text": "what is 2+2?"}]}, "parent_tool_use_id": None,
         "session_id": session},
        {"type": "assistant", "message": {"type": "message", "role": "assistant", "content": [
            {"type": "text", "text": "2 + 2 equals 4."}], "stop_reason": "end_turn"},
         "parent_tool_use_id": None, "session_id": session},
        {"type": "result", "subtype": "success", "duration_ms": 2906, "is_error": False,
         "num_turns": 1, "result": "2 + 2 equals 4.", "session_id": session},
    ]
    transcript = read_transcript("".join(json.dumps(r) + "\n" for r in records))
    assert transcript.formats == {"claude-stream-json": 4}
    assert [(m.role, m.text) for m in transcript.messages] == [
        ("user", "what is 2+2?"), ("assistant", "2 + 2 equals 4.")]


# ------------------------------------------------------------------- OpenHands, Continue, Goose


def test_openhands_recall_and_thoughts_stay_apart() -> None:
    name = "openhands-trajectory.json"
    assert texts(name, "tool", include_injected=True) == [
        "SYSTEM_PROMPT You are OpenHands agent, a helpful AI assistant.",
        "RECALL_CONTEXT repository instructions from .openhands/microagents/repo.md"]
    assert texts(name, "thinking", include_thinking=True) == [
        "THOUGHT I should look at the existing migrations first."]
    assert texts(name, "tool", include_tools=True) == [
        '[run] {"command": "ls migrations/versions", "is_input": false, "blocking": false, '
        '"is_static": false, "cwd": null, "hidden": false, "confirmation_state": "confirmed"}',
        "TOOL_OUTPUT 0007_refunds.py"]


def test_continue_attached_context_is_not_the_person() -> None:
    name = "continue-session.json"
    injected = texts(name, "tool", include_injected=True)
    assert injected == ["users.py:\nCONTEXT_FILE def list_users(db): ..."]
    assert texts(name, "thinking", include_thinking=True) == [
        "THINKING there is a pagination helper already"]
    assert texts(name, "tool", include_tools=True) == [
        '[read_file] {"filepath": "api/pagination.py"}',
        "TOOL_OUTPUT def cursor_page(query, after): ..."]


def test_goose_hidden_message_and_tool_traffic() -> None:
    name = "goose-session.jsonl"
    assert texts(name, "tool", include_injected=True) == [
        "HIDDEN_CONTEXT the conversation was summarized"]
    assert texts(name, "tool", include_tools=True) == [
        '[developer__shell] {"command": "grep -n \']]\' content/about.md"}',
        "TOOL_OUTPUT 12: [team](/team.html)"]
    transcript = read_transcript((EXTRA / name).read_text("utf-8"))
    assert transcript.messages[0].timestamp == "2025-11-30T10:00:00Z"  # "created": seconds


def test_goose_database_says_how_to_export(env: Path, tmp_path: Path) -> None:
    database = tmp_path / "sessions.db"
    database.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    result = invoke_memcli("extract", "--input", str(database))
    assert result.exit_code == 2
    assert "goose session export --format json" in result.stderr
    assert result.stderr.count("\n") == 1


def test_opencode_export_keeps_synthetic_parts_and_tools_apart() -> None:
    name = "opencode-export.json"
    assert texts(name, "tool", include_injected=True) == [
        "SYNTHETIC_FILE Called the Read tool with the following input: src/date.ts"]
    assert texts(name, "tool", include_tools=True) == [
        '[read] {"filePath": "src/date.ts"}',
        "TOOL_OUTPUT export const parse = (s) => Date.parse(s)"]


# ------------------------------------------------------------------------- never a crash


FIXTURES = ["claude-print-json.json", "claude-agent-sdk-stream.jsonl", "cursor-stream-json.jsonl",
            "gemini-stream-json.jsonl", "gemini-print-json.json", "opencode-run-json.jsonl",
            "codex-exec-legacy-json.jsonl", "openai-chat-request.json",
            "openai-chat-response.json", "openai-responses-request.json",
            "openai-responses-response.json", "anthropic-messages-request.json",
            "sharegpt-rows.json", "codex-inter-agent-rollout.jsonl",
            "openhands-trajectory.json", "continue-session.json", "goose-session.jsonl",
            "opencode-export.json", "gemini-api-request.json", "gemini-api-response.json"]
ODD_VALUES: list[Any] = [None, 7, True, "", "x", [], [1, "a"], {}, {"type": 3}, [{"a": []}]]


def _records(name: str) -> list[Any]:
    text = (EXTRA / name).read_text("utf-8")
    if name.endswith(".jsonl"):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    value = json.loads(text)
    return value if isinstance(value, list) else [value]


def _mutations(value: Any) -> list[Any]:
    """``value`` with each of its fields (at any depth) replaced by each odd value."""
    if isinstance(value, dict):
        out: list[Any] = []
        for key in value:
            out += [{**value, key: odd} for odd in ODD_VALUES]
            out += [{**value, key: inner} for inner in _mutations(value[key])[:40]]
        return out
    if isinstance(value, list) and value:
        return [[inner, *value[1:]] for inner in _mutations(value[0])[:40]]
    return []


@pytest.mark.parametrize("name", FIXTURES)
def test_any_field_of_any_value_never_raises(name: str) -> None:
    for record in _records(name):
        for mutated in _mutations(record):
            text = json.dumps(mutated)
            for options in ({}, {"include_tools": True, "include_thinking": True,
                                 "include_injected": True, "last_turn": True}):
                transcript = read_transcript(text, **options)
                assert all(m.text and m.text == m.text.strip() for m in transcript.messages)
