"""The hook storm campaign (issue 25, item 4): Stop events while sessions keep growing.

``hook_storm(events, projects)`` fires EVENTS real ``memcli hook claude-code`` Stop events,
as fast as they come, across PROJECTS repositories that share one home (so one queue). In
half of the projects one session keeps growing: before each of its Stop events the person
typed 0 to 3 turns (0: the same Stop fired again; several: turns whose own Stop never came,
an interrupted turn, or a burst the queue coalesces). In the other half each event is a new
one-turn session. Every turn asks memcli to remember a fact of its own (the offline rules
extractor makes one note of it). With ``kills``, a killer SIGKILLs workers and extraction
children at random moments meanwhile (tests/reliability_hooks.py).

When the queue is idle, a turn is *lost* when no note holds its fact, and *duplicated* when
more than one history record wrote its note (extracted twice).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from reliability_campaigns import DROPPED_ENV, workdir
from reliability_hooks import _Killer, _prompt, _spawn_worker, _wait_idle


def _append_turns(path: Path, session: str, numbers: list[int], cwd: Path,
                  parent: str | None) -> str | None:
    """Append one Claude Code turn per number (its prompt, an answer); the last uuid."""
    common = {"isSidechain": False, "userType": "external", "cwd": str(cwd),
              "sessionId": session, "version": "2.1.173", "gitBranch": "main"}
    lines = []
    for number in numbers:
        user, answer = f"{session}-u{number}", f"{session}-a{number}"
        lines.append({**common, "type": "user", "uuid": user, "parentUuid": parent,
                      "timestamp": "2026-11-30T10:00:00.000Z",
                      "message": {"role": "user", "content": _prompt(number)}})
        lines.append({**common, "type": "assistant", "uuid": answer, "parentUuid": user,
                      "timestamp": "2026-11-30T10:00:05.000Z",
                      "message": {"id": f"msg_{answer}", "type": "message",
                                  "role": "assistant", "model": "claude-sonnet-4-5",
                                  "content": [{"type": "text", "text": "Noted."}],
                                  "stop_reason": "end_turn",
                                  "usage": {"input_tokens": 9, "output_tokens": 2}}})
        parent = answer
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write("".join(json.dumps(line) + "\n" for line in lines))
    return parent


_FACT = re.compile(r"service number (\d+) ")


def _writes_by_fact(stores: list[Path]) -> tuple[Counter[int], set[int]]:
    """How many history records wrote each fact's note, and the facts the notes now hold."""
    writes: Counter[int] = Counter()
    held: set[int] = set()
    for store in stores:
        for note in store.glob("[!.]*.md"):
            held.update(int(m) for m in _FACT.findall(note.read_text("utf-8")))
        for path in (store / ".memcli-history").glob("*.json"):
            record = json.loads(path.read_text("utf-8"))
            for item in record.get("files", []):
                if item.get("file") == "MEMORY.md" or not isinstance(item.get("after"), str):
                    continue
                before = set(_FACT.findall(item.get("before") or ""))
                writes.update(int(m) for m in set(_FACT.findall(item["after"])) - before)
    return writes, held


def hook_storm(events: int = 200, projects: int = 4, *, kills: int = 0, seed: int = 25,
               folder: Path | None = None) -> dict[str, Any]:
    """Fire EVENTS Stop events over PROJECTS repositories; count lost and repeated turns."""
    from memcli.hooks.queue import MAX_ATTEMPTS, queue_dir
    from memcli.settings.resolve import Flags, resolve

    rng = random.Random(seed)
    started = time.monotonic()
    with workdir(folder, "hook-storm") as root:
        home = root / "home"
        home.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        env.update({"HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"), "NO_COLOR": "1"})
        repos = [root / f"repo{n}" for n in range(projects)]
        for repo in repos:
            (repo / ".memcli").mkdir(parents=True)
        queue = queue_dir(resolve(Flags(), env, repos[0]))
        killer = _Killer(queue, env, repos[0], rng, MAX_ATTEMPTS - 1)
        growing = {n: (f"grow-{n}", None) for n in range(0, projects, 2)}
        typed: list[int] = []
        hook_failures = 0
        for event in range(events):
            project = rng.randrange(projects)
            repo = repos[project]
            if project in growing:
                session, parent = growing[project]
                numbers = list(range(len(typed), len(typed) + rng.choice((0, 1, 1, 2, 3))))
            else:
                session, parent, numbers = f"one-{event}", None, [len(typed)]
            transcript = root / "transcripts" / f"{session}.jsonl"
            if numbers or not transcript.exists():
                numbers = numbers or [len(typed)]
                parent = _append_turns(transcript, session, numbers, repo, parent)
                typed += numbers
            if project in growing:
                growing[project] = (session, parent)
            payload = {"session_id": session, "transcript_path": str(transcript),
                       "cwd": str(repo), "hook_event_name": "Stop", "stop_hook_active": False,
                       "last_assistant_message": "Noted."}
            done = subprocess.run([sys.executable, "-m", "memcli", "hook", "claude-code"],
                                  input=json.dumps(payload).encode(), capture_output=True,
                                  env=env, cwd=repo, timeout=60, check=False)
            hook_failures += done.returncode != 0
            if kills and sum(killer.kills.values()) < kills and rng.random() < 0.5:
                killer.strike()
        _spawn_worker(queue, env, repos[0])  # the last hook of the day
        idle = _wait_idle(queue, time.monotonic() + 120 + 10 * events)
        stores = [repo / ".memcli" / "memory" for repo in repos]
        writes, held = _writes_by_fact([*stores, home / ".memcli" / "memory"])
        log = home / ".memcli" / "logs" / "hook.log"
        log_text = log.read_text("utf-8") if log.exists() else ""
        lost = [n for n in typed if n not in held]
        twice = [n for n in typed if writes[n] > 1]
        return {
            "events": events, "projects": projects, "turns": len(typed),
            "extractions": log_text.count(": done (extract exited"),
            "coalesced": log_text.count("nothing typed since the session's last extraction"),
            "kills": sum(killer.kills.values()),
            "lost_turns": len(lost), "duplicates": len(twice),
            "dropped": log_text.count("dropped after"), "hook_failures": hook_failures,
            "stuck": 0 if idle else 1,
            "examples": {"lost": lost[:5], "duplicates": twice[:5]},
            "seconds": round(time.monotonic() - started, 1),
        }
