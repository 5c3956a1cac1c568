"""Build and check the writer-seven training turns (written by hand, see TRAIN.md).

Source format, one turn a line in <lang>.txt:
    CODE ¦ text ¦ memories
CODE is a family code (FAMILIES below); memories are `;`-separated `xx:kw1,kw2`
with xx in pk/up/cf/rm (project_knowledge, user_preference, correction_feedback,
reference_material); `\\n` in a text is a newline. `@ persona` sets the source.
seq.txt: `== name lang` starts a sequence, `t: kw1,kw2` its topic words,
`> text` a turn on the topic, `- text` an unrelated turn.
Run: python3 benchmarks/corpus/written_seven/build.py
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/corpus
from rows import topic_problems, turn_problems

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "data" / "extraction" / "train"
LANGS = ["en", "ja", "ko", "de", "ru", "es"]
FAMILIES = {
    "E": "explicit", "P": "fact_in_passing", "C": "correction", "U": "update",
    "R": "reversal", "F": "preference", "T": "two_facts", "L": "reference",
    "q": "none_question", "o": "none_oneoff", "p": "none_paste", "t": "none_thanks",
    "u": "none_quote", "h": "none_hypothetical", "k": "none_thistask",
    "a": "none_assistant", "c": "none_complaint", "s": "none_smalltalk",
    "st": "none_status", "hn": "none_harness",
}
TYPES = {"pk": ("project", "project_knowledge"), "up": ("user", "user_preference"),
         "cf": ("project", "correction_feedback"), "rm": ("project", "reference_material")}


def fail(msg: str) -> None:
    sys.exit(f"error: {msg}")


def rows_for(lang: str) -> list[dict]:
    rows, persona, n = [], "mixed", 0
    for ln, line in enumerate((HERE / f"{lang}.txt").read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@"):
            persona = line[1:].strip()
            continue
        parts = [p.strip() for p in line.split("¦")]
        if len(parts) != 3:
            fail(f"{lang}.txt:{ln}: expected 3 fields, got {len(parts)}")
        code, text, mems = parts
        if code not in FAMILIES:
            fail(f"{lang}.txt:{ln}: family code {code!r}")
        fam = FAMILIES[code]
        text = text.replace("\\n", "\n")
        memories = []
        for m in filter(None, (x.strip() for x in mems.split(";"))):
            t, _, kws = m.partition(":")
            if t not in TYPES:
                fail(f"{lang}.txt:{ln}: type {t!r}")
            keywords = [k.strip() for k in kws.split(",") if k.strip()]
            level, typ = TYPES[t]
            memories.append({"level": level, "type": typ, "keywords": keywords})
        problems = turn_problems(fam, text, memories)
        if fam != "two_facts" and len(memories) == 2:
            problems.append("two memories outside two_facts")
        if problems:
            fail(f"{lang}.txt:{ln}: {'; '.join(problems)}")
        if fam == "preference" and any(m["type"] != "user_preference" for m in memories):
            fail(f"{lang}.txt:{ln}: preference must be user_preference")
        n += 1
        rows.append({"id": f"w7-{lang}-{n:04d}", "split": "written", "lang": lang, "family": fam,
                     "source": f"written (training, {persona})", "text": text,
                     "memories": memories})
    return rows


def seqs() -> list[dict]:
    out: list[dict] = []
    cur: dict | None = None
    for ln, line in enumerate((HERE / "seq.txt").read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("=="):
            name, lang = line[2:].split()
            cur = {"id": f"seq-w7-{lang}-{name}", "topics": {"t": []}, "turns": [],
                   "split": "written", "source": "written (training)", "lang": lang}
            out.append(cur)
        elif cur is None:
            fail(f"seq.txt:{ln}: line outside a sequence")
        elif line.startswith("t:"):
            cur["topics"]["t"] = [k.strip() for k in line[2:].split(",") if k.strip()]
        elif line[:2] in ("> ", "- "):
            text = line[2:].strip().replace("\\n", "\n")
            cur["turns"].append({"text": text, "topic": "t" if line[0] == ">" else None})
        else:
            fail(f"seq.txt:{ln}: cannot read {line!r}")
    for s in out:
        on = [t["text"] for t in s["turns"] if t["topic"]]
        problems = topic_problems(s["topics"]["t"], on)
        if not 2 <= len(s["turns"]) <= 4 or not s["topics"]["t"] or problems:
            fail(f"{s['id']}: needs 2-4 turns and topic words; {'; '.join(problems)}")
    return out


def main() -> None:
    rows: list[dict] = []
    for lang in LANGS:
        if (HERE / f"{lang}.txt").exists():
            rows += rows_for(lang)
    texts = [r["text"] for r in rows]
    if len(set(texts)) != len(texts):
        fail("duplicate text: " + next(t for t in texts if texts.count(t) > 1))
    # other training authors' files (never the held-out split): no text may repeat one of theirs
    seen: set[str] = set()
    for other in sorted(OUT.glob("*.jsonl")):
        if other.name.startswith("written_seven"):
            continue
        for line in other.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            seen.update(t["text"].strip().lower() for t in row.get("turns", []))
            if "text" in row:
                seen.add(row["text"].strip().lower())
    clash = [t for t in texts if t.strip().lower() in seen]
    if clash:
        fail(f"{len(clash)} texts repeat another training file, e.g. {clash[0]!r}")
    sq = seqs() if (HERE / "seq.txt").exists() else []
    ids = [s["id"] for s in sq]
    if len(set(ids)) != len(ids):
        fail("duplicate sequence id")
    with open(OUT / "written_seven.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(OUT / "written_seven_sequences.jsonl", "w", encoding="utf-8") as f:
        for s in sq:
            f.write(json.dumps(s, ensure_ascii=False) + "\n")
    from collections import Counter
    for lang in LANGS:
        lr = [r for r in rows if r["lang"] == lang]
        if lr:
            none = sum(not r["memories"] for r in lr)
            print(f"{lang}: {len(lr)} turns, {none} nothing ({100 * none // len(lr)} %), "
                  f"{sum(s['lang'] == lang for s in sq)} sequences")
    print(dict(Counter(r["family"] for r in rows)))


if __name__ == "__main__":
    main()
