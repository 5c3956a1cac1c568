"""The hook worker on a long session: what each job copies, how long N jobs take, and the
peak memory of the worker and of `SessionEnd`, against the same jobs on a short session.

    python benchmarks/hook_jobs.py                          # a 50 MB session, 5 jobs, 3 rounds
    python benchmarks/hook_jobs.py --quick                  # 1 MB, 1 job, 1 round, no warm-up
    python benchmarks/hook_jobs.py --root OLD --root .      # two checkouts, interleaved by round

A Claude Code session is built in a temporary folder from a real fixture (copies with fresh
uuids, as `transcripts.py` builds it), and a short one holding only the turns the jobs
queue. In every round, for each checkout (`--root`, this one by default) and each session,
N turns are appended and `memcli hook claude-code` is run on each one's `Stop` while the
queue's lock is held (the workers those hooks start leave at once), so the N jobs wait in
the queue; then one `python -m memcli.hooks drain` runs them all (extraction with the
offline rules), timed with its peak memory: the worker's own (its VmHWM, read while it runs)
and the largest of it and its extract children (rusage). The bytes the drain wrote (`wchar`
of /proc/self/io, Linux only) are what the jobs copied for their extractions plus a few kB
of notes, history and log. Then a `SessionEnd` of a session never queued reads everything
after byte 0 of the long session.

Targets (the last root): each job writes at most 16 MiB whatever the session's size; the
drain of the long session takes at most 1.5 x the drain of the short one; the worker and the
`SessionEnd` hook peak at most 80 MB above `python -c pass`.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import transcripts  # noqa: E402 - a sibling script, not a package

MB = 1_000_000
COPY_TARGET = 16 * 1024 * 1024  # bytes a job may write, whatever the session's size
TIME_TARGET = 1.5  # the long session's drain against the short one's
MEMORY_ABOVE_MB = 80.0
SESSION = "bench-session"

# Starts ARGV, and while it runs reads its VmHWM (the worker's own peak); at the end the
# rusage peak (the largest of it and the children it waited for) and this process's I/O
# counters, into which a reaped child's (and its children's) are folded.
_TIMER = """\
import os, sys, time
def io():
    try:
        fields = dict(line.split(": ") for line in open("/proc/self/io").read().splitlines())
        return int(fields["rchar"]), int(fields["wchar"])
    except OSError:
        return -1, -1
