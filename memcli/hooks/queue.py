"""The extraction queue: jobs written by hooks, run one at a time by a detached worker.

The queue is one folder per user store under ``<user folder>/hooks/`` (every extraction
may write the user store, so all of a person's projects share it). One job is one file,
named so that names sort in arrival order. A worker takes the queue's lock, runs the oldest
job (``memcli extract --last-turn --apply``) to its end, deletes it and takes the next, so
extractions run one at a time, in order, and each reads the index when it starts. A worker
that finds the lock taken leaves at once: the holder drains the queue, and looks again after
letting go of the lock, so a job queued at that moment is never stranded.

Each job has a time limit (``JOB_TIMEOUT``, or ``MEMCLI_HOOK_JOB_TIMEOUT`` seconds in the
worker's environment). A job that runs out of it is killed and moved behind the jobs
queued since, so one stuck turn holds up the others once, not until its attempts run out.

A job records how long the transcript was when the turn ended, and the worker reads only
that much: a job that waited while the session went on still sees its own turn as the last
one. Of it, the child is handed only the window its last turn is read from
(:mod:`memcli.hooks.turn`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.hooks.log import log, log_failure, log_path, now, open_log
from memcli.paths import resolved

if TYPE_CHECKING:
    from memcli.settings.config import Settings

# An extraction is one model request with retries; one that runs longer than this is stuck,
# and killing it is safe because apply is transactional.
JOB_TIMEOUT = 300.0
# A job that killed its worker this often (out of memory, say) is dropped, not retried forever.
MAX_ATTEMPTS = 3
JOB_SUFFIX = ".json"
QUEUE_LOCK = ".lock"


# --------------------------------------------------------------------------- Stop: queue


@dataclass(frozen=True)
class Turn:
    """The turn a hook asks to extract: where its transcript is and how much of it is the turn."""

    session_id: str
    transcript: Path | None
    size: int
    last_assistant_message: str | None
    # An agent that hands over the turn itself (Gemini CLI's AfterAgent, a Codex turn
    # without a transcript): (role, text) pairs extracted instead of a transcript.
    messages: tuple[tuple[str, str], ...] = ()
    agent: str | None = None  # whose hook queued it
    extractor: str | None = None  # the hook's --extractor, over the settings' provider


def queue_turn(turn: Turn, settings: Settings, base: Path, env: Mapping[str, str],
               home: Path) -> str:
    """Write the turn's job and start a worker; the job's name."""
    job = {
        "session_id": turn.session_id,
        "transcript": str(turn.transcript) if turn.transcript is not None else None,
        "size": turn.size,
        "messages": [list(pair) for pair in turn.messages],
        "cwd": str(base),
        "argv": [*extract_argv(settings, turn.extractor, turn.agent), *_history_argv(turn)],
        "last_assistant_message": turn.last_assistant_message,
        "queued": now(),
        "attempts": 0,
    }
    queue = queue_dir(settings)
    name = _write_job(queue, job)
    if turn.transcript is not None:
        from memcli.hooks.sessions import remember

        remember(queue, turn.session_id, turn.size)
    pid = _spawn_worker(queue, env, base, home)
    what = (f"{turn.size} bytes of {turn.transcript}" if turn.transcript is not None
            else f"{len(turn.messages)} messages of the payload")
    log(home, f"queued {name} for session {turn.session_id or '?'} ({what}); worker pid {pid}")
    return name


def extract_argv(settings: Settings, extractor: str | None = None,
                 agent: str | None = None) -> list[str]:
    """The memcli arguments of one job: the settings as resolved for the agent's project.

    Resolving them now, not in the worker, keeps a job's project and provider even when
    the worker that runs it was started from another project. API keys are not written
    down: the worker finds them in its environment or the user config. EXTRACTOR (the
    hook's --extractor) replaces the settings' provider, with that provider's own defaults;
    AGENT tells `--provider auto` whose CLI it may use.
    """
    argv = ["--project-store", str(settings.project_store),
            "--user-store", str(settings.user_store),
            "extract", "--last-turn", "--apply", "--input", "-",
            "--timeout", f"{settings.timeout:g}"]
    if settings.closed is not None:
        argv.append("--no-project")  # outside a git work tree: no project store is made
    if extractor == "agent":  # as `hooks install` writes it: the agent's own CLI
        extractor = agent
    chosen = ((("--provider", extractor),) if extractor and extractor != settings.provider
              else (("--provider", settings.provider), ("--model", settings.model),
                    ("--base-url", settings.base_url)))
    for flag, value in chosen:
        if value:
            argv += [flag, value]
    return argv + (["--agent", agent] if agent else [])


def _history_argv(turn: Turn) -> list[str]:
    """What the history records as the job's source: the hook, the session, the transcript."""
    argv = ["--via", "hook", "--transcript", str(turn.transcript)]
    return argv + (["--session-id", turn.session_id] if turn.session_id else [])


def queue_dir(settings: Settings) -> Path:
    key = hashlib.sha256(str(resolved(settings.user_store)).encode()).hexdigest()[:16]
    return settings.user_home / "hooks" / key


def _write_job(queue: Path, job: Mapping[str, Any]) -> str:
    queue.mkdir(parents=True, exist_ok=True, mode=0o700)
    name = _job_name()
    _write_atomically(queue / name, json.dumps(job).encode())
    return name


def _job_name() -> str:
    # Zero-padded nanoseconds sort in arrival order; the pid keeps two hooks apart.
    return f"{time.time_ns():020d}-{os.getpid()}{JOB_SUFFIX}"


def _write_atomically(path: Path, data: bytes) -> None:
    from memcli.durable import replace_file

    # Private mode: a job names a transcript, which may be all a person said today.
    replace_file(path, data, 0o600)


def _spawn_worker(queue: Path, env: Mapping[str, str], cwd: Path, home: Path) -> int:
    """Start a worker the agent does not wait for and that outlives the agent."""
    options: dict[str, Any] = {}
    if sys.platform == "win32":  # pragma: no cover - POSIX CI
        options["creationflags"] = (subprocess.DETACHED_PROCESS
                                    | subprocess.CREATE_NEW_PROCESS_GROUP
                                    | subprocess.CREATE_NO_WINDOW)
    else:
        # Its own session: no SIGHUP when the agent's terminal goes, no kill of the hook's
        # process group when Claude Code times the hook out.
        options["start_new_session"] = True
    # Claude Code waits for the hook's stdout and stderr to close, so the worker may keep
    # neither open: stdout goes nowhere, stderr (tracebacks) to the log.
    with os.fdopen(open_log(log_path(home)), "ab") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "memcli.hooks", "drain", str(queue)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log_file,
            cwd=cwd, env=dict(env), close_fds=True, **options,
        )
    return process.pid


