"""Kill campaigns over the write paths issue 25 re-opened: MCP `apply` and `memcli sync`.

``mcp_kills``: a client drives a real `memcli mcp` server through the official MCP SDK and
applies a sequence of batches; the server process is SIGKILLed at a random moment of one of
them (most often while its transaction journal is on disk). Then the next memcli command
must see the stores exactly as before or exactly as after the batch in flight (every batch
the server acknowledged kept), MEMORY.md agreeing with the notes, the history holding
exactly the surviving change, and no journal or lock left behind. The client then does what
a client does after a dropped connection, sends the batch again to a new server: the
stores must then be exactly as after it, with no note twice.

``sync_kills``: two machines share a bare remote; each round both add a note (and every
third round both edit the same note), then one machine's `memcli sync` is SIGKILLed at a
random moment (with its git children, as a closed terminal or a crash would, or alone).
Then syncs on both machines must converge: the same notes on both, every note ever added
present, both versions of every note edited on both sides kept, no stray file (git lock,
rebase in progress, journal, temporary file, uncommitted change) and MEMORY.md agreeing.

Both return figures like the campaigns of ``reliability_campaigns``; ``line`` prints them.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

from history_check import read_history, record_problems
from reliability_campaigns import (
    FIXED_NOW,
    Workspace,
    _create,
    _delete,
    _journal_dirs,
    _journal_phase,
    _long_text,
    _update,
    _visible_stores,
    copy_stores,
    crash_batches,
    index_problems,
    memcli_command,
    restore_stores,
    seed_stores,
    stores_snapshot,
    workdir,
)

# ============================================================================ MCP apply


def mcp_batches() -> list[list[dict[str, Any]]]:
    """Batches a client applies one after the other, from the seeded stores."""
    batches = crash_batches()
    return [
        batches["apply-mixed"],
        batches["apply-renames"],
        [*[_create(level, "reference_material", f"Big {level} {n}", _long_text(40 + n, 12_000),
                   f"big-{level}-{n}") for level in ("project", "user") for n in range(2)],
         _update("project", "project_knowledge_build-workflow.md", "Build with `make all`."),
         _delete("project", "project_knowledge_test-command.md")],
    ]


def _git_init(folder: Path) -> None:
    # The MCP server is unattended: it writes a project store only inside a git work tree.
    subprocess.run(["git", "init", "-q", str(folder)], check=True, capture_output=True)


class _Server:
    """One `memcli mcp` process driven by the SDK's stdio client; its pid for the kill."""

    def __init__(self, ws: Workspace, pidfile: Path) -> None:
        from mcp import StdioServerParameters

        self.pidfile = pidfile
        pidfile.unlink(missing_ok=True)
        # `exec` keeps the shell's pid: the pid written is the server's.
        self.params = StdioServerParameters(
            command="/bin/sh", args=["-c", 'echo $$ > "$0"; exec "$@"', str(pidfile),
                                     *memcli_command(), "mcp"],
            env=ws.env({"MEMCLI_TRUST_WRITES": "mcp"}), cwd=str(ws.repo))

    def pid(self) -> int:
        return int(self.pidfile.read_text().strip())


async def _apply(session: Any, ops: list[dict[str, Any]]) -> dict[str, Any]:
    result = await session.call_tool("apply", {"operations": json.dumps(ops)},
                                     read_timeout_seconds=60.0)
    if result.is_error:
        raise RuntimeError(f"apply failed: {result.content}")
    content = result.structured_content
    if isinstance(content, dict):
        found: dict[str, Any] = content.get("result", content)
        return found
    loaded: dict[str, Any] = json.loads(result.content[0].text)
    return loaded


