"""How `lint`, `index --check` and `status` grow from 10,000 to 100,000 notes per level.

Each command runs on both stores back to back in every round (so both sizes meet the same
load), and the CPU time (user + system of the child) and wall time of each size are compared
by their medians. Linear is x10; issue 33's target is at most x10.5.

    python benchmarks/store_growth.py                       # 10,000 and 100,000, 3 rounds
    python benchmarks/store_growth.py --stores /tmp/growth  # keep (and reuse) the stores
    python benchmarks/store_growth.py --small 1000 --large 10000 --rounds 5   # quicker

The stores come from benchmarks/genstore.py (the same seeded notes as benchmarks/run.py);
`memcli index` writes their MEMORY.md once, before the rounds.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genstore  # a sibling script
import run  # a sibling script: its clean environment, bytecode cached as when installed

COMMANDS = {"lint": ["lint"], "index --check": ["index", "--check"], "status": ["status"]}
TARGET = 10.5


def _memcli() -> str:
    return str(Path(sys.executable).with_name("memcli"))


def _env(root: Path, size: int) -> dict[str, str]:
    store = root / f"store{size}"
    return {**run.base_env(root), "MEMCLI_PROJECT_STORE": str(store / "project"),
            "MEMCLI_USER_STORE": str(store / "user")}


def _prepare(root: Path, size: int) -> None:
    store = root / f"store{size}"
    if (store / "user" / "MEMORY.md").exists():
        return
    for level in ("project", "user"):
        genstore.write_store(store / level, size, level)
    subprocess.run([_memcli(), "index"], env=_env(root, size), cwd=root, check=True,
                   capture_output=True)



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=10_000, help="notes per level")
    parser.add_argument("--large", type=int, default=100_000, help="notes per level")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stores", type=Path, help="folder to keep the stores in (reused)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = (args.stores or Path(scratch)).absolute()
        root.mkdir(parents=True, exist_ok=True)
        sizes = (args.small, args.large)
        for size in sizes:
            _prepare(root, size)
        times: dict[tuple[str, int], list[tuple[float, float]]] = {
            (name, size): [] for name in COMMANDS for size in sizes}
        for _ in range(args.rounds):
            for name, argv in COMMANDS.items():
                for size in sizes:
                    times[(name, size)].append(
                        run.timed_child([_memcli(), *argv], _env(root, size), root, ok=(0, 1)))
    print(f"median of {args.rounds} rounds; {args.small:,} -> {args.large:,} notes per level")
    worst = 0.0
    for name in COMMANDS:
        cpu = [statistics.median(t[0] for t in times[(name, s)]) for s in sizes]
        wall = [statistics.median(t[1] for t in times[(name, s)]) for s in sizes]
        ratio = cpu[1] / cpu[0]
        worst = max(worst, ratio)
        print(f"memcli {name:14} CPU {cpu[0]:6.2f} s -> {cpu[1]:6.2f} s  x{ratio:5.2f}   "
              f"wall {wall[0]:6.2f} s -> {wall[1]:6.2f} s  x{wall[1] / wall[0]:5.2f}")
    print(f"target: CPU growth <= x{TARGET:g}: {'yes' if worst <= TARGET else 'NO'}")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
