"""Assemble and check the hand-written European-language training turns (writer-euro).

Each `<lang>.txt` holds turns written one a line by hand, in a compact form:

    @ persona                         (applies to the lines below it)
    family ¦ text ¦ memories          (\\n in text is a line break)

memories: `;`-separated, each `[type:]kw1,kw2` (`\\,` is a comma inside a key word) with
type pk (project_knowledge), up (user_preference, user level), cf (correction_feedback),
rm (reference_material); without a type the family decides (preference -> up,
correction -> cf, reference -> rm, else pk).
`sequences.txt`: `= <lang> <name> ¦ topic words` starts a sequence, then `t ¦ text` (a turn
on the topic) or `- ¦ text` (an unrelated turn). This script only checks and assembles;
every line was written by hand.

    python3 benchmarks/corpus/written_euro/build.py          # check, write both jsonl files
    python3 benchmarks/corpus/written_euro/build.py --check  # check only
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/corpus
from rows import topic_problems, turn_problems

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "data" / "extraction" / "train"
LANGS = ["es", "pt", "de", "fr", "ru", "it", "en"]
LASTING = {"explicit", "fact_in_passing", "correction", "update", "reversal", "preference",
           "two_facts", "reference"}
NOTHING = {"none_question", "none_oneoff", "none_paste", "none_thanks", "none_quote",
           "none_hypothetical", "none_thistask", "none_assistant", "none_complaint",
           "none_smalltalk", "none_status", "none_harness"}
TYPES = {"pk": "project_knowledge", "up": "user_preference", "cf": "correction_feedback",
         "rm": "reference_material"}
DEFAULT = {"preference": "up", "correction": "cf", "reference": "rm"}


def fail(where: str, msg: str) -> None:
    sys.exit(f"{where}: {msg}")


def parse_turns(lang: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    persona = ""
    path = HERE / f"{lang}.txt"
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path.name}:{n}"
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@"):
            persona = line[1:].strip()
            continue
        parts = [p.strip() for p in line.split("¦")]
        if len(parts) != 3:
            fail(where, f"expected 3 fields, got {len(parts)}")
        family, text, mems = parts
        text = text.replace("\\n", "\n")
        if family not in LASTING | NOTHING:
            fail(where, f"unknown family {family!r}")
        if not persona:
            fail(where, "no persona yet")
        memories = []
        for mem in filter(None, (m.strip() for m in mems.split(";"))):
            code, kws = (mem[:2], mem[3:]) if mem[:3] in {f"{t}:" for t in TYPES} else ("", mem)
            code = code or DEFAULT.get(family, "pk")
            if code not in TYPES:
                fail(where, f"unknown type {code!r}")
            keywords = [k.strip().replace("\\,", ",") for k in re.split(r"(?<!\\),", kws)
                        if k.strip()]
            memories.append({"level": "user" if code == "up" else "project",
                             "type": TYPES[code], "keywords": keywords})
        for problem in turn_problems(family, text, memories):
            fail(where, problem)
        if family != "two_facts" and len(memories) > 1:
            fail(where, "more than one memory outside two_facts")
        rows.append({"id": f"we-{lang}-{len(rows) + 1:04d}", "split": "written", "lang": lang,
                     "family": family, "source": f"written (training, {persona})",
                     "text": text, "memories": memories})
    return rows


def parse_sequences() -> list[dict[str, object]]:
    seqs: list[dict[str, object]] = []
    path = HERE / "sequences.txt"
    if not path.exists():
        return seqs
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path.name}:{n}"
        if not line.strip() or line.startswith("#"):
            continue
        head, _, rest = (p.strip() for p in line.partition("¦"))
        if head.startswith("="):
            lang, name = head[1:].split()
            if lang not in LANGS:
                fail(where, f"unknown language {lang}")
            words = [w.strip() for w in rest.split(",") if w.strip()]
            seqs.append({"id": f"seq-we-{lang}-{name}", "topics": {"t": words}, "turns": [],
                         "split": "written", "source": "written (training, writer-euro)",
                         "lang": lang})
        elif head in ("t", "-") and seqs:
            seqs[-1]["turns"].append({"text": rest.replace("\\n", "\n"),  # type: ignore[attr-defined]
                                      "topic": "t" if head == "t" else None})
        else:
            fail(where, "bad line")
    for s in seqs:
        turns = s["turns"]
        assert isinstance(turns, list)
        if not 2 <= len(turns) <= 4:
            fail(str(s["id"]), f"{len(turns)} turns")
        on = [t["text"] for t in turns if t["topic"]]
        for problem in topic_problems(s["topics"]["t"], on):  # type: ignore[index]
            fail(str(s["id"]), problem)
    return seqs


def main() -> None:
    rows = [r for lang in LANGS if (HERE / f"{lang}.txt").exists() for r in parse_turns(lang)]
    seqs = parse_sequences()
    seen: dict[str, str] = {}
    for r in rows:
        key = " ".join(str(r["text"]).casefold().split())
        if key in seen:
            fail(str(r["id"]), f"same text as {seen[key]}")
        seen[key] = str(r["id"])
    if len({s["id"] for s in seqs}) != len(seqs):
        fail("sequences", "duplicate id")
    by_lang = collections.Counter(str(r["lang"]) for r in rows)
    none_lang = collections.Counter(str(r["lang"]) for r in rows if not r["memories"])
    for lang in LANGS:
        if by_lang[lang]:
            print(f"{lang}: {by_lang[lang]} turns, {none_lang[lang]} nothing "
                  f"({none_lang[lang] / by_lang[lang]:.0%}), "
                  f"{sum(1 for s in seqs if s['lang'] == lang)} sequences")
    fam = collections.Counter(str(r["family"]) for r in rows)
    print("families:", ", ".join(f"{k} {v}" for k, v in sorted(fam.items())))
    print(f"all: {len(rows)} turns, {sum(none_lang.values())} nothing, {len(seqs)} sequences")
    if "--check" not in sys.argv:
        with open(OUT / "written_euro.jsonl", "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        with open(OUT / "written_euro_sequences.jsonl", "w", encoding="utf-8") as f:
            f.writelines(json.dumps(s, ensure_ascii=False) + "\n" for s in seqs)


if __name__ == "__main__":
    main()
