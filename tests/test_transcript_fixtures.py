"""Every transcript fixture against its hand-written expectation, message by message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_memcli

from tests.transcript_expectations import EXPECTED, HERE, Said, matches

FLAGS = {"last_turn": "--last-turn", "include_tools": "--include-tools",
         "include_thinking": "--include-thinking", "include_injected": "--include-injected"}


def transcript_json(path: Path, **options: bool) -> dict[str, Any]:
    """``memcli transcript --json PATH [flags]``, run in process."""
    flags = [FLAGS[name] for name, on in options.items() if on]
    result = invoke_memcli("transcript", "--json", str(path), *flags)
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def assert_said(expected: list[Said], messages: list[dict[str, Any]]) -> None:
    got = [(m["role"], m["text"]) for m in messages]
    assert len(got) == len(expected), got
    for position, ((role, text), (got_role, got_text)) in enumerate(
        zip(expected, got, strict=True)
    ):
        assert got_role == role, (position, got_role, got_text)
        assert matches(text, got_text), (position, text, got_text)


def test_every_local_fixture_has_an_expectation() -> None:
    files = {p.name for p in HERE.rglob("*.json*")} | {
        p.name for p in HERE.rglob("specstory-*.md")}
    expected = {name for name, e in EXPECTED.items() if e.path.is_relative_to(HERE)}
    opencode = {"msg-user-1.json", "part-text-1.json"}  # one session folder
    assert files - opencode == expected - {"test-session-1"}


CASES = sorted(EXPECTED)


@pytest.mark.parametrize("name", CASES)
def test_fixture_messages_by_hand(name: str) -> None:
    e = EXPECTED[name]
    document = transcript_json(e.path)
    assert document["formats"] == e.formats
    messages = document["messages"]
    assert {m["format"] for m in messages} <= set(e.formats)
    if e.only_user:
        assert_said(e.messages, [m for m in messages if m["role"] == "user"])
        assert sum(m["role"] == "assistant" for m in messages) == e.assistant_count
    else:
        assert_said(e.messages, messages)
    shown = "\n".join(m["text"] for m in messages)
    for absent in e.never:
        assert absent not in shown, absent


@pytest.mark.parametrize("name", CASES)
def test_fixture_last_turn_by_hand(name: str) -> None:
    e = EXPECTED[name]
    assert_said(e.last_turn, transcript_json(e.path, last_turn=True)["messages"])


def test_all_flags_bring_in_what_defaults_leave_out() -> None:
    e = EXPECTED["gemini-rewind-session_context-probe.jsonl"]
    everything = transcript_json(e.path, include_injected=True, include_tools=True)
    texts = [m["text"] for m in everything["messages"]]
    assert any("<session_context>" in t for t in texts)
    assert "/memory show" in texts
    assert not any("tabs" in t for t in texts)  # rewound away, whatever the flags
    assert everything["skipped"]["rewound"] == 2
