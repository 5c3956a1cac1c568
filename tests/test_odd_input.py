"""Odd input is one line, never a traceback or a stall (issue 25, item 8).

Each test feeds one shape of odd input (a number past any sense, a repository config's
out-of-range value, a hook payload nested or sized to hurt, a huge query or document) and
asserts what the person sees: a one-line message, the exit status, nothing written. Timings
are not asserted here: benchmarks/hostile_text.py measures the linear paths.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import MemEnv

from memcli.errors import InputError
from memcli.hooks.dispatch import run_hook
from memcli.hooks.log import log_path
from memcli.settings.resolve import Flags, resolve

HUGE = "99999999999999999999999999"
# The documented caps (README, docs/security.md), as literals: the tests hold them to it.
MAX_DOCUMENT_OPERATIONS = 1000
MAX_CLIENT_OPERATIONS = 100
MAX_QUERY_CHARS = 16_384
MAX_LOG_LINE_CHARS = 1000


def _one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    return lines[0]


# ----------------------------------------------------------------- numeric options


@pytest.mark.parametrize("args", [
    ("search", "--limit", HUGE, "uv"),
    ("search", "-n", "-" + HUGE, "uv"),
    ("recall", "--budget", HUGE, "how do I test?"),
    ("context", "--budget", HUGE),
    ("log", "--limit", HUGE),
    ("extract", "--timeout", "1e999"),
], ids=["search-limit", "search-negative", "recall-budget", "context-budget", "log-limit",
        "extract-timeout"])
def test_a_number_past_any_sense_is_a_usage_error(memenv: MemEnv, args: tuple[str, ...]) -> None:
    memenv.apply([{"action": "create", "level": "project", "type": "project_knowledge",
                   "title": "Use uv", "content": "Use uv to run the tests."}])
    result = memenv.invoke(*args, input="")
    assert result.exit_code == 2, result.output
    line = _one_error_line(result.stderr)
    assert "range" in line or "not a valid" in line, line


# ----------------------------------------------------------------- a repository's config


@pytest.mark.parametrize("value", ["1e9", "nan", "-1", "inf", '"soon"'])
def test_a_repository_config_out_of_range_is_ignored_with_a_warning(
        memenv: MemEnv, value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMCLI_LOCK_TIMEOUT")
    del memenv.env["MEMCLI_LOCK_TIMEOUT"]
    config = memenv.repo / ".memcli" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f"lock_timeout = {value}\n[extract]\ntimeout = {value}\n")
    result = memenv.invoke("status")
    assert result.exit_code in (0, 1), result.output  # status's own verdict, not an error
    warnings = [line for line in result.stderr.splitlines() if "config.toml" in line]
    assert len(warnings) == 2, result.stderr
    assert all("ignored" in w and "warning" in w for w in warnings), warnings
    settings = resolve(Flags(), memenv.env, memenv.repo)
    assert settings.lock_timeout == 10.0 and settings.timeout == 60.0  # the defaults


def test_the_persons_own_bad_value_is_still_an_error(memenv: MemEnv) -> None:
    result = memenv.invoke("status", env={"MEMCLI_LOCK_TIMEOUT": "1e9"})
    assert result.exit_code == 2
    assert "MEMCLI_LOCK_TIMEOUT" in _one_error_line(result.stderr)


# ----------------------------------------------------------------- hook payloads


def _hook(memenv: MemEnv, payload: bytes) -> list[str]:
    env = dict(memenv.env)
    answer = run_hook("claude-code", {}, env, memenv.repo, io.BytesIO(payload))
    assert answer == ""  # Claude Code's silent answer: the hook never fails the agent
    path = log_path(Path(env["MEMCLI_HOME"]))
    return path.read_text("utf-8").splitlines() if path.exists() else []


def test_a_payload_nested_100000_deep_is_one_log_line(memenv: MemEnv) -> None:
    payload = b'{"hook_event_name": "Stop", "a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    lines = _hook(memenv, payload)
    assert len(lines) == 1, lines[:5]
    assert "nested too deeply" in lines[0]
    assert "Traceback" not in lines[0]


def test_a_megabyte_session_id_never_fills_the_log(memenv: MemEnv) -> None:
    transcript = memenv.repo / "t.jsonl"
    transcript.write_text(json.dumps({"type": "user", "message": {
        "role": "user", "content": "remember that we use uv"}}) + "\n")
    lines: list[str] = []
    for event in ("SessionEnd", "Stop"):
        payload = {"hook_event_name": event, "session_id": "x" * 1_000_000 + "\x1b[2J",
                   "transcript_path": str(transcript), "cwd": str(memenv.repo),
                   "reason": "r" * 1_000_000}
        lines = _hook(memenv, json.dumps(payload).encode())
    text = "\n".join(lines)
    assert len(text) < 20_000, len(text)
    assert "x" * 200 not in text and "\x1b" not in text
    assert all(len(line) < MAX_LOG_LINE_CHARS + 200 for line in lines)
    assert "sha256-" in text  # the session is still named, by its digest


# ----------------------------------------------------------------- queries and documents


def test_a_huge_query_is_cut_and_says_so(memenv: MemEnv) -> None:
    memenv.apply([{"action": "create", "level": "project", "type": "project_knowledge",
                   "title": "Use uv", "content": "Use uv to run the tests."}])
    query = "uv " + "word " * 1_000_000
    result = memenv.invoke("search", "--json", "-", input=query)
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["query"]) <= MAX_QUERY_CHARS
    assert "only its first" in _one_error_line(result.stderr)
    result = memenv.invoke("recall", "-", input=query)
    assert result.exit_code == 0 and "only its first" in _one_error_line(result.stderr)


def _creates(count: int) -> list[dict[str, Any]]:
    return [{"action": "create", "level": "project", "type": "project_knowledge",
             "title": f"Note {i}", "content": f"Fact number {i}."} for i in range(count)]


@pytest.mark.parametrize("flags", [(), ("--dry-run",)])
def test_a_document_past_the_operation_cap_is_refused_whole(memenv: MemEnv,
                                                            flags: tuple[str, ...]) -> None:
    result = memenv.apply(_creates(MAX_DOCUMENT_OPERATIONS + 1), *flags)
    assert result.exit_code == 2
    assert f"at most {MAX_DOCUMENT_OPERATIONS}" in _one_error_line(result.stderr)
    assert memenv.notes("project") == []


def test_an_mcp_client_gets_a_smaller_cap(memenv: MemEnv) -> None:
    from memcli.mcp import tools as mcp_tools

    settings = resolve(Flags(), dict(memenv.env), memenv.repo)
    document = json.dumps(_creates(MAX_CLIENT_OPERATIONS + 1))
    for tool in (mcp_tools.propose, mcp_tools.apply):
        with pytest.raises(InputError, match=f"at most {MAX_CLIENT_OPERATIONS}"):
            tool(settings, document)
    assert memenv.notes("project") == []
    mcp_tools.apply(settings, json.dumps(_creates(3)))
    assert len(memenv.notes("project")) == 3


# ----------------------------------------------------------------- the rules extractor


def test_a_quotation_never_spans_an_opening_mark_of_its_kind() -> None:
    """Each opening mark of a run never closed was read to the end of the line again
    (quadratic: issue 25 measured 30,000 U+201C at 10 s). A quotation now ends at its own
    kind's next opening mark, so one pass over the run decides it; the time is
    benchmarks/hostile_text.py's (`--shape U+201C`)."""
    from memcli.extraction.rules.sentences import mask

    for opening, closing in (("\u201c", "\u201d"), ("「", "」"), ("『", "』")):
        slots: list[str] = []
        text = "Remember: " + opening * 5_000 + "x" + closing + " ok."
        masked = mask(text, slots)
        assert slots == [opening + "x" + closing]
        assert masked.count(opening) == 4_999


