"""Consolidation and store-health benchmark.

1. Proposals: an aged store (benchmarks/agedstore.py: 500 notes, 10 % near-duplicates,
   5 % contradictions, 5 % expired) is given to `memcli consolidate`; precision and recall
   per kind against the generator's labels.
2. Speed: on a store of 10,000 notes with a history, `memcli log` and `memcli status`
   against `memcli context` on the same store, timed round robin in the same rounds
   (median of per-round ratios; target <= 1.5).

    python benchmarks/consolidation.py            # full run
    python benchmarks/consolidation.py --quick    # small stores, one round: the harness only
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agedstore import NOW, generate

TARGET_RATIO = 1.5


def _env(root: Path, store: Path) -> dict[str, str]:
    return {**os.environ, "MEMCLI_HOME": str(root / "home"), "HOME": str(root / "home"),
            "MEMCLI_PROJECT_STORE": str(store), "MEMCLI_USER_STORE": str(root / "user"),
            "MEMCLI_NOW": NOW, "NO_COLOR": "1"}


def memcli(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "memcli", *args], input=stdin, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"memcli {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done.stdout


def score(document: dict[str, Any], labels: Any) -> dict[str, dict[str, float]]:
    """Precision and recall per kind: a pair is found when its two notes are proposed together."""
    found: dict[str, set[Any]] = {"duplicate": set(), "contradiction": set(), "expired": set()}
    for op in document["operations"]:
        kind = op.get("kind")
        if kind in ("duplicate", "contradiction"):
            newer, older = op["pair"].split("/", 1)[1].split("+")
            found[kind].add(frozenset((newer, older)))
        elif kind == "expired":
            found[kind].add(op["filename"])
    truth = {"duplicate": {frozenset(p) for p in labels["duplicates"]},
             "contradiction": {frozenset(p) for p in labels["contradictions"]},
             "expired": set(labels["expired"])}
    result = {}
    for kind, proposed in found.items():
        right = len(proposed & truth[kind])
        result[kind] = {"proposed": len(proposed), "labelled": len(truth[kind]),
                        "precision": round(right / len(proposed), 3) if proposed else 1.0,
                        "recall": round(right / len(truth[kind]), 3) if truth[kind] else 1.0}
    return result


def proposals(root: Path, notes: int) -> dict[str, Any]:
    store = root / "aged"
    labels = vars(generate(store, notes))
    env = _env(root, store)
    memcli(env, "index")
    started = time.monotonic()
    document = json.loads(memcli(env, "consolidate", "--json"))
    seconds = time.monotonic() - started
    return {"notes": notes, "seconds": round(seconds, 2), "per_kind": score(document, labels)}


def speed(root: Path, notes: int, rounds: int) -> dict[str, Any]:
    store = root / "big"
    generate(store, notes, seed=7)
    env = _env(root, store)
    memcli(env, "index")
    for n in range(20):  # a history to read: 20 transactions after the first one
        memcli(env, "add", f"Fact number {n} about the release train.", "--title", f"Fact {n}")
    commands = {"context": ["context"], "log": ["log"], "status": ["status", "--json"]}
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds + 1):  # the first round warms the caches and is dropped
        for name, args in commands.items():
            started = time.perf_counter()
            memcli(env, *args)
            samples[name].append(time.perf_counter() - started)
    for name in samples:
        samples[name] = samples[name][1:]
    ratios = {name: round(statistics.median(a / b for a, b in
                                            zip(samples[name], samples["context"], strict=True)), 2)
              for name in ("log", "status")}
    return {"notes": notes, "rounds": rounds,
            "median_seconds": {k: round(statistics.median(v), 3) for k, v in samples.items()},
            "ratio_to_context": ratios,
            "target_met": all(r <= TARGET_RATIO for r in ratios.values())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memcli-consolidation-") as tmp:
        root = Path(tmp)
        report = {"proposals": proposals(root, 100 if args.quick else 500),
                  "speed": speed(root, 300 if args.quick else 10_000, 1 if args.quick else 7)}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
