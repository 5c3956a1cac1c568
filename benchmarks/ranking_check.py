"""Whether a change to the search cache left every ranking as it was, score for score.

    python benchmarks/ranking_check.py --write /tmp/before.json    # on the code before
    python benchmarks/ranking_check.py --against /tmp/before.json  # on the code after

Asks every question of LoCoMo's development half (read from ``../shared/data/locomo/``, the
clock at its last session), every prompt of the development coding sets (recall-dev.json with
recall-dev-unrelated.json, recall-dev2.json, recall-dev3.json, recall-coding.json with
recall-coding-long.json, recall-dated.json at its `now`), and queries over two generated
stores (``benchmarks/genstore.py``, 2,000 notes a level) whose index lives in an on-disk
cache: built, then brought up to date after notes were edited, removed and added (the
incremental path), and built again from nothing. Each search's first 20 notes with their
scores, BM25 and coverage, and what `recall` hands over, are written out; `--against`
compares them with a file written before and prints the differences (exit 1 if any). The
updated cache's answers must also equal the rebuilt cache's, in the same run.

The held-out set (recall-heldout.json) is never read here.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import genstore  # noqa: E402
import recall as bench  # noqa: E402
import recall_coding  # noqa: E402

from memcli.search.engine import SearchResult, search_states  # noqa: E402
from memcli.search.recall import select  # noqa: E402
from memcli.store.folder import StoreState, load_store  # noqa: E402
from memcli.store.note_bytes import render_new_note  # noqa: E402

TOP = 20
GENERATED_NOTES = 2000
GENERATED_QUERIES = 300

Answer = dict[str, Any]


def answer(found: SearchResult) -> Answer:
    return {"hits": [[h.level, h.filename, h.score, h.bm25, h.coverage]
                     for h in found.hits[:TOP]],
            "recall": [h.filename for h in select(found).notes]}


def asked(states: Sequence[StoreState], query: str, cache: Path | None = None,
          now: datetime | None = None) -> Answer:
    return answer(search_states(states, query, cache, limit=None, now=now))


def locomo() -> Iterator[tuple[str, Answer]]:
    if not bench.LOCOMO.exists():
        sys.exit(f"ranking_check.py: {bench.LOCOMO} is missing")
    for corpus in bench.load_locomo(bench.LOCOMO):
        for number, question in enumerate(corpus.questions):
            yield (f"locomo {corpus.name} {number}",
                   asked([corpus.state], question.text, now=corpus.last))


def coding() -> Iterator[tuple[str, Answer]]:
    sets = [(bench.DEV, [bench.DEV, bench.DEV.parent / "recall-dev-unrelated.json"]),
            (bench.DEV2, [bench.DEV2]), (bench.DEV3, [bench.DEV3]),
            (bench.CODING, [bench.CODING, bench.CODING_LONG])]
    for notes_path, prompt_paths in sets:
        scopes = recall_coding.scopes(json.loads(notes_path.read_text("utf-8")))
        for path in prompt_paths:
            for number, prompt in enumerate(json.loads(path.read_text("utf-8"))["prompts"]):
                yield (f"{path.name} {number}",
                       asked(scopes[prompt.get("project")].states, prompt["text"]))


def dated() -> Iterator[tuple[str, Answer]]:
    data = json.loads(bench.DATED.read_text("utf-8"))
    state = StoreState("project", Path("p-dated"), exists=True)
    for note in data["notes"]:
        meta = {key: note[key] for key in ("type", "title", "summary", "created", "updated")}
        bench.add_note(state, note["file"], render_new_note(meta, note["body"]))
    now = datetime.fromisoformat(data["now"].replace("Z", "+00:00")).astimezone(UTC)
    for number, prompt in enumerate(data["prompts"]):
        yield f"dated {number}", asked([state], prompt["text"], now=now)


def queries() -> list[str]:
    rng = random.Random("ranking-check")
    words = [*genstore.WORDS, *genstore.EXTRA_WORDS, "deployment", "retries", "cachd", "bakup"]
    out = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
           for _ in range(GENERATED_QUERIES)]
    return [*out, "what did we rotate in March 2026?", "what changed on 2026-03-05?",
            "project 17", "user 1234 deploy"]


def generated() -> Iterator[tuple[str, Answer]]:
    """The generated stores through an on-disk cache: built, updated, rebuilt."""
    now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        folders = [genstore.write_store(base / level, GENERATED_NOTES, level)
                   for level in ("project", "user")]

        def states() -> list[StoreState]:
            return [load_store(level, folder, bodies=False)
                    for level, folder in zip(("project", "user"), folders, strict=True)]

        read = states()
        built = [asked(read, q, base / "cache", now) for q in queries()]
        yield from ((f"generated built {n}", a) for n, a in enumerate(built))
        _change(folders[0])
        read = states()
        updated = [asked(read, q, base / "cache", now) for q in queries()]
        rebuilt = [asked(read, q, base / "fresh", now) for q in queries()]
        if updated != rebuilt:
            sys.exit("ranking_check.py: an updated cache answers otherwise than a rebuilt one")
        yield from ((f"generated updated {n}", a) for n, a in enumerate(updated))


def _change(folder: Path) -> None:
    """Edit 40 notes, remove 20 and add 20 (named like the others, new words)."""
    notes = sorted(p for p in folder.iterdir() if p.suffix == ".md" and p.name != "MEMORY.md")
    for path in notes[:40]:
        path.write_text(path.read_text("utf-8").replace("deploy", "rollout kubernetes"), "utf-8")
    for path in notes[40:60]:
        path.unlink()
    rng = random.Random("ranking-check-new")
    for number in range(20):
        name, text = genstore.note_text(rng, 90_000 + number, "project")
        (folder / name).write_text(text.replace("cache", "memoize"), "utf-8")


def collect() -> dict[str, Answer]:
    found: dict[str, Answer] = {}
    for part in (locomo, coding, dated, generated):
        found.update(part())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, help="write the answers to this file")
    group.add_argument("--against", type=Path, help="compare with answers written before")
    args = parser.parse_args()
    found = collect()
    if args.write:
        args.write.write_text(json.dumps(found, indent=0, sort_keys=True), "utf-8")
        print(f"{len(found)} searches written to {args.write}")
        return
    before = json.loads(args.against.read_text("utf-8"))
    differ = sorted(k for k in before.keys() | found.keys() if before.get(k) != found.get(k))
    for key in differ[:20]:
        print(f"{key}:\n  before {before.get(key)}\n  after  {found.get(key)}")
    print(f"{len(found)} searches, {len(differ)} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
