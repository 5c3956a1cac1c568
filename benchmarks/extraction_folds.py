"""Cross-author validation of the learned extractor in one command: for each author's written
file (train/written*.jsonl), the heads trained on everything else, then the combined
extractor scored on that file and its sequences; pooled figures summed over the folds.

    pip install -e '.[train]'
    python benchmarks/extraction_folds.py                        # every author, pooled
    python benchmarks/extraction_folds.py --json after.json      # ... and the figures saved
    python benchmarks/extraction_folds.py --compare before.json  # before -> after
    python benchmarks/extraction_folds.py --only written_asia --keep W   # weights kept in W/
    python benchmarks/extraction_folds.py --reuse W              # no training: W/<name>.weights

It is the same as ``train_extractor.py --leave-out NAME --out W`` then ``extraction.py
--split NAME --weights W --mode combined`` for each NAME (docs/extractor-model.md), done in
one process: each file's sentences are featurised once for all the folds. Never the held-out
split: the files are train/written*.jsonl only.

Printed: per author precision, recall, routing, notes from turns holding nothing lasting and
sequences ending with one note per topic; pooled, the same and recall / routing per family
and recall per language. An idea ships when the pooled figures improve without lowering any
author's precision by more than 0.01 or raising the notes from nothing-lasting turns
(docs/extractor-model.md, round 4).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import extraction  # noqa: E402
import train_extractor as trainer  # noqa: E402

from memcli.extraction.rules import learned  # noqa: E402


def _parts() -> list[tuple[str, list[dict[str, Any]]]]:
    """The corpus as the trainer loads it, in its order, one part per file."""
    parts = [("generated", trainer.read(trainer.DATA / "train" / "generated.jsonl"))]
    parts += [(name, trainer.read(trainer.DATA / f"{name}.jsonl")) for name in trainer.SPLITS]
    parts += [(path.stem, trainer.read(path)) for path in trainer.written_files()]
    return parts


def _featurised(parts: list[tuple[str, list[dict[str, Any]]]]
                ) -> dict[str, tuple[Any, Any, int]]:
    out = {}
    for name, rows in parts:
        data = trainer.samples(rows)
        out[name] = (data, trainer.matrix([s[0] for s in data]), len(rows))
    return out


def _weights(name: str, feats: dict[str, tuple[Any, Any, int]]) -> bytes:
    from scipy.sparse import vstack

    names = [part for part in feats if part != name]
    kept = [feats[part] for part in names]
    weights = [trainer.GENERATED_ROUTE_WEIGHT if part == "generated" else 1.0
               for part in names for _ in feats[part][0]]
    return trainer.fit([s for part in kept for s in part[0]],
                       vstack([part[1] for part in kept], format="csr"),
                       sum(part[2] for part in kept), weights)



def _score(name: str, weights: Path, sequences: bool, settings: dict[str, float]
           ) -> dict[str, Any]:
    learned.WEIGHTS = weights
    learned.model.cache_clear()
    learned.model().meta.update(settings)  # this process only: a decision setting tried
    results = extraction.evaluate(extraction.load(name), extraction.extractor_for("combined"))
    noted, empty = extraction.empty_turn_notes(results)
    out: dict[str, Any] = {
        "languages": {k: v.as_json() for k, v in extraction.by_language(results).items()},
        "families": {k: v.as_json() for k, v in extraction.by_family(results).items()},
        "empty_turn_notes": [noted, empty]}
    if sequences and extraction._path(f"sequences_{name}").is_file():
        dup = extraction.duplicates(extraction.load(f"sequences_{name}"))
        out["sequences"] = [dup.one_note, dup.sequences]
    return out


def _sum(cells: list[dict[str, Any]]) -> dict[str, float]:
    total = {k: sum(c[k] for c in cells) for k in ("turns", "gold", "ops", "hits")}
    routed = sum(round(c["routing"] * c["hits"]) for c in cells)
    total["precision"] = total["hits"] / total["ops"] if total["ops"] else 1.0
    total["recall"] = total["hits"] / total["gold"] if total["gold"] else 1.0
    total["routing"] = routed / total["hits"] if total["hits"] else 1.0
    return total


def pooled(folds: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"all": _sum([f["languages"]["all"] for f in folds.values()])}
    for group in ("families", "languages"):
        names = sorted({k for f in folds.values() for k in f[group]})
        out[group] = {k: _sum([f[group][k] for f in folds.values() if k in f[group]])
                      for k in names}
    out["empty_turn_notes"] = [sum(f["empty_turn_notes"][i] for f in folds.values())
                               for i in (0, 1)]
    seqs = [f["sequences"] for f in folds.values() if "sequences" in f]
    if seqs:
        out["sequences"] = [sum(s[0] for s in seqs), sum(s[1] for s in seqs)]
    return out


def _fmt(cell: dict[str, Any], before: dict[str, Any] | None, keys: tuple[str, ...]) -> str:
    parts = []
    for key in keys:
        now = f"{cell[key]:.3f}"
        label = {"precision": "P", "recall": "R", "routing": "rt"}[key]
        parts.append(f"{label} {before[key]:.3f}->{now}" if before else f"{label} {now}")
    return "  ".join(parts)


def _share(pair: list[int]) -> str:
    return f"{pair[0]}/{pair[1]} = {100 * pair[0] / max(pair[1], 1):.1f}%"


def _summary(name: str, figures: dict[str, Any], cell: dict[str, Any],
             before: dict[str, Any] | None, cell_before: dict[str, Any] | None) -> str:
    """One author's (or the pooled) line: P/R/routing, false notes, sequences, each with its
    before when there is one."""
    line = (f"{name:<14} {_fmt(cell, cell_before, ('precision', 'recall', 'routing'))}"
            "  false notes ")
    line += (f"{_share(before['empty_turn_notes'])} -> " if before else "")
    line += _share(figures["empty_turn_notes"])
    if "sequences" in figures:
        line += f"  one note per topic {figures['sequences'][0]}/{figures['sequences'][1]}"
    return line


def render(figures: dict[str, Any], before: dict[str, Any] | None) -> list[str]:
    lines = []
    for name, fold in figures["folds"].items():
        was = (before or {}).get("folds", {}).get(name)
        lines.append(_summary(name, fold, fold["languages"]["all"], was,
                              was and was["languages"]["all"]))
    pool, was_pool = figures["pooled"], (before or {}).get("pooled")
    lines.append(_summary("POOLED", pool, pool["all"], was_pool, was_pool and was_pool["all"]))
    for group, label, keys in (("families", "family", ("recall", "routing")),
                               ("languages", "language", ("recall",))):
        for name, cell in pool[group].items():
            if not cell["gold"]:
                continue
            was = was_pool and was_pool[group].get(name)
            lines.append(f"  {label:<8} {name:<16} {cell['gold']:>5}  {_fmt(cell, was, keys)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=trainer.WRITTEN,
                        help="these authors' folds only (default: every written file)")
    parser.add_argument("--keep", type=Path, help="write each fold's weights to DIR/NAME.weights")
    parser.add_argument("--reuse", type=Path,
                        help="score DIR/NAME.weights instead of training (for a change of "
                             "the decision alone)")
    parser.add_argument("--no-sequences", action="store_true", help="skip the sequences")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--compare", type=Path,
                        help="figures of an earlier --json: before -> after")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a decision setting of the weights file (threshold, "
                             "cjk_threshold, split_threshold, ...) tried in its place")
    parser.add_argument("--generated-route-weight", type=float,
                        default=trainer.GENERATED_ROUTE_WEIGHT,
                        help="weigh the generated turns' samples so in the route heads")
    parser.add_argument("--route-class-weight", action="append", default=[],
                        metavar="LEVEL/TYPE=W",
                        help="weigh that route's samples so in the route heads (in place of "
                             "train_extractor.ROUTE_CLASS_WEIGHTS; 1 for none)")
    args = parser.parse_args(argv)
    trainer.GENERATED_ROUTE_WEIGHT = args.generated_route_weight
    for item in args.route_class_weight:
        route, _, weight = item.partition("=")
        level, _, kind = route.partition("/")
        trainer.ROUTE_CLASS_WEIGHTS[(level, kind)] = float(weight)
    settings = {k: float(v) for k, _, v in (s.partition("=") for s in args.set)}
    names = args.only or list(trainer.WRITTEN)
    feats = None if args.reuse else _featurised(_parts())
    folds: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            if args.reuse:
                path = args.reuse / f"{name}.weights"
            else:
                assert feats is not None
                path = (args.keep or Path(tmp)) / f"{name}.weights"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(_weights(name, feats))
            folds[name] = _score(name, path, not args.no_sequences, settings)
            print(f"{name}: done", file=sys.stderr)
    figures = {"folds": folds, "pooled": pooled(folds)}
    before = json.loads(args.compare.read_text("utf-8")) if args.compare else None
    print("\n".join(render(figures, before)))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
