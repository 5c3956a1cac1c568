"""One huge message through `memcli extract --provider rules`, against reading it.

    python benchmarks/big_message.py              # a 30 MB message, 3 rounds
    python benchmarks/big_message.py --quick      # 2 MB, 1 round (the smoke test)
    python benchmarks/big_message.py --root DIR   # the memcli of another checkout

A person pastes a log or a file of megabytes into one message. The extraction budget
(memcli/extraction/budget.py) hands an extractor the message's start and end only, so extracting it
cost what reading it costs plus what extracting a message of the budget's size costs,
whatever the message's size. Each row runs, interleaved, one round at a time, each in its
own process: `memcli transcript FILE` (the reading), `memcli extract --provider rules -i
FILE`, and the same extract of the message cut by hand to the budget's 60,000 characters
(the work the budget leaves). Targets: extract's time at most the reading's plus 1.5 x the
budget-sized extract's; its peak memory at most 64 MB above the reading's. Two messages are
measured: prose (a pasted document, a memory cue in one sentence of twenty) and a log.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET_FACTOR = 1.5
MEMORY_ABOVE_MB = 64.0

_TIMER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
scale = 1 if sys.platform == "darwin" else 1024
print(time.perf_counter() - start, usage.ru_maxrss * scale, os.waitstatus_to_exitcode(status))
"""

_WORDS = ["the", "build", "server", "deploy", "branch", "tests", "lint", "review", "cache",
          "config", "release", "notes", "module", "function", "error", "retry", "timeout",
          "queue", "worker", "parser", "index", "store"]
_CUES = ("Remember that the staging database is called {w}.", "Always run make {w} first.",
         "We use {w} for the {w2} step.")


def prose(chars: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < chars:
        if len(out) % 20 == 19:
            line = rng.choice(_CUES).format(w=rng.choice(_WORDS), w2=rng.choice(_WORDS))
        else:
            line = " ".join(rng.choice(_WORDS) for _ in range(14)).capitalize() + "."
        out.append(line)
        size += len(line) + 1
    return " ".join(out)


def log_paste(chars: int) -> str:
    line = "2026-01-01T12:00:00Z INFO worker[17] finished job 4242 in 0.31 s (queue=default)\n"
    return "Here is the log, what went wrong?\n" + line * (chars // len(line))


def write_message(path: Path, text: str) -> None:
    record = {"type": "user", "message": {"role": "user", "content": text},
              "uuid": "00000000-0000-4000-8000-000000000001", "sessionId": "bench"}
    path.write_text(json.dumps(record) + "\n", "utf-8")


def run(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int]:
    """Wall time and peak RSS (bytes) of one run of ``argv`` as its own process."""
    out = subprocess.run([sys.executable, "-I", "-S", "-c", _TIMER, *argv], env=env, cwd=cwd,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         check=True).stdout
    seconds, rss, status = out.strip().splitlines()[-1].split()
    if int(status) not in (0, 1):  # extract exits 1 when it rejects an operation
        raise SystemExit(f"{' '.join(argv)} exited {status}")
    return float(seconds), int(rss)


def measure(path: Path, small: Path, rounds: int, env: dict[str, str], cwd: Path
            ) -> dict[str, float]:
    memcli = [sys.executable, "-m", "memcli"]
    read_argv = [*memcli, "transcript", str(path)]
    extract_argv = [*memcli, "extract", "--provider", "rules", "-i", str(path)]
    small_argv = [*memcli, "extract", "--provider", "rules", "-i", str(small)]
    reads, extracts, smalls = [], [], []
    for _ in range(rounds):
        reads.append(run(read_argv, env, cwd))
        extracts.append(run(extract_argv, env, cwd))
        smalls.append(run(small_argv, env, cwd))
    return {
        "read_s": statistics.median(r[0] for r in reads),
        "extract_s": statistics.median(e[0] for e in extracts),
        "budget_s": statistics.median(b[0] for b in smalls),
        "excess": statistics.median((e[0] - r[0]) / b[0]
                                    for r, e, b in zip(reads, extracts, smalls, strict=True)),
        "spread": max(e[0] for e in extracts) - min(e[0] for e in extracts),
        "read_mb": statistics.median(r[1] for r in reads) / 1e6,
        "extract_mb": statistics.median(e[1] for e in extracts) / 1e6,
        "above_mb": statistics.median((e[1] - r[1]) / 1e6 for r, e in zip(reads, extracts,
                                                                    strict=True)),
    }


def budget_sized(text: str) -> str:
    """TEXT's start and end within the budget, as the budget cuts it."""
    sys.path.insert(0, str(ROOT))
    from memcli.extraction.budget import MESSAGE_CHARS, cut_middle

    return cut_middle(text, MESSAGE_CHARS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=float, default=30.0, help="message size in MB")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="2 MB, 1 round")
    parser.add_argument("--root", type=Path, default=ROOT, help="the memcli checkout to run")
    parser.add_argument("--only", choices=("prose", "log"), help="one of the two messages")
    args = parser.parse_args(argv)
    size, rounds = (2.0, 1) if args.quick else (args.size, args.rounds)
    met = True
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        (scratch / "home").mkdir()
        env = {key: value for key, value in os.environ.items() if not key.startswith("MEMCLI_")}
        env.update(HOME=str(scratch / "home"), MEMCLI_HOME=str(scratch / "home" / ".memcli"),
                   MEMCLI_NOW="2026-12-01T10:00:00Z",
                   PYTHONPATH=os.pathsep.join([str(args.root.resolve()),
                                               env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
        project = scratch / "project"
        (project / ".memcli").mkdir(parents=True)
        print(f"one {size:g} MB message, {rounds} rounds (median), memcli from {args.root}")
        print(f"  {'message':<8} {'read':>7} {'extract':>8} {'budget':>7} {'excess':>7} "
              f"{'spread':>7} {'read MB':>8} {'extract MB':>10} {'above':>6}")
        for name, make in (("prose", prose), ("log", log_paste)):
            if args.only not in (None, name):
                continue
            text = make(int(size * 1_000_000))
            path, small = scratch / f"{name}.jsonl", scratch / f"{name}-budget.jsonl"
            write_message(path, text)
            write_message(small, budget_sized(text))
            del text
            row = measure(path, small, rounds, env, project)
            ok = row["excess"] <= BUDGET_FACTOR and row["above_mb"] <= MEMORY_ABOVE_MB
            met = met and ok
            print(f"  {name:<8} {row['read_s']:6.2f}s {row['extract_s']:7.2f}s "
                  f"{row['budget_s']:6.2f}s {row['excess']:6.2f}x {row['spread']:6.2f}s "
                  f"{row['read_mb']:8.0f} {row['extract_mb']:10.0f} {row['above_mb']:6.0f}  "
                  f"{'met' if ok else 'NOT met'}")
    print(f"targets: extract - read <= {BUDGET_FACTOR:g} x the budget-sized extract, and "
          f"<= {MEMORY_ABOVE_MB:g} MB above the read's peak memory: "
          f"{'met' if met else 'NOT met'}")
    print("(excess: (extract - read) / budget-sized extract, the median of the rounds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
