"""Correction sequences replayed one file at a time: how many end with exactly one current
note per topic said (a correction replaced, not added), the duplicates and false merges.

    python benchmarks/extraction_sequences.py                  # every sequence file but heldout
    python benchmarks/extraction_sequences.py written_asia written_euro --details

Names are the sequence files of ``benchmarks/data/extraction/train/`` without
``_sequences.jsonl`` (``written``, ``written_asia``, ``written_euro``, ``written_mix``,
``written_four``, ``train``) and ``dev``, ``test`` (``sequences_{dev,test}.jsonl``). The
scoring is :func:`extraction.duplicates`, the one ``extraction.py`` prints per split; the
held-out sequences are never replayed here (``extraction.py --split heldout`` gives their
aggregate only).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import extraction

TRAIN = extraction.DATA / "train"
FILES = {
    "written_asia": TRAIN / "written_asia_sequences.jsonl",
    "written_euro": TRAIN / "written_euro_sequences.jsonl",
    "written_mix": TRAIN / "written_mix_sequences.jsonl",
    "written_four": TRAIN / "written_four_sequences.jsonl",
    "written": TRAIN / "written_sequences.jsonl",
    "train": TRAIN / "sequences.jsonl",
    "dev": extraction.DATA / "sequences_dev.jsonl",
    "test": extraction.DATA / "sequences_test.jsonl",
}


def load(path: Path) -> list[dict[str, object]]:
    import json

    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"sequence files, of {', '.join(FILES)} (default: all)")
    parser.add_argument("--mode", choices=extraction.MODES, default="combined")
    parser.add_argument("--details", action="store_true",
                        help="each duplicate, lost topic and false merge")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in FILES]
    if unknown:
        parser.error(f"no sequence file {unknown[0]!r}: one of {', '.join(FILES)}")
    total_one = total = 0
    for name in args.names or list(FILES):
        sequences = load(FILES[name])
        score = extraction.duplicates(sequences, mode=args.mode)
        total_one += score.one_note
        total += score.sequences
        print(f"{name:<13} one note per topic in {score.one_note:>3} of {score.sequences:>3}"
              f" ({100 * score.one_note / max(score.sequences, 1):5.1f} %); duplicates "
              f"{score.duplicates}, false merges {score.false_merges}")
        if args.details:
            print("\n".join(f"    {d}" for d in score.details))
    print(f"{'all':<13} one note per topic in {total_one:>3} of {total:>3}"
          f" ({100 * total_one / max(total, 1):5.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
