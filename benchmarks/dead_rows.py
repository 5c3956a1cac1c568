"""What the search cache's dead rows do to rankings: an updated cache against one built again.

    python benchmarks/dead_rows.py            # 2,000 generated notes a level, 304 queries
    python benchmarks/dead_rows.py --notes 400 --shares 0.01 0.04   # a small store

A changed or removed note's FTS row stays in the cache, dead, until the dead rows pass
``REBUILD_SHARE`` of the live ones (memcli/search/_fts_sync.py): they still count in BM25's
statistics (the rows, their average length, each term's document frequency) and in
coverage's document frequencies. For a few shares of the project level's notes edited (the
word `deploy` replaced, so that the edits move the statistics of the queries' own words),
this prints how many of the queries' top 5 and top 1 differ from a cache built from nothing,
and the largest difference of a second-stage score among the notes both rank. The share
that rebuilds is raised for the run, so that every row stays as it is left.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import genstore  # noqa: E402
from ranking_check import GENERATED_NOTES, queries  # noqa: E402

from memcli.search import _fts_sync  # noqa: E402
from memcli.search.engine import search_states  # noqa: E402
from memcli.store.folder import load_store  # noqa: E402

SHARES = (0.01, 0.02, 0.03, 0.05, 0.10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=GENERATED_NOTES)
    parser.add_argument("--shares", type=float, nargs="+", default=SHARES)
    args = parser.parse_args()
    notes_a_level: int = args.notes
    _fts_sync.REBUILD_SHARE = 1.0  # no rebuild during the run: the rows as left
    now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
    asked = queries()
    print(f"{notes_a_level:,} notes a level, {len(asked)} queries; dead rows as a share of "
          "the project level's notes\n")
    print("| dead rows | top 5 differs | top 1 differs | largest score difference |")
    print("|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        folders = [genstore.write_store(base / level, notes_a_level, level)
                   for level in ("project", "user")]
        notes = sorted(p for p in folders[0].iterdir()
                       if p.suffix == ".md" and p.name != "MEMORY.md")
        done = 0
        for share in args.shares:
            for path in notes[done:int(share * len(notes))]:
                path.write_text(path.read_text("utf-8").replace("deploy", "rollout"), "utf-8")
            done = int(share * len(notes))
            states = [load_store(level, folder, bodies=False)
                      for level, folder in zip(("project", "user"), folders, strict=True)]
            fresh = base / f"fresh-{share}"
            top5 = top1 = 0
            worst = 0.0
            for query in asked:
                kept = search_states(states, query, base / "cache", limit=5, now=now).hits
                new = search_states(states, query, fresh, limit=5, now=now).hits
                top5 += [h.filename for h in kept] != [h.filename for h in new]
                top1 += kept[:1] != [] and new[:1] != [] and kept[0].filename != new[0].filename
                scores = {h.filename: h.score for h in new}
                worst = max([worst, *(abs(h.score - scores[h.filename]) for h in kept
                                      if h.filename in scores)])
            print(f"| {share:.0%} | {top5} ({top5 / len(asked):.1%}) | {top1} "
                  f"({top1 / len(asked):.1%}) | {worst:.3f} |")


if __name__ == "__main__":
    main()
