# ruff: noqa: F811  (the agent fixture comes from test_hooks)
"""What the hook worker hands a job's extraction: the window of the transcript its last turn
is read from, not the whole session (memcli/hooks/turn.py).

Through the real hook and worker (subprocesses; the model is a fake server that answers
when the test says, so the job's input is read while its extraction waits), and in process
on every transcript fixture cut at many places: the copy, read as the extraction reads it,
gives the last turn the transcript gave when the turn ended.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fakeserver import FakeServer, Step, openai_stream
from test_hooks import (  # noqa: F401  (agent is a fixture)
    DEADLINE,
    Agent,
    agent,
    claude_transcript,
    queue_files,
    stop_payload,
    transcript_for,
)
from test_transcript_tail import FILES, IDS, cuts, from_file, said
from tiers import share

from memcli.hooks import queue_dir
from memcli.hooks.turn import copy_turn
from memcli.settings.resolve import Flags, resolve
from memcli.transcripts.model import Transcript
from memcli.transcripts.tail import FIRST_WINDOW

MEMORABLE = "Remember: run make check before committing."
_REPLY = json.dumps({"operations": [{
    "action": "create", "level": "project", "type": "project_knowledge",
    "title": "Test command", "content": "Run `make check` before committing."}]})
NOTE = "project_knowledge_test-command.md"


def long_session(agent: Agent, session: str, turns: int = 120) -> Path:
    """A Claude Code session of TURNS turns of 4 kB answers, then MEMORABLE."""
    earlier = [(f"What does module {n} do?", f"Module {n} " + "reads its input. " * 250)
               for n in range(turns)]
    return claude_transcript(transcript_for(agent, session), session,
                             [*earlier, (MEMORABLE, "Noted.")], agent.repo)


def job_input_while_it_runs(agent: Agent, hook: list[str], payload: dict[str, Any]
                            ) -> tuple[bytes, str]:
    """Run the hook; while the job's extraction waits for the model, read what the worker
    handed it on stdin. The job's input and the log once the job is done."""
    answer = threading.Event()
    with FakeServer() as server:
        server.script(Step(body=openai_stream([_REPLY]), hold=answer))
        agent.env.update({"MEMCLI_PROVIDER": "openai", "MEMCLI_MODEL": "x",
                          "MEMCLI_BASE_URL": server.url + "/v1"})
        done = subprocess.run([sys.executable, "-m", "memcli", "hook", *hook],
                              input=json.dumps(payload).encode(), capture_output=True,
                              env=agent.env, cwd=agent.repo, timeout=DEADLINE, check=False)
        agent.pids |= agent.worker_pids()
        assert done.returncode == 0, done.stderr
        deadline = time.monotonic() + DEADLINE
        while not server.requests and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.requests, agent.log_text()
        queue = queue_dir(resolve(Flags(), agent.env, agent.repo))
        (stdin,) = queue.glob(".*.json.in")
        data = stdin.read_bytes()
        answer.set()
        agent.wait_for_workers(finished_jobs=1)
    assert list(agent.exits().values()) == [0], agent.log_text()
    assert queue_files(agent) == []
    return data, agent.log_text()


def test_a_jobs_input_is_its_turns_window_not_the_whole_session(agent: Agent) -> None:
    transcript = long_session(agent, "long")
    whole = transcript.read_bytes()
    assert len(whole) > 2 * FIRST_WINDOW
    data, log = job_input_while_it_runs(agent, ["claude-code"],
                                        stop_payload(agent, "long", transcript, "Noted."))
    # the end of the transcript from a line's start: the last turn and what decides it
    assert whole.endswith(data) and whole[-len(data) - 1:-len(data)] == b"\n"
    assert len(data) <= FIRST_WINDOW < len(whole) / 2
    assert MEMORABLE.encode() in data and b"What does module 0 do?" not in data
    assert f"{len(data)} bytes of input of the transcript's {len(whole)}" in log
    assert agent.notes() == [NOTE]


