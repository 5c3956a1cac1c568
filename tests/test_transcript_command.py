"""`memcli transcript` and the errors `extract` gives on input it cannot read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import MemEnv

from memcli.transcripts import FORMATS
from tests.transcript_expectations import EXPECTED

README = Path(__file__).resolve().parents[1] / "README.md"
OPENCODE = EXPECTED["test-session-1"].path
CLINE = EXPECTED["cline-api_conversation_history-probe.json"].path


def unreadable_inputs(tmp_path: Path) -> dict[str, Path]:
    garbage = tmp_path / "garbage.bin"
    # bytes that are valid UTF-8 but no JSON, then bytes that are not UTF-8 at all
    garbage.write_bytes(bytes(range(1, 128)) * 8 + b"\x00\x01\x02\xfe\xff" * 50)
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"role": "user", "content": "cut in the middle\n{"role": \n', "utf-8")
    return {"markdown": README, "garbage": garbage, "broken": broken}


@pytest.mark.parametrize("command", ["extract", "transcript"])
@pytest.mark.parametrize("kind", ["markdown", "garbage", "broken"])
def test_unreadable_input_is_exit_2_with_one_line(memenv: MemEnv, tmp_path: Path,
                                                  command: str, kind: str) -> None:
    path = unreadable_inputs(tmp_path)[kind]
    args = ["extract", "--input", str(path)] if command == "extract" else ["transcript",
                                                                            str(path)]
    done = memenv.call(*args)  # in process: the next test's is a real process
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("memcli: error: ")
    if kind == "markdown":
        # README's JSON examples moved to docs/: which of the two it says depends on them.
        assert ("lines, none a known transcript record" in done.stderr
                or "lines, none of them JSON" in done.stderr), done.stderr
        assert '(the first starts with "# memcli' in done.stderr
        assert "memcli transcript --formats" in done.stderr


def test_markdown_error_names_what_it_saw_in_the_issue_s_words(run_memcli: Any) -> None:
    done = run_memcli("extract", "--input", str(README))
    assert done.returncode == 2 and done.stdout == "", done.stderr
    lines = README.read_text("utf-8").count("\n")
    assert done.stderr.startswith(f"memcli: error: no messages found: {lines} lines, ")


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_empty_input_is_a_no_op_for_extract_that_says_so(memenv: MemEnv, text: str) -> None:
    done = memenv.call("extract", input=text)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["operations"] == []
    assert done.stderr == "memcli: nothing to extract: the transcript is empty\n"


def test_empty_input_reads_as_nothing_for_transcript(memenv: MemEnv) -> None:
    done = memenv.call("transcript", "--json", input="")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["messages"] == []


def test_unknown_lines_warn_with_counts_and_strict_is_fatal(cli: Any) -> None:
    text = '{"role": "user", "content": "keep tabs"}\n{"event": "x"}\nnot json\n'
    result = cli("transcript", "--json", input=text)
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert [m["text"] for m in document["messages"]] == ["keep tabs"]
    assert document["skipped"]["unknown records"] == {"object with keys event": 1}
    assert document["skipped"]["lines not JSON"] == 1
    assert ("skipped 1 record of unknown shape (object with keys event: 1) and 1 line that "
            "is not JSON") in result.stderr
    strict = cli("transcript", "--strict", input=text)
    assert strict.exit_code == 2
    assert "line 3 is not valid JSON" in strict.stderr


def test_text_output_shows_role_and_format_and_the_skipped_counts(cli: Any) -> None:
    result = cli("transcript", str(CLINE))
    assert result.exit_code == 0
    assert result.stdout == (
        "[user · cline]\nmy github username is monchewharry. list out my repo on github\n\n"
    )
    assert "1 message from 1 record (cline 1); skipped: injected 2, thinking 1, tool 3" in (
        result.stderr
    )


def test_include_flags_bring_each_kind_in(cli: Any) -> None:
    def roles(*flags: str) -> list[str]:
        result = cli("transcript", "--json", str(CLINE), *flags)
        return [m["role"] for m in json.loads(result.stdout)["messages"]]

    assert roles() == ["user"]
    assert roles("--include-thinking") == ["user", "thinking"]
    assert roles("--include-tools").count("tool") == 3
    assert roles("--include-injected").count("tool") == 2


def test_formats_lists_every_format_with_where_its_logs_are(cli: Any) -> None:
    result = cli("transcript", "--formats", "--json")
    listed = json.loads(result.stdout)
    assert [f["name"] for f in listed] == list(FORMATS)
    assert all(f["agents"] and f["where"] for f in listed)
    text = cli("transcript", "--formats").stdout
    assert "~/.codex/sessions/" in text and "api_conversation_history.json" in text


def test_extract_reads_an_opencode_session_folder(cli: Any) -> None:
    result = cli("extract", "--json", "--input", str(OPENCODE))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["transcript"]["formats"] == {"opencode": 1}


def test_a_folder_without_messages_is_an_error(cli: Any, tmp_path: Path) -> None:
    result = cli("transcript", str(tmp_path))
    assert result.exit_code == 2
    assert "holds no transcript messages" in result.stderr


def test_a_folder_with_a_huge_file_is_refused_before_reading_it(cli: Any, tmp_path: Path) -> None:
    # `--input /tmp` by mistake: its big JSON files were read whole and parsed first.
    with (tmp_path / "structure.json").open("wb") as huge:
        huge.truncate(64 * 1024 * 1024 + 1)  # sparse: nothing is written to disk
    result = cli("extract", "--input", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "structure.json in the session folder is larger than 64 MiB" in result.stderr


def _big_log(tmp_path: Path) -> Path:
    line = json.dumps({"role": "user", "content": "prefer tabs " + "x" * 1000}) + "\n"
    log = tmp_path / "big.jsonl"
    log.write_text(line * 6000, "utf-8")  # about 6 MB, over the 4 MB the bar waits for
    return log


def test_a_big_read_draws_a_progress_bar_on_a_terminal_stderr(tmp_path: Path) -> None:
    import os
    import pty
    import subprocess
    import sys

    log = _big_log(tmp_path)
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "80"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "memcli", "transcript", "--json", str(log)],
                            stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    drawn = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        drawn += chunk
    assert proc.wait(timeout=60) == 0
    os.close(master)
    assert b"reading the transcript" in drawn


def test_no_progress_bar_when_stderr_is_not_a_terminal(run_memcli: Any, tmp_path: Path) -> None:
    done = run_memcli("transcript", "--json", str(_big_log(tmp_path)))
    assert done.returncode == 0
    assert "reading the transcript" not in done.stderr
    assert "\r" not in done.stderr and "\x1b[" not in done.stderr