# ----------------------------------------------------------------- undo of a crafted record


@pytest.mark.parametrize("name", ["../../evil.md", "notes.txt", ".hidden.md",
                                  "project_knowledge_a/b.md"])
def test_undo_of_a_crafted_record_reports_what_it_wrote(memenv: MemEnv, name: str) -> None:
    """The project store's history is committed with the repository: a record may name any
    path. undo never writes one that is no note of the store, and never says it did."""
    memenv.apply([{"action": "create", "level": "project", "type": "project_knowledge",
                   "title": "Use uv", "content": "Use uv."}])
    history = memenv.project / ".memcli-history"
    [first] = [p for p in history.iterdir() if p.suffix == ".json"]
    record = json.loads(first.read_text("utf-8"))
    record.update(seq=2, id="abcdef01")
    record["files"] = [{"file": name, "change": "deleted", "after": None,
                        "before": "---\ntype: project_knowledge\ntitle: X\nsummary: x\n---\nx\n"}]
    (history / first.name.replace("00000001", "00000002")).write_text(json.dumps(record),
                                                                     "utf-8")
    before = memenv.snapshot()
    for flags in ((), ("--force",)):
        result = memenv.invoke("undo", "--json", *flags, "abcdef01")
        report = json.loads(result.stdout)
        assert result.exit_code == 1
        assert report["written"] is False and report["files"] == []
        assert [h["file"] for h in report["held"]] == [name]
    assert memenv.snapshot() == before


