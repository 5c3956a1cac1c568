"""`python -m memcli.hooks drain QUEUE`: the detached worker a hook starts; `child JOB`: one
job's extraction, run by the worker."""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from memcli.hooks.log import log, log_failure
from memcli.hooks.queue import JOB_TIMEOUT, drain


def main(argv: Sequence[str]) -> int:
    if len(argv) == 2 and argv[0] == "child":
        from memcli.hooks.child import run_child

        return run_child(Path(argv[1]), _run_memcli)
    if len(argv) != 2 or argv[0] != "drain":
        sys.stderr.write("usage: python -m memcli.hooks drain QUEUE_FOLDER\n")
        return 2
    queue = Path(argv[1])
    home = queue.parent.parent
    try:
        drain(queue, home, _job_timeout(os.environ, home))
    except Exception as exc:
        log_failure(home, exc, "worker")
    return 0


def _job_timeout(env: Mapping[str, str], home: Path) -> float:
    """MEMCLI_HOOK_JOB_TIMEOUT: how long one job may run, in seconds (JOB_TIMEOUT if unset)."""
    given = env.get("MEMCLI_HOOK_JOB_TIMEOUT", "").strip()
    if not given:
        return JOB_TIMEOUT
    try:
        seconds = float(given)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        log(home, f"MEMCLI_HOOK_JOB_TIMEOUT={given!r} is not a number of seconds above 0; "
                  f"jobs may run {JOB_TIMEOUT:g} s")
        return JOB_TIMEOUT
    return seconds


def _run_memcli(argv: list[str]) -> int:
    """The job's extraction, through the CLI in this process (an entry point may import it)."""
    from memcli.cli import main as memcli_main

    sys.argv = ["memcli", *argv]
    try:
        memcli_main()
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
