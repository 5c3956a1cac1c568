"""memcli's start-up and dispatch in two virtual environments, interleaved in the same rounds.

typer is pinned below 0.29 (pyproject.toml) because 0.29 builds a pydantic adapter for every
parameter on every dispatch. This times `memcli --help`, `--version`, two commands that
dispatch (`lint` and `config --json` on empty stores) and a TAB completion (`memcli show
--level <TAB>` as bash asks it) with the memcli of two virtual environments, round after
round, and prints the median of each, wall and CPU (the child's user + system time, which
other processes on a shared machine disturb less), and the ratio of the second to the
first. The two may differ in typer's version (make the second with memcli installed without
its pin, e.g.::

    python3 -m venv /tmp/t29 && /tmp/t29/bin/pip install 'typer==0.29.3' rich httpx \\
        httpx-sse stamina pyyaml snowballstemmer markdown-it-py ahocorasick-rs backports.zstd
    /tmp/t29/bin/pip install --no-deps -e .
    python benchmarks/typer_versions.py .venv /tmp/t29 --rounds 15

) or in memcli's code under one typer (the first a `pip install` of another commit).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # a sibling script: its clean environment, bytecode cached as when installed

COMMANDS = {"--help": ["--help"], "--version": ["--version"], "lint": ["lint"],
            "config --json": ["config", "--json"], "TAB": []}
# What bash's completion script sets for `memcli show --level <TAB>`.
TAB_ENV = {"_MEMCLI_COMPLETE": "complete_bash", "COMP_WORDS": "memcli show --level ",
           "COMP_CWORD": "3"}


def _venv(path: str) -> Path:
    return Path(path).absolute()  # the commands run in a scratch folder


def _typer_version(venv: Path) -> str:
    code = "import importlib.metadata as m; print(m.version('typer'))"
    return subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True,
                          text=True, check=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=_venv, help="virtual environment (the baseline)")
    parser.add_argument("second", type=_venv, help="virtual environment to compare")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    venvs = {f"{v.name} (typer {_typer_version(v)})": v for v in (args.first, args.second)}
    if len(venvs) < 2:
        raise SystemExit("name two different virtual environments")
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        # Without PYTHONDONTWRITEBYTECODE (run.base_env): memcli's bytecode is written on the
        # first round and read after, as for an installed package (the compiler untimed).
        env = {**run.base_env(tmp), "MEMCLI_PROJECT_STORE": str(tmp / "p"),
               "MEMCLI_USER_STORE": str(tmp / "u")}
        times: dict[tuple[str, str], list[float]] = {(v, c): [] for v in venvs for c in COMMANDS}
        cpu: dict[tuple[str, str], list[float]] = {(v, c): [] for v in venvs for c in COMMANDS}
        for _ in range(args.rounds):
            for name, argv in COMMANDS.items():
                for version, venv in venvs.items():
                    before = _children_cpu()
                    started = time.perf_counter()
                    done = subprocess.run([str(venv / "bin" / "memcli"), *argv],
                                          env={**env, **TAB_ENV} if name == "TAB" else env,
                                          cwd=tmp, capture_output=True, check=False)
                    times[(version, name)].append(time.perf_counter() - started)
                    cpu[(version, name)].append(_children_cpu() - before)
                    if done.returncode not in (0, 1):
                        raise SystemExit(f"{version}, memcli {name}: exit "
                                         f"{done.returncode}: {done.stderr[-300:]!r}")
    first, second = venvs
    print(f"median of {args.rounds} rounds; {first} against {second}")
    print(f"{'':21} {'wall':>22} {'ratio':>7}   {'CPU':>22} {'ratio':>7}")
    for name in COMMANDS:
        cells = []
        for series in (times, cpu):
            a = statistics.median(series[(first, name)]) * 1000
            b = statistics.median(series[(second, name)]) * 1000
            cells.append(f"{a:8.1f} ms {b:8.1f} ms {b / a:6.2f} x")
        print(f"memcli {name:14} {cells[0]}   {cells[1]}")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