# ----------------------------------------------------------------- invisible characters


def test_a_zero_width_joiner_never_reaches_a_title_summary_index_or_context(
        memenv: MemEnv) -> None:
    coder = "\U0001f469\u200d\U0001f4bb"  # an emoji sequence: its joiner is what it shows
    memenv.apply([{"action": "create", "level": "project", "type": "project_knowledge",
                   "title": f"Use\u200d uv {coder}", "summary": "Run\u200d tests with\u200d uv.",
                   "content": "Use uv."}])
    # A note written by hand (or committed by anyone): the index and context render it.
    memenv.write_note("project", "project_knowledge_hand.md", {
        "type": "project_knowledge", "title": "Hand\u200dmade", "summary": "Pin\u200d it.",
        "created": "2026-11-29T10:00:00Z", "updated": "2026-11-29T10:00:00Z"})
    assert memenv.invoke("index").exit_code == 0
    [note] = [p for p in memenv.project.glob("project_knowledge_use*.md")]
    meta = yaml.safe_load(note.read_text("utf-8").split("---\n")[1])
    texts = {"note": meta["title"] + meta["summary"], "index": memenv.index("project"),
             "context": memenv.invoke("context").stdout}
    for where, text in texts.items():
        assert text.replace(coder, "").count("\u200d") == 0, where
    assert coder in texts["index"] and coder in texts["context"]
    assert "Run tests with uv." in texts["context"] and "Handmade — Pin it." in texts["context"]


# ----------------------------------------------------------------- empty input, as documented


def test_the_readme_says_what_extract_does_with_empty_and_unreadable_input(
        memenv: MemEnv) -> None:
    """SPEC: empty input is a quiet no-op, non-empty input with no message is exit 2. The
    README said any input with nothing readable exits 2, while `extract < /dev/null` exits 0."""
    # The transcripts section moved from the README to docs/overview.md (issue 34, item 9).
    readme = (Path(__file__).resolve().parents[1] / "docs" / "overview.md").read_text("utf-8")
    said = " ".join(readme.split())
    assert "An empty input (`extract < /dev/null`, nothing but blank lines) is a quiet no-op " \
           "(exit 0" in said
    assert "a non-empty input with nothing readable in it is an error (exit 2)" in said
    assert memenv.invoke("extract", input="").exit_code == 0
    assert memenv.invoke("extract", input="\n\n").exit_code == 0
    assert memenv.invoke("extract", input="garbage\n").exit_code == 2
