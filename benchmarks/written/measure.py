"""The shipped extractor on train/written.jsonl, per language: precision and recall of the
cue rules alone and of what ships (rules + learned detector), and how many turns holding
nothing lasting gave a note. Run from the repository root:

    python benchmarks/written/measure.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import extraction as ex  # noqa: E402

PATH = ROOT / "benchmarks" / "data" / "extraction" / "train" / "written.jsonl"
rows = [json.loads(x) for x in PATH.read_text(encoding="utf-8").splitlines() if x]
for mode in ("rules", "combined"):
    results = ex.evaluate(rows, ex.extractor_for(mode))
    noted, empty = ex.empty_turn_notes(results)
    langs = ex.by_language(results).items()
    scores = {k: f"P {v.precision:.3f} R {v.recall:.3f}" for k, v in langs}
    print(mode, scores, f"nothing-lasting turns with a note {noted}/{empty}")
