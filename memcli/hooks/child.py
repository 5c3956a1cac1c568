"""One job's extraction as a child process that leaves a trace the next worker can read.

The worker runs ``python -m memcli.hooks child JOB`` rather than ``memcli`` with the job's
arguments, for three reasons:

* The job's arguments (a ``--base-url`` may hold a password) stay in the job file, which
  only its owner can read, and out of the process list.
* The child writes ``.JOB.done`` when its extraction ended, however it ended. No such file
  after the child is gone means it was killed (the OOM killer, a timeout): the job is run
  again, up to the attempt limit, instead of being lost.
* The child holds a lock on ``.JOB.running`` (inherited from the worker, which takes it
  before the child starts) for as long as it lives. A worker killed while its child runs
  leaves the child running; the next worker sees the lock held and waits for that child
  instead of running the job a second time.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

POLL_SECONDS = 0.2


def done_path(job: Path) -> Path:
    return job.with_name(f".{job.name}.done")


def running_path(job: Path) -> Path:
    return job.with_name(f".{job.name}.running")


def input_path(job: Path) -> Path:
    """What the child reads on stdin (the turn), written by the worker before it starts."""
    return job.with_name(f".{job.name}.in")


def output_path(job: Path) -> Path:
    """What the child printed, for the worker to log once it has ended."""
    return job.with_name(f".{job.name}.out")


def hold_running_lock(job: Path) -> int | None:
    """An fd holding the job's running lock, to hand to the child; None where there is no
    flock (the job then simply runs)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - POSIX CI
        return None
    fd = os.open(running_path(job), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise
    return fd


def wait_for_orphan(job: Path, timeout: float) -> bool:
    """Wait while a child of an earlier worker still runs this job; False on timeout."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - POSIX CI
        return True
    try:
        fd = os.open(running_path(job), os.O_RDWR)
    except FileNotFoundError:
        return True
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except OSError:
                if time.monotonic() >= deadline:
                    return False
                time.sleep(POLL_SECONDS)
    finally:
        os.close(fd)


def read_done(job: Path) -> int | None:
    """The exit status the child recorded, or None when it did not finish."""
    try:
        data = json.loads(done_path(job).read_bytes())
    except (OSError, ValueError):
        return None
    status = data.get("status") if isinstance(data, dict) else None
    return status if isinstance(status, int) else None


def clean_up(job: Path) -> None:
    for path in (job, done_path(job), running_path(job), input_path(job), output_path(job)):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def run_child(job: Path, run_memcli: Callable[[list[str]], int]) -> int:
    """Run the job's ``memcli`` arguments with RUN_MEMCLI, then record how it ended.

    The entry point passes the CLI in: nothing below the CLI imports it.
    """
    data: Any = json.loads(job.read_bytes())
    argv = data.get("argv") if isinstance(data, dict) else None
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        status = 2
        sys.stderr.write("memcli: error: the job's argv is not a list of strings\n")
    else:
        if data.get("last_turn") is False:
            # The worker handed over every turn since the session's cursor, not a window.
            argv = [a for a in argv if a != "--last-turn"]
        ident = data.get("id")
        status = run_memcli([*argv, "--job", ident if isinstance(ident, str) else job.name])
    from memcli.durable import write_durably

    write_durably(done_path(job), json.dumps({"status": status}).encode(), mode=0o600)
    return status
