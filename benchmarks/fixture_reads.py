"""Per format, how many transcript fixtures a checkout reads right: every message (role and
text) and the last turn equal to the hand-written expectation of
``tests/transcript_expectations.py``, and no text it lists as never shown.

    python benchmarks/fixture_reads.py                      # this checkout, tests/fixtures
    python benchmarks/fixture_reads.py --root OTHER         # another checkout's memcli
    python benchmarks/fixture_reads.py --fixtures ../shared/fixtures/transcripts

The expectations are always this checkout's; ``--root`` only chooses the reader, so two
checkouts are compared on the same truth. A fixture folder other than ``tests/fixtures``
is matched to the expectations by file name.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose reader runs")
    parser.add_argument("--fixtures", type=Path, default=None,
                        help="a fixture folder (default: this checkout's tests/fixtures)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from tests.transcript_expectations import EXPECTED, matches  # this checkout's truth

    sys.path.insert(0, str(args.root.resolve()))
    for name in [m for m in sys.modules if m == "memcli" or m.startswith("memcli.")]:
        del sys.modules[name]
    from memcli.transcripts import read_transcript

    def said(path: Path, last_turn: bool) -> list[tuple[str, str]] | str:
        if path.is_dir():
            return "folder"  # a session folder: read by the CLI, not this script
        try:
            transcript = read_transcript(path.read_bytes(), last_turn=last_turn)
        except Exception as err:  # an old reader may fail where a new one does not
            return f"error: {type(err).__name__}"
        return [(m.role, m.text) for m in transcript.messages]

    def same(expected: list[tuple[str, str]], got: list[tuple[str, str]] | str) -> bool:
        return isinstance(got, list) and len(got) == len(expected) and all(
            r == gr and matches(t, gt) for (r, t), (gr, gt) in zip(expected, got, strict=True))

    by_name = {e.path.name: e for e in EXPECTED.values()}
    folder = args.fixtures
    files = sorted(p for p in folder.rglob("*") if p.name in by_name) if folder else [
        e.path for e in EXPECTED.values()]
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    wrong: list[str] = []
    for path in files:
        e = by_name[path.name]
        fmt = "+".join(sorted(e.formats))
        total[fmt] += 1
        got = said(path, False)
        if got == "folder":
            total[fmt] -= 1
            continue
        messages = got if isinstance(got, list) else []
        shown = "\n".join(t for _, t in messages)
        expected = e.messages
        if e.only_user:
            ok = same(e.messages, [m for m in messages if m[0] == "user"]) and sum(
                r == "assistant" for r, _ in messages) == e.assistant_count
        else:
            ok = same(expected, got)
        ok = ok and same(e.last_turn, said(path, True))
        ok = ok and not any(absent in shown for absent in e.never)
        if ok:
            right[fmt] += 1
        else:
            wrong.append(path.name)
    print(f"reader: {args.root}; fixtures: {folder or 'tests/fixtures (every expectation)'}")
    for fmt in sorted(total):
        print(f"  {fmt:<28} {right[fmt]:>3} / {total[fmt]:<3} read right")
    print(f"  {'all':<28} {sum(right.values()):>3} / {sum(total.values()):<3} read right")
    if wrong:
        print("  read wrong: " + ", ".join(wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
