"""The review-accept kill campaign (issue 30): SIGKILL `memcli review --accept` mid-batch,
with a second review and a proposing hook running at the same time.

Each round starts from the same inbox of proposals (plain files beside the project store),
runs two `memcli review --accept --all` at once and an `extract --propose` (what the hook's
job does with `review` set) while they run, kills one reviewer at a random moment, lets the
next command finish what it left, and checks every proposal:

* lost: out of the inbox with no history record accepting it (or the new one gone);
* twice: two records accept it, or it is still waiting after a record accepted it;
* torn: `memcli index --check` fails, or a transaction folder is left behind.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TURN = ("\n".join(json.dumps(m) for m in (
    {"role": "user", "content": "We use pytest with -p no:randomly to run tests in this repo."},
    {"role": "assistant", "content": "Noted."})) + "\n")


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(root / "home"), "MEMCLI_HOME": str(root / "home" / ".memcli"),
            "MEMCLI_LOCK_TIMEOUT": "30", "NO_COLOR": "1", "MEMCLI_NOW": "2026-11-29T10:00:00Z"}


def _memcli(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memcli", *args], cwd=root / "repo",
                          env=_env(root), input=stdin, capture_output=True, text=True,
                          timeout=120, check=False)


def _template(folder: Path, proposals: int) -> list[str]:
    """A repository with a project store and PROPOSALS proposals waiting; their ids."""
    from memcli.store.names import inbox_folder
    from memcli.writes.inbox import encode, new_proposal

    repo = folder / "repo"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    added = _memcli(folder, "add", "--level", "project", "--title", "Seed",
                    "The build uses make and nothing else, every time.")
    assert added.returncode == 0, added.stderr
    inbox = inbox_folder(repo / ".memcli" / "memory")
    inbox.mkdir(mode=0o700)
    ids = []
    for number in range(proposals):
        ops = [{"action": "create", "level": "project", "type": "project_knowledge",
                "title": f"Fact {number}", "content": f"Fact number {number} holds here."}]
        p = new_proposal("project", f"2026-11-29T09:{number:02d}:00Z", ops,
                         {"command": "extract --propose", "via": "hook"}, "the turn", "")
        (inbox / p.filename).write_bytes(encode(p))
        ids.append(p.id)
    return ids


def _check(root: Path, ids: list[str], tally: dict[str, int]) -> None:
    from memcli.store.names import inbox_folder

    listed = _memcli(root, "review", "--list", "--json")  # finishes what a kill left
    if listed.returncode != 0:
        tally["unhandled"] += 1
        return
    waiting = {p["id"] for p in json.loads(listed.stdout)["proposals"]}
    log = json.loads(_memcli(root, "log", "--json", "--limit", "1000").stdout)
    accepted: dict[str, int] = {}
    for txn in log["transactions"]:
        pid = txn["source"].get("proposal")
        if pid:
            accepted[pid] = accepted.get(pid, 0) + 1
    for pid in ids:
        n = accepted.get(pid, 0)
        if pid not in waiting and n == 0:
            tally["lost"] += 1
        if n > 1 or (pid in waiting and n):
            tally["twice"] += 1
    # The proposal the hook added during the reviews: waiting, or accepted once.
    fresh = [p for p in waiting | set(accepted) if p not in ids]
    if not fresh:
        tally["lost"] += 1
    store = root / "repo" / ".memcli" / "memory"
    if _memcli(root, "index", "--check").returncode != 0 or any(
            p.name.startswith(".memcli-txn-") for p in store.iterdir()):
        tally["torn"] += 1
    if any(p.name.startswith(".memcli-txn-") for p in inbox_folder(store).iterdir()):
        tally["torn"] += 1


def review_kills(rounds: int = 10, proposals: int = 6, seed: int = 30,
                 folder: Path | None = None) -> dict[str, Any]:
    """ROUNDS rounds of two concurrent accepts of PROPOSALS proposals, one killed."""
    rng = random.Random(seed)
    started = time.monotonic()
    base = Path(tempfile.mkdtemp(prefix="memcli-review-kills-", dir=folder))
    tally = {"kills": 0, "exited_first": 0, "lost": 0, "twice": 0, "torn": 0, "unhandled": 0}
    try:
        template = base / "template"
        ids = _template(template, proposals)
        # How long one accept of the whole inbox takes here: the kills fall inside it.
        probe = base / "probe"
        shutil.copytree(template, probe, symlinks=True)
        begun = time.monotonic()
        _memcli(probe, "review", "--accept", "--all")
        span = time.monotonic() - begun
        for number in range(rounds):
            root = base / f"r{number}"
            shutil.copytree(template, root, symlinks=True)
            cmd = [sys.executable, "-m", "memcli", "review", "--accept", "--all"]
            kwargs: dict[str, Any] = {"cwd": root / "repo", "env": _env(root),
                                      "stdout": subprocess.DEVNULL,
                                      "stderr": subprocess.DEVNULL}
            victim = subprocess.Popen(cmd, **kwargs)
            other = subprocess.Popen(cmd, **kwargs)
            hook = subprocess.Popen([sys.executable, "-m", "memcli", "extract", "--provider",
                                     "rules", "--propose"], stdin=subprocess.PIPE, **kwargs)
            assert hook.stdin is not None
            hook.stdin.write(TURN.encode())
            hook.stdin.close()
            time.sleep(rng.uniform(0.2, 1.0) * span)
            if victim.poll() is None:
                victim.send_signal(signal.SIGKILL)
                tally["kills"] += 1
            else:
                tally["exited_first"] += 1
            victim.wait()
            other.wait(timeout=120)
            hook.wait(timeout=120)
            _check(root, ids, tally)
            shutil.rmtree(root, ignore_errors=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return {"rounds": rounds, "proposals": proposals, **tally,
            "accept_seconds": round(span, 2), "seconds": round(time.monotonic() - started, 1)}