def _drive(server: _Server, batches: list[list[dict[str, Any]]],
           before_batch: Callable[[int, int], None]) -> tuple[int, str | None]:
    """Apply BATCHES in one session; BEFORE_BATCH(i, pid) runs as batch i is sent. The
    number of batches acknowledged, and the error that ended the session early (if any)."""
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    acked = 0
    error: str | None = None

    async def run() -> None:
        nonlocal acked, error
        with anyio.fail_after(120):
            async with stdio_client(server.params) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                pid = server.pid()
                for number, ops in enumerate(batches):
                    before_batch(number, pid)
                    report = await _apply(session, ops)
                    if report.get("rejected"):
                        raise RuntimeError(f"batch {number} rejected: {report['rejected']}")
                    acked += 1

    try:
        anyio.run(run)
    except BaseException as exc:  # the kill drops the connection: any error is expected
        if isinstance(exc, KeyboardInterrupt):
            raise
        error = f"{type(exc).__name__}: {exc}"[:300]
    return acked, error


def _notes_twice(ws: Workspace) -> int:
    """Notes whose title appears more than once in a store: a batch applied twice."""
    twice = 0
    for level in ("project", "user"):
        titles: Counter[str] = Counter()
        for path in ws.store(level).glob("*_*.md"):
            found = re.search(r"^title: (.*)$", path.read_text("utf-8", "replace"), re.M)
            titles[found.group(1).strip() if found else path.name] += 1
        twice += sum(n - 1 for n in titles.values() if n > 1)
    return twice


