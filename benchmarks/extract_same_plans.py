"""The plans `extract --provider rules` gives on a big store with odd spellings, as one
digest: run it before and after a change to the store reading or the matching, and the two
digests must be equal (issue 26 item 6; docs/performance.md, "Extraction on a big store").

    python benchmarks/extract_same_plans.py                 # prints the digest
    python benchmarks/extract_same_plans.py --out plans.jsonl   # and every plan, to diff

The store: `genstore` notes (3,000 a level) and, beside them, notes made from generated turns
in ten languages (benchmarks/make_train_corpus.py's templates, another seed), their titles
respelled the ways people and other tools write them: a long s, a Kelvin sign, a dotted
capital I, a zero-width space, upper case, doubled spaces, trailing dots, a Chinese title.
The turns: 150 generated turns a language (1,500), each read by the rules as `extract`
reads it, its operations then merged with the stored notes in all three `--on-conflict`
modes. The notes are read through `extract`'s own store view (the cache of note heads
included): twice, the second time from the cache, and the plans must not differ.
Nothing here is timed.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import genstore  # a sibling script
import make_train_corpus  # a sibling script: the generated turns' templates

LANGUAGES = ("en", "zh", "es", "pt", "de", "fr", "ja", "ko", "ru", "it")
TODAY = datetime.date(2026, 12, 7)
MODES = ("update", "fail", "rename")


def _respell(title: str, rng: random.Random) -> str:
    """TITLE as a person or another tool may have written it."""
    ways = [
        lambda t: t.replace("s", "\u017f", 1),  # long s: re.I matches it with "s"
        lambda t: t.replace("k", "\u212a", 1).replace("K", "\u212a", 1),  # Kelvin sign
        lambda t: t.replace("i", "\u0130", 1),  # dotted capital I
        lambda t: t.replace(" ", " \u200b", 1),  # zero-width space
        lambda t: t.upper(),
        lambda t: t.replace(" ", "  "),
        lambda t: t + "...",
        lambda t: t + "。",
        lambda t: "测试命令" if "test" in t.lower() else t + " 配置",
        lambda t: t,
    ]
    return rng.choice(ways)(title)


def _turn_notes(rng: random.Random) -> list[dict[str, str]]:
    """The creates of generated turns, their titles respelled: notes a store may hold."""
    from memcli.extraction.rules import extract_rules
    from memcli.messages import Message

    notes = []
    for lang in LANGUAGES:
        rows = make_train_corpus.turns_for(lang, random.Random(f"notes-{lang}"))[:60]
        for row in rows:
            for op in extract_rules([Message("user", row["text"])], [], today=TODAY):
                if op["action"] == "create":
                    notes.append({"level": op["level"], "type": op["type"],
                                  "title": _respell(op["title"], rng),
                                  "summary": op["summary"]})
    return notes


def write_store(root: Path) -> int:
    """The two stores under ROOT; the number of notes written."""
    rng = random.Random(2612)
    count = 0
    for level in ("project", "user"):
        genstore.write_store(root / level, 3000, level)
        count += 3000
    for number, note in enumerate(_turn_notes(rng)):
        text = ("---\n" + f"type: {note['type']}\n" + f"title: {json.dumps(note['title'])}\n"
                + f"summary: {json.dumps(note['summary'])}\n"
                + "updated: 2026-11-01T09:00:00Z\n---\n" + note["summary"] + "\n")
        name = f"{note['type']}_turn-note-{number}.md"
        (root / note["level"] / name).write_text(text, "utf-8")
        count += 1
    return count


def turns() -> list[str]:
    out = []
    for lang in LANGUAGES:
        rows = make_train_corpus.turns_for(lang, random.Random(f"turns-{lang}"))
        out += [row["text"] for row in rows[:150]]
    return out


def plans(root: Path, texts: list[str]) -> list[dict[str, Any]]:
    """For each turn: the rules' operations and, per mode, what the merge made of them."""
    from memcli.commands.extract_stores import KnownNotes, StoreView
    from memcli.extraction.dedupe import merge_near_duplicates
    from memcli.extraction.rules import extract_rules
    from memcli.messages import Message
    from memcli.settings.resolve import Flags, resolve

    env = {"MEMCLI_PROJECT_STORE": str(root / "project"),
           "MEMCLI_USER_STORE": str(root / "user"), "MEMCLI_HOME": str(root / "home"),
           "HOME": str(root / "home")}
    settings = resolve(Flags(), env, root)
    with StoreView(settings) as view:  # the stores' locks held while the notes are read
        known = KnownNotes(view)
        known.key_index()
    out = []
    for text in texts:
        ops = extract_rules([Message("user", text)], known, today=TODAY)
        row: dict[str, Any] = {"turn": text, "operations": ops}
        for mode in MODES:
            merged = merge_near_duplicates(ops, known, mode)
            row[mode] = {"operations": merged.operations, "refused": merged.refused,
                         "merged": [[m.level, m.title, m.near.filename, m.near.title,
                                     m.near.why, m.outcome, m.source] for m in merged.merged],
                         "sources": merged.sources}
        out.append(row)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write every plan here (JSON lines)")
    parser.add_argument("--turns", type=int, default=1500)
    args = parser.parse_args(argv)
    texts = turns()[:args.turns]
    with tempfile.TemporaryDirectory(prefix="memcli-same-plans-") as tmp:
        root = Path(tmp)
        count = write_store(root)
        first = plans(root, texts)
        second = plans(root, texts)  # every note's head from the cache now
    if first != second:
        print("the plans read through the cache differ from the first reading")
        return 1
    lines = [json.dumps(row, ensure_ascii=False, sort_keys=True) for row in first]
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", "utf-8")
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    updates = sum(op["action"] == "update" for row in first for op in row["update"]["operations"])
    merges = sum(len(row[mode]["merged"]) for row in first for mode in MODES)
    refusals = sum(len(row[mode]["refused"]) for row in first for mode in MODES)
    print(f"{len(texts)} turns, {count:,} notes: {updates} updates, {merges} merges, "
          f"{refusals} refusals; plans sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
