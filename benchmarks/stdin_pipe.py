"""A long transcript piped into memcli: the peak memory and time of each command, against the
same command with the file redirected to stdin (read where it lies: the floor).

    python benchmarks/stdin_pipe.py                      # a 50 MB session, 3 rounds
    python benchmarks/stdin_pipe.py --quick              # 6 MB, 1 round, no warm-up (smoke test)
    python benchmarks/stdin_pipe.py --root OLD --root .  # two checkouts, interleaved by round

`cat SESSION | memcli extract --last-turn` used to hold every byte of the pipe (up to 512
MiB) before reading its end; a redirected file is read from its end where it lies. Each
command runs as a process under a small stdlib-only Python that reads its rusage, its stdin
either a pipe this script writes the session into or the file itself; the rows of every
checkout run interleaved, one round at a time. Target (the last root): every piped command
peaks at most 32 MB above the same command on the redirected file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import transcripts  # noqa: E402 - a sibling script, not a package

MB = 1_000_000
ABOVE_FLOOR_MB = 32.0
COMMANDS = {
    "extract --last-turn": ["extract", "--last-turn", "--input", "-"],
    "transcript --last-turn --json": ["transcript", "--last-turn", "--json", "-"],
    "extract (the whole session)": ["extract", "--input", "-"],
}
_TIMER = transcripts._TIMER  # starts a command and prints its time and peak RSS


def run(argv: list[str], env: dict[str, str], session: Path, piped: bool, cwd: Path
        ) -> tuple[float, int]:
    """Wall time and peak RSS of ARGV with SESSION on stdin, through a pipe or redirected.
    CWD is not a checkout: `python -m memcli` imports from its working folder first."""
    timer = [sys.executable, "-I", "-S", "-c", _TIMER, *argv]
    with tempfile.TemporaryFile() as errors:
        if piped:
            process = subprocess.Popen(timer, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=errors, env=env, cwd=cwd)
            sink, answer = process.stdin, process.stdout
            assert sink is not None and answer is not None

            def feed() -> None:
                with session.open("rb") as source, sink, contextlib.suppress(BrokenPipeError):
                    shutil.copyfileobj(source, sink, 1 << 20)

            writer = threading.Thread(target=feed)
            writer.start()
            out = answer.read()
            process.wait()
            writer.join()
        else:
            with session.open("rb") as source:
                out = subprocess.run(timer, stdin=source, stdout=subprocess.PIPE,
                                     stderr=errors, env=env, cwd=cwd, check=False).stdout
        errors.seek(0)
        err = errors.read()
    fields = out.decode().split()
    if len(fields) < 3 or fields[-1] not in ("0", "1"):  # extract exits 1 on a rejected op
        raise SystemExit(f"{' '.join(argv)} failed: {out[-500:]!r} {err[-2000:]!r}")
    return float(fields[-3]), int(fields[-2])


def environment(scratch: Path, root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MEMCLI_", "OPENAI_", "ANTHROPIC_", "PYTHON"))}
    return env | {"HOME": str(scratch / "home"), "MEMCLI_HOME": str(scratch / "home"),
                  "MEMCLI_USER_STORE": str(scratch / "user"),
                  "MEMCLI_PROJECT_STORE": str(scratch / "project"), "NO_COLOR": "1",
                  "PYTHONPATH": str(root),
                  "PYTHONPYCACHEPREFIX": str(scratch / f"pycache-{abs(hash(str(root)))}")}


def measure(roots: list[Path], session: Path, rounds: int, scratch: Path, warm: int = 1
            ) -> list[dict[str, Any]]:
    samples: dict[tuple[str, str, bool], list[tuple[float, int]]] = {}
    for number in range(rounds + warm):  # the first WARM rounds warm the caches, untimed
        for root in roots:
            env = environment(scratch, root)
            for name, args in COMMANDS.items():
                for piped in (False, True):
                    found = run([sys.executable, "-m", "memcli", *args], env, session, piped,
                                scratch)
                    if number >= warm:
                        samples.setdefault((str(root), name, piped), []).append(found)
    rows = []
    for root in roots:
        for name in COMMANDS:
            floor, pipe = samples[str(root), name, False], samples[str(root), name, True]
            rows.append({
                "root": str(root), "command": name,
                "file_peak_mb": max(rss for _, rss in floor) / MB,
                "pipe_peak_mb": max(rss for _, rss in pipe) / MB,
                "file_s": statistics.median(t for t, _ in floor),
                "pipe_s": statistics.median(t for t, _ in pipe),
            })
    for row in rows:
        row["above_floor_mb"] = row["pipe_peak_mb"] - row["file_peak_mb"]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=float, default=50.0, help="the session, in MB")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--root", type=Path, action="append",
                        help="a memcli checkout to run (repeat it; default: this one)")
    parser.add_argument("--quick", action="store_true",
                        help="6 MB, 1 round, no warm-up (the smoke test)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    size, rounds = (6.0, 1) if args.quick else (args.size, args.rounds)
    roots = [r.resolve() for r in args.root or [ROOT]]
    with tempfile.TemporaryDirectory() as tmp:
        session = Path(tmp) / "session.jsonl"
        transcripts.build_log(session, size, transcripts.SESSION)
        rows = measure(roots, session, rounds, Path(tmp), 0 if args.quick else 1)
        actual = session.stat().st_size / MB
    last = [row for row in rows if row["root"] == str(roots[-1])]
    met = all(row["above_floor_mb"] <= ABOVE_FLOOR_MB for row in last)
    if args.json:
        print(json.dumps({"size_mb": actual, "rounds": rounds, "rows": rows,
                          "target_mb": ABOVE_FLOOR_MB, "met": met}, indent=2))
        return 0
    print(f"a {actual:.1f} MB Claude Code session on stdin, median time of {rounds} rounds, "
          f"the highest peak")
    print(f"  {'':<32} {'file: peak':>11} {'time':>8} {'pipe: peak':>11} {'time':>8}")
    for root in roots:
        print(f"memcli from {root}")
        for row in (r for r in rows if r["root"] == str(root)):
            print(f"  {row['command']:<32} {row['file_peak_mb']:8.0f} MB {row['file_s']:6.2f} s "
                  f"{row['pipe_peak_mb']:8.0f} MB {row['pipe_s']:6.2f} s")
    worst = max(row["above_floor_mb"] for row in last)
    print(f"target: a pipe peaks at most {ABOVE_FLOOR_MB:.0f} MB above the redirected file: "
          f"{'met' if met else 'NOT met'} (worst {worst:+.0f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
