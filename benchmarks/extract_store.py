"""One-turn offline extraction against a small and a large store, in CPU, as a ratio to
`memcli --help` timed in the same rounds (issue 26, items 2 and 6).

    python benchmarks/extract_store.py                  # 50 and 10,000 notes per level
    python benchmarks/extract_store.py --sizes 50 --rounds 11
    python benchmarks/extract_store.py --before /path/to/old/bin/memcli   # before/after

With ``--before``, another memcli's console script (an older checkout's environment) is
timed in the same rounds on the same stores, with its own memcli home (its caches are its
own), so that before and after share the machine's load.

Each round runs, one after another: `memcli --help`, then for each store a one-turn
`memcli extract --provider rules` of a turn that holds lasting facts (so the learned
detector reads it and its proposals are matched against every stored note: the
near-duplicate and same-setting search), and of a turn that holds nothing (only the start
and the reading). CPU is the child's user + system time (``os.wait4``); the figure is the
median over the rounds, divided by the median of `memcli --help`. Targets: a one-turn
extract within 2.5x `--help`; on 10,000 notes per level, at most 3x.

The children get the environment of `benchmarks/run.py` (README: "Bytecode cached for
everyone"): no `PYTHON*` or `MEMCLI_*` variables and a private `PYTHONPYCACHEPREFIX`, so
the untimed round writes the bytecode an installed package has. Run from a shell with
`PYTHONDONTWRITEBYTECODE=1`, this benchmark used to time the compiler too: every module
an extract imports compiled from source on every start (3.2-3.5x instead of 2.0-2.3x).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import genstore  # a sibling script
import run  # a sibling script: its clean environment, bytecode cached as when installed

TURNS = {
    "facts": "heads up, we moved everything from Heroku to Fly.io last month. also the test "
             "command is `make check` now, not pytest",
    "nothing": "can you look at why the login test fails on CI? here is the log",
}


def _memcli() -> list[str]:
    script = Path(sys.executable).with_name("memcli")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "memcli"]


def cpu(args: list[str], env: dict[str, str], cwd: Path) -> float:
    """The child's CPU seconds (user + system)."""
    proc = subprocess.Popen(args, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args[1:])} exited {proc.returncode}: {err.strip()[-300:]}")
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=lambda v: [int(x) for x in v.split(",")],
                        default=[50, 10_000], help="notes per level, comma-separated")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--before", help="another memcli executable, timed in the same rounds")
    args = parser.parse_args(argv)
    memcli = _memcli()
    with tempfile.TemporaryDirectory(prefix="memcli-extract-store-") as tmp:
        scratch = Path(tmp)
        work = scratch / "work"
        work.mkdir()
        base = run.base_env(scratch)
        for name, text in TURNS.items():
            line = json.dumps({"role": "user", "content": text}) + "\n"
            (scratch / f"{name}.jsonl").write_text(line, "utf-8")
        envs = {}
        for size in args.sizes:
            root = scratch / f"store{size}"
            for level in ("project", "user"):
                genstore.write_store(root / level, size, level)
            envs[size] = {**base, "MEMCLI_PROJECT_STORE": str(root / "project"),
                          "MEMCLI_USER_STORE": str(root / "user")}
            cpu([*memcli, "index"], envs[size], work)
        cases: dict[str, tuple[list[str], dict[str, str]]] = {
            "help": ([*memcli, "--help"], base)}
        runs = [("", memcli, "home")]
        if args.before:
            runs.insert(0, ("before: ", [args.before], "home-before"))
        for size in args.sizes:
            for name in TURNS:
                for label, program, home in runs:
                    env = {**envs[size], "MEMCLI_HOME": str(scratch / home)}
                    cases[f"{label}extract {name}, {size:,}/level"] = (
                        [*program, "extract", "--input", str(scratch / f"{name}.jsonl"),
                         "--provider", "rules", "--json"], env)
        times: dict[str, list[float]] = {case: [] for case in cases}
        for command, env in cases.values():  # one untimed round: caches warm
            cpu(command, env, work)
        for _ in range(args.rounds):
            for case, (command, env) in cases.items():
                times[case].append(cpu(command, env, work))
    help_cpu = statistics.median(times["help"])
    rows = {case: {"cpu_ms": round(statistics.median(t) * 1000, 1),
                   "x_help": round(statistics.median(t) / help_cpu, 2)}
            for case, t in times.items()}
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'case':<44} {'CPU ms':>8} {'x --help':>9}   ({args.rounds} rounds, medians)")
    for case, row in rows.items():
        print(f"{case:<44} {row['cpu_ms']:>8.1f} {row['x_help']:>9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
