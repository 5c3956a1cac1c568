"""Issue 29 item 7: an input of bare ``{"role", "content"}`` lines is read from tuples, not
an entry and a piece per line. What it gives must be what the entries give: each log here
is read both ways (``prepare`` without ``bare_run`` is the way every other input goes) and
through the CLI, with every option that changes what is shown."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_memcli

from memcli.transcripts import read_transcript
from memcli.transcripts.json_input import LineValues
from memcli.transcripts.model import Options, Transcript
from memcli.transcripts.pipeline import finish, ordered_pieces, prepare, read_prepared
from memcli.transcripts.source import TranscriptFile, open_blob

SAID = ["Ship on Tuesdays.", "  padded words  ", "", "   ", "日本語のテキスト、覚えてください",
        "emoji 😀 fine", "# a heading\nand its body", "line one\nline two",
        "This is the way we do it.", "\ud800 a lone surrogate"]
# text read the ordinary way: a wrapper, a Cline marker, injected context at its start
WRAPPED = ["<system-reminder>be brief</system-reminder>the real words", "[task] done",
           "a < b holds", "This is the context. We are setting up the context for our chat.",
           "## My request for Codex:\nfix the build"]
OPTIONS = [Options(), Options(last_turn=True),
           Options(include_tools=True, include_thinking=True, include_injected=True),
           Options(include_injected=True, last_turn=True, max_extra_chars=10)]


def _log(path: Path, lines: int, seed: int, roles: list[str], texts: list[str]) -> Path:
    pick = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for k in range(lines):
            role = roles[k % 2] if len(roles) == 2 else pick.choice(roles)
            line = {"role": role, "content": pick.choice(texts)}
            out.write(json.dumps(line, ensure_ascii=pick.random() < 0.5
                                 or "\ud800" in line["content"]) + "\n")
    return path


def _both_ways(path: Path, opts: Options) -> tuple[Transcript, Transcript, bool]:
    """The read from tuples (when it applies) and the read through entries, and whether
    the first was from tuples."""
    with open_blob(TranscriptFile(path)) as blob:
        values = LineValues(blob, False)
        fast = prepare(values, opts, None, bare_run=True)
        from_tuples = fast.bare is not None
        mine = read_prepared(fast, opts, None, broken=values.broken, lines=values.lines,
                             first_line=values.first_line)
    with open_blob(TranscriptFile(path)) as blob:
        values = LineValues(blob, False)
        slow = prepare(values, opts, None)
        theirs = finish(slow, ordered_pieces(slow, opts), opts, None, broken=values.broken,
                        lines=values.lines, first_line=values.first_line)
    return mine, theirs, from_tuples


@pytest.mark.parametrize("opts", OPTIONS)
def test_a_large_log_of_bare_lines_reads_from_tuples_as_through_entries(
        tmp_path: Path, opts: Options) -> None:
    log = _log(tmp_path / "bare.jsonl", 4000, 1, ["user", "assistant"], SAID)
    mine, theirs, from_tuples = _both_ways(log, opts)
    assert from_tuples
    assert mine == theirs
    assert mine.formats == {"plain": 4000} and mine.records == 4000
    texts = {m.text for m in mine.messages}
    assert "" not in texts and "   " not in texts
    if not opts.last_turn:
        assert {"日本語のテキスト、覚えてください", "padded words",
                "\ufffd a lone surrogate"} <= texts
    assert all(m.role in ("user", "assistant") and m.timestamp is None for m in mine.messages)


@pytest.mark.parametrize("opts", OPTIONS)
@pytest.mark.parametrize("roles", [["user", "assistant"],
                                   ["user", "assistant", "system", "tool", "developer"]])
def test_wrappers_and_other_roles_among_bare_lines_read_as_through_entries(
        tmp_path: Path, opts: Options, roles: list[str]) -> None:
    log = _log(tmp_path / "mixed.jsonl", 3000, 2, roles, SAID + WRAPPED)
    mine, theirs, from_tuples = _both_ways(log, opts)
    assert not from_tuples  # a wrapper line is read the ordinary way, and all after it
    assert mine == theirs


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_what_ends_a_run_of_bare_lines_keeps_every_line_in_its_place(tmp_path: Path) -> None:
    lines = [{"role": "user" if k % 2 == 0 else "assistant", "content": f"m{k}"}
             for k in range(20)]
    others: list[Any] = [None, {"messages": []}, {"role": "user", "content": "a", "name": "b"},
                         {"role": "assistant", "content": [{"type": "text", "text": "c"}]},
                         {"role": "system", "content": "be brief"}]
    for other in others:
        path = tmp_path / "ended.jsonl"
        body = [*lines[:10], other, *lines[10:]]
        path.write_text("".join(json.dumps(v) + "\n" for v in body), encoding="utf-8")
        for opts in OPTIONS:
            mine, theirs, from_tuples = _both_ways(path, opts)
            assert not from_tuples and mine == theirs, other
        whole = read_transcript(TranscriptFile(path))
        said = [m.text for m in whole.messages if m.text.startswith("m")]
        assert said == [f"m{k}" for k in range(20)], other


def test_the_cli_reads_a_bare_log_with_its_last_turn(tmp_path: Path) -> None:


    log = _log(tmp_path / "bare.jsonl", 500, 3, ["user", "assistant"], SAID)
    got = invoke_memcli("transcript", "--json", "--last-turn", str(log))
    assert got.exit_code == 0, got.output
    shown = json.loads(got.output)
    last_user = max(i for i, v in enumerate(_records(log))
                    if v["role"] == "user" and v["content"].strip())
    first = shown["messages"][0]
    assert first["role"] == "user"
    assert first["text"] == _records(log)[last_user]["content"].strip()
