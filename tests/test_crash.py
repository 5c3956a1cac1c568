"""SIGKILL real `memcli apply` processes at random moments: the next memcli command must see
the stores exactly as before the batch or exactly as after it (issue 2).

Each kill targets a fresh copy of one "before" state. The "after" state of every batch is
computed once, by applying the same batch to a copy of the before state in another folder.
Most kills are aimed: a random delay after the batch's transaction folder appears in the
primary store (prepare), or after its commit marker appears (roll forward and clean-up);
the rest land at a random moment after the process starts. After each kill, `show --json`
and `index --check` run (alternating which comes first, so either is the recovering
command); the stores must then equal the before or the after snapshot byte for byte,
hidden files included (so no lock file or txn folder is left), a batch whose commit marker
was on disk at the kill must come out as "after", and `show` must list what the files say.
The history is checked on its own (its records carry fresh ids): "before" must have no new
record, "after" exactly one per store, describing byte for byte the change that survived.
Two lanes run side by side, each on its own pair of stores.

Set MEMCLI_CRASH_SEED to replay a run; the seed, the kills and the torn states are printed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from history_check import HISTORY_DIR, read_history, record_problems

NOW = "2026-11-29T10:00:00Z"
LANES = 2
KILLS_PER_LANE = int(os.environ.get("MEMCLI_CRASH_KILLS") or 100) // LANES
MAX_ATTEMPTS_PER_LANE = KILLS_PER_LANE * 3
TXN_PREFIX = ".memcli-txn-"

pytestmark = pytest.mark.slow


def snapshot(store: Path) -> dict[str, Any]:
    """Every entry of a store folder, hidden ones included but the history: bytes, or 'dir'."""
    found: dict[str, Any] = {}
    for dirpath, dirnames, filenames in os.walk(store):
        folder = Path(dirpath)
        if folder == store:
            dirnames[:] = [d for d in dirnames if d != HISTORY_DIR]
        for name in dirnames:
            found[str((folder / name).relative_to(store))] = "dir"
        for name in filenames:
            path = folder / name
            try:
                found[str(path.relative_to(store))] = path.read_bytes()
            except FileNotFoundError:
                found[str(path.relative_to(store))] = "vanished"
    return found


@dataclass
class Stores:
    root: Path

    @property
    def project(self) -> Path:
        return self.root / "repo" / ".memcli" / "memory"

    @property
    def user(self) -> Path:
        return self.root / "home" / ".memcli" / "memory"

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "HOME": str(self.root / "home"),
                "MEMCLI_HOME": str(self.root / "home" / ".memcli"),
                "MEMCLI_PROJECT_STORE": str(self.project), "MEMCLI_USER_STORE": str(self.user),
                "MEMCLI_NOW": NOW, "NO_COLOR": "1", "MEMCLI_LOCK_TIMEOUT": "60"}

    @property
    def primary(self) -> Path:
        """The store that comes first in lock order holds the commit marker."""
        return min((self.project, self.user), key=lambda p: str(p.resolve()))

    def state(self) -> dict[str, Any]:
        return {"project": snapshot(self.project), "user": snapshot(self.user)}

    def history(self) -> dict[str, dict[str, Any]]:
        return read_history({"project": self.project, "user": self.user})

    def copy_from(self, other: Stores) -> None:
        for mine, theirs in ((self.project, other.project), (self.user, other.user)):
            if mine.exists():
                shutil.rmtree(mine)
            mine.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(theirs, mine)
        (self.root / "repo").mkdir(exist_ok=True)

    def memcli(self, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "memcli", *args], input=input,
                              capture_output=True, text=True, env=self.env,
                              cwd=self.root / "repo", timeout=120, check=False)

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "memcli", *args], env=self.env,
                                cwd=self.root / "repo", stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)


def _content(rng: random.Random, words: int) -> str:
    vocab = ["build", "release", "pnpm", "pytest", "部署", "测试", "always", "never", "cache",
             "token-free", "review", "schema", "migration", "日志", "owner"]
    return " ".join(rng.choice(vocab) for _ in range(words)) + "."


def _before_ops(rng: random.Random) -> list[dict[str, Any]]:
    ops = []
    for i in range(30):
        ops.append({"action": "create", "level": "project",
                    "type": ("project_knowledge", "reference_material",
                             "correction_feedback")[i % 3],
                    "title": f"Project note {i}", "content": _content(rng, 60)})
    for i in range(20):
        ops.append({"action": "create", "level": "user",
                    "type": ("user_preference", "correction_feedback")[i % 2],
                    "title": f"User note {i}", "content": _content(rng, 40)})
    return ops


def _batch(rng: random.Random, number: int) -> list[dict[str, Any]]:
    """~20 mixed operations on both stores, with large bodies to widen the write window."""
    project_types = ("project_knowledge", "reference_material", "correction_feedback")
    user_types = ("user_preference", "correction_feedback")
    ops: list[dict[str, Any]] = []
    for i in range(7):
        ops.append({"action": "create", "level": "project", "type": project_types[i % 3],
                    "title": f"Batch {number} new project {i}",
                    "content": _content(rng, rng.randint(800, 2000))})
    for i in range(4):
        ops.append({"action": "create", "level": "user", "type": user_types[i % 2],
                    "title": f"Batch {number} new user {i}",
                    "content": _content(rng, rng.randint(800, 2000))})
    project_existing = rng.sample(range(30), 7)
    user_existing = rng.sample(range(20), 5)

    def name(level: str, i: int) -> str:
        if level == "project":
            return f"{project_types[i % 3]}_project-note-{i}.md"
        return f"{user_types[i % 2]}_user-note-{i}.md"

    for i in project_existing[:4]:
        ops.append({"action": "update", "level": "project", "filename": name("project", i),
                    "content": _content(rng, rng.randint(500, 1500)),
                    "summary": f"Updated by batch {number}."})
    for i in project_existing[4:]:
        ops.append({"action": "delete", "level": "project", "filename": name("project", i)})
    for i in user_existing[:3]:
        ops.append({"action": "update", "level": "user", "filename": name("user", i),
                    "content": _content(rng, rng.randint(500, 1500))})
    for i in user_existing[3:]:
        ops.append({"action": "delete", "level": "user", "filename": name("user", i)})
    rng.shuffle(ops)
    return ops


@dataclass
class Batch:
    path: Path
    after: dict[str, Any]
    after_listing: Any
    duration: float
    phases: Phases


@dataclass
class Tally:
    attempts: int = 0
    kills: int = 0
    finished_first: int = 0
    aimed: int = 0
    before: int = 0
    after: int = 0
    torn: int = 0
    pending_uncommitted: int = 0
    pending_committed: int = 0
    lock_left: int = 0
    records_checked: int = 0
    failures: list[str] = field(default_factory=list)


def _watch(store: Path, proc: subprocess.Popen[bytes], limit: float, *,
           committed: bool = False) -> bool:
    """Wait until a txn folder (or its commit marker) shows up in the store; False if never."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            txns = [n for n in os.listdir(store) if n.startswith(TXN_PREFIX)]
        except FileNotFoundError:
            txns = []
        if txns and (not committed or any((store / n / "COMMITTED").exists() for n in txns)):
            return True
        time.sleep(0.0002)
    return False


