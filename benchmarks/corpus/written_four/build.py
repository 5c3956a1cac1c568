"""Assemble and check the hand-written `written_four` training turns.

Each <lang>.txt holds turns written by hand, one a line:
    @ persona                       -> sets `source` for the lines that follow
    family¦text¦memories            -> memories: "" or spec;spec, spec = [lvl.type:]kw,kw
    S¦name¦expect¦stale             -> starts a sequence (stale "-" = none)
    T¦t|-¦text                      -> a turn of the current sequence (topic t or null)
Family and type short names are expanded below; a spec without lvl.type takes the family
default. "\\n" in text is a line break. Run: python3 benchmarks/corpus/written_four/build.py
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
DEFAULT = {"correction": "p.cf", "preference": "u.up", "reference": "p.rm"}
LVL = {"p": "project", "u": "user"}
TYP = {"pk": "project_knowledge", "up": "user_preference", "cf": "correction_feedback",
       "rm": "reference_material"}
LANGS = ["en", "es", "it", "pt", "zh", "ja", "ko"]


def fail(msg: str) -> None:
    sys.exit(f"error: {msg}")


def mems(family: str, spec: str, where: str) -> list:
    out = []
    for part in [s for s in spec.split(";") if s.strip()]:
        head = part.split(":", 1)[0]
        if ":" in part and head.count(".") == 1 and len(head) <= 4:
            lt, kws = part.split(":", 1)
        else:
            lt, kws = DEFAULT.get(family, "p.pk"), part
        lvl, typ = lt.split(".")
        keywords = [k.strip() for k in kws.split(",") if k.strip()]
        if lvl not in LVL or typ not in TYP or not keywords:
            fail(f"{where}: bad memory spec {part!r}")
        out.append({"level": LVL[lvl], "type": TYP[typ], "keywords": keywords})
    return out


def main() -> None:
    rows, seqs, texts, ids = [], [], set(), set()
    for lang in LANGS:
        src = HERE / f"{lang}.txt"
        if not src.exists():
            continue
        persona, n, seq = "", 0, None
        for i, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{lang}.txt:{i}"
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("@"):
                persona = line[1:].strip()
                continue
            parts = line.split("¦")
            if parts[0] == "S":
                name, expect, stale = parts[1:4]
                topics = [expect] if stale == "-" else [expect, stale]
                seq = {"id": f"seq-wf-{lang}-{name}", "topics": {"t": topics}, "turns": [],
                       "split": "written", "source": "written (training)", "lang": lang}
                seqs.append(seq)
                continue
            if parts[0] == "T":
                if seq is None:
                    fail(f"{where}: turn outside a sequence")
                seq["turns"].append({"text": parts[2].replace("\\n", "\n"),
                                     "topic": None if parts[1] == "-" else parts[1]})
                continue
            if len(parts) != 3:
                fail(f"{where}: expected family¦text¦memories, got {len(parts)} fields")
            fam = FAM.get(parts[0], parts[0])
            if fam not in FAM.values():
                fail(f"{where}: unknown family {parts[0]!r}")
            text = parts[1].replace("\\n", "\n").strip()
            m = mems(fam, parts[2], where)
            for problem in turn_problems(fam, text, m):
                fail(f"{where}: {problem}")
            if text in texts:
                fail(f"{where}: duplicate text")
            texts.add(text)
            n += 1
            rid = f"wf-{lang}-{n:04d}"
            ids.add(rid)
            rows.append({"id": rid, "split": "written", "lang": lang, "family": fam,
                         "source": f"written (training, {persona})", "text": text, "memories": m})
    for s in seqs:
        if len(s["turns"]) < 2 or len(s["turns"]) > 4:
            fail(f"{s['id']}: needs 2-4 turns")
        tt = [t["text"].lower() for t in s["turns"] if t["topic"] == "t"]
        for problem in topic_problems(s["topics"]["t"], tt):
            fail(f"{s['id']}: {problem}")
        if s["topics"]["t"][0].lower() not in tt[-1]:
            fail(f"{s['id']}: expect word not in the last topic turn")
        if len(s["topics"]["t"]) > 1 and s["topics"]["t"][1].lower() not in tt[0]:
            fail(f"{s['id']}: stale word not in the first topic turn")
    others = set()
    for name in ("written", "written_asia", "written_euro", "written_mix", "generated"):
        path = OUT / f"{name}.jsonl"
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                others.add(json.loads(line)["text"].strip().lower())
    same = [r["id"] for r in rows if r["text"].strip().lower() in others]
    if same:
        fail(f"text also in another training file: {same}")
    if len({s["id"] for s in seqs}) != len(seqs):
        fail("duplicate sequence id")
    with open(OUT / "written_four.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(OUT / "written_four_sequences.jsonl", "w", encoding="utf-8") as f:
        for s in seqs:
            f.write(json.dumps(s, ensure_ascii=False) + "\n")
    from collections import Counter
    by = Counter(r["lang"] for r in rows)
    none = Counter(r["lang"] for r in rows if r["family"].startswith("none_"))
    for lang in LANGS:
        print(f"{lang}: {by[lang]} turns, {none[lang]} nothing, "
              f"{sum(1 for s in seqs if s['lang'] == lang)} sequences")
    print("families:", dict(Counter(r["family"] for r in rows).most_common()))
    print(f"all: {len(rows)} turns, {sum(none.values())} nothing, {len(seqs)} sequences")


if __name__ == "__main__":
    main()
