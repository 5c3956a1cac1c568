"""Assemble and check the hand-written Asian-language training turns (issue 26).

Sources: <lang>.txt, one hand-written turn a line, `family¦text¦memories`
(memories `level.type:kw1,kw2` joined by `;`, `\\n` in a text is a line break), lines
`@ persona` set the persona of the lines below; seq.txt holds the sequences
(`== lang name words,of,topic` then `t¦text` or `-¦text`). Writes
data/extraction/train/written_asia.jsonl and written_asia_sequences.jsonl and checks
them: valid JSON, unique ids and texts, families, levels and types valid, every keyword
a case-insensitive substring of its text, none-families hold nothing, two_facts two.

    python3 benchmarks/corpus/written_asia/build.py
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/corpus
from rows import turn_problems

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "data" / "extraction" / "train"
LANGS = ("ja", "ko", "zh", "en")
FAM = {
    "ex": "explicit", "fip": "fact_in_passing", "cor": "correction", "upd": "update",
    "rev": "reversal", "pref": "preference", "two": "two_facts", "ref": "reference",
    "nq": "none_question", "no": "none_oneoff", "np": "none_paste", "nt": "none_thanks",
    "nquo": "none_quote", "nh": "none_hypothetical", "nth": "none_thistask",
    "na": "none_assistant", "nc": "none_complaint", "ns": "none_smalltalk",
    "nst": "none_status", "nhar": "none_harness",
}
LEVEL = {"u": "user", "p": "project"}
TYPE = {"pk": "project_knowledge", "up": "user_preference", "cf": "correction_feedback",
        "rm": "reference_material"}


def memories(spec: str, where: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for part in filter(None, (p.strip() for p in spec.split(";"))):
        head, _, kws = part.partition(":")
        lv, _, ty = head.partition(".")
        if lv not in LEVEL or ty not in TYPE or not kws.strip():
            sys.exit(f"{where}: bad memory {part!r}")
        out.append({"level": LEVEL[lv], "type": TYPE[ty],
                    "keywords": [k.strip() for k in kws.split(",") if k.strip()]})
    return out


def turns(lang: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    persona = ""
    for n, line in enumerate((HERE / f"{lang}.txt").read_text(encoding="utf-8").splitlines(), 1):
        where = f"{lang}.txt:{n}"
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@"):
            persona = line[1:].strip()
            continue
        parts = line.split("¦")
        if len(parts) != 3 or parts[0] not in FAM or not persona:
            sys.exit(f"{where}: bad line")
        fam = FAM[parts[0]]
        text = parts[1].strip().replace("\\n", "\n")
        mems = memories(parts[2], where)
        for problem in turn_problems(fam, text, mems):
            sys.exit(f"{where}: {problem}")
        rows.append({"id": f"wa-{lang}-{len(rows) + 1:04d}", "split": "written", "lang": lang,
                     "family": fam, "source": f"written (training, {persona})",
                     "text": text, "memories": mems})
    return rows


def sequences() -> list[dict[str, object]]:
    seqs: list[dict[str, object]] = []
    path = HERE / "seq.txt"
    if not path.exists():
        return seqs
    cur: dict[str, object] | None = None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("=="):
            lang, name, words = line[2:].split(None, 2)
            cur = {"id": f"seq-wa-{lang}-{name}",
                   "topics": {"t": [w.strip() for w in words.split(",")]},
                   "turns": [], "split": "written", "source": "written (training)", "lang": lang}
            seqs.append(cur)
            continue
        tag, _, text = line.partition("¦")
        if cur is None or tag not in ("t", "-") or not text.strip():
            sys.exit(f"seq.txt:{n}: bad line")
        cur["turns"].append({"text": text.strip().replace("\\n", "\n"),  # type: ignore[union-attr]
                             "topic": "t" if tag == "t" else None})
    for s in seqs:
        ts = s["turns"]
        if not 2 <= len(ts) <= 4 or sum(t["topic"] == "t" for t in ts) < 2:  # type: ignore
            sys.exit(f"{s['id']}: needs 2-4 turns, two on the topic")
        said = " ".join(t["text"].lower() for t in ts)  # type: ignore
        for w in s["topics"]["t"]:  # type: ignore[index]
            if w.lower() not in said:
                sys.exit(f"{s['id']}: topic word {w!r} not said")
    return seqs


def main() -> None:
    rows = [r for lang in LANGS if (HERE / f"{lang}.txt").exists() for r in turns(lang)]
    for key in ("id", "text"):
        dup = [k for k, c in Counter(str(r[key]) for r in rows).items() if c > 1]
        if dup:
            sys.exit(f"duplicate {key}: {dup[:3]}")
    seqs = sequences()
    dup = [k for k, c in Counter(str(s["id"]) for s in seqs).items() if c > 1]
    if dup:
        sys.exit(f"duplicate sequence id: {dup}")
    with open(OUT / "written_asia.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(OUT / "written_asia_sequences.jsonl", "w", encoding="utf-8") as f:
        for s in seqs:
            f.write(json.dumps(s, ensure_ascii=False) + "\n")
    for line in (OUT / "written_asia.jsonl").read_text(encoding="utf-8").splitlines():
        json.loads(line)
    for lang in LANGS:
        mine = [r for r in rows if r["lang"] == lang]
        if mine:
            none = sum(str(r["family"]).startswith("none_") for r in mine)
            fams = Counter(str(r["family"]) for r in mine)
            print(f"{lang}: {len(mine)} turns, {none} hold nothing ({none / len(mine):.0%}), "
                  f"sequences {sum(s['lang'] == lang for s in seqs)}")
            print("   " + ", ".join(f"{k} {v}" for k, v in sorted(fams.items())))
    print(f"all: {len(rows)} turns, {len(seqs)} sequences")


if __name__ == "__main__":
    main()
