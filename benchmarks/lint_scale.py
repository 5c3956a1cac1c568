"""How lint's time grows with what it reads: the timings tests/test_lint.py used to assert.

    python benchmarks/lint_scale.py            # 5,000 -> 20,000 titles; 500k -> 2M words
    python benchmarks/lint_scale.py --quick    # a quarter of that

Two rows, each the same work at a size and at four times that size, in CPU time (best of
three): near-duplicate titles (comparing every pair would be 16x) and `memcli lint` on a
store holding one note of that many words (the garbage store of
test_files_nobody_planned_for). Linear is x4 (every pair would be x16); the target is at
most x6. The tests assert the work (calls counted, tests/work.py); this measures the time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET = 6.0


def _best(run: Callable[[], object], rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def _titles(n: int) -> list[tuple[str, str]]:
    return [(f"n{i}.md", f"Topic {i} alpha beta gamma {i * 7}") for i in range(n)]


def near_duplicates_row(n: int) -> tuple[float, float]:
    from memcli.commands.lint import near_duplicates

    small, big = _titles(n), _titles(4 * n)
    return _best(lambda: near_duplicates(small)), _best(lambda: near_duplicates(big))


def big_note_row(words: int) -> tuple[float, float]:
    from typer.testing import CliRunner

    from memcli.cli import app

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "p" / ".memcli" / "memory"
        project.mkdir(parents=True)
        flags = ["--project-store", str(project), "--user-store", str(Path(tmp) / "u")]
        note = project / "project_knowledge_big.md"
        times = []
        for n in (words, 4 * words):
            note.write_text("---\ntype: project_knowledge\ntitle: Big\nsummary: s\n"
                            "created: 2026-11-29T10:00:00Z\nupdated: 2026-11-29T10:00:00Z\n"
                            "---\n" + "word " * n, encoding="utf-8")
            times.append(_best(lambda: CliRunner().invoke(app, [*flags, "lint"])))
        return times[0], times[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    scale = 4 if args.quick else 1
    rows = [
        (f"near-duplicate titles, {5_000 // scale:,} -> {20_000 // scale:,}",
         near_duplicates_row(5_000 // scale)),
        (f"lint, one note of {500_000 // scale:,} -> {2_000_000 // scale:,} words",
         big_note_row(500_000 // scale)),
    ]
    worst = 0.0
    for label, (small, big) in rows:
        ratio = big / max(small, 1e-6)
        worst = max(worst, ratio)
        print(f"{label:<48} {small:7.3f} s -> {big:7.3f} s  x{ratio:.1f}")
    print(f"linear (4x input <= {TARGET:g}x time): {'yes' if worst <= TARGET else 'NO'}")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