# --------------------------------------------------------------------------- the worker


def drain(queue: Path, home: Path, job_timeout: float = JOB_TIMEOUT) -> None:
    """Run the queue's jobs, oldest first, one at a time, each for at most ``job_timeout``
    seconds; leave if another worker is at it."""
    from memcli.writes.locks import try_lock, unlock

    while True:
        lock = try_lock(queue / QUEUE_LOCK)
        if lock is None:
            return
        try:
            while (job := _oldest(queue)) is not None:
                _run_job(job, home, job_timeout)
        finally:
            unlock(lock)
        # A hook may have queued a job and seen the lock still held just before it was let go.
        if _oldest(queue) is None:
            return


def _oldest(queue: Path) -> Path | None:
    try:
        names = sorted(n for n in os.listdir(queue)
                       if n.endswith(JOB_SUFFIX) and not n.startswith("."))
    except FileNotFoundError:
        return None
    return queue / names[0] if names else None


def _run_job(path: Path, home: Path, job_timeout: float) -> None:
    """Run one job; it leaves the queue only once its extraction ended, well or for good.

    A child killed before it finished (no ``.done`` trace) leaves the job in the queue, so
    the loop in ``drain`` runs it again, up to ``MAX_ATTEMPTS`` times in all.
    """
    from memcli.hooks import child

    name = path.name
    try:
        if not child.wait_for_orphan(path, job_timeout):
            log(home, f"job {name}: the extraction an earlier worker started is still running "
                      f"after {job_timeout:g} s; running it again")
        if child.read_done(path) is None:
            job = json.loads(path.read_bytes())
            if not isinstance(job, dict):
                raise ValueError("not a JSON object")
            attempts = int(job.get("attempts", 0)) + 1
            if attempts > MAX_ATTEMPTS:
                log(home, f"job {name}: dropped after {MAX_ATTEMPTS} attempts that did not finish")
                child.clean_up(path)
                return
            job["attempts"] = attempts
            # The name the history knows the job by, kept when it moves to the back.
            job.setdefault("id", name)
            _write_atomically(path, json.dumps(job).encode())
            if attempts > 1 and _committed(job, name):
                # Its extraction committed and the worker was killed before it could say
                # so: the turns are in the stores, only the cursor is left to move.
                log(home, f"job {name}: its extraction committed before the worker was "
                          "killed; not run again")
                _move_cursor(path, job)
                child.clean_up(path)
                return
            if not _extract(path, job, home, job_timeout):
                _to_the_back(path, home)
                return
        status = child.read_done(path)
        if status is not None:
            log(home, f"job {name}: done (extract exited {status})")
            if status in _EXTRACTED:
                _move_cursor(path, json.loads(path.read_bytes()))
            child.clean_up(path)
    except Exception as exc:
        # A job that cannot be read or run fails for good: retrying would fail the same way.
        log_failure(home, exc, f"job {name}")
        child.clean_up(path)


