"""Assemble and check written_ten.jsonl and written_ten_sequences.jsonl from the hand-typed
lines in this folder (the tenth author's turns: routing-hard near-twins).

<lang>.txt, one turn a line:
  `@ persona`            sets the persona (`source`) of the lines after it
  `fam | mems | text`    a turn holding something; mems `pk:kw1,kw2;uu:kw` -- first letter
                         p/u = project/user level, second k/u/c/r = project_knowledge/
                         user_preference/correction_feedback/reference_material
  `fam | text`           a turn holding nothing
  `\\n` in a text is a newline; `#` starts a comment line.
seq.txt: `= lang name | old,new` opens a sequence, `t | text` is a turn on the topic,
`- | text` an unrelated one, a blank line closes it.
Run: python3 benchmarks/corpus/written_ten/build.py  (writes both files byte for byte, prints
counts, exits non-zero on any problem). The held-out split is never read.
"""
import collections
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # benchmarks/corpus
from rows import (
    LASTING,
    NONE,
    file_problems,
    holds,
    memories,
    topic_problems,
    turn_problems,
    write_files,
)

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent.parent / "data" / "extraction" / "train"
NAME = "written_ten"
LANGS = ["en", "zh", "fr", "pt", "it", "ja", "ko", "es"]
MINIMUM = {"en": 200, "zh": 140, "fr": 120, "pt": 120, "it": 110, "ja": 110, "ko": 100, "es": 80}
problems: list[str] = []


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
            mems, bad = memories(spec)
            family = LASTING[fam]
            problems.extend(f"{where}: {p}" for p in bad)
            if family != "two_facts" and len(mems) != 1:
                problems.append(f"{where}: {family} with {len(mems)} memories")
        else:
            problems.append(f"{where}: unknown family {fam!r}")
            continue
        text = text.replace("\\n", "\n").strip()
        problems.extend(f"{where}: {p}" for p in turn_problems(family, text, mems))
        if not text or persona is None:
            problems.append(f"{where}: empty text or no persona")
            continue
        out.append({"id": f"w10-{lang}-{len(out) + 1:04d}", "split": "written", "lang": lang,
                    "family": family, "source": f"written (training, {persona})", "text": text,
                    "memories": mems})
    return out


def seqs():
    out, cur = [], None
    lines = [*(HERE / "seq.txt").read_text(encoding="utf-8").splitlines(), ""]
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if cur:
                topical = [t["text"] for t in cur["turns"] if t["topic"]]
                if not 2 <= len(cur["turns"]) <= 4:
                    problems.append(f"{cur['id']}: needs 2-4 turns")
                problems.extend(f"{cur['id']}: {p}"
                                for p in topic_problems(cur["topics"]["t"], topical))
                words = cur["topics"]["t"]
                if topical and not (holds(topical[0], words[0]) and holds(topical[-1], words[-1])):
                    problems.append(f"{cur['id']}: old word not in the first topic turn as the "
                                    "replay reads it, or new word not in the last")
                out.append(cur)
            cur = None
            continue
        if line.startswith("="):
            head, _, kws = line[1:].partition(" | ")
            lang, name = head.split()
            cur = {"id": f"seq-w10-{lang}-{name}",
                   "topics": {"t": [k.strip() for k in kws.split(",") if k.strip()]},
                   "turns": [], "split": "written", "source": "written (training)", "lang": lang}
            continue
        mark, _, text = line.partition(" | ")
        if cur is None or mark not in ("t", "-"):
            problems.append(f"seq.txt:{n}: bad sequence line")
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
        flag = "" if n >= MINIMUM[lang] else f" (< {MINIMUM[lang]})"
        print(f"{lang}: {n} turns, {empty[lang]} nothing ({empty[lang] / max(n, 1):.0%}){flag}, "
              f"{sum(1 for s in sq if s['lang'] == lang)} sequences")
    print("families:", dict(sorted(collections.Counter(r["family"] for r in rows).items())))
    mems = [m for r in rows for m in r["memories"]]
    print("types:", dict(sorted(collections.Counter(m["type"] for m in mems).items())),
          "levels:", dict(sorted(collections.Counter(m["level"] for m in mems).items())))
    print(f"total {len(rows)} turns ({sum(empty.values())} nothing), {len(sq)} sequences")
    for p in problems:
        print("PROBLEM", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
