"""`memcli verify` against `memcli lint` on the same store: issue 31's row.

    python benchmarks/anchors.py            # 10,000 notes, 2,000 anchors, 1,000 source files
    python benchmarks/anchors.py --quick    # a quarter of that

A git repository of source files (committed), and a project store of generated notes
(benchmarks/genstore.py) of which some cite those files: whole files, line ranges and
symbols, pinned as `memcli add --cite` pins them. Then the working tree moves on: some cited
files are edited (some staged, most not), some renamed with `git mv`, some deleted, some
gain lines above a cited range. Both commands run as subprocesses, as a person runs them
(wall time, best of three after one warm-up run); the target is verify at most 2x lint.
lint reads and checks every note (and the same anchors, for M218/M219); verify reads every
note's frontmatter and checks the anchors.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

TARGET = 2.0


def _source(number: int, rng: random.Random) -> str:
    lines = [f'"""Module {number}."""', "", "import os", ""]
    for f in range(rng.randint(3, 8)):
        lines += ["", f"def func_{f}(value):", f"    total = value + {f}",
                  f"    return total * {number}", ""]
    return "\n".join(lines) + "\n"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@example.com",
                    "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                   capture_output=True)


def build(root: Path, notes: int, anchors: int, files: int) -> tuple[Path, Path]:
    """The repository (its working tree changed since the notes were pinned) and its store."""
    from genstore import write_store

    from memcli.store.anchor_check import pin
    from memcli.store.anchor_repository import Repository
    from memcli.store.anchors import Anchor, cites_value
    from memcli.store.frontmatter_yaml import dump_yaml

    rng = random.Random(31)
    repo = root / "repo"
    for number in range(files):
        path = repo / "src" / f"pkg{number % 20}" / f"mod{number}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_source(number, rng))
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "sources")
    store = write_store(repo / ".memcli" / "memory", notes, "project")
    names = sorted(p.name for p in store.iterdir())
    repository = Repository(repo)
    per_note = 2
    for index in range(anchors // per_note):
        chosen: list[Anchor] = []
        for k in range(per_note):
            number = (index * per_note + k) % files
            path = f"src/pkg{number % 20}/mod{number}.py"
            kind = (index * per_note + k) % 10
            if kind < 6:
                chosen.append(Anchor(path))
            elif kind < 9:
                chosen.append(Anchor(path, 6, 8))
            else:
                chosen.append(Anchor(path, symbol="func_1"))
        note = store / names[index * (len(names) // (anchors // per_note))]
        text = note.read_text("utf-8")
        cites = dump_yaml({"cites": cites_value([pin(repository, a) for a in chosen])})
        note.write_text(text.replace("\n---\n", "\n" + cites + "---\n", 1), "utf-8")
    # The working tree moves on: 5% edited (a fifth of them staged), 1% renamed with git mv,
    # 1% deleted, 2% gain two lines above everything.
    for number in range(files):
        path = repo / "src" / f"pkg{number % 20}" / f"mod{number}.py"
        roll = number % 100
        if roll < 5:
            path.write_text(path.read_text() + "\n\ndef added():\n    return 0\n")
            if roll == 0:
                _git(repo, "add", str(path.relative_to(repo)))
        elif roll == 5:
            _git(repo, "mv", str(path.relative_to(repo)),
                 str(path.with_name(f"renamed{number}.py").relative_to(repo)))
        elif roll == 6:
            path.unlink()
        elif roll in (7, 8):
            path.write_text("# header\n# more\n" + path.read_text())
    return repo, store


def _time(args: list[str], cwd: Path, env: dict[str, str], rounds: int = 3) -> float:
    subprocess.run(args, cwd=cwd, env=env, capture_output=True, check=False)  # warm-up
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run(args, cwd=cwd, env=env, capture_output=True, check=False)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    scale = 4 if args.quick else 1
    notes, anchors, files = 10_000 // scale, 2_000 // scale, 1_000 // scale
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        repo, store = build(root, notes, anchors, files)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMCLI_", "GIT_"))}
        env.update({"HOME": str(root), "MEMCLI_HOME": str(root / "home"), "NO_COLOR": "1",
                    "MEMCLI_PROJECT_STORE": str(store)})
        memcli = [sys.executable, "-m", "memcli"]
        subprocess.run([*memcli, "index"], cwd=repo, env=env, capture_output=True, check=True)
        done = subprocess.run([*memcli, "verify", "--json"], cwd=repo, env=env,
                              capture_output=True, text=True, check=False)
        import json

        counts = json.loads(done.stdout)["counts"]
        lint = _time([*memcli, "lint", "--level", "project"], repo, env)
        verify = _time([*memcli, "verify"], repo, env)
    ratio = verify / lint
    print(f"store: {notes:,} notes, {anchors:,} anchors into {files:,} files; verify found "
          + ", ".join(f"{n} {state}" for state, n in counts.items()))
    print(f"{'row':<44} {'lint s':>8} {'verify s':>9} {'ratio':>6} {'target':>7}")
    print(f"{'verify / lint, same store':<44} {lint:8.3f} {verify:9.3f} {ratio:6.2f} "
          f"{'<= ' + str(TARGET):>7}")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
