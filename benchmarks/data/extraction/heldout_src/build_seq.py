"""Builds heldout_sequences.jsonl from sequences.txt (one sequence a line).

Line format:  lang ¦ topic ¦ word,word ¦ expect ¦ stale-or-- ¦ T:turn ¦ N:turn ...
T: a turn about the topic, N: an unrelated turn. Checks that the expected word is in the
last turn about the topic and the topic words and stale word are in the turns.
"""

import collections
import json
import pathlib
from typing import Any

HERE = pathlib.Path(__file__).parent


def parse(ln: int, line: str, errs: list[str]) -> tuple[str, dict[str, Any]]:
    p = [x.strip() for x in line.split("¦")]
    lang, topic, words_spec, expect, stale = p[:5]
    words = [w.strip() for w in words_spec.split(",")]
    turns = []
    for t in p[5:]:
        if t:
            kind, text = t.split(":", 1)
            turns.append({"text": text.strip(), "topic": topic if kind == "T" else None})
    topical = [t["text"].lower() for t in turns if t["topic"]]
    alltext = " ".join(topical)
    if not 2 <= len(turns) <= 4:
        errs.append(f"{ln}: {len(turns)} turns")
    if expect.lower() not in topical[-1]:
        errs.append(f"{ln}: expect {expect!r} not in the last turn about the topic")
    if stale != "-" and stale.lower() not in alltext:
        errs.append(f"{ln}: stale {stale!r} not in the turns")
    for w in words:
        if w.lower() not in alltext:
            errs.append(f"{ln}: topic word {w!r} not in the turns")
    return lang, {"topics": {topic: words}, "turns": turns, "split": "heldout",
                  "source": "written (held-out)", "lang": lang, "expect": {topic: expect},
                  "stale": {topic: None if stale == "-" else stale}}


def main() -> None:
    out: list[dict[str, Any]] = []
    errs: list[str] = []
    n: collections.Counter[str] = collections.Counter()
    lines = (HERE / "sequences.txt").read_text(encoding="utf-8").splitlines()
    for ln, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        lang, seq = parse(ln, line, errs)
        n[lang] += 1
        out.append({"id": f"seq-heldout-{lang}-{n[lang]:02d}", **seq})
    for e in errs:
        print("ERR", e)
    print(len(out), dict(n))
    if not errs:
        with open(HERE.parent / "heldout_sequences.jsonl", "w", encoding="utf-8") as fh:
            for r in out:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
