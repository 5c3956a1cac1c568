"""Reading a file from its end (``--last-turn``) and line by line (everything else) gives
what reading its whole text gives.

The whole-text read (``read_transcript(text)``) is the reference: every transcript fixture,
local and shared, with several sets of flags, and cut at many places (a hook reads a log
the agent is still writing), is read both ways and must give the same messages, in the same
order, from the same formats. The last-turn windows start at one byte, so every place a
window can begin is crossed.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tiers import share

from memcli.errors import InputError
from memcli.transcripts import Options, read_transcript
from memcli.transcripts.model import Transcript
from memcli.transcripts.source import TranscriptFile, open_blob
from memcli.transcripts.tail import FIRST_WINDOW, read_last_turn

ROOT = Path(__file__).resolve().parents[1]
LOCAL = ROOT / "tests" / "fixtures" / "transcripts"
SHARED = ROOT / ".." / "shared" / "fixtures" / "transcripts"


def fixture_files() -> list[Path]:
    """The local fixtures, then each shared one that is not a byte-for-byte copy of the local
    file at the same place (most are: reading the same bytes twice tests nothing more)."""
    found = []
    for folder in (LOCAL, SHARED):
        if folder.is_dir():
            found += sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix != ".md"
                            and not _copy_of_local(p, folder))
    return found


def _copy_of_local(path: Path, folder: Path) -> bool:
    if folder == LOCAL:
        return False
    local = LOCAL / path.relative_to(folder)
    return local.is_file() and local.read_bytes() == path.read_bytes()


FILES = fixture_files()
IDS = [str(p.relative_to(p.parents[1])) + ("" if p.is_relative_to(LOCAL) else " (shared)")
       for p in FILES]
FLAG_SETS: list[dict[str, bool]] = [
    {},
    {"include_tools": True, "include_thinking": True, "include_injected": True},
    {"include_injected": True},
]


def said(t: Transcript) -> list[tuple[str, str, str | None, str]]:
    return [(m.role, m.text, m.timestamp, f)
            for m, f in zip(t.messages, t.message_formats, strict=True)]


def whole_text(data: bytes, **flags: Any) -> Transcript | str:
    from memcli.transcripts.source import decode_transcript

    try:
        return read_transcript(decode_transcript(data, 1 << 30), **flags)
    except InputError as exc:
        return f"error: {exc}"


def from_file(path: Path, **flags: Any) -> Transcript | str:
    try:
        return read_transcript(TranscriptFile(path), **flags)
    except InputError as exc:
        return f"error: {exc}"


def from_the_end(path: Path, first_window: int, **flags: bool) -> Transcript | None:
    opts = Options(last_turn=True, **flags)
    with open_blob(TranscriptFile(path)) as blob:
        return read_last_turn(blob, opts, first_window=first_window)


def cuts(data: bytes, most: int = 16) -> Iterator[int]:
    """Places to cut ``data``: after some of its lines, and inside some of them."""
    ends = [i + 1 for i, byte in enumerate(data) if byte == 0x0A]
    step = max(len(ends) // most, 1)
    for end in ends[::step]:
        yield end
        yield max(end - 7, 0)  # a line cut short, as a hook may read one being written
    yield len(data)


def _the_last_turn_from_the_end_is_the_whole_reads(path: Path, tmp_path: Path,
                                                   fast_share: bool) -> int:
    """The cuts of the fast tier's share (the file's end and every fourth cut before it) or
    the others, each read from the end and whole; how many were read from the end."""
    data = path.read_bytes()
    cut_file = tmp_path / path.name
    read_from_end = 0
    for cut in share(cuts(data), fast_share):
        cut_file.write_bytes(data[:cut])
        for flags in FLAG_SETS:
            reference = whole_text(data[:cut], last_turn=True, **flags)
            if isinstance(reference, str):
                assert from_file(cut_file, last_turn=True, **flags) == reference
                continue
            for first_window in (1, 300):
                tail = from_the_end(cut_file, first_window, **flags)
                if tail is not None:
                    read_from_end += 1
                    assert said(tail) == said(reference), (cut, flags, first_window)
            through_the_cli_path = from_file(cut_file, last_turn=True, **flags)
            assert isinstance(through_the_cli_path, Transcript)
            assert said(through_the_cli_path) == said(reference), (cut, flags)
    return read_from_end


# The tiers share the cuts, none read twice: the fast tier reads the whole file and every
# fourth cut before it, the slow tier the other three quarters (the whole suite, all of them).
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_last_turn_from_the_end_is_the_whole_reads(path: Path, tmp_path: Path) -> None:
    read_from_end = _the_last_turn_from_the_end_is_the_whole_reads(path, tmp_path, True)
    if path.suffix == ".jsonl" and any(f in str(path) for f in ("claude-code", "codex")):
        assert read_from_end, "no window of this log was read from the end"


@pytest.mark.slow  # a campaign: 33 cuts of every fixture, read five ways with three flag sets
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_last_turn_from_the_end_is_the_whole_reads_at_the_other_cuts(path: Path,
                                                                         tmp_path: Path) -> None:
    _the_last_turn_from_the_end_is_the_whole_reads(path, tmp_path, False)


@pytest.mark.parametrize("path", FILES, ids=IDS)
@pytest.mark.parametrize("flags", [*FLAG_SETS, {"strict": True}], ids=["default", "all",
                                                                          "injected", "strict"])
def test_a_file_read_line_by_line_is_the_whole_text_read(path: Path, flags: dict[str, bool]
                                                          ) -> None:
    """Everything, counts included: the streamed read is the whole read, a line at a time."""
    reference = whole_text(path.read_bytes(), **flags)
    assert from_file(path, **flags) == reference


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_what_an_entry_keeps_of_its_record_changes_nothing(path: Path) -> None:
    """An entry keeps only ``model.ORDER_KEYS`` of its record, and a piece its raw value
    only when it may be shown: read with whole records, every fixture gives the same."""
    from memcli.transcripts.json_input import parse_records
    from memcli.transcripts.pipeline import finish, ordered_pieces, prepare
    from memcli.transcripts.source import decode_transcript

    values = parse_records(decode_transcript(path.read_bytes(), 1 << 30), False).values
    for flags in [*FLAG_SETS, {"last_turn": True}, {"include_tools": True, "last_turn": True}]:
        opts = Options(**flags)
        reads = []
        for whole in (True, False):
            prepared = prepare(json.loads(json.dumps(values)), opts, None, whole_records=whole)
            reads.append(finish(prepared, ordered_pieces(prepared, opts), opts, None))
        assert reads[0] == reads[1], flags


def test_counts_and_odd_bytes_match_the_whole_read(tmp_path: Path) -> None:
    """A byte order mark (twice), blank and CRLF lines, a pretty-printed record in the middle,
    garbage, and a last line cut inside a character."""
    lines = [
        '{"type":"user","message":{"role":"user","content":"first"},"uuid":"a",'
        '"parentUuid":null,"sessionId":"s"}\r',
        "",
        "   ",
        "not json at all",
        "{",
        '  "role": "assistant",',
        '  "content": "pretty"',
        "}",
        '{"role":"user","content":"\u00e9t\u00e9 \U0001f600"}',
    ]
    body = ("\ufeff" + "\n".join(lines) + "\n").encode() + b'{"role":"user","content":"caf\xc3'
    for data in (body, b"\xef\xbb\xbf" + body, body.replace(b"\n", b"\r\n")):
        path = tmp_path / "odd.jsonl"
        path.write_bytes(data)
        for flags in ({}, {"last_turn": True}, {"strict": True}):
            reference = whole_text(data, **flags)
            assert from_file(path, **flags) == reference, flags


def test_invalid_utf8_is_the_same_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    data = b'{"role":"user","content":"ok"}\n{"role":"user","content":"\xff"}\n'
    path.write_bytes(data)
    reference = whole_text(data)
    assert isinstance(reference, str) and "not valid UTF-8 (byte 57)" in reference
    assert from_file(path) == reference


# --------------------------------------------------------------------------- memory


def claude_session(path: Path, turns: int) -> None:
    """A Claude Code session of ``turns`` turns: a prompt, a tool call with a 20 kB result,
    an answer; each line's parent the line before it."""
    parent: str | None = None
    with path.open("w", encoding="utf-8") as out:
        for n in range(turns):
            for step, (kind, content) in enumerate((
                ("user", f"turn {n}: please look at module {n}"),
                ("assistant", [{"type": "tool_use", "id": f"t{n}", "name": "Read",
                                "input": {"file_path": f"m{n}.py"}}]),
                ("user", [{"type": "tool_result", "tool_use_id": f"t{n}",
                           "content": f"line {n}\n" * 2500}]),
                ("assistant", f"module {n} reads its configuration once"),
            )):
                uuid = f"u{n}-{step}"
                record: dict[str, Any] = {
                    "type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s",
                    "timestamp": "2026-12-02T00:00:00Z",
                    "message": {"role": kind, "content": content},
                }
                if isinstance(content, list) and content[0]["type"] == "tool_result":
                    record["toolUseResult"] = {"stdout": content[0]["content"]}
                out.write(json.dumps(record) + "\n")
                parent = uuid