def mcp_kills(kills: int = 100, *, seed: int = 25, folder: Path | None = None) -> dict[str, Any]:
    """SIGKILL `memcli mcp` while an SDK client applies batches (see the module's text).

    Torn = after the next memcli command the stores are neither exactly as before nor exactly
    as after the batch in flight, or MEMORY.md disagrees, or the history does not tell the
    surviving change exactly, or a journal or lock is left. Lost = a batch the server had
    acknowledged is missing, or the client's resend does not leave the stores as after the
    batch. Duplicates = a note twice after the resend.
    """
    rng = random.Random(seed)
    started = time.monotonic()
    batches = mcp_batches()
    tally: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    examples: list[str] = []
    with workdir(folder, "mcp-kills") as base:
        ws = Workspace(base / "w", lock_timeout=30)
        _git_init(ws.repo)
        seed_stores(ws)
        template = base / "seeded"
        copy_stores(ws, template)
        pidfile = base / "server.pid"
        # The states after each batch, and how long each call takes, uninterrupted.
        states = [stores_snapshot(ws)]
        spans: list[float] = []
        marks: list[float] = []

        def mark(_number: int, _pid: int) -> None:
            marks.append(time.monotonic())
            if len(marks) > 1:
                states.append(stores_snapshot(ws))

        acked, error = _drive(_Server(ws, pidfile), batches, mark)
        if acked != len(batches):
            raise RuntimeError(f"the uninterrupted run stopped at batch {acked}: {error}")
        marks.append(time.monotonic())
        states.append(stores_snapshot(ws))
        spans = [b - a for a, b in pairwise(marks)]
        if len({repr(s) for s in states}) != len(states):
            raise RuntimeError("a batch changed nothing")
        while tally["kills"] < kills and tally["runs"] < kills * 3:
            tally["runs"] += 1
            restore_stores(ws, template)
            target = rng.randrange(len(batches))
            journal_aimed = rng.random() >= 0.3
            history_at: dict[str, Any] = {}
            killed = threading.Event()

            def killer(pid: int, span: float, aimed: bool,
                       killed: threading.Event = killed) -> None:
                if aimed:
                    limit = time.monotonic() + span * 3 + 5
                    while not _journal_dirs(ws) and time.monotonic() < limit:
                        time.sleep(0.0003)
                    # Into the journal's short life: prepare, commit point, roll forward.
                    time.sleep(rng.uniform(0, 0.04))
                else:
                    time.sleep(rng.uniform(0, span))
                phases[f"{'journal' if aimed else 'uniform'}:{_journal_phase(ws)}"] += 1
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                killed.set()

            def before(number: int, pid: int, target: int = target,
                       aimed: bool = journal_aimed,
                       history_at: dict[str, Any] = history_at) -> None:
                if number == target:
                    history_at.update(read_history({"project": ws.project, "user": ws.user}))
                    history_at["state"] = stores_snapshot(ws)
                    threading.Thread(target=killer, args=(pid, spans[number], aimed),
                                     daemon=True).start()

            acked, error = _drive(_Server(ws, pidfile), batches[:target + 1], before)
            killed.wait(120)
            # The next memcli command recovers an interrupted batch, then checks the index.
            check = ws.invoke(["index", "--check"])
            post = stores_snapshot(ws)
            reasons: list[str] = []
            if check.unhandled or check.code != 0:
                reasons.append(f"index --check exited {check.code}: {check.stderr[-200:]}")
            if acked > target:
                tally["answered_before_kill"] += 1
                if post != states[target + 1]:
                    tally["lost"] += 1
                    reasons.append("an acknowledged batch is not in the stores")
            elif post not in (states[target], states[target + 1]):
                reasons.append("neither before nor after the batch in flight")
            else:
                old = {level: history_at.get(level, {}) for level in ("project", "user")}
                now = read_history({"project": ws.project, "user": ws.user})
                reasons += [f"history: {p}" for p in record_problems(
                    history_at["state"], post, old, now)]
            leftovers = ws.hidden_leftovers()
            if leftovers:
                reasons.append(f"left behind: {leftovers}")
            reasons += [f"index: {p}" for p in index_problems(ws)]
            tally["kills"] += 1
            tally["committed"] += int(post == states[target + 1])
            if error is None and acked > target:
                tally["exited_before_kill"] += 1
            if reasons:
                tally["torn"] += 1
                if len(examples) < 10:
                    examples.append(f"batch {target}: {'; '.join(reasons)}")
            # The client sends the batch in flight again, to a new server.
            resent, again = _drive(_Server(ws, pidfile), [batches[target]],
                                   lambda _n, _p: None)
            # A batch that had committed is refused whole on resend (its creates exist), as
            # it must be; one that had not is applied now.
            if _visible_stores(stores_snapshot(ws)) != _visible_stores(states[target + 1]):
                tally["lost"] += 1
                if len(examples) < 10:
                    examples.append(f"batch {target}: after the resend ({again}) the stores "
                                    "are not as after the batch")
            tally["duplicates"] += _notes_twice(ws)
            tally["resends_refused"] += int(resent == 0)
    return {
        "kills": tally["kills"],
        "torn": tally["torn"],
        "lost": tally["lost"],
        "duplicates": tally["duplicates"],
        "committed_at_kill": tally["committed"],
        "answered_before_kill": tally["answered_before_kill"],
        "resends_refused": tally["resends_refused"],
        "batches": len(batches),
        "kills_by_phase": dict(sorted(phases.items())),
        "call_ms": [round(s * 1000) for s in spans],
        "examples": examples,
        "seconds": round(time.monotonic() - started, 1),
    }


# ============================================================================ sync

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
CONFLICT = re.compile(r"-conflict-\d+\.md$")
# What a finished sync may leave in a store besides notes, MEMORY.md and git's own folder.
TRACKED_EXTRAS = {".gitattributes", ".gitignore"}


