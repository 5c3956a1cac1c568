# ruff: noqa: F811  (the agent fixture comes from test_hooks)
"""Hook jobs under kills (issue 12): a job leaves the queue only once its extraction ended;
a killed extract child is retried, not lost; a killed worker's child is not run twice; a
FIFO transcript is refused; the log is private and the child's command line holds no key.

Real processes and real SIGKILLs; the model is a slow fake server on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fakeserver import FakeServer, Step, openai_stream
from test_hooks import (  # noqa: F401  (agent is a fixture)
    DEADLINE,
    Agent,
    _alive,
    agent,
    claude_transcript,
    queue_files,
    stop_payload,
    transcript_for,
)

from memcli.hooks import queue_dir
from memcli.hooks.cursor import CURSORS
from memcli.hooks.queue import drain
from memcli.hooks.sessions import MARKS
from memcli.settings.resolve import Flags, resolve

_REPLY = json.dumps({"operations": [{
    "action": "create", "level": "project", "type": "project_knowledge",
    "title": "Test command", "content": "Run `make check` before committing."}]})
_SLOW = 4.0


def _children(agent: Agent) -> list[int]:
    """The extract children running this agent's jobs. Only its own: the children of every
    process on the machine included another test run's (a second checkout's suite at the
    same time), which the kill below then killed, so that both runs saw jobs run again."""
    queue = queue_dir(resolve(Flags(), agent.env, agent.repo))
    marker = f"memcli.hooks\0child\0{queue}{os.sep}"
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().decode("utf-8", "replace")
            except OSError:
                continue
            if marker in cmdline and _alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def _wait(condition: object, what: str, agent: Agent) -> None:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; log:\n{agent.log_text()}")


def _queue_a_turn(agent: Agent, server: FakeServer, password: str = "") -> None:
    transcript = claude_transcript(transcript_for(agent, "s1"), "s1", [
        ("Remember: run make check before committing.", "Noted.")], agent.repo)
    url = server.url.replace("://", f"://u:{password}@") if password else server.url
    agent.env.update({"MEMCLI_PROVIDER": "openai", "MEMCLI_MODEL": "x",
                      "MEMCLI_BASE_URL": url + "/v1"})
    done = agent.hook(stop_payload(agent, "s1", transcript, "Noted."))
    assert done.returncode == 0, done.stderr


def _started(agent: Agent) -> int:
    return sum(1 for _, _, text in agent.log_entries() if ": extract started" in text)


def test_a_killed_extract_child_is_retried_not_lost(agent: Agent) -> None:
    with FakeServer() as server:
        server.script(Step(body=openai_stream([_REPLY]), delay=_SLOW),
                      Step(body=openai_stream([_REPLY])))
        _queue_a_turn(agent, server)
        _wait(lambda: _children(agent) and server.requests, "the extract child", agent)
        for pid in _children(agent):
            os.kill(pid, signal.SIGKILL)  # what the OOM killer does
        _wait(lambda: agent.notes(), "the retried extraction", agent)
        agent.wait_for_workers(finished_jobs=1)
        assert len(server.requests) == 2
    assert agent.notes() == ["project_knowledge_test-command.md"]
    assert queue_files(agent) == []
    assert "killed by signal 9; it runs again" in agent.log_text()


def test_a_killed_workers_child_is_not_run_a_second_time(agent: Agent) -> None:
    with FakeServer() as server:
        server.script(Step(body=openai_stream([_REPLY]), delay=_SLOW),
                      Step(body=openai_stream([_REPLY])))
        _queue_a_turn(agent, server)
        _wait(lambda: _children(agent) and server.requests, "the extract child", agent)
        (worker,) = [p for p in agent.worker_pids() if _alive(p)]
        os.kill(worker, signal.SIGKILL)
        queue = queue_dir(resolve(Flags(), agent.env, agent.repo))
        drained = subprocess.run([sys.executable, "-m", "memcli.hooks", "drain", str(queue)],
                                 env=agent.env, cwd=agent.repo, timeout=DEADLINE,
                                 capture_output=True, check=False)
        assert drained.returncode == 0, drained.stderr
        assert len(server.requests) == 1, agent.log_text()
    assert _started(agent) == 1
    assert agent.notes() == ["project_knowledge_test-command.md"]
    assert queue_files(agent) == []
    # Only the locks, the per-session marks (what SessionEnd reads) and cursors may stay.
    left = sorted(p.name for p in queue.iterdir()
                  if not p.name.startswith(".lock") and p.name not in (MARKS, CURSORS))
    assert left == []


def test_a_fifo_transcript_is_refused_without_hanging_the_queue(agent: Agent) -> None:
    fifo = agent.tmp / "transcript.jsonl"
    os.mkfifo(fifo)
    payload = stop_payload(agent, "s1", fifo)
    done = agent.hook(payload)
    assert done.returncode == 0
    agent.wait_for_workers(finished_jobs=0)
    assert queue_files(agent) == []
    assert "not a regular file" in agent.log_text()
    # The queue goes on: the next turn is extracted (a worker stuck opening the FIFO would
    # hold the queue's lock until the job timeout, 300 s, and this note would not appear).
    transcript = claude_transcript(transcript_for(agent, "s2"), "s2", [
        ("Remember that the test command is make check.", "Noted.")], agent.repo)
    assert agent.hook(stop_payload(agent, "s2", transcript, "Noted.")).returncode == 0
    agent.wait_for_workers(finished_jobs=1)
    assert agent.notes() == ["project_knowledge_test-command.md"], agent.log_text()


def _not_a_file(agent: Agent, kind: str) -> Path:
    path = agent.tmp / f"transcript-{kind}"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        return Path(os.devnull)
    return path


@pytest.mark.parametrize("kind", ["folder", "missing", "fifo", "device"])
def test_a_transcript_that_is_not_a_file_is_one_line_of_the_log(agent: Agent,
                                                                kind: str) -> None:
    # a payload names any path it likes; each was a traceback in the log, or a job queued
    path = _not_a_file(agent, kind)
    done = agent.hook(stop_payload(agent, "s1", path))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    log = agent.log_text()
    assert "Traceback" not in log and len(log.splitlines()) == 1, log
    what = {"folder": "is a folder", "missing": "does not exist", "fifo": "is a FIFO",
            "device": "is a device"}[kind]
    assert f"the transcript {path} {what}" in log
    assert queue_files(agent) == []


@pytest.mark.parametrize("kind", ["folder", "missing", "fifo"])
def test_a_transcript_no_longer_a_file_when_its_job_runs_is_one_line_of_the_log(
        agent: Agent, kind: str) -> None:
    # the transcript was a file when the turn was queued, and is something else now
    queue = agent.tmp / "queue"
    queue.mkdir()
    job = {"session_id": "s", "transcript": str(_not_a_file(agent, kind)), "size": 100,
           "argv": ["extract"], "cwd": str(agent.repo), "attempts": 0}
    (queue / "00000000000000000001-1.json").write_text(json.dumps(job))
    drain(queue, agent.home / ".memcli", job_timeout=DEADLINE)
    log = agent.log_text()
    assert "Traceback" not in log and len(log.splitlines()) == 1, log
    assert "job 00000000000000000001-1.json: the transcript" in log
    assert not list(queue.glob("*.json"))


def test_the_log_is_private_and_the_child_command_line_holds_no_password(agent: Agent) -> None:
    with FakeServer() as server:
        server.script(Step(body=openai_stream([_REPLY]), delay=2.0))
        _queue_a_turn(agent, server, password="Zq7pL2mXv9rT")
        _wait(lambda: _children(agent) and server.requests, "the extract child", agent)
        for pid in _children(agent):
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            assert b"Zq7pL2mXv9rT" not in cmdline
        agent.wait_for_workers(finished_jobs=1)
    assert oct(agent.log_path.stat().st_mode & 0o777) == "0o600"
    assert "Zq7pL2mXv9rT" not in agent.log_text()


def test_a_job_out_of_time_is_killed_and_does_not_hold_up_the_queue(agent: Agent) -> None:
    # The first turn's model never answers; the second turn, queued behind it, must not
    # wait for all of the first one's attempts.
    # 6 s: long enough that the retried job, which answers at once, finishes within it on a
    # loaded machine (at 3 s it was killed just after it committed now and then).
    agent.env["MEMCLI_HOOK_JOB_TIMEOUT"] = "6"
    other = json.dumps({"operations": [{
        "action": "create", "level": "project", "type": "project_knowledge",
        "title": "Package manager", "content": "Use pnpm, not npm."}]})
    with FakeServer() as server:
        server.script(Step(stall=60), Step(body=openai_stream([other])),
                      Step(body=openai_stream([_REPLY])))
        _queue_a_turn(agent, server)
        transcript = claude_transcript(transcript_for(agent, "s2"), "s2", [
            ("Remember: we use pnpm, not npm.", "Noted.")], agent.repo)
        assert agent.hook(stop_payload(agent, "s2", transcript, "Noted.")).returncode == 0
        agent.wait_for_workers(finished_jobs=2)
        bodies = [request.body for request in server.requests]
    assert len(bodies) == 3, agent.log_text()
    assert b"make check" in bodies[0] and b"pnpm" in bodies[1] and b"make check" in bodies[2]
    assert agent.notes() == ["project_knowledge_package-manager.md",
                             "project_knowledge_test-command.md"]
    assert queue_files(agent) == []
    log = agent.log_text()
    assert "extract killed after 6 s" in log and "behind the jobs queued since" in log
    assert sorted(agent.exits().values()) == [0, 0]
