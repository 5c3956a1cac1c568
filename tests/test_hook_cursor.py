# ruff: noqa: F811  (the agent fixture comes from test_hooks)
"""Every turn a person typed is extracted once (issue 25, item 4): the session's cursor.

Through the real hook and its detached worker, with the offline rules extractor: a
transcript that grew by several turns between two jobs has all of them extracted; a job
whose turns an earlier job took extracts nothing; a transcript rewritten shorter (a rewind)
or replaced (a compaction) has its new turns extracted and its old ones not again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from test_hooks import (  # noqa: F401  (agent is a fixture)
    Agent,
    agent,
    claude_transcript,
    stop_payload,
    transcript_for,
)

WORDS = ("harbor", "violet", "granite", "falcon", "cedar", "quartz", "meadow", "copper")


def fact(number: int) -> tuple[str, str]:
    word = WORDS[number % len(WORDS)]
    return (f"Remember: the {word} service number {number} is deployed with "
            f"make ship-{word}-{number}.", "Noted.")


def extracted(agent: Agent, session: str) -> list[str]:
    """The notes the session's extractions created, in the order they were written."""
    created: list[tuple[int, str]] = []
    for path in (agent.project_store / ".memcli-history").glob("*.json"):
        record: dict[str, Any] = json.loads(path.read_text("utf-8"))
        if record.get("source", {}).get("session") != session:
            continue
        created += [(record["seq"], op["file"]) for op in record["operations"]
                    if op["action"] == "create"]
    return [name for _, name in sorted(created)]


def stop(agent: Agent, session: str, transcript: Path, jobs: int) -> None:
    assert agent.hook(stop_payload(agent, session, transcript, "Noted.")).returncode == 0
    agent.wait_for_workers(finished_jobs=jobs)


def numbers(agent: Agent, names: list[str]) -> list[int]:
    """The fact each note holds (its service number), in the order they were written."""
    found = []
    for name in names:
        match = re.search(r"service number (\d+)", (agent.project_store / name).read_text())
        assert match, name
        found.append(int(match[1]))
    return found


def test_a_transcript_that_grew_by_several_turns_has_every_one_extracted(
        agent: Agent) -> None:
    session = "grows"
    transcript = claude_transcript(transcript_for(agent, session), session, [fact(0)],
                                   agent.repo)
    stop(agent, session, transcript, 1)
    # Four turns before the next Stop (interrupted turns fire none, a burst coalesces).
    claude_transcript(transcript, session, [fact(n) for n in range(1, 5)], agent.repo)
    stop(agent, session, transcript, 2)
    assert sorted(numbers(agent, extracted(agent, session))) == [0, 1, 2, 3, 4], agent.log_text()
    assert sorted(agent.exits().values()) == [0, 0]


def test_jobs_of_turns_extracted_already_extract_nothing(agent: Agent) -> None:
    session = "again"
    transcript = claude_transcript(transcript_for(agent, session), session,
                                   [fact(0), fact(1)], agent.repo)
    stop(agent, session, transcript, 1)
    for _ in range(3):  # the same Stop again (a retry, a SessionEnd, a duplicate event)
        assert agent.hook(stop_payload(agent, session, transcript, "Noted.")).returncode == 0
    agent.wait_for_workers(finished_jobs=1)
    assert agent.log_text().count("nothing typed since the session's last extraction") == 3
    assert len(agent.exits()) == 1
    assert sorted(numbers(agent, extracted(agent, session))) == [0, 1]  # the first job: all


def test_a_rewound_transcript_has_its_new_turns_extracted_and_its_old_ones_not_again(
        agent: Agent) -> None:
    session = "rewound"
    transcript = transcript_for(agent, session)
    claude_transcript(transcript, session, [fact(0)], agent.repo)
    stop(agent, session, transcript, 1)
    claude_transcript(transcript, session, [fact(1)], agent.repo)
    stop(agent, session, transcript, 2)
    # Rewound to the first turn (the file is cut shorter), then two new turns.
    transcript.unlink()
    claude_transcript(transcript, session, [fact(0)], agent.repo)
    claude_transcript(transcript, session, [fact(2), fact(3)], agent.repo)
    stop(agent, session, transcript, 3)
    assert sorted(numbers(agent, extracted(agent, session))) == [0, 1, 2, 3], agent.log_text()