class _Machine:
    """One machine: its own home, user store and memcli environment."""

    def __init__(self, base: Path, name: str) -> None:
        self.name = name
        self.home = base / name
        self.home.mkdir(parents=True, exist_ok=True)
        self.ws = Workspace(base / f"{name}-world", lock_timeout=30)

    @property
    def store(self) -> Path:
        return self.home / ".memcli" / "memory"

    def env(self) -> dict[str, str]:
        return self.ws.env({**GIT_ENV, "HOME": str(self.home),
                            "MEMCLI_HOME": str(self.home / ".memcli")})

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([*memcli_command(), *args], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=self.ws.repo, env=self.env(), start_new_session=True)

    def run(self, *args: str, input: str | None = None) -> tuple[int, str]:
        done = subprocess.run([*memcli_command(), *args], input=(input or "").encode(),
                              capture_output=True, cwd=self.ws.repo, env=self.env(),
                              timeout=120, check=False)
        return done.returncode, done.stderr.decode("utf-8", "replace")

    def write(self, name: str, title: str, body: str) -> None:
        """A note written by hand (an edit the next sync commits)."""
        self.store.mkdir(parents=True, exist_ok=True)
        (self.store / name).write_text(
            f"---\ntype: project_knowledge\ntitle: {title}\nsummary: {title}.\n"
            f"updated: {FIXED_NOW}\n---\n{body}\n", "utf-8")

    def notes(self) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in self.store.glob("*_*.md")}

    def strays(self) -> list[str]:
        """What a finished sync must not leave: git locks, a rebase, memcli's working files,
        an uncommitted change, a file that is neither a note nor the store's own."""
        found: list[str] = []
        git_dir = self.store / ".git"
        for name in ("index.lock", "HEAD.lock", "rebase-merge", "rebase-apply", "MERGE_HEAD"):
            if (git_dir / name).exists():
                found.append(f".git/{name}")
        found += [p.name for p in self.store.iterdir()
                  if p.name not in TRACKED_EXTRAS | {".git", "MEMORY.md", ".memcli-history"}
                  and not (p.name.endswith(".md") and "_" in p.name)]
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                                cwd=self.store, capture_output=True, text=True, check=False,
                                env={**os.environ, **GIT_ENV})
        found += [f"uncommitted: {line}" for line in status.stdout.splitlines()]
        return found


def _kill_group(proc: subprocess.Popen[bytes], whole: bool) -> bool:
    with contextlib.suppress(ProcessLookupError):
        if whole:
            os.killpg(proc.pid, signal.SIGKILL)  # memcli and the git it runs, mid-command
        else:
            proc.send_signal(signal.SIGKILL)  # memcli alone: its git finishes orphaned
    proc.communicate(timeout=120)
    return proc.returncode == -signal.SIGKILL


