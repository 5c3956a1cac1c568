"""`memcli apply` of one document of N creates against its fsync floor, in the same rounds.

The floor is the least any crash-safe writer of those notes pays: a fresh Python process
that writes the same N note files (their exact bytes, taken from the store apply wrote)
into a staging folder, fsyncs each, renames each into place and fsyncs both folders. apply
also checks, plans, writes MEMORY.md and a history record and takes the store lock; the
ratio says what all that costs on top. Rounds alternate (floor, apply) so that both meet the
same load; the medians of wall time and of CPU time (user + system of the child) are
compared. Issue 33's target: apply <= 1.5 x the floor.

    python benchmarks/write_floor.py --creates 1000 --rounds 7
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genstore  # a sibling script
import run  # a sibling script: its clean environment, bytecode cached as when installed

FLOOR = """\
import os, sys
from pathlib import Path
source, target = Path(sys.argv[1]), Path(sys.argv[2])
stage = target / ".stage"
stage.mkdir(parents=True)
names = sorted(p.name for p in source.glob("*.md") if p.name != "MEMORY.md")
for name in names:
    data = (source / name).read_bytes()
    fd = os.open(stage / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, data)
    os.fsync(fd)
    os.close(fd)
for folder in (stage, target):
    fd = os.open(folder, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
for name in names:
    os.rename(stage / name, target / name)
fd = os.open(target, os.O_RDONLY)
os.fsync(fd)
os.close(fd)
"""



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--creates", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    memcli = [sys.executable, "-m", "memcli"]
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        document = tmp / "apply.json"
        document.write_text(genstore.apply_document(args.creates), "utf-8")
        (tmp / "floor.py").write_text(FLOOR, "utf-8")
        store = tmp / "stores" / "project"
        # Without PYTHONDONTWRITEBYTECODE (run.base_env): the warm-up round writes the
        # bytecode an installed package has, so the compiler is not timed with apply.
        env = {**run.base_env(tmp), "MEMCLI_PROJECT_STORE": str(store),
               "MEMCLI_USER_STORE": str(tmp / "user")}
        walls: dict[str, list[float]] = {"floor": [], "apply": []}
        cpus: dict[str, list[float]] = {"floor": [], "apply": []}
        reference = tmp / "reference"
        for round_number in range(args.rounds + 1):
            shutil.rmtree(tmp / "stores", ignore_errors=True)
            shutil.rmtree(tmp / "floor", ignore_errors=True)
            cpu, wall = run.timed_child([*memcli, "apply", str(document)], env, tmp)
            if round_number == 0:  # a warm-up, and the notes the floor writes
                shutil.copytree(store, reference)
                continue
            walls["apply"].append(wall)
            cpus["apply"].append(cpu)
            cpu, wall = run.timed_child([sys.executable, str(tmp / "floor.py"), str(reference),
                                         str(tmp / "floor")], env, tmp)
            walls["floor"].append(wall)
            cpus["floor"].append(cpu)
    figures = {
        "creates": args.creates, "rounds": args.rounds,
        "apply_wall_s": statistics.median(walls["apply"]),
        "floor_wall_s": statistics.median(walls["floor"]),
        "apply_cpu_s": statistics.median(cpus["apply"]),
        "floor_cpu_s": statistics.median(cpus["floor"]),
    }
    figures["ratio_wall"] = figures["apply_wall_s"] / figures["floor_wall_s"]
    figures["ratio_cpu"] = figures["apply_cpu_s"] / figures["floor_cpu_s"]
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"apply of {args.creates:,} creates, median of {args.rounds} rounds: "
          f"{figures['apply_wall_s']:.2f} s wall, {figures['apply_cpu_s']:.2f} s CPU")
    print(f"fsync floor (same notes, same fsyncs): {figures['floor_wall_s']:.2f} s wall, "
          f"{figures['floor_cpu_s']:.2f} s CPU")
    print(f"ratio: {figures['ratio_wall']:.2f} x wall, {figures['ratio_cpu']:.2f} x CPU "
          f"(target <= 1.5 x)")


if __name__ == "__main__":
    main()
