"""Assemble and check the written_mix training turns (hand-written, see TRAIN.md).

Sources: <lang>.txt, one turn a line `family¦text¦mems` (mems: `pk:kw,kw;up:kw`, empty for
none-families; a literal \\n in text is a line break); a line `@ <persona>` sets the persona
of the lines after it. seq.txt: `= <lang> <name> <topic words, comma>` then turns `text¦t` or
`text¦-`. Writes train/written_mix.jsonl and train/written_mix_sequences.jsonl; exits non-zero
on any problem (duplicate id or text, bad family/type, keyword not in its text, none-family
holding a memory, two_facts not holding two).
Run: python3 benchmarks/corpus/written_mix/build.py
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/corpus
from rows import topic_problems, turn_problems

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "data" / "extraction" / "train"
LANGS = ["en", "zh", "ja", "ko", "es", "pt", "de", "fr", "ru", "it"]
LASTING = {
    "explicit",
    "fact_in_passing",
    "correction",
    "update",
    "reversal",
    "preference",
    "two_facts",
    "reference",
}
NONE = {
    "none_question",
    "none_oneoff",
    "none_paste",
    "none_thanks",
    "none_quote",
    "none_hypothetical",
    "none_thistask",
    "none_assistant",
    "none_complaint",
    "none_smalltalk",
    "none_status",
    "none_harness",
}
CODES = {
    "pk": ("project", "project_knowledge"),
    "up": ("user", "user_preference"),
    "cf": ("project", "correction_feedback"),
    "rm": ("project", "reference_material"),
}


def fail(msg: str) -> None:
    sys.exit(f"written_mix: {msg}")


def turns() -> list[dict]:
    rows, texts = [], set()
    for lang in LANGS:
        src = HERE / f"{lang}.txt"
        if not src.exists():
            continue
        persona, n = "", 0
        for ln, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("@ "):
                persona = line[2:].strip()
                continue
            parts = line.split("¦")
            if len(parts) != 3:
                fail(f"{src.name}:{ln}: want 3 fields, got {len(parts)}")
            fam, mems = parts[0].strip(), parts[2].strip()
            text = parts[1].strip().replace("\\n", "\n")
            if fam not in LASTING | NONE:
                fail(f"{src.name}:{ln}: bad family {fam}")
            if text.lower() in texts:
                fail(f"{src.name}:{ln}: duplicate text")
            texts.add(text.lower())
            memories = []
            for m in filter(None, mems.split(";")):
                code, _, kws = m.partition(":")
                if code.strip() not in CODES:
                    fail(f"{src.name}:{ln}: bad code {code}")
                kw = [k.strip() for k in kws.split(",") if k.strip()]
                level, typ = CODES[code.strip()]
                memories.append({"level": level, "type": typ, "keywords": kw})
            for problem in turn_problems(fam, text, memories):
                fail(f"{src.name}:{ln}: {problem}")
            if not persona:
                fail(f"{src.name}:{ln}: no persona set")
            n += 1
            rows.append(
                {
                    "id": f"wm-{lang}-{n:04d}",
                    "split": "written",
                    "lang": lang,
                    "family": fam,
                    "source": f"written (training, {persona})",
                    "text": text,
                    "memories": memories,
                }
            )
    return rows


def sequences() -> list[dict]:
    src = HERE / "seq.txt"
    if not src.exists():
        return []
    seqs: list[dict] = []
    for ln, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("= "):
            lang, name, words = line[2:].split(" ", 2)
            if lang not in LANGS:
                fail(f"seq.txt:{ln}: bad lang")
            seqs.append(
                {
                    "id": f"seq-wm-{lang}-{name}",
                    "topics": {"t": [w.strip() for w in words.split(",")]},
                    "turns": [],
                    "split": "written",
                    "source": "written (training)",
                    "lang": lang,
                }
            )
            continue
        text, _, topic = line.rpartition("¦")
        seqs[-1]["turns"].append(
            {
                "text": text.strip().replace("\\n", "\n"),
                "topic": "t" if topic.strip() == "t" else None,
            }
        )
    ids = [s["id"] for s in seqs]
    if len(ids) != len(set(ids)):
        fail("duplicate sequence id")
    for s in seqs:
        if not 2 <= len(s["turns"]) <= 4:
            fail(f"{s['id']}: 2-4 turns")
        t = [x["text"] for x in s["turns"] if x["topic"] == "t"]
        for problem in topic_problems(s["topics"]["t"], t):
            fail(f"{s['id']}: {problem}")
    return seqs


def main() -> None:
    rows, seqs = turns(), sequences()
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        fail("duplicate id")
    with open(OUT / "written_mix.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(OUT / "written_mix_sequences.jsonl", "w", encoding="utf-8") as f:
        for s in seqs:
            f.write(json.dumps(s, ensure_ascii=False) + "\n")
    by: dict[str, list[int]] = {}
    for r in rows:
        c = by.setdefault(r["lang"], [0, 0])
        c[0] += 1
        c[1] += not r["memories"]
    for lang, (n, z) in by.items():
        print(f"{lang}: {n} turns, {z} hold nothing ({z / n:.0%})")
    print(
        f"all: {len(rows)} turns, {sum(1 for r in rows if not r['memories'])} nothing; "
        f"{len(seqs)} sequences"
    )


if __name__ == "__main__":
    main()
