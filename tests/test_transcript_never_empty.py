"""Issue 29: every format gives back the messages a file is known to hold, and no file that
holds messages is ever read as empty with exit 0 (a recognised format that yields nothing,
beside records it could not read, says so and exits 2)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import invoke_memcli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.errors import InputError
from memcli.transcripts import FORMATS, read_transcript
from memcli.transcripts.verdict import check
from tests.transcript_expectations import EXPECTED, HERE, Expected

# The Markdown and text formats: each fixture's first words from the person, read by hand.
TEXT_FIXTURES = {
    "aider": ("extra/aider-chat-history.md", "Amounts are stored in cents as integers"),
    "cursor-export": ("extra/cursor-export-chat.md", "The checkout test fails randomly."),
    "copilot-share": ("extra/copilot-cli-share.md", "Our CI runs on self-hosted runners only"),
    "claude-export": ("extra/claude-code-export.txt", "The nightly invoice job fails"),
    "specstory": ("extra/specstory-history.md", "Migrations must stay reversible here"),
}
# bare {role, content} lines: no fixture file holds only those (alone they are "plain")
PLAIN = ('{"role": "user", "content": "Ship on Tuesdays."}\n'
         '{"role": "assistant", "content": "Noted."}\n')


def test_every_format_has_a_file_whose_messages_are_known_and_read_back() -> None:
    covered = {name for e in EXPECTED.values() for name in e.formats}
    for name, (path, first_words) in TEXT_FIXTURES.items():
        transcript = read_transcript((HERE / path).read_text(encoding="utf-8"))
        assert transcript.formats.keys() == {name}, path
        said = [m.text for m in transcript.messages if m.role == "user"]
        assert said and said[0].startswith(first_words), (path, said[:1])
        assert any(m.role == "assistant" for m in transcript.messages), path
        covered.add(name)
    plain = read_transcript(PLAIN)
    assert plain.formats == {"plain": 2}
    assert [(m.role, m.text) for m in plain.messages] == [
        ("user", "Ship on Tuesdays."), ("assistant", "Noted.")]
    covered.add("plain")
    assert set(FORMATS) <= covered, sorted(set(FORMATS) - covered)


def _garbled(line: str) -> str:
    """The line as a record no format claims: the same values under keys nobody writes."""
    value = json.loads(line)
    if isinstance(value, dict):
        return json.dumps({f"x_{k}": v for k, v in value.items()})
    return json.dumps({"x_value": value})


def _one_record_per_line(e: Expected) -> bool:
    if e.path.suffix != ".jsonl" or not e.path.is_file():
        return False
    lines = [line for line in e.path.read_text(encoding="utf-8").splitlines() if line.strip()]
    try:
        values = [json.loads(line) for line in lines]
    except ValueError:
        return False  # pretty-printed records
    return 2 <= len(values) <= 120  # the long real logs only make the search slower


JSON_LINES = sorted(name for name, e in EXPECTED.items() if _one_record_per_line(e))


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(JSON_LINES), data=st.data())
def test_no_file_holding_messages_reads_as_empty_with_exit_0(name: str, data: Any) -> None:
    # Keep the first line as written (a header a format recognises), then any of the others,
    # each as written or garbled into a shape nobody reads. Whatever is left: either some
    # message is read, or the read is refused, or nothing in the file went unread.
    e: Expected = EXPECTED[name]
    lines = [line for line in e.path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rest = lines[1:]
    kept = data.draw(st.lists(st.sampled_from(["keep", "garble", "drop"]),
                              min_size=len(rest), max_size=len(rest)))
    out = [lines[0]] + [_garbled(line) if how == "garble" else line
                        for line, how in zip(rest, kept, strict=True) if how != "drop"]
    transcript = read_transcript("\n".join(out) + "\n")
    try:
        check(transcript)
    except InputError:
        return
    assert transcript.messages or not (transcript.unknown or transcript.broken), (
        name, transcript.formats, transcript.unknown)


@pytest.mark.parametrize("name", ["pi-session-v1.jsonl", "droid-session-no-ids.jsonl",
                                  "kimi-wire-1.4-replies.jsonl", "kimi-wire-subagent.jsonl"])
def test_a_header_whose_records_are_unreadable_is_exit_2_not_an_empty_read(name: str) -> None:
    lines = (HERE / "extra" / name).read_text(encoding="utf-8").splitlines()
    text = "\n".join([lines[0], *(_garbled(line) for line in lines[1:])]) + "\n"
    result = invoke_memcli("transcript", "--json", "-", input=text)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "no messages found" in result.stderr and "recognised as" in result.stderr


def test_known_records_alone_without_a_message_stay_a_notice() -> None:
    # nothing in the file went unread: not an error (a hook on a session just begun)
    line = '{"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00Z", ' \
           '"cwd": "/p"}\n'
    result = invoke_memcli("transcript", "--json", "-", input=line)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["messages"] == []


def test_a_claude_trace_log_is_refused_by_name() -> None:
    pair = {"request": {"timestamp": 1751364000.1, "method": "POST",
                        "url": "https://api.anthropic.com/v1/messages?beta=true",
                        "headers": {"content-type": "application/json"},
                        "body": {"model": "claude-sonnet-4-5", "messages": [
                            {"role": "user", "content": "Use ruff, not flake8."}]}},
            "response": {"timestamp": 1751364002.4, "status_code": 200,
                         "headers": {"content-type": "text/event-stream"},
                         "body_raw": "event: message_start\ndata: {}\n\n"},
            "logged_at": "2025-07-01T10:00:02.400Z"}
    result = invoke_memcli("transcript", "-", input=json.dumps(pair) + "\n")
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert "claude-trace request/response log" in result.stderr


def test_a_muse_code_journal_is_refused_by_name() -> None:
    # the envelope of `muse exec --json` (Meta's Muse Code): one event-sourced record a line
    lines = "".join(json.dumps({
        "schema_version": 1, "id": f"0199a000-0000-7000-8000-00000000000{n}",
        "stream": {"kind": "session", "id": "s1"}, "sequence": n,
        "recorded_at": 1760000000000000 + n, "record_type": "event",
        "payload_type": kind, "payload": payload}) + "\n" for n, (kind, payload) in enumerate(
            [("turn.input.user", {"text": "We use uv, not pip."}),
             ("run.output.delta", {"delta": "Noted."})], start=1))
    result = invoke_memcli("transcript", "-", input=lines)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert "Muse Code journal record" in result.stderr


def test_a_kimi_reply_the_context_also_holds_is_read_once() -> None:
    part = {"type": "context.append_loop_event", "time": 2,
            "event": {"type": "content.part", "stepUuid": "s", "part": {
                "type": "text", "text": "Node 22 it is."}}}
    context = {"type": "context.append_message", "time": 3, "message": {
        "role": "assistant", "content": [{"type": "text", "text": "Node 22 it is."}]}}
    prompt = {"type": "turn.prompt", "time": 1, "origin": {"kind": "user"},
              "input": [{"type": "text", "text": "Which Node?"}]}
    text = "".join(json.dumps(r) + "\n" for r in (prompt, part, context))
    said = [(m.role, m.text) for m in read_transcript(text).messages]
    assert said == [("user", "Which Node?"), ("assistant", "Node 22 it is.")]


def test_a_cline_command_result_spanning_lines_is_not_the_person_s() -> None:
    history = [
        {"role": "user", "content": [{"type": "text", "text": "<task>\nRun the suite.\n</task>"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Running it."}]},
        {"role": "user", "content": [
            {"type": "text", "text": "[execute_command for 'pytest -q \\\n  -k \"not [slow]\"'] "
                                     "Result:"},
            {"type": "text", "text": "3 passed"}]},
    ]
    said = [(m.role, m.text) for m in read_transcript(json.dumps(history)).messages]
    assert said == [("user", "Run the suite."), ("assistant", "Running it.")]


_BLOCK = st.fixed_dictionaries({"type": st.sampled_from(
    ["text", "input_text", "output_text", "tool_use", "tool_result", "thinking", "image"]),
    "text": st.text(max_size=8)})
_CONTENT = st.one_of(st.none(), st.text(max_size=20), st.integers(),
                     st.lists(st.one_of(_BLOCK, st.text(max_size=5)), max_size=3),
                     st.dictionaries(st.sampled_from(["text", "type"]), st.text(max_size=5)))
_ROLE = st.one_of(st.sampled_from(["user", "assistant", "system", "developer", "tool", "model",
                                   "human", "function", "_checkpoint"]), st.integers())


@settings(max_examples=examples(300), deadline=None)
@given(role=st.one_of(st.none(), _ROLE), content=st.one_of(st.none(), _CONTENT))
def test_a_bare_chat_line_is_detected_as_the_full_scan_detects_it(role: Any,
                                                                  content: Any) -> None:
    # detect() does not ask every format about a {role, content} line (issue 29: the
    # plainest logs read at 10 x json.loads); the answer must be the full scan's
    from memcli.transcripts.detect import DETECTION_ORDER, detect

    rec = {k: v for k, v in (("role", role), ("content", content)) if v is not None}
    full = next((fmt for fmt in DETECTION_ORDER if fmt.matches(rec)), None)
    assert detect(rec) is full


def test_the_docs_list_every_format_with_the_versions_checked() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "transcripts.md").read_text(encoding="utf-8")
    rows = [line.split(" | ") for line in doc.splitlines() if line.startswith("| `")]
    listed = {row[0].removeprefix("| `").removesuffix("`"): row for row in rows}
    for name in FORMATS:
        assert name in listed, name
        assert len(listed[name]) >= 5 and listed[name][3].strip(), name  # versions tested


def _pi(entry_id: str, parent: str | None, role: str, text: str) -> dict[str, Any]:
    return {"type": "message", "id": entry_id, "parentId": parent,
            "timestamp": "2026-01-20T09:00:00.000Z",
            "message": {"role": role, "content": [{"type": "text", "text": text}]}}


def test_a_slice_of_a_pi_session_leaves_the_branch_beside_its_path_out() -> None:
    # a window at the end of a file: the branch point (a3) is before it, and the entries of
    # the abandoned branch (a4, a5) stop at the same missing parent as the path does
    text = "".join(json.dumps(r) + "\n" for r in (
        _pi("a4", "a3", "user", "Print YAML."), _pi("a5", "a4", "assistant", "YAML now."),
        _pi("a6", "a3", "user", "Keep JSON."), _pi("a7", "a6", "assistant", "JSON kept.")))
    said = [(m.role, m.text) for m in read_transcript(text).messages]
    assert said == [("user", "Keep JSON."), ("assistant", "JSON kept.")]


def test_a_pi_session_with_a_lost_line_keeps_what_came_before_it() -> None:
    text = "".join(json.dumps(r) + "\n" for r in (
        _pi("x1", None, "user", "First."), _pi("x2", "x1", "assistant", "One."),
        _pi("x4", "x3", "user", "Second."), _pi("x5", "x4", "assistant", "Two.")))
    assert [m.text for m in read_transcript(text).messages] == ["First.", "One.", "Second.",
                                                                 "Two."]
