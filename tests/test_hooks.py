"""`memcli hook claude-code` as Claude Code runs it: a subprocess with a JSON payload on stdin.

The model is a real HTTP server on 127.0.0.1 (tests/fakeserver.py). The Stop hook's worker is
detached from the hook, so it is not our child: the tests find its pid in the hook log, wait
for it with a deadline, and kill its process group if the deadline passes.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fakeserver import FakeServer, Step, openai_stream

from memcli.hooks import queue_dir
from memcli.hooks.turn import copy_turn
from memcli.settings.resolve import Flags, resolve

DEADLINE = 60.0
_LOG_LINE = re.compile(r"^(?P<at>\S+Z) \[(?P<pid>\d+)\] (?P<text>.*)$")


# --------------------------------------------------------------------------- fixtures


@dataclass
class Agent:
    """A project, a home folder and the hook's environment, all under tmp_path."""

    tmp: Path
    repo: Path
    home: Path
    env: dict[str, str]
    pids: set[int] = field(default_factory=set)

    @property
    def project_store(self) -> Path:
        return self.repo / ".memcli" / "memory"

    @property
    def log_path(self) -> Path:
        return self.home / ".memcli" / "logs" / "hook.log"

    def hook(self, payload: bytes | dict[str, Any]) -> subprocess.CompletedProcess[bytes]:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        done = subprocess.run([sys.executable, "-m", "memcli", "hook", "claude-code"],
                              input=data, capture_output=True, env=self.env, cwd=self.repo,
                              timeout=DEADLINE, check=False)
        self.pids |= self.worker_pids()
        return done

    def log_entries(self) -> list[tuple[str, int, str]]:
        if not self.log_path.exists():
            return []
        found = []
        for line in self.log_path.read_text("utf-8").splitlines():
            match = _LOG_LINE.match(line)
            if match:
                found.append((match["at"], int(match["pid"]), match["text"]))
        return found

    def worker_pids(self) -> set[int]:
        return {int(m[1]) for _, _, text in self.log_entries()
                if (m := re.search(r"worker pid (\d+)", text))}

    def notes(self) -> list[str]:
        if not self.project_store.exists():
            return []
        # Hidden files (the lock, a transaction under way) are memcli's, not notes.
        return sorted(p.name for p in self.project_store.glob("[!.]*.md")
                      if p.name != "MEMORY.md")

    def wait_for_workers(self, finished_jobs: int) -> None:
        """Until FINISHED_JOBS extractions have ended and every worker has exited."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            self.pids |= self.worker_pids()
            if len(self.exits()) >= finished_jobs and not any(_alive(p) for p in self.pids):
                return
            time.sleep(0.05)
        raise AssertionError(f"workers still running after {DEADLINE} s; log:\n{self.log_text()}")

    def exits(self) -> dict[str, int]:
        """Extract exit status by job name."""
        return {m[1]: int(m[2]) for _, _, text in self.log_entries()
                if (m := re.match(r"job (\S+): extract exited (\d+)", text))}

    def log_text(self) -> str:
        return self.log_path.read_text("utf-8") if self.log_path.exists() else "(no log)"


def _alive(pid: int) -> bool:
    """A finished worker may linger as a zombie when pid 1 does not reap orphans."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.fixture
def agent(tmp_path: Path) -> Iterator[Agent]:
    repo = tmp_path / "repo"
    (repo / ".memcli").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("MEMCLI_", "OPENAI_", "ANTHROPIC_"))}
    env = {**keep, "HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"),
           "MEMCLI_NOW": "2026-11-30T12:00:00Z", "NO_COLOR": "1"}
    state = Agent(tmp_path, repo, home, env)
    yield state
    # Never leave a worker behind, even when the test failed half-way.
    state.pids |= state.worker_pids()
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in state.pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in state.pids:
        if _alive(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)  # the worker leads its own session


# --------------------------------------------------------------------------- payloads