# The exit statuses after which the job's turns count as extracted: written (0), some
# operations refused (1), or input that will never read better (2). After a store, provider
# or internal failure the cursor stays, and the session's next job takes these turns too.
_EXTRACTED = (0, 1, 2)


def _cursor_file(path: Path, job: Mapping[str, Any]) -> Path | None:
    from memcli.hooks.cursor import cursor_path

    transcript = job.get("transcript")
    if not isinstance(transcript, str):
        return None
    return cursor_path(path.parent, str(job.get("session_id") or ""), transcript)


def _saved_cursor(path: Path, job: Mapping[str, Any]) -> Any:
    from memcli.hooks.cursor import load

    where = _cursor_file(path, job)
    return None if where is None else load(where)


def _move_cursor(path: Path, job: Mapping[str, Any]) -> None:
    from memcli.hooks.cursor import from_json, save

    where, cursor = _cursor_file(path, job), from_json(job.get("cursor"))
    if where is not None and cursor is not None:
        save(where, cursor)


def _committed(job: Mapping[str, Any], name: str) -> bool:
    """Whether a history record of either store names job NAME (its newest records only:
    the job's own commit is among the last few)."""
    from memcli.writes.history import read_records

    argv = job.get("argv")
    if not isinstance(argv, list):
        return False
    for flag in ("--project-store", "--user-store"):
        if flag in argv and argv.index(flag) + 1 < len(argv):
            records, _ = read_records(Path(str(argv[argv.index(flag) + 1])), newest=50)
            if any(r.source.get("job") == job.get("id", name) for r in records):
                return True
    return False


def _to_the_back(path: Path, home: Path) -> None:
    """Queue a job that ran out of time again, behind the jobs queued since."""
    from memcli.hooks import child

    with contextlib.suppress(FileNotFoundError):
        child.running_path(path).unlink()
    later = path.with_name(_job_name())
    os.replace(path, later)
    log(home, f"job {path.name}: queued again as {later.name}, behind the jobs queued since")


def _extract(path: Path, job: Mapping[str, Any], home: Path, job_timeout: float) -> bool:
    """Run the job's extraction in a child; False when it ran out of time and was killed."""
    from memcli.hooks import child
    from memcli.hooks.since import write_job_input

    name = path.name
    if not isinstance(job.get("argv"), list):
        raise ValueError("the job's argv is not a list of strings")
    # The child's input and output are files, not pipes to this worker: a worker killed
    # while its child runs must not end the child too (a write to a pipe nobody reads is
    # EPIPE, a stdin cut short reads as an empty turn, and either exits "done").
    stdin_path, out_path = child.input_path(path), child.output_path(path)
    copied = write_job_input(job, stdin_path, _saved_cursor(path, job))
    if copied.cursor is not None:
        # Where the cursor moves once the extraction has committed, and how the child
        # reads its input; written before the child starts, so a retry finds both.
        job = {**job, "cursor": copied.cursor.as_json(), "last_turn": copied.last_turn}
        _write_atomically(path, json.dumps(job).encode())
    if copied.prompts == 0:
        log(home, f"job {name}: nothing typed since the session's last extraction "
                  f"(its turns went with an earlier job)")
        _move_cursor(path, job)
        child.clean_up(path)
        return True
    started = time.monotonic()
    source = f" of the transcript's {copied.transcript}" if job.get("transcript") else ""
    log(home, f"job {name}: extract started (session {job.get('session_id') or '?'}, "
              f"attempt {job.get('attempts')}, {copied.written} bytes of input{source})")
    # Taken before the child starts and handed to it: there is no moment at which the job
    # runs and the lock is free.
    lock_fd = child.hold_running_lock(path)
    try:
        with open(stdin_path, "rb") as stdin, open(
                os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW,
                        0o600), "wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "memcli.hooks", "child", str(path)],
                stdin=stdin, stdout=out, stderr=subprocess.STDOUT,
                cwd=job["cwd"], pass_fds=() if lock_fd is None else (lock_fd,),
            )
    finally:
        if lock_fd is not None:
            os.close(lock_fd)
    try:
        process.wait(timeout=job_timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        log(home, f"job {name}: extract killed after {job_timeout:g} s (the transaction "
                  "keeps the stores whole); it runs again if attempts are left")
        return False
    from memcli.safety.redact import redact

    try:
        printed = out_path.read_bytes()
    except OSError:
        printed = b""
    output = redact(printed.decode("utf-8", "replace").strip())[0]
    how = (f"exited {process.returncode}" if process.returncode >= 0
           else f"was killed by signal {-process.returncode}; it runs again if attempts are left")
    log(home, f"job {name}: extract {how} after {time.monotonic() - started:.1f} s"
              + (f"\n{output}" if output else ""))
    return True
