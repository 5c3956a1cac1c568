"""How long one TAB takes: value and note-name completion against `memcli --help`.

    python benchmarks/completion.py [--notes 1000] [--rounds 21]

A shell runs memcli on every TAB; the target is that completing a note name on a store of
1,000 notes per level costs at most 1.5 x `memcli --help`, measured in the same rounds
(interleaved, median of the per-round ratios) on this machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from genstore import write_store

TARGET = 1.5


def _memcli() -> str:
    found = Path(sys.executable).parent / "memcli"
    return str(found) if found.exists() else (shutil.which("memcli") or "memcli")


def _completion_env(base: dict[str, str], words: str) -> dict[str, str]:
    parts = words.split(" ")
    return {**base, "_MEMCLI_COMPLETE": "complete_bash", "COMP_WORDS": words,
            "COMP_CWORD": str(len(parts) - 1)}


def _time(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000, help="notes per level")
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    memcli = _memcli()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMCLI_", "PYTHON"))}
        env.update({"HOME": str(root / "home"), "MEMCLI_HOME": str(root / "home" / ".memcli"),
                    "MEMCLI_PROJECT_STORE": str(root / "project"),
                    "PYTHONPYCACHEPREFIX": str(root / "pycache")})
        write_store(root / "project", args.notes, "project")
        write_store(root / "home" / ".memcli" / "memory", args.notes, "user")
        rows = {
            "memcli --help (baseline)": ([memcli, "--help"], env),
            "TAB: memcli show <note>": ([memcli], _completion_env(env, "memcli show ")),
            "TAB: memcli rm project_k": ([memcli], _completion_env(env, "memcli rm project_k")),
            "TAB: memcli show --level": ([memcli], _completion_env(env, "memcli show --level ")),
        }
        samples: dict[str, list[float]] = {name: [] for name in rows}
        for _ in range(2):  # warm the caches and the bytecode
            for argv, row_env in rows.values():
                _time(argv, row_env, root)
        for _ in range(args.rounds):
            for name, (argv, row_env) in rows.items():
                samples[name].append(_time(argv, row_env, root))
    base = samples["memcli --help (baseline)"]
    print(f"{args.notes} notes per level, {args.rounds} rounds, interleaved; medians")
    print(f"{'what':32} {'median':>9} {'ratio':>7}  target")
    for name, times in samples.items():
        ratio = statistics.median(t / b for t, b in zip(times, base, strict=True))
        target = "" if name == next(iter(samples)) else (
            f"<= {TARGET} x  {'met' if ratio <= TARGET else 'NOT MET'}")
        print(f"{name:32} {statistics.median(times) * 1000:7.0f} ms {ratio:6.2f}x  {target}")


if __name__ == "__main__":
    main()
