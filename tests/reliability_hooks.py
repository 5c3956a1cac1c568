"""The hook-job kill campaign (issue 12): workers and extract children SIGKILLed at random.

Real ``memcli hook claude-code`` processes queue one Stop turn each (a Claude Code
transcript whose turn asks memcli to remember one fact of its own); the detached workers
they start run the jobs. Meanwhile a killer SIGKILLs, at random moments, a worker, an
extract child, or both at once (what the OOM killer or a closed session does), and starts
a new worker after killing one (what the next hook would do). When the kills are over, a
last worker drains the queue.

A job is *lost* when its session has no history record (its extraction never committed)
and memcli did not say it dropped the job; it *ran twice* when its session has more than one
record (an extraction that committed, was not seen to finish, and ran again). The killer
never touches one job more than ``MAX_ATTEMPTS - 1`` times (``memcli.hooks.queue``), so the
attempt limit (a job that kills its worker every time is given up, with a line in the log)
is not what is measured; ``dropped`` counts those lines all the same.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from reliability_campaigns import DROPPED_ENV, workdir

_NOUNS = ("harbor", "violet", "granite", "falcon", "cedar", "quartz", "meadow", "copper",
          "lantern", "orchid", "glacier", "saffron", "willow", "ember", "juniper", "basalt",
          "heron", "marigold", "tundra", "cobalt", "fennel", "canyon", "mistral", "pebble",
          "indigo", "thistle", "sierra", "walnut", "lagoon", "zephyr", "bramble", "onyx",
          "plover", "russet", "sorrel", "delta", "hazel", "prairie", "tamarind", "vireo")


def _transcript(path: Path, session: str, prompt: str, cwd: Path) -> None:
    common = {"isSidechain": False, "userType": "external", "cwd": str(cwd),
              "sessionId": session, "version": "2.1.173", "gitBranch": "main"}
    records = [
        {**common, "type": "user", "uuid": f"{session}-u", "parentUuid": None,
         "timestamp": "2026-11-30T10:00:00.000Z", "message": {"role": "user", "content": prompt}},
        {**common, "type": "assistant", "uuid": f"{session}-a", "parentUuid": f"{session}-u",
         "timestamp": "2026-11-30T10:00:05.000Z",
         "message": {"id": f"msg_{session}", "type": "message", "role": "assistant",
                     "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "Noted."}],
                     "stop_reason": "end_turn", "usage": {"input_tokens": 9, "output_tokens": 2}}},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")


def _prompt(number: int) -> str:
    """A fact of its own for job NUMBER: no two jobs share their pair of words."""
    size = len(_NOUNS)
    first = _NOUNS[number % size]
    second = _NOUNS[(number % size + 1 + number // size) % size]
    return (f"Remember: the {first} {second} service number {number} is deployed with "
            f"make ship-{first}-{number}.")


def _processes(queue: Path) -> dict[int, tuple[str, str]]:
    """Live workers and extract children of QUEUE: pid -> (kind, job or '')."""
    found: dict[int, tuple[str, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state == "Z" or b"memcli.hooks" not in argv:
            continue
        words = [a.decode("utf-8", "replace") for a in argv]
        at = words.index("memcli.hooks")
        kind, target = [*words[at + 1:at + 3], "", ""][:2]
        if kind == "drain" and target == str(queue):
            found[int(entry.name)] = ("worker", "")
        elif kind == "child" and Path(target).parent == queue:
            found[int(entry.name)] = ("child", Path(target).name)
    return found


def _oldest_job(queue: Path) -> str:
    try:
        names = sorted(n for n in os.listdir(queue) if n.endswith(".json")
                       and not n.startswith("."))
    except FileNotFoundError:
        return ""
    return names[0] if names else ""


def _spawn_worker(queue: Path, env: dict[str, str], cwd: Path) -> None:
    subprocess.Popen([sys.executable, "-m", "memcli.hooks", "drain", str(queue)],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, cwd=cwd, env=env, start_new_session=True)


class _Killer:
    """SIGKILLs workers and children at random moments, never one job too often."""

    def __init__(self, queue: Path, env: dict[str, str], cwd: Path, rng: random.Random,
                 limit: int) -> None:
        self.queue, self.env, self.cwd, self.rng = queue, env, cwd, rng
        self.limit = limit
        self.touched: Counter[str] = Counter()  # kills that may cost a job an attempt
        self.kills: Counter[str] = Counter()

    def strike(self) -> bool:
        live = _processes(self.queue)
        if not live:
            return False
        workers = [pid for pid, (kind, _) in live.items() if kind == "worker"]
        children = {pid: job for pid, (kind, job) in live.items() if kind == "child"}
        mode = self.rng.choice(["worker", "child", "both"])
        victims: list[int] = []
        job = next(iter(children.values()), "") or _oldest_job(self.queue)
        if not job or self.touched[job] >= self.limit:
            return False
        if mode in ("child", "both") and children:
            victims += list(children)
        if mode in ("worker", "both") and workers:
            victims += workers
        if not victims:
            return False
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            self.kills["child" if pid in children else "worker"] += 1
        self.touched[job] += 1
        if any(pid in workers for pid in victims):
            _spawn_worker(self.queue, self.env, self.cwd)  # the next hook would start one
        return True


def _records_by_session(stores: list[Path]) -> Counter[str]:
    """How many transactions each session's jobs committed (a transaction that touched both
    stores has a record in each, with one id)."""
    seen: set[tuple[str, str]] = set()
    for store in stores:
        folder = store / ".memcli-history"
        if not folder.is_dir():
            continue
        for path in folder.glob("*.json"):
            try:
                record = json.loads(path.read_text("utf-8"))
            except (OSError, ValueError):
                continue
            session = (record.get("source") or {}).get("session")
            if session:
                seen.add((str(session), str(record.get("id"))))
    return Counter(session for session, _ in seen)


def _wait_idle(queue: Path, deadline: float) -> bool:
    while time.monotonic() < deadline:
        if not _processes(queue) and not _oldest_job(queue):
            return True
        time.sleep(0.1)
    return False


def hook_kills(jobs: int = 30, kills: int = 40, *, seed: int = 11,
               folder: Path | None = None) -> dict[str, Any]:
    """Queue JOBS turns through the real hook while KILLS SIGKILLs land; count the damage."""
    from memcli.hooks.queue import MAX_ATTEMPTS as limit
    from memcli.hooks.queue import queue_dir
    from memcli.settings.resolve import Flags, resolve

    rng = random.Random(seed)
    started = time.monotonic()
    with workdir(folder, "hook-kills") as root:
        repo, home = root / "repo", root / "home"
        (repo / ".memcli").mkdir(parents=True)
        home.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        env.update({"HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"), "NO_COLOR": "1"})
        queue = queue_dir(resolve(Flags(), env, repo))
        killer = _Killer(queue, env, repo, rng, limit - 1)
        sessions = [f"kill-{n:03d}" for n in range(jobs)]
        hook_failures = 0
        for number, session in enumerate(sessions):
            transcript = root / "transcripts" / f"{session}.jsonl"
            transcript.parent.mkdir(exist_ok=True)
            _transcript(transcript, session, _prompt(number), repo)
            payload = {"session_id": session, "transcript_path": str(transcript),
                       "cwd": str(repo), "hook_event_name": "Stop", "stop_hook_active": False,
                       "last_assistant_message": "Noted."}
            done = subprocess.run([sys.executable, "-m", "memcli", "hook", "claude-code"],
                                  input=json.dumps(payload).encode(), capture_output=True,
                                  env=env, cwd=repo, timeout=60, check=False)
            hook_failures += done.returncode != 0
            # Between hooks, the killer strikes at random moments of the jobs' lives (a few
            # tries: on an idle machine the queue may be empty for a moment).
            for _ in range(4):
                if sum(killer.kills.values()) >= kills:
                    break
                time.sleep(rng.uniform(0.0, 0.4))
                if killer.strike():
                    break
        deadline = time.monotonic() + 60 + 5 * jobs
        while sum(killer.kills.values()) < kills and time.monotonic() < deadline:
            if not _oldest_job(queue) and not _processes(queue):
                break
            time.sleep(rng.uniform(0.0, 0.5))
            if not killer.strike() and not _processes(queue) and _oldest_job(queue):
                _spawn_worker(queue, env, repo)
        _spawn_worker(queue, env, repo)  # the last hook of the day
        idle = _wait_idle(queue, time.monotonic() + 120 + 10 * jobs)
        log = (home / ".memcli" / "logs" / "hook.log")
        log_text = log.read_text("utf-8") if log.exists() else ""
        counts = _records_by_session([repo / ".memcli" / "memory", home / ".memcli" / "memory"])
        dropped = log_text.count("dropped after")
        lost = [s for s in sessions if counts[s] == 0]
        twice = [s for s in sessions if counts[s] > 1]
        return {
            "jobs": jobs, "kills": sum(killer.kills.values()),
            "worker_kills": killer.kills["worker"], "child_kills": killer.kills["child"],
            "lost": max(0, len(lost) - dropped), "run_twice": len(twice), "dropped": dropped,
            "retried": log_text.count("killed by signal 9; it runs again"),
            "hook_failures": hook_failures, "stuck": 0 if idle else 1,
            "left_in_queue": sorted(n for n in os.listdir(queue) if n.endswith(".json"))
            if queue.is_dir() else [],
            "examples": {"lost": lost[:5], "run_twice": twice[:5]},
            "seconds": round(time.monotonic() - started, 1),
        }