def codex_rollout(path: Path, source: Any) -> Path:
    def item(role: str, text: str) -> dict[str, Any]:
        part = "input_text" if role == "user" else "output_text"
        return {"timestamp": "2026-11-30T10:00:00Z", "type": "response_item",
                "payload": {"type": "message", "role": role,
                            "content": [{"type": part, "text": text}]}}

    header = {"timestamp": "2026-11-30T10:00:00Z", "type": "session_meta",
              "payload": {"id": "rollout", "cwd": str(path.parent), "source": source}}
    records = [header, item("user", "Where are the tests?"),
               *(item("assistant", f"step {n}: " + "reading files " * 60) for n in range(600)),
               item("user", MEMORABLE), item("assistant", "Noted.")]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def codex_stop(agent: Agent, rollout: Path) -> dict[str, Any]:
    return {"session_id": "cx", "turn_id": "t1", "transcript_path": str(rollout),
            "cwd": str(agent.repo), "hook_event_name": "Stop", "model": "gpt-5-codex",
            "last_assistant_message": "Noted."}


def test_a_codex_jobs_window_keeps_the_rollouts_header(agent: Agent) -> None:
    # The first line says whose rollout it is (a subagent's prompts are not the person's):
    # a window that does not reach it is handed over after it.
    rollout = codex_rollout(agent.tmp / "rollout.jsonl", "cli")
    whole = rollout.read_bytes()
    header, _, rest = whole.partition(b"\n")
    data, _ = job_input_while_it_runs(agent, ["codex"], codex_stop(agent, rollout))
    assert data.startswith(header + b"\n")
    window = data[len(header) + 1:]
    assert rest.endswith(window) and rest[-len(window) - 1:-len(window)] == b"\n"
    assert len(data) < len(whole) / 2 and MEMORABLE.encode() in window
    assert agent.notes() == [NOTE]


def test_a_codex_subagents_turn_is_still_not_the_persons(agent: Agent) -> None:
    rollout = codex_rollout(agent.tmp / "rollout.jsonl", {"subagent": "review"})
    done = subprocess.run([sys.executable, "-m", "memcli", "hook", "codex"],
                          input=json.dumps(codex_stop(agent, rollout)).encode(),
                          capture_output=True, env=agent.env, cwd=agent.repo,
                          timeout=DEADLINE, check=False)
    agent.pids |= agent.worker_pids()
    assert done.returncode == 0, done.stderr
    agent.wait_for_workers(finished_jobs=1)
    assert agent.notes() == [], agent.log_text()  # the rules extractor, offline
    assert list(agent.exits().values()) == [0]


def test_a_transcript_cut_shorter_before_its_job_runs_is_read_to_its_end(agent: Agent
                                                                         ) -> None:
    from lockholder import held

    transcript = long_session(agent, "cut")
    queue = queue_dir(resolve(Flags(), agent.env, agent.repo))
    queue.mkdir(parents=True)
    with held(queue / ".lock"):
        assert agent.hook(stop_payload(agent, "cut", transcript, "Noted.")).returncode == 0
        agent.wait_for_workers(finished_jobs=0)
        # rewritten shorter than the job's recorded size, the way a tool rewrites a log
        transcript.unlink()
        claude_transcript(transcript, "cut", [
            ("From now on, always use pnpm instead of npm.", "Will do.")], agent.repo)
    drained = subprocess.run([sys.executable, "-m", "memcli.hooks", "drain", str(queue)],
                             env=agent.env, cwd=agent.repo, timeout=DEADLINE, check=False)
    assert drained.returncode == 0
    assert agent.notes() == ["correction_feedback_package-manager.md"], agent.log_text()
    assert list(agent.exits().values()) == [0]
    # all of what is left (and the queued turn's answer, which it no longer holds)
    assert f"bytes of input of the transcript's {transcript.stat().st_size})" in agent.log_text()