def hwm(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0
argv = sys.argv[1:]
before = io()
start = time.perf_counter()
pid = os.posix_spawnp(argv[0], argv, os.environ)
own = 0
while True:
    done, status, usage = os.wait4(pid, os.WNOHANG)
    if done:
        break
    own = max(own, hwm(pid))
    time.sleep(0.005)
wall = time.perf_counter() - start
after = io()
scale = 1 if sys.platform == "darwin" else 1024
print(wall, usage.ru_maxrss * scale, own, after[0] - before[0], after[1] - before[1],
      os.waitstatus_to_exitcode(status))
"""


def timed(argv: list[str], env: dict[str, str], cwd: Path, stdin: bytes = b""
          ) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-I", "-S", "-c", _TIMER, *argv], env=env, cwd=cwd,
                          input=stdin, capture_output=True, check=False)
    fields = done.stdout.decode().split()
    if done.returncode != 0 or len(fields) != 6 or fields[-1] != "0":
        raise SystemExit(f"{' '.join(argv)} failed: {done.stdout!r} {done.stderr[-2000:]!r}")
    wall, tree, own, read, written, _ = (float(f) for f in fields)
    return {"s": wall, "tree_peak": tree, "own_peak": own or tree, "read": read,
            "written": written}


def turn_lines(number: int, cwd: Path) -> str:
    """One more turn of the session: a prompt with a memory cue and its answer."""
    common = {"isSidechain": False, "userType": "external", "cwd": str(cwd),
              "sessionId": SESSION, "version": "2.1.173", "gitBranch": "main"}
    user, answer = f"bench-u{number}", f"bench-a{number}"
    records = [
        {**common, "type": "user", "uuid": user, "parentUuid": None,
         "timestamp": f"2026-11-30T11:{number % 60:02d}:00.000Z",
         "message": {"role": "user",
                     "content": f"Remember that the build command is make build-{number}."}},
        {**common, "type": "assistant", "uuid": answer, "parentUuid": user,
         "timestamp": f"2026-11-30T11:{number % 60:02d}:05.000Z",
         "message": {"id": f"msg_{answer}", "type": "message", "role": "assistant",
                     "model": "claude-sonnet-4-5",
                     "content": [{"type": "text", "text": "Noted."}],
                     "stop_reason": "end_turn"}},
    ]
    return "".join(json.dumps(r) + "\n" for r in records)


def environment(scratch: Path, root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MEMCLI_", "OPENAI_", "ANTHROPIC_", "PYTHON"))}
    home = scratch / "home"
    return env | {"HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"), "NO_COLOR": "1",
                  "PYTHONPATH": str(root), "MEMCLI_NOW": "2026-11-30T12:00:00Z",
                  "PYTHONPYCACHEPREFIX": str(scratch.parent / f"pycache-{_key(root)}")}


def _key(root: Path) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", str(root.resolve()))[-40:]


def queue_folder(env: dict[str, str], repo: Path) -> Path:
    from memcli.hooks import queue_dir
    from memcli.settings.resolve import Flags, resolve

    return queue_dir(resolve(Flags(), env, repo))


@contextlib.contextmanager
def held(lock: Path) -> Iterator[None]:
    """The queue's lock, as another worker holds it: the workers the hooks start leave."""
    lock.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def log_text(env: dict[str, str]) -> str:
    path = Path(env["MEMCLI_HOME"]) / "logs" / "hook.log"
    return path.read_text("utf-8") if path.exists() else ""


def wait_for_workers(env: dict[str, str]) -> None:
    pids = {int(m) for m in re.findall(r"worker pid (\d+)", log_text(env))}
    deadline = time.monotonic() + 60
    while any(_alive(p) for p in pids):
        if time.monotonic() > deadline:
            raise SystemExit("a worker the hooks started did not leave")
        time.sleep(0.02)


def hook(env: dict[str, str], repo: Path, payload: dict[str, Any]) -> None:
    done = subprocess.run([sys.executable, "-m", "memcli", "hook", "claude-code"],
                          input=json.dumps(payload).encode(), env=env, cwd=repo,
                          capture_output=True, timeout=120, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the hook failed: {done.stderr.decode()[-2000:]}")


def run_case(root: Path, session: Path, jobs: int, scratch: Path) -> dict[str, Any]:
    """N jobs queued on a copy of SESSION, drained by one worker; then a SessionEnd."""
    shutil.rmtree(scratch, ignore_errors=True)
    repo = scratch / "repo"
    (repo / ".memcli").mkdir(parents=True)
    env = environment(scratch, root)
    transcript = scratch / "home" / ".claude" / "projects" / "-repo" / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    shutil.copyfile(session, transcript)
    queue = queue_folder(env, repo)
    with held(queue / ".lock"):
        for number in range(jobs):
            with transcript.open("a", encoding="utf-8") as out:
                out.write(turn_lines(number, repo))
            hook(env, repo, {"session_id": SESSION, "transcript_path": str(transcript),
                             "cwd": str(repo), "hook_event_name": "Stop",
                             "stop_hook_active": False, "last_assistant_message": "Noted."})
        wait_for_workers(env)
    python = sys.executable
    drain = timed([python, "-m", "memcli.hooks", "drain", str(queue)], env, repo)
    log = log_text(env)
    exits = re.findall(r"job \S+: extract exited (\d+)", log)
    if len(exits) != jobs:
        raise SystemExit(f"{len(exits)} of {jobs} jobs ran; the log:\n{log[-4000:]}")
    copied = [int(n) for n in re.findall(r"extract started .*?(\d+) bytes of input", log)]
    # A session never queued: SessionEnd reads all of it for a prompt with no Stop.
    end_payload = {"session_id": "never-queued", "transcript_path": str(transcript),
                   "cwd": str(repo), "hook_event_name": "SessionEnd", "reason": "exit"}
    with held(queue / ".lock"):
        session_end = timed([python, "-m", "memcli", "hook", "claude-code"], env, repo,
                            json.dumps(end_payload).encode())
        wait_for_workers(env)
    return {"drain": drain, "session_end": session_end, "exits": exits,
            "copied_per_job": copied, "size": transcript.stat().st_size}


def interpreter_peak(scratch: Path) -> float:
    env = environment(scratch, ROOT)
    scratch.mkdir(parents=True, exist_ok=True)
    return min(timed([sys.executable, "-c", "pass"], env, scratch)["tree_peak"]
               for _ in range(3))


def summarise(samples: list[dict[str, Any]], jobs: int) -> dict[str, Any]:
    def median(what: str, key: str) -> float:
        return statistics.median(s[what][key] for s in samples)

    copied = [n for s in samples for n in s["copied_per_job"]]
    return {
        "size_mb": samples[0]["size"] / MB,
        "drain_s": median("drain", "s"),
        "per_job_s": median("drain", "s") / jobs,
        "written_per_job_mb": median("drain", "written") / jobs / MB,
        "read_per_job_mb": median("drain", "read") / jobs / MB,
        "worker_peak_mb": max(s["drain"]["own_peak"] for s in samples) / MB,
        "tree_peak_mb": max(s["drain"]["tree_peak"] for s in samples) / MB,
        "logged_copy_mb": max(copied) / MB if copied else None,
        "session_end_s": median("session_end", "s"),
        "session_end_peak_mb": max(s["session_end"]["tree_peak"] for s in samples) / MB,
        "drain_samples_s": [s["drain"]["s"] for s in samples],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=float, default=50.0, help="the long session, in MB")
    parser.add_argument("--jobs", type=int, default=5, help="turns queued per run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--root", type=Path, action="append",
                        help="a memcli checkout to run (repeat it; default: this one)")
    parser.add_argument("--quick", action="store_true",
                        help="1 MB, 1 job, 1 round, no warm-up (the smoke test)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    size, jobs, rounds = (1.0, 1, 1) if args.quick else (args.size, args.jobs, args.rounds)
    roots = [r.resolve() for r in args.root or [ROOT]]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        long_session, short_session = base / "long.jsonl", base / "short.jsonl"
        transcripts.build_log(long_session, size, transcripts.SESSION)
        short_session.write_bytes(b"")  # the session of the jobs' own turns alone
        floor = interpreter_peak(base / "floor")
        samples: dict[tuple[str, str], list[dict[str, Any]]] = {
            (str(r), s): [] for r in roots for s in ("long", "short")}
        warm = 0 if args.quick else 1  # a first round warms the caches, untimed
        for number in range(rounds + warm):
            for root in roots:
                for name, session in (("long", long_session), ("short", short_session)):
                    run = run_case(root, session, jobs, base / "run")
                    if number >= warm:
                        samples[str(root), name].append(run)
    results = []
    for root in roots:
        long_row = summarise(samples[str(root), "long"], jobs)
        short_row = summarise(samples[str(root), "short"], jobs)
        ratio = statistics.median(
            a["drain"]["s"] / b["drain"]["s"]
            for a, b in zip(samples[str(root), "long"], samples[str(root), "short"],
                            strict=True))
        results.append({"root": str(root), "long": long_row, "short": short_row,
                        "drain_ratio": ratio})
    last = results[-1]
    targets = {
        "copy": last["long"]["written_per_job_mb"] * MB <= COPY_TARGET,
        "time": last["drain_ratio"] <= TIME_TARGET,
        "worker_memory": last["long"]["worker_peak_mb"] - floor / MB <= MEMORY_ABOVE_MB,
        "session_end_memory": last["long"]["session_end_peak_mb"] - floor / MB
        <= MEMORY_ABOVE_MB,
    }
    if args.json:
        print(json.dumps({"jobs": jobs, "rounds": rounds, "interpreter_mb": floor / MB,
                          "results": results, "targets": targets}, indent=2))
        return 0
    _print(results, jobs, rounds, floor / MB, targets)
    return 0


def _print(results: list[dict[str, Any]], jobs: int, rounds: int, floor: float,
           targets: dict[str, bool]) -> None:
    print(f"{jobs} jobs queued, then drained by one worker; median of {rounds} rounds; "
          f"peak memory: the most of any round (python -c pass: {floor:.0f} MB)")
    head = (f"  {'session':<9} {'MB':>6} {'drain':>8} {'/job':>7} {'written/job':>12} "
            f"{'read/job':>9} {'worker':>8} {'+child':>8} {'SessionEnd':>11} {'peak':>8}")
    for result in results:
        print(f"memcli from {result['root']}")
        print(head)
        for name in ("long", "short"):
            row = result[name]
            print(f"  {name:<9} {row['size_mb']:6.1f} {row['drain_s']:6.2f} s "
                  f"{row['per_job_s']:5.2f} s {row['written_per_job_mb']:9.3f} MB "
                  f"{row['read_per_job_mb']:6.2f} MB {row['worker_peak_mb']:5.0f} MB "
                  f"{row['tree_peak_mb']:5.0f} MB {row['session_end_s']:9.2f} s "
                  f"{row['session_end_peak_mb']:5.0f} MB")
        print(f"  the long session's drain: {result['drain_ratio']:.2f} x the short one's")
    verdict = {True: "met", False: "NOT met"}
    print(f"target: a job writes at most {COPY_TARGET // (1024 * 1024)} MiB: "
          f"{verdict[targets['copy']]}")
    print(f"target: the long drain <= {TIME_TARGET} x the short one: {verdict[targets['time']]}")
    print(f"target: the worker <= {MEMORY_ABOVE_MB:.0f} MB above the interpreter: "
          f"{verdict[targets['worker_memory']]}")
    print(f"target: SessionEnd <= {MEMORY_ABOVE_MB:.0f} MB above the interpreter: "
          f"{verdict[targets['session_end_memory']]}")


if __name__ == "__main__":
    raise SystemExit(main())
