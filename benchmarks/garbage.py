"""Garbage lines cost what valid lines cost: the transcript reader on inputs where no line is
JSON, against a valid transcript of the same size, and the growth for 4 x the lines.

    python benchmarks/garbage.py            # 20,000 and 80,000 lines, 3 rounds
    python benchmarks/garbage.py --quick    # 2,000 and 8,000 lines, 1 round (the smoke test)
    python benchmarks/garbage.py --root DIR # the memcli of another checkout

Before lines were decoded one slice at a time, every broken line re-scanned the rest of the
input: 80,000 of them took minutes. Each shape is read in this process with
``read_transcript`` at two sizes, interleaved with its floor (JSON lines of one short user
message each, cut to the same number of bytes) one round at a time; times are CPU time
(a busy machine moves it less than wall time), a ratio is the median of the per-round
ratios. Targets: the growth for 4 x the lines at most 6 x (linear is 4 x, quadratic 16 x);
the ratio to the floor is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GROWTH_TARGET = 6.0
FACTOR = 4
# One line each, repeated: the shapes tests/test_transcripts.py reads.
SHAPES = {
    "open arrays ([1,)": "[1,\n",
    "open objects ({)": "{\n",
    "log lines with braces": "log line {x}\n",
}
_VALID = json.dumps({"role": "user", "content": "a short message of about forty chars"}) + "\n"


def floor_text(size: int) -> str:
    """Valid JSON lines of ``size`` characters at most, cut at a line's end."""
    text = (_VALID * (size // len(_VALID) + 1))[:size]
    return text[: text.rfind("\n") + 1]


def cpu(fn: Callable[[], Any]) -> float:
    started = time.process_time()
    fn()
    return time.process_time() - started


def measure(lines: int, rounds: int) -> list[dict[str, Any]]:
    from memcli.transcripts import read_transcript

    rows = []
    for name, unit in SHAPES.items():
        inputs = {n: unit * n for n in (lines, lines * FACTOR)}
        floors = {n: floor_text(len(text)) for n, text in inputs.items()}
        read_transcript(inputs[lines])  # imports and caches
        samples: dict[int, list[tuple[float, float]]] = {n: [] for n in inputs}
        for _ in range(rounds):
            for n in inputs:
                samples[n].append((cpu(lambda t=inputs[n]: read_transcript(t)),
                                   cpu(lambda t=floors[n]: read_transcript(t))))
        small, large = samples[lines], samples[lines * FACTOR]
        rows.append({
            "shape": name,
            "lines": [lines, lines * FACTOR],
            "bytes": [len(inputs[lines]), len(inputs[lines * FACTOR])],
            "garbage_s": [statistics.median(g for g, _ in small),
                          statistics.median(g for g, _ in large)],
            "floor_s": [statistics.median(f for _, f in small),
                        statistics.median(f for _, f in large)],
            "ratio_to_floor": [_ratio(small), _ratio(large)],
            "growth": statistics.median(b[0] / max(a[0], 1e-6)
                                        for a, b in zip(small, large, strict=True)),
            "floor_growth": statistics.median(b[1] / max(a[1], 1e-6)
                                              for a, b in zip(small, large, strict=True)),
            "samples": {str(n): s for n, s in samples.items()},
        })
    for row in rows:
        row["met"] = row["growth"] <= GROWTH_TARGET
    return rows


def _ratio(samples: list[tuple[float, float]]) -> float:
    return statistics.median(g / max(f, 1e-6) for g, f in samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20_000, help="lines of the smaller input")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="2,000 lines, 1 round")
    parser.add_argument("--root", type=Path, default=ROOT, help="the memcli checkout to run")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.root.resolve()))
    lines, rounds = (2_000, 1) if args.quick else (args.lines, args.rounds)
    rows = measure(lines, rounds)
    met = all(row["met"] for row in rows)
    if args.json:
        print(json.dumps({"rows": rows, "rounds": rounds, "factor": FACTOR,
                          "target": GROWTH_TARGET, "met": met}, indent=2))
        return 0
    print(f"garbage lines against valid JSON lines of the same size (the floor), CPU time, "
          f"median of {rounds} rounds, memcli from {args.root}")
    print(f"  {'':<24} {'lines':>15} {'garbage':>17} {'floor':>17} {'x floor':>13} "
          f"{'growth':>7} {'floor growth':>12}")
    for row in rows:
        print(f"  {row['shape']:<24} {row['lines'][0]:>7}/{row['lines'][1]:<7} "
              f"{row['garbage_s'][0]:7.3f}/{row['garbage_s'][1]:<7.3f} s "
              f"{row['floor_s'][0]:7.3f}/{row['floor_s'][1]:<7.3f} s "
              f"{row['ratio_to_floor'][0]:5.1f}/{row['ratio_to_floor'][1]:<5.1f} x "
              f"{row['growth']:5.2f} x {row['floor_growth']:9.2f} x")
    worst = max(row["growth"] for row in rows)
    print(f"target: {FACTOR} x the lines costs at most {GROWTH_TARGET:g} x the time (linear "
          f"{FACTOR} x, quadratic {FACTOR * FACTOR} x): {'met' if met else 'NOT met'} "
          f"(worst {worst:.2f} x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