def sync_kills(rounds: int = 60, *, seed: int = 26,
               folder: Path | None = None) -> dict[str, Any]:
    """SIGKILL `memcli sync` on one of two machines at random moments (see the module's
    text); after each kill, syncs on both machines must converge.

    Lost = a note added on either machine (or one side's version of a note edited on both)
    missing on a machine after convergence. Duplicates = more conflict copies than notes
    edited on both sides, or one note's content under two names. Stray = a git lock, a
    rebase in progress, an uncommitted change or a file no store holds, after a sync that
    exited well. Stuck = a sync after a kill that failed (the store needs a person).
    """
    rng = random.Random(seed)
    started = time.monotonic()
    tally: Counter[str] = Counter()
    examples: list[str] = []
    with workdir(folder, "sync-kills") as base:
        remote = base / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
        machines = [_Machine(base, "laptop"), _Machine(base, "desktop")]
        laptop = machines[0]
        laptop.write("project_knowledge_first.md", "First", "The first note.")
        for machine in machines:
            code, err = machine.run("sync", "--init", f"file://{remote}")
            if code != 0:
                raise RuntimeError(f"sync --init on {machine.name}: {err}")
        expected: set[str] = {"project_knowledge_first.md"}
        versions: list[str] = []  # texts of both sides of every note edited on both
        conflicts = 0
        span = 0.0
        for number in range(rounds):
            for machine in machines:
                name = f"project_knowledge_{machine.name}-{number}.md"
                machine.write(name, f"{machine.name} {number}", f"Added on {machine.name} "
                              f"in round {number}.")
                expected.add(name)
            if number % 3 == 2:  # both machines edit the same note: a conflict to resolve
                for machine in machines:
                    text = f"Edited on {machine.name} in round {number}."
                    machine.write("project_knowledge_first.md", "First", text)
                    versions.append(text)
                conflicts += 1
            victim = machines[number % 2]
            proc = victim.start("sync")
            began = time.monotonic()
            if span == 0.0:  # the first round calibrates: how long one sync takes
                proc.communicate(timeout=120)
                span = time.monotonic() - began
                tally["calibration_exit"] = proc.returncode
            else:
                time.sleep(rng.uniform(0, span * 1.2))
                whole = rng.random() < 0.7
                if _kill_group(proc, whole):
                    tally["kills"] += 1
                    tally["group_kills" if whole else "process_kills"] += 1
                else:
                    tally["exited_before_kill"] += 1
            # Converge: the killed machine, the other, the killed one again, the other.
            reasons: list[str] = []
            for machine in (victim, machines[(number + 1) % 2], victim,
                            machines[(number + 1) % 2]):
                code, err = machine.run("sync")
                # Exit 1 is also a conflict kept (no error line); a git failure says error.
                if code not in (0, 1) or "memcli: error:" in err:
                    tally["stuck"] += 1
                    reasons.append(f"{machine.name}: sync exited {code}: {err.strip()[-300:]}")
                    break
            if reasons:
                examples.append(f"round {number}: {'; '.join(reasons)}")
                break  # a store that needs a person: later rounds would only repeat it
            seen = [m.notes() for m in machines]
            if seen[0] != seen[1]:
                tally["diverged"] += 1
                reasons.append(f"the machines differ: {sorted(set(seen[0]) ^ set(seen[1]))}")
            for machine, notes in zip(machines, seen, strict=True):
                missing = expected - set(notes)
                texts = b"\n".join(notes.values()).decode("utf-8", "replace")
                missing |= {f"version {v!r}" for v in versions if v not in texts}
                if missing:
                    tally["lost"] += len(missing)
                    reasons.append(f"{machine.name} lost {sorted(missing)[:3]}")
                copies = [n for n in notes if CONFLICT.search(n)]
                extra = set(notes) - expected - set(copies)
                bodies = Counter(data.split(b"\n---\n", 1)[-1] for data in notes.values())
                twice = sum(n - 1 for n in bodies.values() if n > 1)
                if len(copies) > conflicts or extra or twice:
                    tally["duplicates"] += max(len(copies) - conflicts, 0) + len(extra) + twice
                    reasons.append(f"{machine.name}: {len(copies)} conflict copies for "
                                   f"{conflicts} conflicts, extra {sorted(extra)[:3]}, "
                                   f"{twice} bodies twice")
                strays = machine.strays()
                if strays:
                    tally["stray"] += len(strays)
                    reasons.append(f"{machine.name} strays: {strays[:4]}")
                code, err = machine.run("index", "--check", "--level", "user")
                if code != 0:
                    tally["index_failures"] += 1
                    reasons.append(f"{machine.name} index --check: {err.strip()[-200:]}")
            tally["rounds"] += 1
            if reasons:
                tally["torn_rounds"] += 1
                if len(examples) < 10:
                    examples.append(f"round {number}: {'; '.join(reasons)}")
            if conflicts and number % 3 == 2:
                # The person merges the pair: the copies go, the note keeps one text.
                for machine in machines[:1]:
                    for copy in machine.store.glob("*-conflict-*.md"):
                        copy.unlink()
                    machine.run("sync")
                machines[1].run("sync")
                versions.clear()
                conflicts = 0
    return {
        "rounds": tally["rounds"],
        "kills": tally["kills"],
        "group_kills": tally["group_kills"],
        "process_kills": tally["process_kills"],
        "exited_before_kill": tally["exited_before_kill"],
        "torn": tally["torn_rounds"],
        "lost": tally["lost"],
        "duplicates": tally["duplicates"],
        "stray": tally["stray"],
        "stuck": tally["stuck"],
        "diverged": tally["diverged"],
        "index_failures": tally["index_failures"],
        "notes": len(expected),
        "sync_ms": round(span * 1000),
        "examples": examples,
        "seconds": round(time.monotonic() - started, 1),
    }
