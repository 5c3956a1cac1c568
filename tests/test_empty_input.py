# ruff: noqa: F811  (the agent fixture comes from test_hooks)
"""`memcli extract` on input with nothing to read: an empty stdin, blank lines, records that
are no message. Not an error (a hook fires on turns with nothing new): one line on stderr
says why nothing was extracted, the status is 0, and stdout is what a script reads anyway."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from test_hooks import (  # noqa: F401  (agent is a fixture)
    Agent,
    agent,
    stop_payload,
    transcript_for,
)

from tests.conftest import MemEnv

EMPTY = "memcli: nothing to extract: the transcript is empty"


@pytest.mark.parametrize("data", ["", "\n\n", "   \n\t\n"])
def test_an_empty_transcript_is_one_notice_and_status_0(memenv: MemEnv, data: str) -> None:
    result = memenv.call("extract", input=data)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [EMPTY]
    assert json.loads(result.stdout)["operations"] == []


@pytest.mark.parametrize("data", [
    '{"type": "summary", "summary": "Release", "leafUuid": "a3"}\n',
    '{"messages": []}\n',
])
def test_records_with_no_message_say_so_in_one_line(memenv: MemEnv, data: str) -> None:
    result = memenv.call("extract", input=data)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "memcli: nothing to extract: the transcript holds no message (1 record, none of them "
        "a message; `memcli transcript` shows what was read)"]


def test_an_empty_turn_applied_prints_the_apply_report_as_any_turn_does(memenv: MemEnv) -> None:
    # --apply and --dry-run print their report, not the operations document, whatever the
    # turn held; and nothing is created for nothing.
    for flag in ("--apply", "--dry-run"):
        result = memenv.call("extract", flag, input="")
        assert result.returncode == 0, result.stderr
        assert result.stdout == ""
        assert result.stderr.splitlines()[0] == EMPTY
        assert "no operations" in result.stderr
    assert not memenv.project.exists() and not memenv.user.exists()
    data = json.loads(memenv.call("extract", "--apply", "--json", input="").stdout)
    assert data["notice"] == EMPTY.removeprefix("memcli: ")
    assert data["apply"]["written"] is False


def test_answers_alone_are_not_what_the_rules_read(memenv: MemEnv) -> None:
    result = memenv.call("extract", input='{"role": "assistant", "content": "Done."}\n')
    assert result.returncode == 0
    assert result.stderr.splitlines() == [
        "memcli: nothing to extract: no message from the person among the 1 message read, "
        "and the rules extractor reads only what the person typed"]


def test_a_terminal_on_stdin_is_an_error_not_a_wait(memenv: MemEnv) -> None:
    """With no pipe, extract says what it wants at once instead of waiting for input."""
    pty = pytest.importorskip("pty")
    import os

    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "memcli", "extract"], stdin=follower,
                              capture_output=True, text=True, env=memenv.env, cwd=memenv.repo,
                              timeout=30, check=False)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "memcli: error: no transcript on stdin; pipe one in (memcli extract < SESSION.jsonl) "
        "or pass --input FILE"]


def test_a_hook_on_a_turn_with_nothing_new_stays_quiet_and_succeeds(agent: Agent) -> None:
    transcript = transcript_for(agent, "s1")
    transcript.parent.mkdir(parents=True)
    transcript.write_text(json.dumps({"type": "file-history-snapshot", "messageId": "m",
                                      "snapshot": {}, "isSnapshotUpdate": False}) + "\n")
    done = agent.hook(stop_payload(agent, "s1", transcript, ""))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    # The session's cursor sees no typed message: the job ends without starting an extraction.
    agent.wait_for_workers(0)
    assert "nothing typed since the session's last extraction" in agent.log_text()
    assert set(agent.exits().values()) <= {0}, agent.log_text()
    assert "error" not in agent.log_text() and "warning" not in agent.log_text()
    assert agent.notes() == []