@dataclass
class Phases:
    """Seconds after the txn folder appears: commit marker, txn folders gone, process gone."""

    commit: float
    gone: float
    exit: float

    def pick(self, rng: random.Random) -> tuple[str, float]:
        """Where to aim: (what to wait for, then how long to sleep)."""
        choice = rng.random()
        if choice < 0.35:
            return "txn", rng.uniform(0, self.commit)  # prepare
        if choice < 0.7:
            return "commit", rng.uniform(0, self.gone - self.commit + 0.003)  # roll forward
        if choice < 0.85:
            return "txn", rng.uniform(0, self.exit * 1.1)  # anywhere, cleanup and exit too
        return "start", -1.0


def _calibrate(stores: Stores, ops_path: Path) -> tuple[float, Phases]:
    """Run the batch to completion, timing its phases as seen from outside."""
    started = time.monotonic()
    proc = stores.start("apply", str(ops_path))
    seen = _watch(stores.primary, proc, 120)
    seen_at = time.monotonic()
    committed_at = gone_at = None
    while seen and proc.poll() is None:
        now = time.monotonic()
        try:
            txns = [n for n in os.listdir(stores.primary) if n.startswith(TXN_PREFIX)]
        except FileNotFoundError:
            txns = []
        if committed_at is None and any(
                (stores.primary / n / "COMMITTED").exists() for n in txns):
            committed_at = now
        if not txns and gone_at is None:
            gone_at = now
            break
        time.sleep(0.0003)
    assert proc.wait(timeout=120) == 0
    ended = time.monotonic()
    if not seen:
        return ended - started, Phases(0.01, 0.02, 0.05)
    gone = (gone_at or ended) - seen_at
    commit = (committed_at - seen_at) if committed_at is not None else gone / 2
    return ended - started, Phases(commit, gone, ended - seen_at)


def _lane(number: int, seed: int, base: Stores, batches: list[Batch], before: dict[str, Any],
          before_listing: Any, root: Path, tally: Tally) -> None:
    try:
        _kill_loop(number, seed, base, batches, before, before_listing, root, tally)
    except Exception as exc:  # a thread's exception would otherwise vanish
        tally.failures.append(f"lane {number} stopped: {exc!r}")


