"""Correction sequences replayed one file at a time: how many end with exactly one current
note per topic said (a correction replaced, not added), the duplicates and false merges.

    python benchmarks/extraction_sequences.py                  # every author's file, pooled
    python benchmarks/extraction_sequences.py --aside written_four,written_mix --details
    python benchmarks/extraction_sequences.py written_asia --details
    python benchmarks/extraction_sequences.py --all             # and train, dev, test

The authors' files are every ``benchmarks/data/extraction/train/written*_sequences.jsonl``
(found by glob, so a new author's file counts as soon as it lands), named without
``_sequences.jsonl`` (``written``, ``written_asia`` ...); they are the yardstick, printed
one line an author and pooled. ``train`` (``train/sequences.jsonl``) and ``dev``, ``test``
(``sequences_{dev,test}.jsonl``) are the older generated files, replayed when named or with
``--all``, outside the authors' pool. ``--aside`` sets authors' files apart as check files:
pooled on a line of their own, and ``--details`` never lists their failures (develop on the
others). The scoring is :func:`extraction.duplicates`, the one ``extraction.py`` prints per
split; the held-out sequences are never replayed here (``extraction.py --split heldout``
gives their aggregate only).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import extraction

TRAIN = extraction.DATA / "train"
SUFFIX = "_sequences.jsonl"


def authors() -> dict[str, Path]:
    """Every author's sequence file, by name, in name order."""
    return {path.name.removesuffix(SUFFIX): path
            for path in sorted(TRAIN.glob(f"written*{SUFFIX}"))}


OTHERS = {
    "train": TRAIN / "sequences.jsonl",
    "dev": extraction.DATA / "sequences_dev.jsonl",
    "test": extraction.DATA / "sequences_test.jsonl",
}


def load(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _line(name: str, one: int, total: int, duplicates: int, merges: int, refused: int,
          kept: int) -> str:
    return (f"{name:<16} one note per topic in {one:>3} of {total:>3}"
            f" ({100 * one / max(total, 1):5.1f} %; {kept} with no update refused);"
            f" duplicates {duplicates}, false merges {merges}, refused by the guard {refused}")


def main(argv: Sequence[str] | None = None) -> int:
    files = {**authors(), **OTHERS}
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"sequence files, of {', '.join(files)} (default: the authors')")
    parser.add_argument("--all", action="store_true", help="the authors' files and the others")
    parser.add_argument("--aside", default="", metavar="NAME,NAME",
                        help="authors' files kept as check files: pooled apart, no details")
    parser.add_argument("--mode", choices=extraction.MODES, default="combined")
    parser.add_argument("--details", action="store_true",
                        help="each duplicate, lost topic and false merge (not of --aside files)")
    args = parser.parse_args(argv)
    aside = [name for name in args.aside.split(",") if name]
    unknown = [name for name in (*args.names, *aside) if name not in files]
    if unknown:
        parser.error(f"no sequence file {unknown[0]!r}: one of {', '.join(files)}")
    names = args.names or [*authors(), *(OTHERS if args.all else ())]
    if aside and not args.names:
        names = [n for n in names if n not in aside] + aside
    pools: dict[str, list[int]] = {}
    for name in names:
        score = extraction.duplicates(load(files[name]), mode=args.mode)
        print(_line(name, score.one_note, score.sequences, score.duplicates,
                    score.false_merges, score.refused, score.one_note_kept))
        if args.details and name not in aside:
            print("\n".join(f"    {d}" for d in score.details))
        if name in OTHERS:
            continue
        counts = (score.one_note, score.sequences, score.duplicates, score.false_merges,
                  score.refused, score.one_note_kept)
        for pool in ("authors", "authors (check)" if name in aside else "authors (dev)"):
            if pool != "authors (dev)" or aside:
                pools[pool] = [a + b for a, b in zip(pools.get(pool, [0] * 6), counts,
                                                     strict=True)]
    for pool, (one, total, dups, merges, refused, kept) in pools.items():
        print(_line(pool, one, total, dups, merges, refused, kept))
    return 0


if __name__ == "__main__":
    sys.exit(main())
