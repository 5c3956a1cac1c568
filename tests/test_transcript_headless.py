"""What scripts and CI pipe into `memcli extract`: agents' print-mode outputs and the API
documents scripts save. Each once read as empty, read wrong, or refused.

The fixtures are written from each tool's documented output (see
tests/fixtures/transcripts/extra/README.md). Where the person's words are in the output, the
rules extractor must find them; where only the assistant speaks, its reply must reach the
model (a real HTTP server on 127.0.0.1 stands in for it) and the tool output must not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_memcli
from fakeserver import FakeServer, Step, openai_stream
from transcript_cli import EXTRA, extract, isolate, lines, said

from memcli.transcripts import read_transcript


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return isolate(tmp_path, monkeypatch)


# ---------------------------------------------------------------- the person's words, extracted


@pytest.mark.parametrize("name, fact", [
    ("claude-agent-sdk-stream.jsonl", "We use pnpm in this repository, never npm."),
    ("cursor-stream-json.jsonl", "Our API responses always use snake_case keys."),
    ("gemini-stream-json.jsonl", "The staging database is read-only on Fridays."),
    ("codex-exec-legacy-json.jsonl", "Never commit directly to main in this repository."),
    ("openai-chat-request.json", "Our invoices are always rounded half-even, never half-up."),
    ("openai-responses-request.json", "We always tag releases with a leading v."),
    ("anthropic-messages-request.json", "Every pull request must link an issue."),
    ("sharegpt-rows.json", "Always answer in British English."),
    ("gemini-api-request.json", "Release notes live in docs/RELEASES.md."),
])
def test_statement_in_the_output_is_extracted(env: Path, name: str, fact: str) -> None:
    assert fact in [op["content"] for op in extract(EXTRA / name)["operations"]]


# ------------------------------------------------------- outputs where only the assistant speaks


@pytest.mark.parametrize("name, reply, absent", [
    ("claude-print-json.json", "This repository pins Node 20 in `.nvmrc`", "costUSD"),
    ("gemini-print-json.json", "run `bazel test //...` for the whole suite", "totalLatencyMs"),
    ("opencode-run-json.jsonl", "The tests run with Vitest", "TOOL_OUTPUT"),
    ("openai-chat-response.json", "now uses `Decimal.quantize`", "ALTERNATIVE_CHOICE"),
    ("openai-responses-response.json", "The changelog lives in `docs/CHANGES.md`", "rs_2"),
    ("gemini-api-response.json", "The 3.1 notes are drafted.", "ALTERNATIVE_CANDIDATE"),
    # a Claude Code subagent's own file: its replies, not the parent agent's prompt
    ("claude-code-subagent.jsonl", "retry_delay_ms = 250.", "three times"),
])
def test_reply_reaches_the_model_and_tool_output_does_not(
    env: Path, monkeypatch: pytest.MonkeyPatch, name: str, reply: str, absent: str
) -> None:
    with FakeServer() as server:
        monkeypatch.setenv("MEMCLI_PROVIDER", "openai")
        monkeypatch.setenv("MEMCLI_MODEL", "test-model")
        monkeypatch.setenv("MEMCLI_BASE_URL", server.url + "/v1")
        monkeypatch.setenv("MEMCLI_API_KEY", "sk-test-key-not-secret")
        server.script(Step(body=openai_stream([json.dumps({"operations": []})])))
        document = extract(EXTRA / name)
    assert document["transcript"]["messages"] >= 1
    assert len(server.requests) == 1
    prompt = server.requests[0].json()["messages"][1]["content"]
    assert reply in prompt
    assert absent not in prompt


# --------------------------------------------------------------------------- Claude print mode


def test_claude_stream_records_with_a_uuid_are_not_taken_for_a_session() -> None:
    # Newer versions and the Agent SDK put a uuid on every record; read as session lines,
    # the subagent's messages (parent_tool_use_id) came out as the main conversation.
    transcript = read_transcript((EXTRA / "claude-agent-sdk-stream.jsonl").read_text("utf-8"))
    assert transcript.formats == {"claude-stream-json": 9}
    assert transcript.dropped["subagent"] == 2
    assert transcript.dropped["duplicate"] == 1  # the closing result


def test_claude_result_of_each_turn_is_read_only_when_the_turn_said_nothing() -> None:
    def result(text: str) -> dict[str, Any]:
        return {"type": "result", "subtype": "success", "is_error": False, "result": text,
                "session_id": "s", "num_turns": 1}

    def message(role: str, text: str) -> dict[str, Any]:
        return {"type": role, "session_id": "s", "parent_tool_use_id": None,
                "message": {"role": role, "content": [{"type": "text", "text": text}]}}

    text = lines(message("user", "first question"), message("assistant", "first answer"),
                 result("first answer"), message("user", "second question"),
                 result("second answer, only in the result"))
    assert said(text) == [("user", "first question"), ("assistant", "first answer"),
                          ("user", "second question"),
                          ("assistant", "second answer, only in the result")]


def test_claude_error_result_is_nobodys_words() -> None:
    failed = {"type": "result", "subtype": "success", "is_error": True, "session_id": "s",
              "result": "Credit balance is too low", "num_turns": 1}
    transcript = read_transcript(json.dumps(failed))
    assert (transcript.formats, transcript.messages) == ({"claude-stream-json": 1}, [])


def test_qwen_code_json_output_reads_as_claude_print_mode() -> None:
    # Qwen Code's headless docs: --output-format json prints a JSON array of Claude-shaped
    # messages (system session_start, assistant, result), stream-json the same one a line
    session = "4f1e2d3c-0000-4000-8000-00000000abcd"
    messages = [
        {"type": "system", "subtype": "session_start", "uuid": "u0", "session_id": session,
         "model": "qwen3-coder-plus"},
        {"type": "assistant", "uuid": "u1", "session_id": session, "parent_tool_use_id": None,
         "message": {"id": "m1", "type": "message", "role": "assistant",
                     "model": "qwen3-coder-plus",
                     "content": [{"type": "text", "text": "The capital of France is Paris."}]}},
        {"type": "result", "subtype": "success", "uuid": "u2", "session_id": session,
         "is_error": False, "duration_ms": 1234, "result": "The capital of France is Paris."},
    ]
    for text in (json.dumps(messages, indent=2), lines(*messages)):
        transcript = read_transcript(text)
        assert set(transcript.formats) == {"claude-stream-json"}
        assert said(text) == [("assistant", "The capital of France is Paris.")]


def test_forced_name_covers_each_of_its_readers() -> None:
    # gemini-stream-json names both the event stream and the json output's one object
    text = (EXTRA / "gemini-print-json.json").read_text("utf-8")
    forced = read_transcript(text, fmt="gemini-stream-json")
    assert [m.text for m in forced.messages] == [
        "The build uses Bazel 7; run `bazel test //...` for the whole suite."]


# --------------------------------------------------------------------------------- Cursor CLI


def test_cursor_partial_output_is_read_once() -> None:
    # --stream-partial-output: chunks (timestamp_ms, no model_call_id), the segment before
    # a tool call whole (model_call_id), then the whole reply again, then the result.
    def assistant(text: str, **keys: Any) -> dict[str, Any]:
        return {"type": "assistant", "session_id": "c", **keys,
                "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}

    text = lines(
        {"type": "user", "session_id": "c",
         "message": {"role": "user", "content": [{"type": "text", "text": "go"}]}},
        assistant("Reading ", timestamp_ms=1), assistant("the file.", timestamp_ms=2),
        assistant("Reading the file.", model_call_id="m1", timestamp_ms=3),
        {"type": "tool_call", "subtype": "started", "call_id": "t", "session_id": "c",
         "tool_call": {"readToolCall": {"args": {"path": "a.py"}}}},
        assistant("Done", timestamp_ms=4), assistant(" now.", timestamp_ms=5),
        assistant("Reading the file.\nDone now."),
        {"type": "result", "subtype": "success", "is_error": False, "session_id": "c",
         "result": "Reading the file.Done now.", "request_id": "r"},
    )
    transcript = read_transcript(text)
    assert transcript.formats == {"cursor-stream-json": 9}
    # the whole reply repeats the part before the tool call; what follows it is new
    assert [(m.role, m.text) for m in transcript.messages] == [
        ("user", "go"), ("assistant", "Reading the file."), ("assistant", "Done now.")]
    assert transcript.dropped == {"tool": 1, "duplicate": 1}


def test_cursor_json_output_alone_is_the_reply() -> None:
    result = {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 1,
              "duration_api_ms": 1, "result": "All green.", "session_id": "c",
              "request_id": "r"}
    transcript = read_transcript(json.dumps(result))
    assert transcript.formats == {"cursor-stream-json": 1}
    assert [m.text for m in transcript.messages] == ["All green."]


def test_cursor_tool_calls_come_with_the_flag() -> None:
    text = (EXTRA / "cursor-stream-json.jsonl").read_text("utf-8")
    tools = [m.text for m in read_transcript(text, include_tools=True).messages
             if m.role == "tool"]
    assert tools[0] == '[read] {"path": "api/orders/serializer.py"}'
    assert "FILE_BODY" in tools[1]
    thinking = [m.text for m in read_transcript(text, include_thinking=True).messages
                if m.role == "thinking"]
    assert thinking == ["Looking for the order serializer."]  # two pieces, one thought


# --------------------------------------------------------------------------------- Gemini CLI


def test_gemini_reply_streamed_in_pieces_is_one_message_per_stretch() -> None:
    text = (EXTRA / "gemini-stream-json.jsonl").read_text("utf-8")
    transcript = read_transcript(text, last_turn=True)
    assert [m.text for m in transcript.messages if m.role == "assistant"] == [
        "I'll list the migration files.",
        "Two migrations are pending: `0041_orders.sql` and `0042_refunds.sql`."]
    assert transcript.skipped == 3  # init, the warning and the closing result


def test_gemini_slash_command_in_headless_prompt_is_not_typed_words() -> None:
    event = {"type": "message", "timestamp": "t", "role": "user", "content": "/memory show"}
    assert read_transcript(json.dumps(event)).dropped == {"slash command": 1}


# ----------------------------------------------------------------------------- codex exec --json


def test_codex_exec_items_of_every_release() -> None:
    def completed(**item: Any) -> dict[str, Any]:
        return {"type": "item.completed", "item": {"id": "item_0", **item}}

    text = lines(
        {"type": "thread.started", "thread_id": "t"},
        completed(item_type="assistant_message", text="early shape"),  # 0.44's first shape
        completed(type="plan", text="1. add the test\n2. fix the bug"),
        completed(type="collab_tool_call", tool="spawn_agent", sender_thread_id="t",
                  receiver_thread_ids=["u"], prompt="review the diff", agents_states={},
                  status="completed"),
        completed(type="error", message="stream disconnected; retrying"),
        {"type": "item.plan.delta", "item_id": "item_1", "delta": "1. add"},
        {"type": "turn.completed", "usage": {"input_tokens": 1, "cached_input_tokens": 0,
                                             "output_tokens": 1}},
    )
    transcript = read_transcript(text)
    assert transcript.formats == {"codex-exec": 7}
    assert [m.text for m in transcript.messages] == ["early shape",
                                                      "1. add the test\n2. fix the bug"]
    tools = [m.text for m in read_transcript(text, include_tools=True).messages
             if m.role == "tool"]
    assert tools[0].startswith("[collab_tool_call] ") and "review the diff" in tools[0]
    assert tools[1] == "stream disconnected; retrying"


def test_codex_exec_legacy_prompt_starts_the_turn() -> None:
    text = (EXTRA / "codex-exec-legacy-json.jsonl").read_text("utf-8")
    assert said(text, last_turn=True)[0] == (
        "user", "Never commit directly to main in this repository. Bump the version to 1.4.0.")


# ------------------------------------------------------------------------- bad or cut-off input


def test_a_document_cut_short_is_a_one_line_error(env: Path, tmp_path: Path) -> None:
    whole = (EXTRA / "openai-responses-request.json").read_text("utf-8")
    cut = tmp_path / "cut.json"
    cut.write_text(whole[: len(whole) // 2], "utf-8")
    result = invoke_memcli("extract", "--input", str(cut))
    assert result.exit_code == 2
    assert result.stderr.startswith("memcli: error: no messages found: ")
    assert result.stderr.count("\n") == 1


def test_a_stream_cut_inside_a_line_reads_up_to_it_and_warns(env: Path, tmp_path: Path) -> None:
    whole = (EXTRA / "gemini-stream-json.jsonl").read_text("utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(whole[: whole.index('"delta":true}', whole.index("Two migrations"))], "utf-8")
    document = extract(cut)
    assert document["transcript"]["broken"] == 1
    assert "The staging database is read-only on Fridays." in [
        op["content"] for op in document["operations"]]


@pytest.mark.parametrize("value", [
    {"choices": []},
    {"choices": [{"index": 0, "delta": {"content": "a chunk"}}]},
    {"conversations": [{"speaker": "human", "text": "hi"}]},
    {"model": "m", "input": 42},
    {"contents": [{"text": "no parts"}]},
    {"candidates": [{"output": "PaLM"}]},
])
def test_shapes_that_are_not_quite_these_documents_stay_unknown(value: dict[str, Any]) -> None:
    transcript = read_transcript(json.dumps(value))
    assert transcript.formats == {}
    assert sum(transcript.unknown.values()) == 1
