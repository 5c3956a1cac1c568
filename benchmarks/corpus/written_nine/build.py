"""Assemble and check written_nine.jsonl and written_nine_sequences.jsonl from the hand-typed
lines in this folder.

<lang>.txt: `@ persona` sets the persona (`source`) of the turns after it. A turn is one line:
`fam ~~ text` for a turn holding nothing, `fam ~~ text ~~ mems` for one holding something,
where mems are `;`-separated `XY:kw1,kw2` with X the level (p project, u user) and Y the type
(k project_knowledge, u user_preference, c correction_feedback, r reference_material).
`\\n` in a text is a line break. Lines starting with `#` are comments.
seq.txt: `== lang name ~~ old,new` opens a sequence (and closes the one before), `t ~~ text`
is a turn on its topic, `- ~~ text` an unrelated one (`topic: null`); a reversal names one word.
Run: python3 benchmarks/corpus/written_nine/build.py  (writes both files, prints the counts,
exits non-zero on any problem). The script only parses and checks: every line was typed by hand.
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
NAME = "written_nine"
LANGS = ["en", "zh", "es", "de", "ru", "ko", "ja"]
MINIMUM = {"en": 200, "zh": 140, "es": 120, "de": 120, "ru": 120, "ko": 110, "ja": 100}
SEP = " ~~ "
problems: list[str] = []


def turns(lang):
    persona, out = None, []
    lines = (HERE / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        where = f"{lang}.txt:{n}"
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            persona = line[1:].strip()
            continue
        parts = line.split(SEP)
        fam = parts[0].strip()
        if fam in NONE and len(parts) == 2:
            family, mems = NONE[fam], []
        elif fam in LASTING and len(parts) == 3:
            (mems, bad), family = memories(parts[2]), LASTING[fam]
            problems.extend(f"{where}: {p}" for p in bad)
            if family != "two_facts" and len(mems) != 1:
                problems.append(f"{where}: {family} with {len(mems)} memories")
        else:
            problems.append(f"{where}: bad line (family {fam!r}, {len(parts)} fields)")
            continue
        text = parts[1].replace("\\n", "\n").strip()
        if not text or persona is None:
            problems.append(f"{where}: empty text or no persona")
            continue
        problems.extend(f"{where}: {p}" for p in turn_problems(family, text, mems))
        out.append({"id": f"w9-{lang}-{len(out) + 1:04d}", "split": "written", "lang": lang,
                    "family": family, "source": f"written (training, {persona})", "text": text,
                    "memories": mems})
    return out


def close(cur, out):
    """Check a finished sequence and keep it."""
    topical = [t["text"] for t in cur["turns"] if t["topic"]]
    words = cur["topics"]["t"]
    problems.extend(f"{cur['id']}: {p}" for p in topic_problems(words, topical))
    if not 2 <= len(cur["turns"]) <= 4:
        problems.append(f"{cur['id']}: needs 2-4 turns")
    elif topical and (not holds(topical[0], words[0]) or not holds(topical[-1], words[-1])):
        problems.append(f"{cur['id']}: old/new word not found in first/last topic turn")
    out.append(cur)


def sequences():
    out, cur = [], None
    lines = (HERE / "seq.txt").read_text(encoding="utf-8").splitlines()
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("=="):
            if cur:
                close(cur, out)
            head, _, kws = line[2:].partition(SEP)
            lang, name = head.split()
            cur = {"id": f"seq-w9-{lang}-{name}",
                   "topics": {"t": [k.strip() for k in kws.split(",")]},
                   "turns": [], "split": "written", "source": "written (training)", "lang": lang}
            continue
        mark, _, text = line.partition(SEP)
        if cur is None or mark not in ("t", "-") or not text.strip():
            problems.append(f"seq.txt:{n}: bad sequence line")
            continue
        cur["turns"].append({"text": text.replace("\\n", "\n").strip(),
                             "topic": "t" if mark == "t" else None})
    if cur:
        close(cur, out)
    return out


def main():
    rows = [r for lang in LANGS if (HERE / f"{lang}.txt").exists() for r in turns(lang)]
    sq = sequences() if (HERE / "seq.txt").exists() else []
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
    print("types:", dict(collections.Counter(m["type"] for m in mems)),
          "levels:", dict(collections.Counter(m["level"] for m in mems)))
    print(f"total {len(rows)} turns ({sum(empty.values())} nothing), {len(sq)} sequences, "
          f"{sum(1 for r in rows if chr(10) in r['text'])} multi-line, "
          f"{len({r['source'] for r in rows})} personas")
    for p in problems:
        print("PROBLEM", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