def test_a_compacted_transcript_neither_repeats_nor_skips(agent: Agent) -> None:
    session = "compacted"
    transcript = transcript_for(agent, session)
    claude_transcript(transcript, session, [fact(0), fact(1)], agent.repo)
    stop(agent, session, transcript, 1)
    claude_transcript(transcript, session, [fact(2)], agent.repo)
    stop(agent, session, transcript, 2)
    # Replaced by a longer file whose bytes differ where the cursor was: the same turns,
    # written again after a summary, then a new one.
    text = transcript.read_text("utf-8")
    summary = {"type": "summary", "summary": "x" * 5000, "leafUuid": "none"}
    transcript.write_text(json.dumps(summary) + "\n" + text, "utf-8")
    claude_transcript(transcript, session, [fact(3)], agent.repo)
    stop(agent, session, transcript, 3)
    assert sorted(numbers(agent, extracted(agent, session))) == [0, 1, 2, 3], agent.log_text()


def test_a_worker_killed_between_the_commit_and_the_cursor_does_not_extract_again(
        agent: Agent) -> None:
    import subprocess
    import sys

    from lockholder import held
    from test_hooks import DEADLINE, queue_files

    from memcli.hooks import queue_dir
    from memcli.hooks.since import write_job_input
    from memcli.settings.resolve import Flags, resolve

    session = "killed"
    transcript = claude_transcript(transcript_for(agent, session), session, [fact(0)],
                                   agent.repo)
    queue = queue_dir(resolve(Flags(), agent.env, agent.repo))
    queue.mkdir(parents=True)
    with held(queue / ".lock"):  # queued, not run
        assert agent.hook(stop_payload(agent, session, transcript, "Noted.")).returncode == 0
        agent.wait_for_workers(finished_jobs=0)
    [name] = queue_files(agent)
    job_file = queue / name
    # What a worker does before it is killed: count the attempt, run the extraction to its
    # commit; then it dies before the child's ".done" trace and the cursor are written.
    job = json.loads(job_file.read_text("utf-8"))
    copied = write_job_input(job, queue / f".{name}.in")
    assert copied.cursor is not None
    job_file.write_text(json.dumps({**job, "attempts": 1, "id": name, "last_turn": False,
                                    "cursor": copied.cursor.as_json()}), "utf-8")
    with (queue / f".{name}.in").open("rb") as stdin:
        ran = subprocess.run([sys.executable, "-m", "memcli.hooks", "child", str(job_file)],
                             stdin=stdin, capture_output=True, env=agent.env, cwd=agent.repo,
                             timeout=DEADLINE, check=False)
    assert ran.returncode == 0, ran.stdout
    (queue / f".{name}.done").unlink()
    assert numbers(agent, extracted(agent, session)) == [0]
    # The next worker finds the commit in the history: the turn is not extracted again,
    # and the cursor moved (a later Stop with nothing new extracts nothing).
    drained = subprocess.run([sys.executable, "-m", "memcli.hooks", "drain", str(queue)],
                             env=agent.env, cwd=agent.repo, timeout=DEADLINE, check=False)
    assert drained.returncode == 0
    assert "its extraction committed before the worker was killed" in agent.log_text()
    assert queue_files(agent) == []
    stop(agent, session, transcript, 0)
    assert "nothing typed since the session's last extraction" in agent.log_text()
    assert numbers(agent, extracted(agent, session)) == [0]
    records = list((agent.project_store / ".memcli-history").glob("*.json"))
    assert len(records) == 1
