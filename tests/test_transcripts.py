"""Transcript reading against real logs written by other tools (see fixtures/SOURCES.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.errors import InputError, UsageError
from memcli.messages import Message
from memcli.transcripts import FORMATS, TRUNCATION_MARK, Transcript, read_transcript
from tests.transcript_expectations import EXPECTED

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
REWIND = FIXTURES / "claude-code" / "cclog-dag-compact-after-rewind.jsonl"
SHOWCASE = FIXTURES / "claude-code" / "cclog-minimal-showcase.jsonl"
SIDECHAIN = FIXTURES / "claude-code" / "cclog-sidechain-integrated.jsonl"
CODEX = FIXTURES / "codex" / "cclog-codex-rollout-synthetic.jsonl"
GEMINI = FIXTURES / "gemini" / "vct-gemini-cli-session-redacted.jsonl"
COOKBOOK = FIXTURES / "openai-chat" / "cookbook-01-testing-example.jsonl"
KIMI = FIXTURES / "openai-chat" / "kimi-cli-context-subagent.head16.jsonl"
CODEX_CONTEXT = FIXTURES / "extra" / "codex-injected-context.jsonl"
CLAUDE_INJECTED = FIXTURES / "extra" / "claude-code-injected.jsonl"

ALL_FIXTURES = sorted(FIXTURES.rglob("*.jsonl"))
EVERYTHING = {"include_tools": True, "include_thinking": True, "include_injected": True}
MAKE_TEST = "Run the test suite with `make test` before changing a module."


def read(path: Path, **options: Any) -> Transcript:
    return read_transcript(path.read_text(encoding="utf-8"), **options)


def texts(transcript: Transcript) -> list[str]:
    return [m.text for m in transcript.messages]


def pairs(transcript: Transcript) -> list[tuple[str, str]]:
    return [(m.role, m.text) for m in transcript.messages]


def joined(transcript: Transcript) -> str:
    return "\n".join(texts(transcript))


def lines(*records: Any) -> str:
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in records)


# --- every fixture ---------------------------------------------------------------------------

# name -> (records, formats): a count off by one means a record was lost or invented
EXPECTED_SHAPE = {
    REWIND.name: (12, {"claude-code": 12}),
    SHOWCASE.name: (11, {"claude-code": 11}),
    SIDECHAIN.name: (6, {"claude-code": 6}),
    CODEX.name: (14, {"codex": 14}),
    GEMINI.name: (28, {"gemini": 28}),
    COOKBOOK.name: (11, {"openai": 11}),
    KIMI.name: (16, {"openai": 16}),
    CODEX_CONTEXT.name: (12, {"codex": 12}),
    CLAUDE_INJECTED.name: (12, {"claude-code": 12}),
}
# The fixtures added with the second round of formats: one record per line, all known.
EXPECTED_SHAPE.update(
    {
        name: (sum(e.formats.values()), e.formats)
        for name, e in EXPECTED.items()
        if name.endswith(".jsonl")
        and name not in EXPECTED_SHAPE
        and e.path.is_relative_to(FIXTURES)
    }
)


def test_every_fixture_file_is_covered() -> None:
    assert {p.name for p in ALL_FIXTURES} == set(EXPECTED_SHAPE)


@pytest.mark.parametrize("path", ALL_FIXTURES, ids=lambda p: p.name)
@pytest.mark.parametrize(
    "options",
    [{}, EVERYTHING, {"last_turn": True}, {**EVERYTHING, "last_turn": True}, {"strict": True}],
    ids=["default", "everything", "last-turn", "everything-last-turn", "strict"],
)
def test_fixture_reads_whole_without_loss(path: Path, options: dict[str, Any]) -> None:
    transcript = read(path, **options)
    records, formats = EXPECTED_SHAPE[path.name]
    assert transcript.records == records
    assert transcript.formats == formats
    assert transcript.broken == 0
    assert transcript.messages, "every fixture holds at least one message"
    for message in transcript.messages:
        assert message.text == message.text.strip() and message.text
        assert message.role in ("user", "assistant", "tool", "thinking")


@pytest.mark.parametrize("path", ALL_FIXTURES, ids=lambda p: p.name)
def test_defaults_hold_only_user_and_assistant_words(path: Path) -> None:
    roles = {m.role for m in read(path).messages}
    assert roles <= {"user", "assistant"}


# --- Claude Code: rewind and compaction ------------------------------------------------------


def test_rewind_keeps_the_live_branch_in_order() -> None:
    transcript = read(REWIND)
    assert pairs(transcript) == [
        ("user", "Start"),
        ("assistant", "Ready"),
        ("user", "Second attempt"),
        ("assistant", "Second answer"),
        ("user", "Keep going"),
        ("assistant", "Kept going"),
        ("user", "After compaction"),
        ("assistant", "Final answer"),
    ]
    assert transcript.messages[0].timestamp == "2025-07-01T10:00:00.000Z"
    assert transcript.skipped == 1  # the compact_boundary system line


def test_rewind_abandoned_branch_never_appears() -> None:
    everything = joined(read(REWIND, **EVERYTHING))
    assert "First attempt" not in everything
    assert "First answer" not in everything


def test_compaction_summary_is_not_a_user_statement() -> None:
    assert "This session is being continued" not in joined(read(REWIND))
    transcript = read(REWIND, include_injected=True)
    summary = [m for m in transcript.messages if "ran out of context" in m.text]
    assert [m.role for m in summary] == ["tool"]
    # it sits where the compaction happened, across the compact_boundary
    order = texts(transcript)
    assert (
        order.index("Kept going") < order.index(summary[0].text) < order.index("After compaction")
    )


def test_rewind_last_turn_starts_after_the_summary() -> None:
    expected = [("user", "After compaction"), ("assistant", "Final answer")]
    assert pairs(read(REWIND, last_turn=True)) == expected
    assert pairs(read(REWIND, last_turn=True, include_injected=True)) == expected


# --- Claude Code: minimal showcase (tool traffic) --------------------------------------------


def test_showcase_fact_inside_a_tool_result_needs_include_tools() -> None:
    default = read(SHOWCASE)
    assert "make test" not in joined(default)
    assert pairs(default) == [
        (
            "user",
            "Give me a tour of the repository: its structure, then compare the web and "
            "jobs modules side by side.",
        ),
        ("assistant", "Let me inspect the repository structure first."),
        ("assistant", "Now two agents, one per module, so their reports can be compared."),
        (
            "assistant",
            "Both modules are surveyed: **web** renders the column layout, and **jobs** "
            "runs three scheduled jobs.",
        ),
    ]
    with_tools = read(SHOWCASE, include_tools=True)
    holders = [m for m in with_tools.messages if MAKE_TEST in m.text]
    assert [m.role for m in holders] == ["tool"]


def test_showcase_tool_calls_and_both_result_shapes() -> None:
    tools = [m.text for m in read(SHOWCASE, include_tools=True).messages if m.role == "tool"]
    assert "[mcp__plugin_showcase_example__refresh_search_index] {}" in tools
    assert any(t.startswith("[ScheduleWakeup]") and "600" in t for t in tools)
    assert sum(t.startswith("[Agent]") for t in tools) == 2
    assert "done" in tools  # tool_result content as a plain string
    # a tool_result holding a list of text blocks is one message, its blocks in order
    jobs = [t for t in tools if "three scheduled jobs" in t]
    assert len(jobs) == 1
    assert jobs[0].startswith(
        "The jobs module defines three scheduled jobs: cleanup, reindex, report.\nagentId: showcol2"
    )


def test_showcase_last_turn_is_the_whole_session() -> None:
    # every later user line is a tool_result, so the only typed message is the first one
    assert read(SHOWCASE, last_turn=True).messages == read(SHOWCASE).messages


# --- Claude Code: sidechains ------------------------------------------------------------------


def test_sidechain_text_absent_by_default_even_with_tools() -> None:
    assert pairs(read(SIDECHAIN)) == [
        ("assistant", "Excellent research! The sub-assistant has identifi...")
    ]
    with_tools = joined(read(SIDECHAIN, include_tools=True))
    assert "[Task]" in with_tools
    assert "Perfect! Now I have a complete understanding." in with_tools
    assert "I'll research how" not in with_tools
    assert "data-border-color" in with_tools  # only through the main-chain Task prompt
    assert "[Grep]" not in with_tools
    assert "3130" not in with_tools


def test_sidechain_with_include_injected_is_context_in_file_place() -> None:
    transcript = read(SIDECHAIN, **EVERYTHING)
    side = [m for m in transcript.messages if "I'll research how" in m.text]
    assert [m.role for m in side] == ["tool"]
    order = texts(transcript)
    task = next(i for i, t in enumerate(order) if t.startswith("[Task]"))
    final = order.index("Excellent research! The sub-assistant has identifi...")
    assert task < order.index(side[0].text) < final
    assert any("3130â†’" in t for t in order)  # mojibake kept as written


def test_sidechain_without_typed_message_last_turn_keeps_all() -> None:
    assert read(SIDECHAIN, last_turn=True).messages == read(SIDECHAIN).messages


# --- Claude Code: injected wrappers -----------------------------------------------------------


def test_claude_injected_lines_and_wrappers_stay_out() -> None:
    transcript = read(CLAUDE_INJECTED)
    assert pairs(transcript) == [
        ("user", "Please keep commit messages under 72 characters."),
        ("assistant", "Understood, 72 characters at most."),
        ("user", "Now rename the parser module to reader."),
        ("assistant", "Renamed parser to reader and fixed the imports."),
    ]
    assert transcript.skipped == 2  # summary and progress lines


def test_claude_injected_content_comes_in_as_tool_role() -> None:
    transcript = read(CLAUDE_INJECTED, include_injected=True)
    for marker in (
        "<system-reminder>",
        "Caveat: The messages below",
        "<command-name>/model</command-name>",
        "<local-command-stdout>Set model to LOCAL_STDOUT_opus</local-command-stdout>",
        "[Request interrupted by user]",
        "API Error: SYNTHETIC_OVERLOADED",
    ):
        holders = [m.role for m in transcript.messages if m.text.startswith(marker)]
        assert holders == ["tool"], marker
    assert "THINKING_SECRET" not in joined(transcript)


def test_claude_synthetic_model_reply_is_not_the_assistant_speaking() -> None:
    text = lines(
        {"type": "user", "uuid": "s1", "message": {"content": "hi"}},
        {
            "type": "assistant",
            "uuid": "s2",
            "parentUuid": "s1",
            "message": {
                "model": "<synthetic>",
                "content": [{"type": "text", "text": "No response requested."}],
            },
        },
    )
    assert pairs(read_transcript(text)) == [("user", "hi")]


def test_claude_thinking_only_with_flag_and_redacted_never() -> None:
    assert "THINKING_SECRET" not in joined(read(CLAUDE_INJECTED, include_tools=True))
    transcript = read(CLAUDE_INJECTED, **EVERYTHING)
    thinking = [m.text for m in transcript.messages if m.role == "thinking"]
    assert thinking == ["THINKING_SECRET: a rename touches the imports too."]
    assert "REDACTED_BLOB" not in joined(transcript)


def test_claude_last_turn_skips_commands_and_interrupts() -> None:
    expected = [
        ("user", "Now rename the parser module to reader."),
        ("assistant", "Renamed parser to reader and fixed the imports."),
    ]
    assert pairs(read(CLAUDE_INJECTED, last_turn=True)) == expected
    with_context = read(CLAUDE_INJECTED, last_turn=True, include_injected=True)
    assert with_context.messages[0] == Message(
        "user", "Now rename the parser module to reader.", "2026-03-01T09:00:06.000Z"
    )


def test_claude_walk_crosses_missing_parent_in_file_order() -> None:
    # A slice: the first line's parent and a middle line are not in the input.
    text = lines(
        {"type": "user", "uuid": "x1", "parentUuid": "gone", "message": {"content": "one"}},
        {"type": "assistant", "uuid": "x2", "parentUuid": "x1", "message": {"content": "two"}},
        {"type": "user", "uuid": "x4", "parentUuid": "x3", "message": {"content": "four"}},
        {"type": "assistant", "uuid": "x5", "parentUuid": "x4", "message": {"content": "five"}},
    )
    assert texts(read_transcript(text)) == ["one", "two", "four", "five"]


def test_compact_boundary_links_to_its_logical_parent_not_the_previous_line() -> None:
    # d1 answers k2 but was rewound away just before compaction; the boundary continues k2.
    def line(uuid: str, parent: str | None, text: str, kind: str = "user") -> dict[str, Any]:
        return {"type": kind, "uuid": uuid, "parentUuid": parent, "message": {"content": text}}

    text = lines(
        line("u1", None, "start"),
        line("k1", "u1", "kept answer", "assistant"),
        line("k2", "k1", "kept question"),
        line("d1", "k2", "DISCARDED answer", "assistant"),
        {
            "type": "system",
            "subtype": "compact_boundary",
            "uuid": "cb",
            "parentUuid": None,
            "logicalParentUuid": "k2",
        },
        line("p1", "cb", "after"),
    )
    assert texts(read_transcript(text)) == ["start", "kept answer", "kept question", "after"]


def test_claude_parent_cycle_terminates() -> None:
    text = lines(
        {"type": "user", "uuid": "c1", "parentUuid": "c2", "message": {"content": "a"}},
        {"type": "assistant", "uuid": "c2", "parentUuid": "c1", "message": {"content": "b"}},
    )
    assert texts(read_transcript(text)) == ["a", "b"]


def test_claude_out_of_file_order_parent_follows_the_chain() -> None:
    text = lines(
        {"type": "assistant", "uuid": "o2", "parentUuid": "o1", "message": {"content": "reply"}},
        {"type": "user", "uuid": "o1", "parentUuid": None, "message": {"content": "question"}},
        {"type": "user", "uuid": "o3", "parentUuid": "o2", "message": {"content": "thanks"}},
    )
    assert texts(read_transcript(text)) == ["question", "reply", "thanks"]


# --- Codex ------------------------------------------------------------------------------------


def test_codex_messages_are_not_double_counted() -> None:
    transcript = read(CODEX)
    assert pairs(transcript) == [
        ("user", "List the synthetic files."),
        ("assistant", "The synthetic files are alpha.txt and beta.txt."),
    ]
    # session_meta, turn_context, two event_msg echoes, future_synthetic_record
    assert transcript.skipped == 5


def test_codex_tools_reasoning_and_no_encrypted_content() -> None:
    transcript = read(CODEX, **EVERYTHING)
    by_role = {
        "tool": [m.text for m in transcript.messages if m.role == "tool"],
        "thinking": [m.text for m in transcript.messages if m.role == "thinking"],
    }
    assert by_role["thinking"] == ["I will inspect the synthetic directory."]
    assert '[exec_command] {"cmd":"find . -maxdepth 1 -type f"}' in by_role["tool"]
    assert "./alpha.txt\n./beta.txt" in by_role["tool"]
    assert any(t.startswith("[apply_patch] *** Begin Patch") for t in by_role["tool"])
    assert "Done!" in by_role["tool"]
    assert '[mcp__synthetic__lookup] {"query":"fixture"}' in by_role["tool"]
    everything = joined(transcript)
    assert "SYNTHETIC_ENCRYPTED_CONTENT_MUST_NOT_RENDER" not in everything
    assert "ignored" not in everything
    assert sum("The synthetic files are" in t for t in texts(transcript)) == 1


def test_codex_last_turn() -> None:
    assert read(CODEX, last_turn=True).messages == read(CODEX).messages


def test_codex_injected_context_absent_by_default() -> None:
    transcript = read(CODEX_CONTEXT)
    assert pairs(transcript) == [
        ("user", "Add a CHANGELOG entry for the parser fix."),
        ("assistant", "Added the entry under Unreleased."),
    ]
    everything_but_injected = joined(read(CODEX_CONTEXT, include_tools=True, include_thinking=True))
    for secret in ("environment_context", "ENV_CONTEXT_SHELL_zsh", "AGENTS_MD_SECRET", "sandbox"):
        assert secret not in everything_but_injected, secret


def test_codex_injected_context_as_tool_role_and_last_turn() -> None:
    transcript = read(CODEX_CONTEXT, **EVERYTHING)
    roles = {m.text.split("\n")[0]: m.role for m in transcript.messages}
    assert roles["<environment_context>"] == "tool"
    assert roles["# AGENTS.md instructions for /workspace/demo"] == "tool"
    assert roles["<permissions instructions>"] == "tool"
    assert [m.text for m in transcript.messages if m.role == "thinking"] == [
        "Look for CHANGELOG.md first."
    ]
    last = read(CODEX_CONTEXT, last_turn=True, **EVERYTHING)
    assert last.messages[0].text == "Add a CHANGELOG entry for the parser fix."


def test_codex_event_messages_used_when_no_response_items() -> None:
    text = lines(
        {
            "timestamp": "t1",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": "hi"},
        },
        {
            "timestamp": "t2",
            "type": "event_msg",
            "payload": {"type": "agent_message", "message": "yo"},
        },
    )
    assert pairs(read_transcript(text)) == [("user", "hi"), ("assistant", "yo")]


# --- Gemini -----------------------------------------------------------------------------------

UV_CONVENTION = "專案統一使用 `uv` 進行管理，不應直接使用 `pip`。"


def test_gemini_uv_convention_reaches_tools_only() -> None:
    assert "uv" not in joined(read(GEMINI))
    tools = [m for m in read(GEMINI, include_tools=True).messages if UV_CONVENTION in m.text]
    assert len(tools) == 1
    assert tools[0].role == "tool"
    assert tools[0].text.startswith("[Edit] ")


def test_gemini_default_conversation() -> None:
    transcript = read(GEMINI)
    assert [m.role for m in transcript.messages] == [
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert transcript.messages[0].timestamp == "2026-04-23T12:53:05.283Z"
    # header, 11 $set patches, 2 info lines, 5 superseded copies of rewritten messages
    assert transcript.skipped == 19


def test_gemini_rewritten_message_keeps_last_copy_once() -> None:
    transcript = read(GEMINI, **EVERYTHING)
    readme_calls = [m for m in transcript.messages if '"file_path": "README.md"' in m.text]
    assert len(readme_calls) == 1
    # 7 thoughts in 6 distinct gemini messages, not 11 from counting both copies
    assert sum(m.role == "thinking" for m in transcript.messages) == 7


def test_gemini_rewritten_message_keeps_the_place_of_its_first_copy() -> None:
    text = lines(
        {"id": "g1", "type": "gemini", "content": "draft"},
        {"id": "u1", "type": "user", "content": "typed while the tool ran"},
        {"id": "g1", "type": "gemini", "content": "final"},
    )
    transcript = read_transcript(text)
    assert texts(transcript) == ["final", "typed while the tool ran"]
    assert transcript.skipped == 1


def test_gemini_last_turn() -> None:
    assert pairs(read(GEMINI, last_turn=True)) == [("user", "...")]
    with_tools = read(GEMINI, last_turn=True, include_tools=True)
    assert with_tools.messages[0] == Message("user", "...", "2026-04-23T12:54:16.106Z")
    assert UV_CONVENTION in joined(with_tools)


def test_gemini_display_content_wins_over_expanded_content() -> None:
    text = lines(
        {
            "id": "g1",
            "timestamp": "t",
            "type": "user",
            "content": [{"text": "explain @a.py"}, {"text": "FILE_BODY def f(): pass"}],
            "displayContent": [{"text": "explain @a.py"}],
        },
    )
    assert pairs(read_transcript(text)) == [("user", "explain @a.py")]


def test_gemini_whole_session_json_document() -> None:
    document = json.dumps(
        {
            "sessionId": "s",
            "projectHash": "h",
            "startTime": "t",
            "messages": [
                {"id": "1", "timestamp": "t", "type": "user", "content": "use uv"},
                {"id": "2", "timestamp": "t", "type": "gemini", "content": "noted"},
            ],
        },
        indent=2,
    )
    transcript = read_transcript(document)
    assert transcript.formats == {"gemini": 1} and transcript.records == 1
    assert pairs(transcript) == [("user", "use uv"), ("assistant", "noted")]


# --- OpenAI: cookbook (pretty-printed) and kimi (pseudo-roles) --------------------------------


def test_cookbook_pretty_printed_records_with_literal_control_characters() -> None:
    transcript = read(COOKBOOK)
    assert transcript.broken == 0 and transcript.records == 11
    assert [m.role for m in transcript.messages] == ["user", "assistant"] * 11
    everything = joined(transcript)
    assert "Term:\tFall or Winter" in everything  # literal TAB inside a string
    assert "You’re still an active student" in everything  # curly quote as written
    assert any("\n" in t for t in texts(transcript))  # literal newline kept
    assert texts(transcript)[2] == (
        "Can the minor courses go towards the Design Major and the Sustainable Studies Minor, "
        "or just the minor?"
    )  # trailing space stripped, case kept


def test_cookbook_system_prompt_is_injected() -> None:
    assert "Ava is the factual DCART chatbot" not in joined(read(COOKBOOK))
    transcript = read(COOKBOOK, include_injected=True)
    system = [m for m in transcript.messages if m.text.startswith("Ava is the factual")]
    assert len(system) == 11 and {m.role for m in system} == {"tool"}


def test_cookbook_last_turn_is_the_last_conversation_exchange() -> None:
    transcript = read(COOKBOOK, last_turn=True)
    assert [m.role for m in transcript.messages] == ["user", "assistant"]
    assert transcript.messages[0].text == (
        "Can I investigate user interface for tech or other relevant areas?"
    )


def test_kimi_pseudo_roles_skipped_and_counted() -> None:
    transcript = read(KIMI)
    assert transcript.skipped == 10  # 4 _checkpoint + 6 _usage
    assert [m.role for m in transcript.messages] == ["user", "assistant", "assistant"]
    assert transcript.messages[0].text.startswith(
        "You are assisting the main agent by gathering project context."
    )
    assert "_checkpoint" not in joined(read(KIMI, **EVERYTHING))


def test_kimi_tools_without_system_wrapper() -> None:
    tools = [m.text for m in read(KIMI, include_tools=True).messages if m.role == "tool"]
    assert tools[0] == '[Glob] {"pattern": "**/column_transformer*"}'
    assert any(t.startswith("reproduce_issue.py\nsklearn") for t in tools)
    assert not any("<system>" in t for t in tools)
    with_context = read(KIMI, include_tools=True, include_injected=True)
    assert any("which is not allowed" in m.text for m in with_context.messages)


def test_kimi_last_turn_keeps_all() -> None:
    assert read(KIMI, last_turn=True).messages == read(KIMI).messages


# --- Detection and format override ------------------------------------------------------------

DETECTION_SAMPLES = {
    "claude-code": {
        "type": "user",
        "uuid": "u",
        "parentUuid": None,
        "message": {"role": "user", "content": "hello"},
    },
    "openai": {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"type": "function", "id": "c", "function": {"name": "f", "arguments": "{}"}}
        ],
    },
    "anthropic": {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "hello"}],
    },
    "codex": {
        "timestamp": "t",
        "type": "response_item",
        "payload": {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": "hello"}],
        },
    },
    "gemini": {"id": "g", "timestamp": "t", "type": "user", "content": [{"text": "hello"}]},
    "plain": {"role": "user", "content": "hello"},
    "codex-exec": {"type": "item.completed", "item": {"id": "i", "type": "agent_message",
                                                     "text": "hello"}},
    "kimi-wire": {"type": "turn.prompt", "input": [{"type": "text", "text": "hello"}],
                  "origin": {"kind": "user"}, "time": 1},
    "copilot-cli": {"type": "user.message", "data": {"content": "hello"}, "id": "e1",
                    "timestamp": "t"},
    "qwen-code": {"uuid": "q", "parentUuid": None, "sessionId": "s", "type": "user",
                  "message": {"role": "user", "parts": [{"text": "hello"}]}},
    "claude-stream-json": {"type": "assistant", "session_id": "s", "parent_tool_use_id": None,
                           "message": {"role": "assistant", "content": [{"type": "text",
                                                                         "text": "hello"}]}},
    "pi": {"type": "message", "id": "p", "parentId": None, "timestamp": "t",
           "message": {"role": "user", "content": [{"type": "text", "text": "hello"}]}},
    "opencode": {"id": "m", "sessionID": "s", "role": "user", "time": {"created": 1},
                 "parts": [{"id": "p", "type": "text", "text": "hello"}]},
    "cursor-agent": {"role": "user", "message": {"content": [{"type": "text", "text": "hello"}]}},
    "copilot-chat": {"requestId": "r", "message": {"text": "hello", "parts": []},
                     "response": [], "timestamp": 1},
    "cursor-stream-json": {"type": "user", "session_id": "s",
                           "message": {"role": "user", "content": [{"type": "text",
                                                                    "text": "hello"}]}},
    "gemini-stream-json": {"type": "message", "timestamp": "t", "role": "user",
                           "content": "hello"},
    "opencode-run": {"type": "text", "timestamp": 1, "sessionID": "s",
                     "part": {"id": "p", "type": "text", "text": "hello"}},
    "sharegpt": {"conversations": [{"from": "human", "value": "hello"}]},
    "qwenpaw": {"agent": {"memory": {"content": [[{"id": "m", "name": "user", "role": "user",
                                                   "content": "hello", "metadata": {}}, []]]}}},
    "continue": {"message": {"role": "user", "content": "hello"}, "contextItems": []},
    "openhands": {"id": 1, "timestamp": "t", "source": "user", "message": "hello",
                  "action": "message", "args": {"content": "hello"}},
    "goose": {"role": "user", "created": 1, "content": [{"type": "text", "text": "hello"}]},
    "droid-stream-json": {"type": "message", "session_id": "s", "role": "user", "id": "m",
                          "text": "hello", "timestamp": 1},
    "codebuddy": {"type": "message", "id": "m", "sessionId": "s", "timestamp": 1,
                  "role": "user", "content": [{"type": "input_text", "text": "hello"}]},
    "grok": {"type": "user", "content": [{"type": "text", "text": "hello"}], "prompt_index": 0},
    "antigravity": {"step_index": 0, "source": "USER_EXPLICIT", "type": "USER_INPUT",
                    "content": "<USER_REQUEST>\nhello\n</USER_REQUEST>"},
}
# Cline's history is Anthropic messages: it is told apart as a whole document, by its markers.
CLINE_DOCUMENT = [{"role": "user", "content": [{"type": "text", "text": "<task>\nhello\n</task>"}]}]


# Markdown logs: a header and a typed line, two records.
MARKDOWN_SAMPLES = {
    "aider": "# aider chat started at 2024-11-14 14:56:09\n\n#### hello  \n",
    "cursor-export": "# Hi\n_Exported on 7/8/2025 at 11:55:38 PDT from Cursor (1.2.2)_\n\n---\n\n"
                     "**User**\n\nhello\n",
    "copilot-share": "# 🤖 Copilot CLI Session\n\n> **Session ID:** `s`\n\n<sub>⏱️ 1s</sub>\n\n"
                     "### 👤 User\n\nhello\n",
    "claude-export": "╭──────────────╮\n│ ✻ Welcome to Claude Code! │\n╰──────────────╯\n\n"
                     "> hello\n",
    "specstory": "<!-- Generated by SpecStory -->\n\n_**User**_\n\nhello\n\n---\n",
}


@pytest.mark.parametrize("name", FORMATS)
def test_each_format_detected_without_a_flag(name: str) -> None:
    if name in MARKDOWN_SAMPLES:
        markdown = read_transcript(MARKDOWN_SAMPLES[name])
        assert (markdown.formats, markdown.skipped) == ({name: 2}, 1)
        assert [m.text for m in markdown.messages] == ["hello"]
        return
    sample = CLINE_DOCUMENT if name == "cline" else DETECTION_SAMPLES[name]
    transcript = read_transcript(lines(sample) + "\n")
    assert transcript.formats == {name: 1}
    assert transcript.skipped == 0
    if "hello" in json.dumps(sample):
        assert [m.text for m in transcript.messages] == ["hello"]
        assert transcript.message_formats == [name]


def test_anthropic_api_response_detected() -> None:
    response = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "Use uv."}],
        "stop_reason": "end_turn",
    }
    transcript = read_transcript(json.dumps(response))
    assert transcript.formats == {"anthropic": 1}
    assert pairs(transcript) == [("assistant", "Use uv.")]


def test_mixed_formats_in_one_input_counted_per_record() -> None:
    text = lines(
        DETECTION_SAMPLES["codex"], DETECTION_SAMPLES["gemini"], DETECTION_SAMPLES["plain"]
    )
    assert read_transcript(text).formats == {"codex": 1, "gemini": 1, "plain": 1}


def test_fmt_override_resolves_an_ambiguous_record() -> None:
    # sessionId once made this a Claude Code line without a message, read as nothing; a
    # Claude Code user line always has a message, so it is Gemini's {type, content} shape
    record = {"type": "user", "sessionId": "s", "content": "prefer tabs"}
    detected = read_transcript(json.dumps(record))
    assert detected.formats == {"gemini": 1}
    assert pairs(detected) == [("user", "prefer tabs")]
    forced = read_transcript(json.dumps(record), fmt="claude-code")
    assert forced.formats == {"claude-code": 1} and forced.messages == []


def test_fmt_override_rejects_records_of_other_formats() -> None:
    transcript = read(REWIND, fmt="codex")
    assert transcript.messages == [] and transcript.formats == {}
    assert transcript.skipped == transcript.records == 12


def test_fmt_override_counts_all_records_as_forced() -> None:
    transcript = read(KIMI, fmt="plain")
    assert transcript.formats == {"plain": 16}
    assert transcript.messages == read(KIMI).messages


def test_unknown_fmt_is_a_usage_error_listing_formats() -> None:
    with pytest.raises(UsageError) as caught:
        read_transcript("", fmt="chatgpt")
    for name in FORMATS:
        assert name in str(caught.value)


def test_negative_budget_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        read_transcript("", max_tool_chars=-1)


# --- Broken input -----------------------------------------------------------------------------

GOOD = json.dumps({"role": "user", "content": "good"})


def test_broken_lines_counted_and_skipped() -> None:
    text = "\n".join([GOOD, "{not json", '{"role": "user", "content": "cut', GOOD, "]"])
    transcript = read_transcript(text)
    assert transcript.broken == 3
    assert transcript.records == 2
    assert texts(transcript) == ["good", "good"]


def test_strict_names_the_broken_line_after_a_multiline_record() -> None:
    pretty = json.dumps({"role": "user", "content": "a"}, indent=2)  # lines 1-4
    text = f"{pretty}\n\n{GOOD}\n{{oops\n{GOOD}\n"
    assert pretty.count("\n") == 3
    with pytest.raises(InputError, match=r"\bline 7\b"):
        read_transcript(text, strict=True)
    assert read_transcript(text).broken == 1


def test_fragments_of_a_broken_multiline_record_are_not_records() -> None:
    text = '{\n  "role": "user",\n  "content": oops\n}\n{"role": "user"} trailing\n' + GOOD
    transcript = read_transcript(text)
    assert (transcript.records, transcript.broken) == (1, 5)
    assert texts(transcript) == ["good"]


def test_strict_accepts_clean_input() -> None:
    assert read_transcript(f"{GOOD}\r\n{GOOD}\r\n", strict=True).broken == 0


def test_scalars_and_arrays_are_skipped_records() -> None:
    transcript = read_transcript('1\n"text"\n[1, 2]\nnull\ntrue\n{}\n' + GOOD)
    assert transcript.records == 7 and transcript.skipped == 6 and transcript.broken == 0
    assert texts(transcript) == ["good"]


def test_deep_nesting_and_huge_lines_do_not_crash() -> None:
    deep = "[" * 200_000
    nested = '{"role": "user", "content": "x", "deep": ' + "[" * 5000 + "]" * 5000 + "}"
    huge = json.dumps({"role": "assistant", "content": "y" * 3_000_000})
    transcript = read_transcript("\n".join([deep, nested, huge, GOOD]))
    assert transcript.broken >= 1
    assert texts(transcript)[-1] == "good"
    assert len(texts(transcript)[-2]) == 3_000_000


@pytest.mark.parametrize("unit", ["[1,\n", "{\n", "log line {x}\n"],
                         ids=["open-arrays", "open-objects", "log-lines"])
def test_garbage_lines_are_counted_broken_and_what_follows_is_read(unit: str) -> None:
    # Before decoding line slices, each broken line re-scanned the rest of the file (these
    # inputs took minutes at 80,000 lines); how the time grows is benchmarks/garbage.py's.
    transcript = read_transcript(unit * 2_000)
    assert (transcript.records, transcript.broken, transcript.messages) == (0, 2_000, [])
    after = read_transcript(unit * 2_000 + GOOD + "\n")
    assert texts(after) == ["good"] and after.broken == 2_000


def test_line_separator_inside_a_string_is_not_a_line_break() -> None:
    text = '{"role": "user", "content": "a\u2028b\u0085c"}'
    assert texts(read_transcript(text)) == ["a\u2028b\u0085c"]


def test_byte_order_mark_and_blank_lines() -> None:
    assert texts(read_transcript("\ufeff\n\n" + GOOD + "\n\n")) == ["good"]


def test_empty_and_whitespace_only_messages_dropped() -> None:
    text = lines(
        {"role": "user", "content": "   "},
        {"role": "assistant", "content": []},
        {"role": "user", "content": "  Keep Case  "},
    )
    assert texts(read_transcript(text)) == ["Keep Case"]


def test_system_wrapper_only_text_is_injected_but_mixed_text_is_not() -> None:
    text = lines(
        {"role": "user", "content": "<system>be terse</system>"},
        {"role": "user", "content": "what does <system> mean in HTML?"},
    )
    assert texts(read_transcript(text)) == ["what does <system> mean in HTML?"]


def test_anthropic_request_document_with_system_prompt() -> None:
    request = {
        "model": "m",
        "system": "You are terse.",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Tabs or spaces?"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "name": "lint", "input": {}}]},
        ],
    }
    transcript = read_transcript(json.dumps(request), include_tools=True)
    assert transcript.formats == {"anthropic": 1}
    assert pairs(transcript) == [("user", "Tabs or spaces?"), ("tool", "[lint] {}")]
    with_system = read_transcript(json.dumps(request), include_injected=True)
    assert pairs(with_system) == [("tool", "You are terse."), ("user", "Tabs or spaces?")]
    request["system"] = [{"type": "text", "text": "You are terse."}]
    assert read_transcript(json.dumps(request), include_injected=True).messages == (
        with_system.messages
    )


def test_one_line_messages_wrapper_counts_once() -> None:
    text = json.dumps(
        {"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}
    )
    transcript = read_transcript(text)
    assert transcript.records == 1 and transcript.formats == {"openai": 1}
    assert texts(transcript) == ["q", "a"]


# --- Budgets ----------------------------------------------------------------------------------


def tool_lines(*sizes: int) -> str:
    return lines(
        *(
            {"role": "tool", "tool_call_id": str(i), "content": chr(97 + i) * size}
            for i, size in enumerate(sizes)
        )
    )


def test_tool_message_cut_to_max_tool_chars_exactly() -> None:
    transcript = read_transcript(tool_lines(5000), include_tools=True, max_tool_chars=100)
    (message,) = transcript.messages
    assert len(message.text) == 100
    assert message.text == "a" * (100 - len(TRUNCATION_MARK)) + TRUNCATION_MARK
    assert transcript.truncated == 1


def test_message_at_the_limit_is_not_cut() -> None:
    transcript = read_transcript(tool_lines(100), include_tools=True, max_tool_chars=100)
    assert transcript.messages[0].text == "a" * 100 and transcript.truncated == 0


def test_total_extra_budget_enforced_exactly() -> None:
    text = tool_lines(80, 80, 80, 80, 80)
    transcript = read_transcript(text, include_tools=True, max_tool_chars=100, max_extra_chars=200)
    sizes = [len(m.text) for m in transcript.messages]
    assert sizes == [80, 80, 40]
    assert transcript.messages[2].text.endswith(TRUNCATION_MARK)
    assert transcript.truncated == 3  # one cut, two left out entirely


def test_thinking_shares_the_extra_budget_and_people_are_never_cut() -> None:
    long_user = "u" * 50_000
    text = lines(
        {"role": "user", "content": long_user},
        {
            "role": "assistant",
            "content": [{"type": "thinking", "thinking": "t" * 90}, {"type": "text", "text": "ok"}],
        },
        {"role": "tool", "tool_call_id": "1", "content": "r" * 90},
    )
    transcript = read_transcript(
        text, include_tools=True, include_thinking=True, max_tool_chars=1000, max_extra_chars=100
    )
    assert transcript.messages[0].text == long_user
    extra = [m for m in transcript.messages if m.role in ("tool", "thinking")]
    assert sum(len(m.text) for m in extra) <= 100
    assert [m.role for m in extra] == ["thinking"] and transcript.truncated == 1


def test_zero_tool_budget_leaves_tools_out() -> None:
    transcript = read(SHOWCASE, include_tools=True, max_tool_chars=0)
    assert transcript.messages == read(SHOWCASE).messages
    assert transcript.truncated == 10  # 5 calls and 5 results


def test_budgets_on_real_fixture() -> None:
    transcript = read(SHOWCASE, include_tools=True, max_tool_chars=60, max_extra_chars=150)
    extra = [m for m in transcript.messages if m.role == "tool"]
    assert all(len(m.text) <= 60 for m in extra)
    assert sum(len(m.text) for m in extra) <= 150
    assert transcript.truncated >= 1


# --- Properties -------------------------------------------------------------------------------

KEYS = st.sampled_from(
    [
        "type",
        "role",
        "content",
        "message",
        "payload",
        "uuid",
        "parentUuid",
        "logicalParentUuid",
        "isSidechain",
        "isMeta",
        "messages",
        "toolCalls",
        "thoughts",
        "id",
        "text",
        "tool_calls",
        "function",
        "summary",
        "output",
        "displayContent",
        "result",
        "sessionId",
        "$set",
        "input",
    ]
)
WORDS = st.sampled_from(
    [
        "user",
        "assistant",
        "tool",
        "system",
        "gemini",
        "message",
        "response_item",
        "event_msg",
        "text",
        "tool_use",
        "tool_result",
        "thinking",
        "reasoning",
        "function_call",
        "user_message",
        "agent_message",
        "_checkpoint",
        "u1",
        "u2",
        "<system-reminder>x",
        "<system>y</system>",
    ]
)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text() | WORDS
JSON = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(KEYS | st.text(max_size=5), children, max_size=6)
    ),
    max_leaves=30,
)
FLAGS = st.fixed_dictionaries(
    {
        "include_tools": st.booleans(),
        "include_thinking": st.booleans(),
        "include_injected": st.booleans(),
        "last_turn": st.booleans(),
        "max_tool_chars": st.integers(0, 50),
        "max_extra_chars": st.integers(0, 200),
        "fmt": st.none() | st.sampled_from(FORMATS),
    }
)


def check_invariants(transcript: Transcript, options: dict[str, Any]) -> None:
    assert 0 <= transcript.skipped <= transcript.records
    assert sum(transcript.formats.values()) <= transcript.records
    extra = [m for m in transcript.messages if m.role in ("tool", "thinking")]
    assert all(len(m.text) <= options.get("max_tool_chars", 2000) for m in extra)
    assert sum(len(m.text) for m in extra) <= options.get("max_extra_chars", 20000)
    assert all(m.text and m.text == m.text.strip() for m in transcript.messages)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(), FLAGS)
def test_never_raises_on_arbitrary_text(text: str, options: dict[str, Any]) -> None:
    check_invariants(read_transcript(text, **options), options)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(JSON, max_size=8), FLAGS)
def test_never_raises_on_arbitrary_json_lines(values: list[Any], options: dict[str, Any]) -> None:
    text = "\n".join(json.dumps(v) for v in values)
    transcript = read_transcript(text, strict=True, **options)
    assert transcript.records == len(values) and transcript.broken == 0
    check_invariants(transcript, options)


CLAUDE_LINE = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["user", "assistant", "system"]),
        "uuid": st.sampled_from(["a", "b", "c", "d"]),
        "parentUuid": st.none() | st.sampled_from(["a", "b", "c", "d", "z"]),
        "isSidechain": st.booleans(),
        "message": st.fixed_dictionaries({"content": st.text(min_size=1, max_size=5)}),
    }
)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(CLAUDE_LINE, max_size=10))
def test_claude_dag_of_any_shape_yields_only_input_text(records: list[dict[str, Any]]) -> None:
    transcript = read_transcript(lines(*records), include_injected=True)
    said = [r["message"]["content"].strip() for r in records if r["type"] != "system"]
    for message in transcript.messages:
        assert message.text in said
    assert len(transcript.messages) <= len(said)


# --- Second round: defects of the first reader ------------------------------------------------


def codex(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "t", "type": kind, "payload": payload}


def test_codex_prompt_only_as_event_after_compaction_is_kept_and_is_the_last_turn() -> None:
    text = lines(
        codex("response_item", {"type": "message", "role": "user",
                                "content": [{"type": "input_text", "text": "first"}]}),
        codex("event_msg", {"type": "user_message", "message": "first"}),
        codex("response_item", {"type": "message", "role": "assistant",
                                "content": [{"type": "output_text", "text": "done"}]}),
        codex("compacted", {"message": "summary of the work so far"}),
        codex("event_msg", {"type": "user_message", "message": "now use tabs"}),
        codex("response_item", {"type": "message", "role": "assistant",
                                "content": [{"type": "output_text", "text": "tabs it is"}]}),
    )
    transcript = read_transcript(text)
    assert pairs(transcript) == [
        ("user", "first"), ("assistant", "done"), ("user", "now use tabs"),
        ("assistant", "tabs it is"),
    ]
    assert transcript.dropped["duplicate"] == 1  # the echo of "first", and only it
    assert pairs(read_transcript(text, last_turn=True)) == [
        ("user", "now use tabs"), ("assistant", "tabs it is"),
    ]


def test_records_of_no_known_shape_are_counted_by_kind_not_read_as_empty() -> None:
    text = lines(
        {"type": "message", "message": {"role": "user", "content": "pi says hi"}, "id": "1"},
        {"type": "heartbeat", "message": {"beat": 1}},
        {"type": "heartbeat", "message": {"beat": 2}},
        {"kind": "x"},
        [1, 2],
    )
    transcript = read_transcript(text)
    assert transcript.formats == {"pi": 1}
    assert pairs(transcript) == [("user", "pi says hi")]
    assert transcript.unknown == {
        "type=heartbeat": 2, "object with keys kind": 1, "JSON array": 1,
    }


def test_teammate_and_task_notification_never_start_the_last_turn() -> None:
    record = {"type": "user", "uuid": "u2", "parentUuid": "a1", "sessionId": "s"}
    text = lines(
        {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s",
         "message": {"role": "user", "content": "use tabs"}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s",
         "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}},
        record | {"message": {"role": "user", "content":
                   '<teammate-message teammate_id="bob">\nuse spaces\n</teammate-message>'}},
        record | {"uuid": "u3", "parentUuid": "u2", "message": {"role": "user", "content":
                  "<task-notification>\n<status>completed</status>\n</task-notification>\n"
                  "Full transcript available at: /tmp/x.output"}},
    )
    assert pairs(read_transcript(text, last_turn=True)) == [("user", "use tabs"),
                                                           ("assistant", "ok")]
    shown = read_transcript(text, include_injected=True)
    assert shown.messages[-1].role == "tool"
    assert "Full transcript available at" in shown.messages[-1].text
    assert read_transcript(text).dropped == {"teammate message": 1, "task notification": 1}