def peak_of(path: Path, **flags: Any) -> int:
    tracemalloc.start()
    try:
        transcript = read_transcript(TranscriptFile(path), **flags)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert transcript.messages
    return peak


def test_memory_of_the_last_turn_does_not_grow_with_the_session(tmp_path: Path) -> None:
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    claude_session(small, 40)
    claude_session(big, 160)
    assert big.stat().st_size > 3.5 * small.stat().st_size > 6_000_000
    last = read_transcript(TranscriptFile(big), last_turn=True)
    assert [m.text for m in last.messages] == ["turn 159: please look at module 159",
                                               "module 159 reads its configuration once"]
    peak_small, peak_big = peak_of(small, last_turn=True), peak_of(big, last_turn=True)
    # one window of the file's end (its bytes, its text, its values), whatever its length
    assert peak_big < 1.5 * peak_small + 200_000
    assert peak_big < 8 * FIRST_WINDOW < big.stat().st_size / 3


def test_memory_of_a_whole_read_is_a_fraction_of_the_file(tmp_path: Path) -> None:
    """Tool results are most of a session; the read keeps none of them once read."""
    path = tmp_path / "session.jsonl"
    claude_session(path, 160)
    size = path.stat().st_size
    assert peak_of(path) < size / 4
    assert peak_of(path, include_tools=True) < 2 * size  # those it keeps, cut to budget


