"""Log variants real agents write that memcli once read as empty or wrong.

Each case is a small fixture written from the agent's documented record shapes (see
tests/fixtures/transcripts/extra/README.md): `memcli extract` with the offline rules must find
what the person said, and `--last-turn` must start at the right message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_memcli
from transcript_cli import EXTRA, extract, isolate, said

from memcli.transcripts import read_transcript


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return isolate(tmp_path, monkeypatch)


def contents(document: dict[str, Any]) -> list[str]:
    return [op["content"] for op in document["operations"]]


# --------------------------------------------------------------------------- Claude Code


QUEUED = EXTRA / "claude-code-queued-prompts.jsonl"


def test_claude_prompt_typed_while_working_is_extracted(env: Path) -> None:
    # Written only as a queued_command attachment: once dropped with the other attachments.
    assert "We use semicolons as CSV separators here, not commas." in contents(extract(QUEUED))


def test_claude_last_turn_is_the_persons_last_prompt_not_a_notification(env: Path) -> None:
    last = extract(QUEUED, "--last-turn")
    assert contents(last) == ["Run the linter before every commit."]
    assert last["transcript"]["messages"] == 2


def test_claude_messages_of_other_origins_are_never_the_person() -> None:
    text = QUEUED.read_text("utf-8")
    everything = read_transcript(text, include_injected=True)
    injected = [m.text for m in everything.messages if m.role == "tool"]
    assert any("PEER_SECRET" in t for t in injected)
    assert any("<task-notification>" in t for t in injected)
    default = read_transcript(text)
    assert default.dropped["teammate message"] == 1
    assert default.dropped["task notification"] == 1
    assert not any("PEER_SECRET" in m.text or "task-id" in m.text for m in default.messages)


def test_claude_queued_prompt_belongs_to_the_turn_it_interrupted() -> None:
    # A slice that ends mid-turn: the queued prompt is the person's, but the turn started at
    # the prompt before it (the hook of the turn before had already run).
    lines = QUEUED.read_text("utf-8").splitlines(keepends=True)
    upto = next(i for i, line in enumerate(lines) if '"msg_2"' in line)
    turn = said("".join(lines[: upto + 1]), last_turn=True)
    assert turn[0] == ("user", "Add a CSV export to the orders page.")
    assert ("user", "We use semicolons as CSV separators here, not commas.") in turn


def test_claude_queued_notification_and_shell_command_are_not_typed() -> None:
    def queued(**attachment: Any) -> str:
        record = {"type": "attachment", "sessionId": "s", "uuid": "q", "parentUuid": None,
                  "attachment": {"type": "queued_command", **attachment}}
        return json.dumps(record) + "\n"

    text = (queued(prompt="<task-notification>done</task-notification>",
                   commandMode="task-notification", origin={"kind": "task-notification"})
            + queued(prompt="ls -la", commandMode="bash")
            + queued(prompt=[{"type": "text", "text": "also check the logs"}],
                     commandMode="prompt", origin={"kind": "human"}))
    transcript = read_transcript(text)
    assert [(m.role, m.text) for m in transcript.messages] == [("user", "also check the logs")]
    assert transcript.dropped == {"task notification": 1, "shell escape": 1}


# --------------------------------------------------------------------------- Gemini CLI


@pytest.mark.parametrize("name, fact", [
    ("gemini-checkpoint-legacy.json", "Never call it by hand."),
    ("gemini-checkpoint-history.json", "We deploy with `make release`, not with the GitHub UI."),
])
def test_gemini_checkpoint_statements_are_extracted(env: Path, name: str, fact: str) -> None:
    # Once read as one OpenAI record with no text: exit 0 and nothing found, silently.
    document = extract(EXTRA / name)
    assert fact in contents(document)
    assert document["transcript"]["formats"] == {"gemini": 1}


def test_gemini_checkpoint_last_turn_and_what_stays_out() -> None:
    text = (EXTRA / "gemini-checkpoint-history.json").read_text("utf-8")
    assert said(text, last_turn=True) == [
        ("user", "Please also add a changelog entry for the rounding fix."),
        ("assistant", "Added the changelog entry."),
    ]
    tools = said(text, include_tools=True)
    assert ("tool", '[replace] {"file_path": "CHANGELOG.md", "old_string": "## Unreleased", '
            '"new_string": "## Unreleased\\n- Fix rounding"}') in tools
    assert ("tool", '{"output": "Successfully modified file: CHANGELOG.md (1 replacements)."}'
            ) in tools


def test_gemini_content_thoughts_need_the_thinking_flag() -> None:
    text = (EXTRA / "gemini-checkpoint-legacy.json").read_text("utf-8")
    assert not any(role == "thinking" for role, _ in said(text))
    thinking = [t for role, t in said(text, include_thinking=True) if role == "thinking"]
    assert thinking == ["**Locating the job**\n\nI'll read the job first."]


def test_gemini_setup_context_is_injected_in_every_format() -> None:
    setup = ("This is the Qwen Code. We are setting up the context for our chat.\n"
             "Today's date is Monday.")
    line = json.dumps({"role": "user", "content": setup}) + "\n"
    transcript = read_transcript(line)
    assert transcript.messages == []
    assert transcript.dropped == {"injected": 1}
    mixed = json.dumps({"role": "user", "content": "Remember: " + setup}) + "\n"
    assert len(read_transcript(mixed).messages) == 1  # only the opening is the CLI's


# --------------------------------------------------------------------------- Codex


LEGACY = EXTRA / "codex-legacy-rollout.jsonl"


def test_codex_legacy_rollout_is_read_whole_as_codex(env: Path) -> None:
    # Once: the messages as "openai" and six records of unknown shape (fatal with --strict).
    document = extract(LEGACY, "--strict")
    assert contents(document) == ["This repository uses pnpm, not npm."]
    assert document["transcript"]["formats"] == {"codex": 15}
    assert document["transcript"]["unknown"] == {}


def test_codex_legacy_tools_and_reasoning_come_with_their_flags() -> None:
    text = LEGACY.read_text("utf-8")
    everything = said(text, include_tools=True, include_thinking=True)
    assert ("thinking", "**Checking the workspace layout**") in everything
    assert ("tool", '[shell] {"command":["bash","-lc","pnpm --filter web add lodash"],'
            '"workdir":"/home/dev/shop"}') in everything
    assert not any("ENCRYPTED" in t for _, t in everything)
    assert said(text, last_turn=True) == [("user", "Thanks. Run the web tests too."),
                                          ("assistant", "The web tests pass.")]


def test_codex_legacy_read_the_same_when_forced() -> None:
    text = LEGACY.read_text("utf-8")
    forced = read_transcript(text, fmt="codex")
    assert forced.formats == {"codex": 15}
    assert [(m.role, m.text) for m in forced.messages] == said(text)


# --------------------------------------------------------------------------- files as written


def transcript_cli(path: Path, *flags: str) -> Any:
    return invoke_memcli("transcript", "--json", str(path), *flags)


def zstd_frames(data: bytes, pieces: int = 2) -> bytes:
    from backports import zstd

    step = len(data) // pieces + 1
    return b"".join(zstd.compress(data[i:i + step], level=3) for i in range(0, len(data), step))


def test_codex_rollout_compressed_after_a_week_is_read(env: Path, tmp_path: Path) -> None:
    # Codex 0.137+ rewrites a rollout idle for 7 days as rollout-*.jsonl.zst, frames appended.
    compressed = tmp_path / "rollout-2025-08-18T01-16-13-0d1f.jsonl.zst"
    compressed.write_bytes(zstd_frames(LEGACY.read_bytes(), pieces=3))
    assert contents(extract(compressed)) == ["This repository uses pnpm, not npm."]
    plain = json.loads(transcript_cli(LEGACY).stdout)
    assert json.loads(transcript_cli(compressed).stdout) == plain


def test_zstd_cut_short_gives_its_complete_part(tmp_path: Path) -> None:
    from backports import zstd

    lines = LEGACY.read_bytes().splitlines(keepends=True)
    whole = zstd.compress(b"".join(lines[:5]))
    cut = zstd.compress(b"".join(lines[5:]))
    path = tmp_path / "rollout.jsonl.zst"
    path.write_bytes(whole + cut[: len(cut) // 2])
    result = transcript_cli(path)
    assert result.exit_code == 0, result.output
    messages = json.loads(result.stdout)["messages"]
    assert messages[0]["text"] == ("This repository uses pnpm, not npm. Add lodash to the web "
                                   "package.")


def test_zstd_bomb_is_refused_at_the_limit() -> None:
    from backports import zstd

    from memcli.errors import InputError
    from memcli.transcripts.source import decode_transcript

    bomb = zstd.compress(b"\n" * (3 * 1024 * 1024))  # about 100 bytes
    assert decode_transcript(bomb, 3 * 1024 * 1024) == "\n" * (3 * 1024 * 1024)
    with pytest.raises(InputError, match="larger than 2 MiB once decompressed"):
        decode_transcript(bomb, 2 * 1024 * 1024)


@pytest.mark.parametrize("garbage", [b"\x00" * 64, b"\xff" * 64])
def test_zstd_garbage_is_a_one_line_error(tmp_path: Path, garbage: bytes) -> None:
    path = tmp_path / "garbage.jsonl.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd" + garbage)
    result = transcript_cli(path)
    assert result.exit_code == 2
    assert result.stderr.startswith("memcli: error: the transcript is not valid zstd data")
    assert result.stderr.count("\n") == 1


def test_gzip_says_so(tmp_path: Path) -> None:
    import gzip

    path = tmp_path / "rollout.jsonl.gz"
    path.write_bytes(gzip.compress(LEGACY.read_bytes()))
    result = transcript_cli(path)
    assert result.exit_code == 2
    assert result.stderr == ("memcli: error: the transcript is gzip-compressed; decompress it "
                             "first (gunzip -k FILE)\n")


def test_utf16_from_a_powershell_redirect_is_read(env: Path, tmp_path: Path) -> None:
    path = tmp_path / "stream.jsonl"
    path.write_bytes(QUEUED.read_text("utf-8").replace("\n", "\r\n").encode("utf-16"))
    assert json.loads(transcript_cli(path).stdout) == json.loads(transcript_cli(QUEUED).stdout)


def test_a_log_cut_inside_a_character_reads_up_to_its_last_line(tmp_path: Path) -> None:
    # The writer had put out the first byte of "é" when the log was read.
    partial = json.dumps({"role": "user", "content": "Caf\u00e9"}, ensure_ascii=False).encode()
    path = tmp_path / "live.jsonl"
    path.write_bytes(LEGACY.read_bytes() + partial[: partial.index(b"\xc3") + 1])
    result = transcript_cli(path)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["skipped"]["lines not JSON"] == 1
    assert len(document["messages"]) == 4
    assert "not JSON" in result.stderr


def test_crlf_and_byte_order_mark_read_as_plain_lines(tmp_path: Path) -> None:
    path = tmp_path / "windows.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + LEGACY.read_bytes().replace(b"\n", b"\r\n"))
    assert json.loads(transcript_cli(path).stdout)["messages"] == json.loads(
        transcript_cli(LEGACY).stdout)["messages"]


# --------------------------------------------------------------------------- Aider


AIDER = EXTRA / "aider-chat-history.md"


def test_aider_history_statements_are_extracted(env: Path) -> None:
    # Once: "no messages found: 46 lines, none of them JSON", exit 2.
    document = extract(AIDER)
    assert document["transcript"]["formats"] == {"aider": 14}
    assert contents(document) == ["Never use floats for money.",
                                  "We use pytest, never unittest, in this repo."]


def test_aider_last_turn_and_what_is_aiders_own() -> None:
    text = AIDER.read_text("utf-8")
    assert said(text, last_turn=True) == [
        ("user", "Thanks. Also, we use pytest, never unittest, in this repo."),
        ("assistant", "Noted: pytest only."),
    ]
    default = said(text)
    assert ("user", "Amounts are stored in cents as integers; never use floats for money.\n"
            "Please fix the rounding in total().") in default
    assert ("user", "why did the test for refunds fail?") in default  # /ask's question
    reply = next(t for role, t in default if t.startswith("You're right"))
    assert "#### Changes" in reply and "REPLACE" in reply  # a heading in a reply stays there
    assert not any(t.startswith(("/add", "/run", "Added src", "Tokens:")) for _, t in default)
    tools = said(text, include_tools=True)
    assert ("tool", "Applied edit to src/billing.py\nCommit 1a2b3c4 fix: use integer cents in "
            "total()") in [(r, t.split("\n", 1)[1]) if t.startswith("Tokens") else (r, t)
                           for r, t in tools]


def test_aider_with_crlf_line_ends_reads_the_same() -> None:
    text = AIDER.read_text("utf-8")
    assert said(text.replace("\n", "\r\n")) == said(text)


def test_aider_forced_and_refused() -> None:
    text = AIDER.read_text("utf-8")
    assert read_transcript(text, fmt="aider").formats == {"aider": 14}
    forced = read_transcript(LEGACY.read_text("utf-8"), fmt="aider")
    assert forced.formats == {} and sum(forced.unknown.values()) == 15  # nothing is Aider's
    # a JSON transcript that quotes Aider's header is still JSON
    quoted = json.dumps({"role": "user", "content": "x\n# aider chat started at 2024"}) + "\n"
    assert read_transcript(quoted).formats == {"plain": 1}


def test_plain_text_is_a_one_line_error(env: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("we talked about the deploy\nand agreed on Fridays\n")
    result = invoke_memcli("extract", "--input", str(notes))
    assert result.exit_code == 2
    assert result.stderr == ("memcli: error: no messages found: 2 lines, none of them JSON (the "
                             "first starts with \"we talked about the deploy\"); see memcli "
                             "transcript --formats\n")


# --------------------------------------------------------------------------- Copilot Chat


@pytest.mark.parametrize("name", ["copilot-chat-session.json", "copilot-chat-session.jsonl"])
def test_copilot_chat_session_statements_are_extracted(env: Path, name: str) -> None:
    # Once: "no messages found ... (object with keys ...)" for the session, and for the
    # mutation log nine records of unknown shape.
    document = extract(EXTRA / name)
    assert document["transcript"]["formats"] == {"copilot-chat": 1}
    assert any("Node 20" in c for c in contents(document)), contents(document)
    last = extract(EXTRA / name, "--last-turn")
    assert last["transcript"]["messages"] == 2


def test_copilot_chat_log_replays_to_the_session_it_was_written_from() -> None:
    session = read_transcript((EXTRA / "copilot-chat-session.json").read_text("utf-8"),
                              include_tools=True, include_thinking=True)
    log = read_transcript((EXTRA / "copilot-chat-session.jsonl").read_text("utf-8"),
                          include_tools=True, include_thinking=True)
    assert log.messages == session.messages
    assert [m.role for m in log.messages] == ["user", "thinking", "tool", "assistant", "tool",
                                              "user", "assistant"]
    assert log.messages[0].timestamp == "2025-11-24T08:00:00.000Z"


def test_copilot_chat_log_with_broken_entries_never_raises() -> None:
    snapshot = {"kind": 0, "v": {"version": 3, "requests": [
        {"message": {"text": "hello"}, "response": []}]}}
    odd = [{"kind": 1, "k": ["requests", 5, "response"], "v": []},
           {"kind": 2, "k": "requests", "v": 3},
           {"kind": 2, "k": ["requests", 0, "response"], "v": [{"value": "hi"}], "i": -1},
           {"kind": 3, "k": ["requests", 0, "message", "nope"]},
           {"kind": 1, "k": [], "v": None},
           {"kind": 3, "k": ["requests", 0, ["message"]]},
           {"kind": 9, "k": ["x"]}]
    text = "".join(json.dumps(v) + "\n" for v in [snapshot, *odd])
    transcript = read_transcript(text)
    assert [(m.role, m.text) for m in transcript.messages] == [("user", "hello"),
                                                              ("assistant", "hi")]
    assert transcript.unknown == {"object with keys k, kind": 1}


# --------------------------------------------------------------------------- Cline


def test_cline_ui_messages_statements_are_extracted(env: Path) -> None:
    # Once: "no messages found ... (type=say: 9, type=ask: 5)".
    document = extract(EXTRA / "cline-ui_messages.json")
    assert document["transcript"]["formats"] == {"cline": 1}
    # The person's statement is kept (the learned detector may also keep their answer to the
    # follow-up question); nothing of a tool's output or the assistant's words becomes a note.
    notes = contents(document)
    assert "Always pass per_page=100." in notes
    assert not any("TOOL_OUTPUT" in n or "parallel or one after another" in n for n in notes)
    last = extract(EXTRA / "cline-ui_messages.json", "--last-turn")
    assert last["transcript"]["messages"] == 2


def test_cline_ui_followup_question_is_read_from_its_json() -> None:
    text = (EXTRA / "cline-ui_messages.json").read_text("utf-8")
    assert ("assistant", "Should pages be fetched in parallel or one after another?") in said(
        text)
    tools = [t for role, t in said(text, include_tools=True) if role == "tool"]
    assert tools[0].startswith('{"tool": "readFile"')
    assert "TOOL_OUTPUT_SECRET 14 passing" in tools[-1]


ROO_UI = EXTRA / "roo-ui_messages.json"


def test_roo_code_task_written_as_text_is_the_persons(env: Path) -> None:
    # Roo Code, Kilo Code and Cline before say "task" open the chat view with the task as a
    # say "text", the kind the model's text has: it was read as the assistant's words.
    document = extract(ROO_UI)
    assert any("component library" in note for note in contents(document))
    assert said(ROO_UI.read_text("utf-8"))[0][0] == "user"


@pytest.mark.parametrize("records", [
    # no request after it: nothing says the model had not spoken yet
    [{"ts": 1, "type": "say", "say": "text", "text": "WORDS"},
     {"ts": 2, "type": "ask", "ask": "completion_result", "text": ""}],
    # a request before it: the model's text
    [{"ts": 1, "type": "say", "say": "api_req_started", "text": "{}"},
     {"ts": 2, "type": "say", "say": "text", "text": "WORDS"},
     {"ts": 3, "type": "say", "say": "api_req_started", "text": "{}"}],
])
def test_a_ui_text_is_the_task_only_before_the_first_request(records: list[Any]) -> None:
    assert ("assistant", "WORDS") in said(json.dumps(records))


def test_ui_messages_one_a_line_are_not_taken_for_a_task() -> None:
    # the first text of lines piped from the middle of a log may be anyone's
    text = "".join(json.dumps(r) + "\n" for r in [
        {"ts": 1, "type": "say", "say": "text", "text": "WORDS"},
        {"ts": 2, "type": "say", "say": "api_req_started", "text": "{}"}])
    assert said(text) == [("assistant", "WORDS")]


def test_codex_subagent_instructions_are_not_the_person() -> None:
    text = (EXTRA / "codex-subagent-rollout.jsonl").read_text("utf-8")
    transcript = read_transcript(text)
    assert [m.role for m in transcript.messages] == ["assistant"]
    assert transcript.dropped["subagent"] == 2
    # the same lines without the subagent header are an ordinary session
    ordinary = read_transcript("".join(text.splitlines(keepends=True)[1:]))
    assert ordinary.messages[0].text == "PARENT_HISTORY: find where prices are rounded."
    assert [m.role for m in read_transcript(text, last_turn=True).messages] == ["assistant"]


# --------------------------------------------------------------------------- Cursor


CURSOR_EXPORT = EXTRA / "cursor-export-chat.md"


def test_cursor_export_statements_are_extracted(env: Path) -> None:
    # Once: "no messages found: 46 lines, none of them JSON".
    document = extract(CURSOR_EXPORT)
    assert document["transcript"]["formats"] == {"cursor-export": 6}
    assert "Always use tmp_path for files in tests." in contents(document)
    assert extract(CURSOR_EXPORT, "--last-turn")["transcript"]["messages"] == 2


def test_cursor_export_keeps_a_rule_inside_a_reply() -> None:
    replies = [t for role, t in said(CURSOR_EXPORT.read_text("utf-8")) if role == "assistant"]
    assert len(replies) == 3
    assert "```\n\n---\n\nWith a temporary path per test" in replies[1]


def test_cursor_database_is_a_one_line_error(tmp_path: Path) -> None:
    vscdb = tmp_path / "state.vscdb"
    vscdb.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    result = transcript_cli(vscdb)
    assert result.exit_code == 2
    assert result.stderr.startswith("memcli: error: the transcript is an SQLite database")
    assert result.stderr.count("\n") == 1


SHARE = EXTRA / "gemini-chat-share.md"


@pytest.mark.parametrize("heading", ["current", "icon first", "oldest"])
def test_gemini_share_markdown_reads_as_its_checkpoint(heading: str) -> None:
    # Once: "no messages found: N lines, none of them JSON".
    text = SHARE.read_text("utf-8")
    user, model = "## USER \U0001f9d1\u200d\U0001f4bb", "## MODEL \u2728"
    if heading == "icon first":
        text = text.replace(user, "\U0001f9d1\u200d\U0001f4bb ## USER").replace(
            model, "\u2728 ## MODEL")
    elif heading == "oldest":
        text = text.replace(user, "**user**:").replace(model, "**model**:")
    checkpoint = (EXTRA / "gemini-checkpoint-history.json").read_text("utf-8")
    for flags in ({}, {"include_tools": True}, {"last_turn": True}):
        assert said(text, **flags) == said(checkpoint, **flags)
    assert read_transcript(text).formats == {"gemini": 8}
    assert read_transcript(text, fmt="gemini").formats == {"gemini": 8}


def test_gemini_share_statement_is_extracted(env: Path) -> None:
    assert "We deploy with `make release`, not with the GitHub UI." in contents(extract(SHARE))


def test_gemini_content_with_a_part_that_is_not_an_object_is_read_not_a_crash() -> None:
    # {"parts": [7]} once raised AttributeError (a crash log, exit 5) in the setup-reply check
    record = {"role": "model", "parts": [7, {"text": "Use the staging bucket."}]}
    assert said(json.dumps(record)) == [("assistant", "Use the staging bucket.")]