def test_session_end_reads_a_long_tail_without_a_prompt_from_its_end(agent: Agent) -> None:
    transcript = long_session(agent, "tail", turns=1)
    assert agent.hook(stop_payload(agent, "tail", transcript, "Noted.")).returncode == 0
    agent.wait_for_workers(finished_jobs=1)
    # After the queued turn: 600 kB of bookkeeping and answers, and no new prompt.
    with transcript.open("a", encoding="utf-8") as out:
        for n in range(150):
            out.write(json.dumps({"type": "summary", "summary": "x" * 4000,
                                  "leafUuid": f"tail-a{n}"}) + "\n")
    end = {"session_id": "tail", "transcript_path": str(transcript), "cwd": str(agent.repo),
           "hook_event_name": "SessionEnd", "reason": "exit"}
    assert agent.hook(end).returncode == 0
    assert "had no Stop" not in agent.log_text()
    # A session never queued (its mark is gone) whose last turn has a prompt is queued.
    assert agent.hook(end).returncode == 0
    agent.wait_for_workers(finished_jobs=1)
    assert "its last turn had no Stop; queued at session end" in agent.log_text()
    # Its job finds the turn extracted already (the session's cursor): it is not again.
    assert "nothing typed since the session's last extraction" in agent.log_text()
    assert len(agent.exits()) == 1


# --------------------------------------------------------------------------- in process


def before(data: bytes) -> bytes:
    """What a job read before windows: the transcript to its recorded size, a record
    half-written then left out (a whole one without its newline kept)."""
    if data.endswith(b"\n") or not data:
        return data
    head, _, tail = data.rpartition(b"\n")
    try:
        json.loads(tail)
    except ValueError:
        return head + b"\n" if head else b""
    return data + b"\n"


def _the_window_reads_as_the_turn_the_transcript_held(path: Path, tmp_path: Path,
                                                      fast_share: bool) -> None:
    data = path.read_bytes()
    reference_file, copy = tmp_path / "before.in", tmp_path / "window.in"
    for cut in share(cuts(data, most=8), fast_share):
        reference_file.write_bytes(before(data[:cut]))
        reference = from_file(reference_file, last_turn=True)
        for first_window in (1, FIRST_WINDOW):
            # the session went on after the turn: the job reads to its recorded size only
            copied = copy_turn(path, cut, None, copy, first_window=first_window)
            got = from_file(copy, last_turn=True)
            assert copied.written == copy.stat().st_size
            if isinstance(reference, Transcript):
                assert isinstance(got, Transcript), (cut, first_window, got)
                assert said(got) == said(reference), (cut, first_window)
            else:
                assert isinstance(got, str), (cut, first_window)


# The tiers share the cuts (tests/tiers.py): a quarter here, the rest in the slow tier.
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_window_reads_as_the_turn_the_transcript_held(path: Path, tmp_path: Path) -> None:
    _the_window_reads_as_the_turn_the_transcript_held(path, tmp_path, True)


@pytest.mark.slow  # a campaign: 17 cuts of every fixture, each copied with two windows
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_window_reads_as_the_turn_the_transcript_held_at_the_other_cuts(
        path: Path, tmp_path: Path) -> None:
    _the_window_reads_as_the_turn_the_transcript_held(path, tmp_path, False)


def test_an_answer_the_window_lacks_is_added_after_it(tmp_path: Path) -> None:
    earlier = [(f"What does module {n} do?", "It reads its input. " * 200) for n in range(120)]
    transcript = claude_transcript(tmp_path / "t.jsonl", "s", [*earlier, (MEMORABLE, "Noted.")],
                                   tmp_path)
    size = transcript.stat().st_size
    copy = tmp_path / "turn.in"
    copied = copy_turn(transcript, size, "I will run make check first.", copy)
    assert copied.written < size / 2
    turn = from_file(copy, last_turn=True)
    assert isinstance(turn, Transcript)
    assert [m.text for m in turn.messages] == [MEMORABLE, "Noted.",
                                               "I will run make check first."]
    copy_turn(transcript, size, "Noted.", copy)  # one the turn holds is not added again
    assert transcript.read_bytes().endswith(copy.read_bytes())