# --------------------------------------------------------------------------- what the end
# alone cannot tell: each case puts what decides the last turn far before the file's end


def same_from_the_end(path: Path, **flags: bool) -> list[Transcript | None]:
    reference = whole_text(path.read_bytes(), last_turn=True, **flags)
    assert isinstance(reference, Transcript)
    found = [from_the_end(path, window, **flags) for window in (1, 512, 4096, 1 << 16)]
    for tail in found:
        assert tail is None or said(tail) == said(reference)
    through_the_cli_path = from_file(path, last_turn=True, **flags)
    assert isinstance(through_the_cli_path, Transcript)
    assert said(through_the_cli_path) == said(reference)
    return found


def write_lines(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def codex(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2026-12-02T00:00:00Z", "type": kind, "payload": payload}


def codex_said(role: str, text: str) -> dict[str, Any]:
    part = "input_text" if role == "user" else "output_text"
    return codex("response_item", {"type": "message", "role": role,
                                   "content": [{"type": part, "text": text}]})


PADDING = [codex_said("assistant", f"step {n}: " + "words " * 40) for n in range(300)]


def test_an_echo_whose_original_is_far_back(tmp_path: Path) -> None:
    """Codex Desktop writes some prompts as events alone; the same words typed long before
    make a whole read drop the late one as an echo of them."""
    records = [codex("session_meta", {"id": "s"}), codex_said("user", "continue"),
               codex("event_msg", {"type": "user_message", "message": "continue"}),
               *PADDING, codex("event_msg", {"type": "user_message", "message": "continue"}),
               codex_said("assistant", "done")]
    same_from_the_end(write_lines(tmp_path / "echo.jsonl", records))


def test_an_echo_with_its_original_in_the_turn_is_read_from_the_end(tmp_path: Path) -> None:
    records = [codex("session_meta", {"id": "s"}), *PADDING, codex_said("user", "go on"),
               codex("event_msg", {"type": "user_message", "message": "go on"}),
               codex_said("assistant", "went on"),
               codex("event_msg", {"type": "agent_message", "message": "went on"})]
    found = same_from_the_end(write_lines(tmp_path / "echo.jsonl", records))
    assert found[0] is not None and [m.text for m in found[0].messages] == ["go on", "went on"]
    assert found[0].records < len(records) / 10


def test_a_codex_subagent_is_told_by_the_first_line(tmp_path: Path) -> None:
    sub = codex("session_meta", {"id": "child", "source": {"subagent": "review"}})
    parent = codex("session_meta", {"id": "parent", "source": "cli"})
    records = [sub, parent, *PADDING, codex_said("user", "review this"),
               codex_said("assistant", "reviewed")]
    for flags in ({}, {"include_injected": True}):
        same_from_the_end(write_lines(tmp_path / "sub.jsonl", records), **flags)
    # a header that is not the first line: the whole file decides
    records = [codex_said("assistant", "before the header"), *records]
    assert same_from_the_end(write_lines(tmp_path / "late.jsonl", records))[0] is None


def gemini(kind: str, ident: str, text: str) -> dict[str, Any]:
    return {"id": ident, "timestamp": "2026-12-02T00:00:00Z", "type": kind, "content": text}


def test_a_gemini_message_rewritten_far_from_its_first_copy(tmp_path: Path) -> None:
    header = {"sessionId": "s", "projectHash": "p", "startTime": "2026-12-02T00:00:00Z"}
    pad = [gemini("gemini", f"pad-{n}", "thinking " * 30) for n in range(200)]
    records = [header, gemini("user", "u1", "first"), gemini("gemini", "g1", "working"),
               gemini("user", "u2", "second"), *pad, gemini("gemini", "g1", "finished")]
    found = same_from_the_end(write_lines(tmp_path / "rewrite.jsonl", records))
    assert any(f is not None for f in found)
    rewind = [header, *pad[:100], gemini("user", "u1", "kept"), gemini("user", "u2", "retracted"),
              *pad[100:], {"$rewindTo": "u2"}, gemini("gemini", "g9", "after the rewind")]
    same_from_the_end(write_lines(tmp_path / "rewind.jsonl", rewind))


def claude(kind: str, uuid: str, parent: str | None, content: Any) -> dict[str, Any]:
    return {"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s",
            "timestamp": "2026-12-02T00:00:00Z", "message": {"role": kind, "content": content}}


def test_a_claude_rewind_back_past_the_window(tmp_path: Path) -> None:
    """The last prompt's parent is the second line: everything between is an abandoned
    branch, and the chain puts the prompt right after that parent."""
    middle = [claude("assistant" if n % 2 else "user", f"m{n}", f"m{n - 1}" if n else "a2",
                     f"branch {n} " + "text " * 40) for n in range(200)]
    records = [claude("user", "a1", None, "start"), claude("assistant", "a2", "a1", "ok"),
               *middle, claude("user", "r1", "a2", "try again differently"),
               claude("assistant", "r2", "r1", "trying")]
    found = same_from_the_end(write_lines(tmp_path / "rewind.jsonl", records))
    assert found[0] is not None
    assert [m.text for m in found[0].messages] == ["try again differently", "trying"]
    # and a queued prompt, a task notification and a sidechain line inside the last turn
    queued = {"type": "attachment", "uuid": "q1", "parentUuid": "r2", "sessionId": "s",
              "attachment": {"type": "queued_command", "prompt": "also the docs"}}
    note = {**claude("user", "n1", "q1", "<task-notification>done</task-notification>"),
            "origin": {"kind": "task-notification"}}
    side = {**claude("user", "s1", None, "subagent prompt"), "isSidechain": True}
    records += [queued, note, side, claude("assistant", "r3", "n1", "and the docs")]
    for flags in FLAG_SETS:
        same_from_the_end(write_lines(tmp_path / "queued.jsonl", records), **flags)


def test_a_document_over_lines_is_read_whole(tmp_path: Path) -> None:
    lines = ['[{"role": "user", "content": "a"},', *['{"role": "assistant", "content": "b"},'] * 50,
             '{"role": "user", "content": "c"}]']
    path = tmp_path / "doc.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert same_from_the_end(path) == [None] * 4  # no line but the first two is a record


def test_a_window_that_starts_at_a_change_log_snapshot(tmp_path: Path) -> None:
    """A VS Code change log is told by the file's first line, not by a window's."""
    snapshot = {"kind": 0, "v": {"requests": [{"message": {"text": "from the snapshot"}}]}}
    records = [claude("user", "a1", None, "start"), claude("assistant", "a2", "a1", "ok"),
               snapshot, claude("user", "a3", "a2", "the last prompt"),
               claude("assistant", "a4", "a3", "the answer")]
    path = write_lines(tmp_path / "log.jsonl", records)
    whole = json.dumps(snapshot) + "\n" + "".join(json.dumps(r) + "\n" for r in records[3:])
    window = len(whole.encode())
    assert [m.text for m in from_the_end(path, window).messages] == [  # type: ignore[union-attr]
        "the last prompt", "the answer"]
    same_from_the_end(path)


def test_stdin_redirected_from_a_file_is_read_from_where_it_stands(tmp_path: Path) -> None:
    """The hook worker hands a job its turn as stdin redirected from a file."""
    import subprocess
    import sys

    path = tmp_path / "session.jsonl"
    claude_session(path, 30)
    data = path.read_bytes()
    skip = data.index(b"\n", len(data) // 2) + 1
    with path.open("rb") as stdin:
        stdin.seek(skip)
        done = subprocess.run([sys.executable, "-m", "memcli", "transcript", "--last-turn",
                               "--json"], stdin=stdin, capture_output=True, text=True,
                              check=True, timeout=120)
    shown = json.loads(done.stdout)
    reference = whole_text(data[skip:], last_turn=True)
    assert isinstance(reference, Transcript)
    assert [(m["role"], m["text"]) for m in shown["messages"]] == [
        (m.role, m.text) for m in reference.messages] != []
    assert shown["records"] < reference.records  # the end of the file, not all of it
