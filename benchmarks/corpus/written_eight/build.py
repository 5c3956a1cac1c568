"""Assemble and check written_eight.jsonl from the hand-typed lines in this folder.

Each <lang>.txt line: `@ persona` sets the persona of the lines after it;
`fam | mems | text` for a turn holding something (mems: `pk:kw1,kw2;uu:kw`, first letter
p/u = project/user level, second k/u/c/r = project_knowledge/user_preference/
correction_feedback/reference_material); `fam | text` for a turn holding nothing.
`\\n` in a text is a newline. seq.txt: `= lang name | old,new` opens a sequence, then
`t | text` (a turn on the topic) or `- | text` (an unrelated turn); a blank line closes it.
Run: python3 benchmarks/corpus/written_eight/build.py  (writes both files, prints counts,
exits non-zero on any problem).
"""
import collections
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # benchmarks/corpus
from rows import LASTING, NONE, file_problems, holds, memories, turn_problems, write_files

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent.parent / "data" / "extraction" / "train"
NAME = "written_eight"
LANGS = ["en", "zh", "pt", "fr", "it", "ko", "ja"]
MINIMUM = {"en": 260, "zh": 200, "pt": 170, "fr": 170, "it": 170, "ko": 170, "ja": 120}
problems = []


def rows_of(lang):
    persona, out = None, []
    for n, raw in enumerate((HERE / f"{lang}.txt").read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{lang}.txt:{n}"
        if line.startswith("@"):
            persona = line[1:].strip()
            continue
        fam, _, rest = line.partition(" | ")
        fam = fam.strip()
        if fam in NONE:
            text, mems, family = rest, [], NONE[fam]
        elif fam in LASTING:
            spec, _, text = rest.partition(" | ")
            text = text.replace("\\n", "\n").strip()
            mems, bad = memories(spec)
            family = LASTING[fam]
            problems.extend(f"{where}: {p}" for p in bad)
            problems.extend(f"{where}: {p}" for p in turn_problems(family, text, mems))
            if family != "two_facts" and len(mems) != 1:
                problems.append(f"{where}: {family} with {len(mems)} memories")
        else:
            problems.append(f"{where}: unknown family {fam!r}")
            continue
        text = text.replace("\\n", "\n").strip()
        if not text or persona is None:
            problems.append(f"{where}: empty text or no persona")
            continue
        out.append({"id": f"w8-{lang}-{len(out) + 1:04d}", "split": "written", "lang": lang,
                    "family": family, "source": f"written (training, {persona})", "text": text,
                    "memories": mems})
    return out


def seqs():
    out, cur = [], None
    lines = [*(HERE / "seq.txt").read_text(encoding="utf-8").splitlines(), ""]
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        where = f"seq.txt:{n}"
        if line.startswith("#"):
            continue
        if not line:
            if cur:
                topical = [t for t in cur["turns"] if t["topic"]]
                old, new = cur["topics"]["t"][0], cur["topics"]["t"][-1]
                if len(cur["turns"]) < 2 or len(cur["turns"]) > 4 or len(topical) < 2:
                    problems.append(f"{cur['id']}: needs 2-4 turns, two on the topic")
                elif not holds(topical[0]["text"], old) or not holds(topical[-1]["text"], new):
                    problems.append(f"{cur['id']}: old/new value not in first/last turn")
                out.append(cur)
            cur = None
            continue
        if line.startswith("="):
            head, _, kws = line[1:].partition(" | ")
            lang, name = head.split()
            words = [k.strip() for k in kws.split(",")]
            cur = {"id": f"seq-w8-{lang}-{name}", "topics": {"t": words}, "turns": [],
                   "split": "written", "source": "written (training)", "lang": lang}
            continue
        mark, _, text = line.partition(" | ")
        if cur is None or mark not in ("t", "-"):
            problems.append(f"{where}: bad sequence line")
            continue
        cur["turns"].append({"text": text.replace("\\n", "\n").strip(),
                             "topic": "t" if mark == "t" else None})
    return out


def main():
    rows = []
    for lang in LANGS:
        if (HERE / f"{lang}.txt").exists():
            rows += rows_of(lang)
    sq = seqs() if (HERE / "seq.txt").exists() else []
    problems.extend(file_problems(rows, sq, NAME, OUT))
    write_files(OUT, NAME, rows, sq)
    by_lang = collections.Counter(r["lang"] for r in rows)
    empty = collections.Counter(r["lang"] for r in rows if not r["memories"])
    for lang in LANGS:
        n = by_lang[lang]
        share = empty[lang] / n if n else 0
        flag = "" if n >= MINIMUM[lang] else f" (< {MINIMUM[lang]})"
        print(f"{lang}: {n} turns, {empty[lang]} nothing ({share:.0%}){flag}, "
              f"{sum(1 for s in sq if s['lang'] == lang)} sequences")
    print("families:", dict(sorted(collections.Counter(r["family"] for r in rows).items())))
    print(f"total {len(rows)} turns, {len(sq)} sequences")
    for p in problems:
        print("PROBLEM", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
