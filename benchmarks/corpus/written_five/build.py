"""Assemble and check the hand-written `written_five` training turns.

Each <lang>.txt holds turns typed by hand, one a line:
    @ persona                 -> sets `source` for the lines that follow
    family¦text¦memories      -> memories: "" or spec;spec with spec = type:kw,kw
                                 (type pk/up/cf/rm; up is user level, the others project)
    # ...                     -> a comment
seq.txt holds the sequences:
    S¦lang¦name¦new,old       -> starts a sequence (topic words; one word for a reversal)
    T¦t|-¦text                -> a turn of the current sequence (topic t or null)
"\\n" in a text is a line break. Run: python3 benchmarks/corpus/written_five/build.py
Writes train/written_five.jsonl and train/written_five_sequences.jsonl.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/corpus
from rows import topic_problems, turn_problems

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "data" / "extraction" / "train"
FAM = {"ex": "explicit", "fip": "fact_in_passing", "cor": "correction", "upd": "update",
       "rev": "reversal", "pref": "preference", "two": "two_facts", "ref": "reference",
       "q": "none_question", "one": "none_oneoff", "paste": "none_paste", "thx": "none_thanks",
       "quote": "none_quote", "hyp": "none_hypothetical", "task": "none_thistask",
       "asst": "none_assistant", "compl": "none_complaint", "small": "none_smalltalk",
       "stat": "none_status", "harn": "none_harness"}
TYP = {"pk": "project_knowledge", "up": "user_preference", "cf": "correction_feedback",
       "rm": "reference_material"}
LANGS = ["en", "zh", "ja", "ko", "ru", "de"]
OTHERS = ["written", "written_asia", "written_euro", "written_mix", "written_four", "generated"]


def fail(msg: str) -> None:
    sys.exit(f"written_five: {msg}")


def memories(spec: str, where: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for part in filter(None, (p.strip() for p in spec.split(";"))):
        typ, _, kws = part.partition(":")
        if typ not in TYP:
            fail(f"{where}: bad type {typ!r}")
        words = [k.strip() for k in kws.split(",") if k.strip()]
        if not words:
            fail(f"{where}: memory without keywords")
        out.append({"level": "user" if typ == "up" else "project", "type": TYP[typ],
                    "keywords": words})
    return out


def turns() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    seen: set[str] = set()
    for lang in LANGS:
        persona, n = "", 0
        for i, line in enumerate((HERE / f"{lang}.txt").read_text("utf-8").splitlines(), 1):
            where = f"{lang}.txt:{i}"
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("@"):
                persona = line[1:].strip()
                continue
            parts = line.split("¦")
            if len(parts) != 3:
                fail(f"{where}: want family¦text¦memories")
            fam, text, spec = parts[0].strip(), parts[1].replace("\\n", "\n").strip(), parts[2]
            if fam not in FAM:
                fail(f"{where}: bad family {fam!r}")
            family = FAM[fam]
            mems = memories(spec, where)
            for problem in turn_problems(family, text, mems):
                fail(f"{where}: {problem}")
            key = text.lower()
            if key in seen:
                fail(f"{where}: text repeated")
            seen.add(key)
            if not persona:
                fail(f"{where}: no persona yet")
            n += 1
            rows.append({"id": f"w5-{lang}-{n:04d}", "split": "written", "lang": lang,
                         "family": family, "source": f"written (training, {persona})",
                         "text": text, "memories": mems})
    return rows


def sequences() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    cur: dict[str, object] | None = None
    for i, line in enumerate((HERE / "seq.txt").read_text("utf-8").splitlines(), 1):
        where = f"seq.txt:{i}"
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("¦")
        if parts[0] == "S" and len(parts) == 4:
            cur = {"id": f"seq-w5-{parts[1]}-{parts[2]}",
                   "topics": {"t": [w.strip() for w in parts[3].split(",")]},
                   "turns": [], "split": "written", "source": "written (training)",
                   "lang": parts[1]}
            if parts[1] not in LANGS:
                fail(f"{where}: bad lang")
            out.append(cur)
        elif parts[0] == "T" and len(parts) == 3 and cur is not None:
            topic = None if parts[1] == "-" else parts[1]
            cur["turns"].append({"text": parts[2].replace("\\n", "\n").strip(),  # type: ignore[attr-defined]
                                 "topic": topic})
        else:
            fail(f"{where}: bad line")
    ids = set()
    for s in out:
        ts = s["turns"]
        if not 2 <= len(ts) <= 4:  # type: ignore[arg-type]
            fail(f"{s['id']}: {len(ts)} turns")  # type: ignore[arg-type]
        if s["id"] in ids:
            fail(f"{s['id']}: repeated id")
        ids.add(s["id"])
        topical = [t["text"].lower() for t in ts if t["topic"]]  # type: ignore[union-attr,index]
        for problem in topic_problems(s["topics"]["t"], topical):  # type: ignore[index]
            fail(f"{s['id']}: {problem}")
        new = s["topics"]["t"][0].lower()  # type: ignore[index]
        if new not in topical[-1]:
            fail(f"{s['id']}: {new!r} not in the last topic turn")
    return out


def main() -> None:
    rows = turns()
    seqs = sequences()
    others = set()
    for name in OTHERS:
        p = OUT / f"{name}.jsonl"
        if p.exists():
            others |= {json.loads(x)["text"].lower()
                       for x in p.read_text("utf-8").splitlines() if x}
    dup = [(r["id"], r["text"]) for r in rows if str(r["text"]).lower() in others]
    if dup:
        fail(f"texts already in another training file: {dup[:10]}")
    with open(OUT / "written_five.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(OUT / "written_five_sequences.jsonl", "w", encoding="utf-8") as f:
        for s in seqs:
            f.write(json.dumps(s, ensure_ascii=False) + "\n")
    from collections import Counter
    by = Counter(str(r["lang"]) for r in rows)
    none = Counter(str(r["lang"]) for r in rows if not r["memories"])
    for lang in LANGS:
        print(f"{lang}: {by[lang]} turns, {none[lang]} hold nothing, "
              f"{sum(1 for s in seqs if s['lang'] == lang)} sequences")
    print(f"all: {len(rows)} turns, {sum(none.values())} hold nothing "
          f"({100 * sum(none.values()) / max(1, len(rows)):.1f} %), {len(seqs)} sequences")
    print("families:", dict(Counter(str(r["family"]) for r in rows).most_common()))


if __name__ == "__main__":
    main()