def claude_transcript(path: Path, session: str, turns: list[tuple[str, str]],
                      cwd: Path) -> Path:
    """A Claude Code session log: typed prompts, answers and a non-message record."""
    lines: list[dict[str, Any]] = []
    parent: str | None = None
    for number, (prompt, answer) in enumerate(turns):
        common = {"isSidechain": False, "userType": "external", "cwd": str(cwd),
                  "sessionId": session, "version": "2.1.173", "gitBranch": "main"}
        user_id, answer_id = f"{session}-u{number}", f"{session}-a{number}"
        lines.append({"type": "file-history-snapshot", "messageId": user_id,
                      "snapshot": {"messageId": user_id, "trackedFileBackups": {},
                                   "timestamp": "2026-11-30T10:00:00.000Z"},
                      "isSnapshotUpdate": False})
        lines.append({**common, "type": "user", "uuid": user_id, "parentUuid": parent,
                      "timestamp": f"2026-11-30T10:{number:02d}:00.000Z",
                      "message": {"role": "user", "content": prompt}})
        lines.append({**common, "type": "assistant", "uuid": answer_id, "parentUuid": user_id,
                      "timestamp": f"2026-11-30T10:{number:02d}:05.000Z",
                      "requestId": f"req_{answer_id}",
                      "message": {"id": f"msg_{answer_id}", "type": "message",
                                  "role": "assistant", "model": "claude-sonnet-4-5",
                                  "content": [{"type": "text", "text": answer}],
                                  "stop_reason": "end_turn", "stop_sequence": None,
                                  "usage": {"input_tokens": 120, "output_tokens": 12}}})
        parent = answer_id
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line) + "\n")
    return path


def stop_payload(agent: Agent, session: str, transcript: Path,
                 last_message: str = "Done.") -> dict[str, Any]:
    return {"session_id": session, "transcript_path": str(transcript), "cwd": str(agent.repo),
            "permission_mode": "default", "hook_event_name": "Stop",
            "stop_hook_active": False, "last_assistant_message": last_message}


def session_start_payload(agent: Agent, transcript: Path) -> dict[str, Any]:
    return {"session_id": "s-start", "transcript_path": str(transcript),
            "cwd": str(agent.repo), "hook_event_name": "SessionStart", "source": "startup",
            "model": "claude-sonnet-4-5"}


def transcript_for(agent: Agent, session: str) -> Path:
    return agent.home / ".claude" / "projects" / "-repo" / f"{session}.jsonl"


# --------------------------------------------------------------------------- Stop


def test_stop_returns_before_the_model_answers_and_the_note_appears_after(
        agent: Agent) -> None:
    reply = json.dumps({"operations": [{
        "action": "create", "level": "project", "type": "project_knowledge",
        "title": "Test command", "content": "Run `make check` before committing."}]})
    transcript = claude_transcript(transcript_for(agent, "s1"), "s1", [
        ("Where are the tests?", "Under tests/."),
        ("Remember: run make check before committing.", "Noted."),
    ], agent.repo)
    answer = threading.Event()
    with FakeServer() as server:
        # The model answers only when the test says so, after the hook is back: a hook that
        # waited for its extraction would never return (and time out after DEADLINE s).
        server.script(Step(body=openai_stream([reply[:20], reply[20:]]), hold=answer))
        agent.env.update({"MEMCLI_PROVIDER": "openai", "MEMCLI_MODEL": "x",
                          "MEMCLI_BASE_URL": server.url + "/v1"})
        done = agent.hook(stop_payload(agent, "s1", transcript, "Noted."))

        assert done.returncode == 0, done.stderr
        assert done.stdout == b""
        assert agent.notes() == []
        answer.set()

        deadline = time.monotonic() + DEADLINE
        while not agent.notes() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert agent.notes() == ["project_knowledge_test-command.md"], agent.log_text()
        agent.wait_for_workers(finished_jobs=1)
        assert len(server.requests) == 1
        assert server.requests[0].path == "/v1/chat/completions"
        sent = json.dumps(server.requests[0].json())
        assert "run make check before committing" in sent
        assert "Where are the tests?" in sent  # the first job: every turn since the start
    assert list(agent.exits().values()) == [0]
    assert queue_files(agent) == []


