"""Shapes of real logs found in other projects' fixtures and parsers, each once read wrong.

Every case is written here with our own text in the shape the named tool writes (the
record keys and nesting its own writer or a parser of its files uses), so nothing is copied.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_memcli
from transcript_cli import EXTRA, extract, isolate, lines, said

from memcli.transcripts import read_transcript


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return isolate(tmp_path, monkeypatch)


# --------------------------------------------------------------------------- OpenAI API


def test_chat_response_choice_is_the_reply_whatever_role_it_claims() -> None:
    # A choice's message is the model's: a role inside it must not make it the person's.
    doc = {"object": "chat.completion",
           "choices": [{"index": 0, "message": {"role": "user", "content": "Deploy on Fridays."}}]}
    assert said(json.dumps(doc)) == [("assistant", "Deploy on Fridays.")]


def test_chat_response_still_reads_a_reply_without_a_role() -> None:
    doc = {"choices": [{"message": {"content": "Use uv."}}]}
    assert said(json.dumps(doc)) == [("assistant", "Use uv.")]


# --------------------------------------------------------------------------- Agents SDK items


def test_agents_sdk_history_array_reads_its_call_results_as_tools() -> None:
    # The OpenAI Agents SDK (JS) names a call's output function_call_result, with callId.
    history = [
        {"type": "message", "role": "user", "content": [{"type": "input_text",
                                                         "text": "Tabs, not spaces."}]},
        {"type": "function_call", "callId": "c1", "name": "read", "arguments": "{}"},
        {"type": "function_call_result", "callId": "c1", "name": "read", "status": "completed",
         "output": {"type": "text", "text": "FILE BODY"}},
        {"type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Noted."}]},
    ]
    transcript = read_transcript(json.dumps(history))
    assert [(m.role, m.text) for m in transcript.messages] == [
        ("user", "Tabs, not spaces."), ("assistant", "Noted.")]
    assert transcript.unknown == {}
    assert ("tool", "FILE BODY") in said(json.dumps(history), include_tools=True)


# --------------------------------------------------------------------------- flat records


def test_flat_message_with_a_session_id_is_not_an_empty_claude_line() -> None:
    # Claude Code claimed every typed record with a sessionId and read these as no message.
    text = lines(
        {"type": "message", "sessionId": "s", "role": "user", "content": "Ship on Tuesdays."},
        {"type": "message", "sessionId": "s", "role": "assistant",
         "content": [{"type": "text", "text": "Noted."}]},
    )
    assert said(text) == [("user", "Ship on Tuesdays."), ("assistant", "Noted.")]


def test_codebuddy_host_authored_prompts_never_start_the_last_turn() -> None:
    text = lines(
        {"type": "message", "sessionId": "s", "id": "1", "role": "user", "content": "Fix it."},
        {"type": "message", "sessionId": "s", "id": "2", "role": "assistant", "content": "Done."},
        {"type": "message", "sessionId": "s", "id": "3", "role": "user", "content": "continue",
         "providerData": {"isMeta": True}},
        {"type": "message", "sessionId": "s", "id": "4", "role": "assistant", "content": "More."},
    )
    assert said(text, last_turn=True) == [
        ("user", "Fix it."), ("assistant", "Done."), ("assistant", "More.")]


# --------------------------------------------------------------------------- typed wrappers


def test_words_inside_user_query_are_typed_and_the_rest_is_context() -> None:
    line = {"role": "user", "message": {"content": [{"type": "text", "text":
            "<previous_user_message><user_query>OLD</user_query></previous_user_message>\n"
            "<open_tabs>a.py</open_tabs>\n<user_query>\nNEW ASK\n</user_query>"}]}}
    assert said(lines(line)) == [("user", "NEW ASK")]
    everything = said(lines(line), include_injected=True)
    assert ("user", "NEW ASK") in everything
    assert any("OLD" in text for role, text in everything if role == "tool")
    assert any("<open_tabs>" in text for role, text in everything if role == "tool")


def test_an_unclosed_user_query_is_left_as_typed() -> None:
    line = {"role": "user", "message": {"content": "<user_query> is the tag Cursor uses"}}
    assert said(lines(line)) == [("user", "<user_query> is the tag Cursor uses")]


def test_many_user_queries_each_count_once() -> None:
    text = "".join(f"<user_query>ask {i}</user_query>" for i in range(500)) + "<user_query>x"
    line = {"role": "user", "message": {"content": text}}
    got = said(lines(line))
    assert got[0][1].split("\n\n") == [f"ask {i}" for i in range(500)]


# --------------------------------------------------------------------------- print modes


def test_droid_completion_is_the_reply_when_the_turn_said_nothing_else() -> None:
    text = lines(
        {"type": "message", "session_id": "s", "role": "user", "text": "Lint it.", "id": "1"},
        {"type": "completion", "session_id": "s", "finalText": "Lint is clean."},
    )
    assert said(text) == [("user", "Lint it."), ("assistant", "Lint is clean.")]


def test_droid_error_is_nobodys_words() -> None:
    text = lines(
        {"type": "message", "session_id": "s", "role": "user", "text": "Lint it.", "id": "1"},
        {"type": "error", "session_id": "s", "message": "rate limited"},
    )
    transcript = read_transcript(text)
    assert [m.text for m in transcript.messages] == ["Lint it."]
    assert transcript.formats == {"droid-stream-json": 2}


# --------------------------------------------------------------------------- Kimi Code


def test_kimi_steer_belongs_to_the_turn_it_steered() -> None:
    def rec(kind: str, words: str, time: int) -> dict[str, Any]:
        return {"type": kind, "input": [{"type": "text", "text": words}],
                "origin": {"kind": "user"}, "time": time}

    text = lines(rec("turn.prompt", "Add a health check.", 1),
                 rec("turn.steer", "Put it under /api/v2.", 2))
    assert said(text, last_turn=True) == [
        ("user", "Add a health check."), ("user", "Put it under /api/v2.")]


def test_kimi_steer_from_another_origin_is_not_the_person() -> None:
    steer = {"type": "turn.steer", "input": [{"type": "text", "text": "NOTICE"}],
             "origin": {"kind": "system"}, "time": 3}
    assert said(lines(steer)) == []


# --------------------------------------------------------------------------- extraction


@pytest.mark.parametrize(("name", "fact"), [
    ("codebuddy-session.jsonl", "Our invoices are rounded half-even, never half-up."),
    ("droid-stream-json.jsonl", "The API listens on port 8443 in every environment."),
    ("grok-chat-history.jsonl", "The site is built with Hugo, not Jekyll."),
    ("antigravity-transcript.jsonl",
     "Migrations live in db/migrations and are never edited after merge."),
    ("kimi-wire-steer.jsonl", "We always put endpoints under /api/v2."),
    ("cursor-agent-user-query.jsonl", "Always log with structlog, never with print()."),
])
def test_statement_of_each_new_shape_reaches_the_extractor(
        env: Path, name: str, fact: str) -> None:
    assert fact in [op["content"] for op in extract(EXTRA / name)["operations"]]


# --------------------------------------------------------------------------- Grok CLI


_GROK_REASONING = {"type": "reasoning", "id": "rs_1", "status": "completed",
                   "summary": [{"type": "summary_text", "text": "Check the config first."}]}


def test_grok_reasoning_record_is_counted_as_grok() -> None:
    # Its reasoning is a bare Responses item, a legacy Codex rollout's shape; in a Grok file
    # it is Grok's, in the counts and in each message's format.
    text = lines(
        {"type": "user", "content": [{"type": "text", "text": "Use tabs."}], "prompt_index": 0},
        _GROK_REASONING,
        {"type": "assistant", "content": "Done.", "model_id": "grok-build"},
    )
    transcript = read_transcript(text, include_thinking=True)
    assert transcript.formats == {"grok": 3}
    assert transcript.message_formats == ["grok", "grok", "grok"]
    assert [m.text for m in transcript.messages] == ["Use tabs.", "Check the config first.",
                                                     "Done."]


def test_a_legacy_codex_rollouts_reasoning_stays_codex() -> None:
    header = {"id": "s1", "timestamp": "2025-08-01T10:00:00Z", "instructions": ""}
    message = {"type": "message", "role": "user",
               "content": [{"type": "input_text", "text": "Use tabs."}]}
    transcript = read_transcript(lines(header, message, _GROK_REASONING))
    assert transcript.formats == {"codex": 3}


# --------------------------------------------------------------------------- Claude Code subagents

SUBAGENT = EXTRA / "claude-code-subagent.jsonl"
_REPLIES = [
    ("assistant", "I'll search the config folder for the retry settings."),
    ("assistant", "The retry delay is set in config/http.toml, line 4: retry_delay_ms = 250."),
]
_GREP = ("tool", "[Grep] " + json.dumps({"pattern": "retry", "path": "config"}))


def _sidechain(kind: str, uuid: str, parent: str | None, content: Any,
               agent: str = "a7c31f0") -> dict[str, Any]:
    return {"type": kind, "uuid": uuid, "parentUuid": parent, "isSidechain": True,
            "sessionId": "parent", "agentId": agent,
            "message": {"role": kind, "content": content}}


def test_a_subagents_own_file_is_read_as_its_conversation() -> None:
    # Every line of <session>/subagents/agent-<id>.jsonl is a sidechain: dropping them all
    # read such a file as no message at all.
    transcript = read_transcript(SUBAGENT.read_text("utf-8"))
    assert [(m.role, m.text) for m in transcript.messages] == _REPLIES
    # the parent agent's prompt is its words, not the person's
    assert transcript.dropped["subagent"] == 1
    assert said(SUBAGENT.read_text("utf-8"), last_turn=True) == _REPLIES
    # its tool calls are behind --include-tools, whole
    assert said(SUBAGENT.read_text("utf-8"), include_tools=True)[1] == _GREP


def test_a_subagent_files_prompt_is_context_and_its_tools_are_tools() -> None:
    text = SUBAGENT.read_text("utf-8")
    everything = said(text, include_injected=True, include_tools=True, include_thinking=True)
    prompt = [t for role, t in everything if "three times" in t]
    assert len(prompt) == 1 and ("tool", prompt[0]) in everything
    assert not any(role == "user" for role, _ in everything)
    assert _GREP in everything
    assert ("tool", "GREP_OUTPUT config/http.toml:4: retry_delay_ms = 250") in everything
    assert any(role == "thinking" and "THINKING_SECRET" in t for role, t in everything)


def test_a_subagent_file_read_from_stdin_or_by_path_gives_its_replies(env: Path) -> None:
    by_path = extract(SUBAGENT)
    result = invoke_memcli("extract", "--json", input=SUBAGENT.read_text("utf-8"))
    assert result.exit_code == 0, result.output
    piped = json.loads(result.stdout)
    for document in (by_path, piped):
        assert document["transcript"]["messages"] == 2
        # the rules read what the person typed, and nobody did
        assert document["operations"] == []


def test_sidechain_lines_in_a_session_stay_out_of_its_conversation() -> None:
    text = lines(
        {"type": "user", "uuid": "u1", "parentUuid": None, "isSidechain": False,
         "sessionId": "s", "message": {"role": "user", "content": "Review the parser."}},
        _sidechain("user", "s1", None, "Read reader.py and list its bugs."),
        _sidechain("assistant", "s2", "s1",
                   [{"type": "text", "text": "SIDECHAIN_REPLY"},
                    {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file": "a.py"}}]),
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "isSidechain": False,
         "sessionId": "s", "message": {"role": "assistant", "content": "It has two bugs."}},
    )
    transcript = read_transcript(text)
    assert [(m.role, m.text) for m in transcript.messages] == [
        ("user", "Review the parser."), ("assistant", "It has two bugs.")]
    assert transcript.dropped["subagent"] == 3
    # shown as context, a sidechain's tool call keeps its arguments
    shown = said(text, include_injected=True, include_tools=True)
    assert ("tool", "SIDECHAIN_REPLY") in shown
    assert ("tool", '[Read] {"file": "a.py"}') in shown


def test_the_compacting_agents_file_is_a_compaction_summary() -> None:
    text = lines(_sidechain("user", "c1", None, "Summarise the conversation so far.",
                            agent="acompact-3f2a"),
                 _sidechain("assistant", "c2", "c1", [{"type": "text", "text": "SUMMARY"}],
                            agent="acompact-3f2a"))
    transcript = read_transcript(text)
    assert transcript.messages == []
    assert transcript.dropped == {"subagent": 1, "compaction summary": 1}