def _kill_loop(number: int, seed: int, base: Stores, batches: list[Batch],
               before: dict[str, Any], before_listing: Any, root: Path, tally: Tally) -> None:
    rng = random.Random(seed * 1000 + number)
    live = Stores(root / f"lane-{number}")
    old_history = base.history()
    while tally.kills < KILLS_PER_LANE and tally.attempts < MAX_ATTEMPTS_PER_LANE:
        tally.attempts += 1
        batch = rng.choice(batches)
        live.copy_from(base)
        anchor, delay = batch.phases.pick(rng)
        proc = live.start("apply", str(batch.path))
        if anchor != "start" and _watch(live.primary, proc, 60, committed=anchor == "commit"):
            tally.aimed += 1
            time.sleep(delay)
        else:
            time.sleep(rng.uniform(0, batch.duration * 1.05))
        proc.send_signal(signal.SIGKILL)
        code = proc.wait(timeout=60)
        if code != -signal.SIGKILL:
            tally.finished_first += 1
            assert code == 0, f"apply exited with {code}"
            continue
        tally.kills += 1
        left = live.state()
        names = set(left["project"]) | set(left["user"])
        committed = any(n.startswith(TXN_PREFIX) and n.endswith("/COMMITTED") for n in names)
        if committed:
            tally.pending_committed += 1
        elif any(n.startswith(TXN_PREFIX) for n in names):
            tally.pending_uncommitted += 1
        if ".memcli.lock" in names:
            tally.lock_left += 1

        # The next memcli command recovers; alternate which one comes first.
        if tally.kills % 2:
            first = live.memcli("show", "--json")
            second = live.memcli("index", "--check")
            listing_proc = first
        else:
            first = live.memcli("index", "--check")
            second = live.memcli("show", "--json")
            listing_proc = second
        state = live.state()
        where = f"lane {number} kill {tally.kills} (batch {batch.path.name})"
        if state == before:
            tally.before += 1
            expected_listing = before_listing
            if committed:
                tally.failures.append(f"{where}: committed batch rolled back")
        elif state == batch.after:
            tally.after += 1
            expected_listing = batch.after_listing
        else:
            tally.torn += 1
            tally.failures.append(f"{where}: torn state; files left: {sorted(names)}")
            continue
        history = live.history()
        tally.records_checked += sum(len(h) for h in history.values())
        tally.failures += [f"{where}: {problem}" for problem in
                           record_problems(before, state, old_history, history)]
        if first.returncode != 0 or second.returncode != 0:
            tally.failures.append(f"{where}: next commands failed: {first.stderr}{second.stderr}")
        elif json.loads(listing_proc.stdout) != expected_listing:
            tally.failures.append(f"{where}: show --json disagrees with the files")


def test_sigkill_at_random_moments_leaves_before_or_after(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = int(os.environ.get("MEMCLI_CRASH_SEED") or random.SystemRandom().randrange(10**6))
    rng = random.Random(seed)
    started = time.monotonic()

    base = Stores(tmp_path / "before")
    (base.root / "repo").mkdir(parents=True)
    result = base.memcli("apply", "-", input=json.dumps(_before_ops(rng)))
    assert result.returncode == 0, result.stderr
    before = base.state()
    assert not [n for s in before.values() for n in s if n.startswith(".")]
    before_listing = json.loads(base.memcli("show", "--json").stdout)

    batches = []
    for number in range(3):
        path = tmp_path / f"batch-{number}.json"
        path.write_text(json.dumps(_batch(rng, number)))
        scratch = Stores(tmp_path / f"after-{number}")
        scratch.copy_from(base)
        duration, phases = _calibrate(scratch, path)
        after = scratch.state()
        assert after != before
        assert not [n for s in after.values() for n in s if n.startswith(".")]
        # The checker itself, on a batch that ran to its end: one record per store, exact.
        assert record_problems(before, after, base.history(), scratch.history()) == []
        assert record_problems(before, after, base.history(), base.history()) != []
        assert scratch.memcli("index", "--check").returncode == 0
        listing = json.loads(scratch.memcli("show", "--json").stdout)
        batches.append(Batch(path, after, listing, duration, phases))

    tallies = [Tally() for _ in range(LANES)]
    threads = [threading.Thread(target=_lane, args=(n, seed, base, batches, before,
                                                    before_listing, tmp_path, tallies[n]))
               for n in range(LANES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    total = Tally()
    for tally in tallies:
        for key, value in vars(tally).items():
            setattr(total, key, getattr(total, key) + value)
    windows = ", ".join(
        f"{b.phases.commit * 1000:.0f}/{b.phases.gone * 1000:.0f}/{b.phases.exit * 1000:.0f}/"
        f"{b.duration * 1000:.0f} ms" for b in batches)
    summary = (
        f"crash test seed={seed}: {total.kills} kills in {total.attempts} runs "
        f"({total.finished_first} finished before the kill, {total.aimed} aimed at the write "
        f"window); recovered to before={total.before}, after={total.after}, "
        f"torn={total.torn}; left behind at the kill: uncommitted txn={total.pending_uncommitted}, "
        f"committed txn={total.pending_committed}, lock file={total.lock_left}; "
        f"history records checked={total.records_checked}; "
        f"per batch, after the txn folder appears: commit/txn gone/exit, and whole run: {windows}; "
        f"{time.monotonic() - started:.1f} s"
    )
    with capsys.disabled():
        print("\n" + summary)
    assert not total.failures, f"{summary}\n" + "\n".join(total.failures)
    assert total.torn == 0
    assert total.kills >= KILLS_PER_LANE * LANES * 0.9, summary
    # The kills must have exercised both sides of the commit point.
    assert total.pending_uncommitted > 0 and total.pending_committed > 0, summary
    assert total.before > 0 and total.after > 0, summary