def queue_files(agent: Agent) -> list[str]:
    settings = resolve(Flags(), agent.env, agent.repo)
    queue = queue_dir(settings)
    return sorted(p.name for p in queue.glob("*.json")) if queue.exists() else []


def test_a_burst_of_five_stops_runs_one_extraction_at_a_time_in_order(agent: Agent) -> None:
    sessions = [f"burst-{i}" for i in range(5)]
    for i, session in enumerate(sessions):
        claude_transcript(transcript_for(agent, session), session, [
            (f"Remember that the test command is make check -j{i + 1}.", "Noted."),
        ], agent.repo)
    hooks = [subprocess.Popen([sys.executable, "-m", "memcli", "hook", "claude-code"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=agent.env, cwd=agent.repo)
             for _ in sessions]
    for process, session in zip(hooks, sessions, strict=True):
        payload = stop_payload(agent, session, transcript_for(agent, session), "Noted.")
        out, err = process.communicate(json.dumps(payload).encode(), timeout=DEADLINE)
        assert (process.returncode, out) == (0, b""), err
    agent.wait_for_workers(finished_jobs=5)

    assert agent.notes() == ["project_knowledge_test-command.md"], agent.log_text()
    # Exit 0 everywhere: each extraction saw the note the one before it wrote and updated
    # it. From a stale index the rules extractor would create, and apply reject, duplicates.
    exits = agent.exits()
    assert sorted(exits.values()) == [0] * 5, agent.log_text()
    spans = job_spans(agent)
    ordered = sorted(spans)
    assert [spans[name][0] for name in ordered] == sorted(s for s, _ in spans.values())
    for earlier, later in itertools.pairwise(ordered):
        assert spans[earlier][1] <= spans[later][0], f"{earlier} and {later} overlapped"
    # The last job queued is the last one written.
    last_session = queued_sessions(agent)[ordered[-1]]
    number = sessions.index(last_session) + 1
    note = (agent.project_store / "project_knowledge_test-command.md").read_text("utf-8")
    assert f"make check -j{number}." in note
    assert queue_files(agent) == []


def job_spans(agent: Agent) -> dict[str, tuple[str, str]]:
    starts: dict[str, str] = {}
    spans: dict[str, tuple[str, str]] = {}
    for at, _, text in agent.log_entries():
        if m := re.match(r"job (\S+): extract started", text):
            starts[m[1]] = at
        elif m := re.match(r"job (\S+): extract exited", text):
            spans[m[1]] = (starts[m[1]], at)
    return spans


def queued_sessions(agent: Agent) -> dict[str, str]:
    return {m[1]: m[2] for _, _, text in agent.log_entries()
            if (m := re.match(r"queued (\S+) for session (\S+)", text))}


def test_a_job_that_waited_extracts_its_own_turn_not_the_newest(agent: Agent) -> None:
    from lockholder import held

    session = "waiting"
    transcript = claude_transcript(transcript_for(agent, session), session, [
        ("Remember that the test command is make check.", "Noted."),
    ], agent.repo)
    queue = queue_dir(resolve(Flags(), agent.env, agent.repo))
    queue.mkdir(parents=True)
    # Another worker is busy: both turns are queued before either runs.
    with held(queue / ".lock"):
        assert agent.hook(stop_payload(agent, session, transcript, "Noted.")).returncode == 0
        claude_transcript(transcript, session, [
            ("From now on, always use pnpm instead of npm.", "Will do."),
        ], agent.repo)
        assert agent.hook(stop_payload(agent, session, transcript, "Will do.")).returncode == 0
        agent.wait_for_workers(finished_jobs=0)
        assert len(queue_files(agent)) == 2
    drained = subprocess.run([sys.executable, "-m", "memcli.hooks", "drain", str(queue)],
                             env=agent.env, cwd=agent.repo, timeout=DEADLINE, check=False)
    assert drained.returncode == 0
    assert agent.notes() == ["correction_feedback_package-manager.md",
                             "project_knowledge_test-command.md"], agent.log_text()
    assert sorted(agent.exits().values()) == [0, 0]
    assert queue_files(agent) == []


def test_the_final_answer_is_added_when_the_transcript_lags(tmp_path: Path) -> None:
    transcript = claude_transcript(tmp_path / "t.jsonl", "lag", [
        ("Remember that the test command is make check.", "Noted."),
    ], tmp_path)
    size = transcript.stat().st_size
    # Claude Code fired Stop before writing this answer, and began another line meanwhile.
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write('{"type": "assistant", "message": {"role": "assis')

    copy = tmp_path / "turn.in"
    copied = copy_turn(transcript, size + 20, "I will use make check from now on.", copy)
    data = copy.read_bytes()
    assert copied.written == len(data) and copied.transcript == size
    head, _, added = data.rstrip(b"\n").rpartition(b"\n")
    assert head + b"\n" == transcript.read_bytes()[:size]  # the half-written line is dropped
    assert json.loads(added) == {"role": "assistant",
                                 "content": "I will use make check from now on."}
    # An answer the transcript already holds is not added twice.
    copy_turn(transcript, size, "Noted.", copy)
    assert copy.read_bytes() == transcript.read_bytes()[:size]


# --------------------------------------------------------------------------- SessionStart


def test_session_start_prints_the_context_block_as_additional_context(agent: Agent) -> None:
    added = subprocess.run(
        [sys.executable, "-m", "memcli", "add", "The test command is make check.",
         "--title", "Test command"],
        env=agent.env, cwd=agent.repo, capture_output=True, timeout=DEADLINE, check=False)
    assert added.returncode == 0, added.stderr
    elsewhere = agent.tmp / "elsewhere"
    elsewhere.mkdir()
    payload = session_start_payload(agent, transcript_for(agent, "s-start"))
    # Claude Code passes the project folder in the payload; the hook trusts it over its cwd.
    done = subprocess.run([sys.executable, "-m", "memcli", "hook", "claude-code"],
                          input=json.dumps(payload).encode(), capture_output=True,
                          env=agent.env, cwd=elsewhere, timeout=DEADLINE, check=False)

    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert set(output) == {"hookSpecificOutput"}
    specific = output["hookSpecificOutput"]
    assert specific["hookEventName"] == "SessionStart"
    context = subprocess.run([sys.executable, "-m", "memcli", "context"], env=agent.env,
                             cwd=agent.repo, capture_output=True, timeout=DEADLINE, check=True)
    assert specific["additionalContext"] == context.stdout.decode()
    assert "## Project Memory" in specific["additionalContext"]
    assert "Test command" in specific["additionalContext"]


# --------------------------------------------------------------------------- failing open


@pytest.mark.parametrize("payload", [
    b"",
    b"{not json",
    b"\xff\xfe garbage",
    b"[1, 2, 3]",
    b'{"hook_event_name": "Stop"}',
    b'{"hook_event_name": "Stop", "transcript_path": "missing.jsonl", "cwd": "."}',
    b'{"hook_event_name": "SessionStart", "cwd": 42}',
], ids=["empty", "not-json", "not-utf8", "array", "no-transcript", "missing-transcript",
        "bad-cwd-and-broken-config"])
def test_a_broken_payload_exits_0_prints_nothing_and_logs(agent: Agent, payload: bytes) -> None:
    if b"SessionStart" in payload:
        # A config file memcli cannot read makes the context step itself fail.
        (agent.repo / ".memcli" / "config.toml").write_text("provider = [unclosed\n")
    done = agent.hook(payload)

    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    log = agent.log_text()
    assert "hook" in log and ("not JSON" in log or "failed" in log or "payload" in log
                              or "does not exist" in log), log
    assert agent.notes() == []


def test_an_event_memcli_does_not_handle_is_logged_and_ignored(agent: Agent) -> None:
    done = agent.hook({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "cwd": str(agent.repo), "session_id": "x"})
    assert (done.returncode, done.stdout) == (0, b"")
    assert "ignored a 'PreToolUse' event" in agent.log_text()
