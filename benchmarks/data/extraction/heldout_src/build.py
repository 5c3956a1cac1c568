"""Builds heldout.jsonl from the per-language source files (one turn a line).

Line format:  family¦text¦memory¦memory...   memory = u|p . pref|corr|know|ref : kw1;kw2
A line "# persona: X" sets the persona of the lines below it; a literal \\n in a text is a
line break. Checks every line, prints the counts, and with --write writes the split when
nothing is wrong.
"""

import collections
import json
import pathlib
import sys
from typing import Any

HERE = pathlib.Path(__file__).parent
FAM = {
    "pref": "preference", "corr": "correction", "upd": "update", "rev": "reversal",
    "pass": "fact_in_passing", "two": "two_facts", "expl": "explicit", "ref": "reference",
    "nq": "none_question", "no": "none_oneoff", "np": "none_paste", "nt": "none_thanks",
    "na": "none_assistant", "nh": "none_hypothetical", "nquo": "none_quote",
    "ntask": "none_thistask",
}
TYP = {"pref": "user_preference", "corr": "correction_feedback",
       "know": "project_knowledge", "ref": "reference_material"}
LV = {"u": "user", "p": "project"}


def parse_memory(spec: str, text: str, where: str, errs: list[str]) -> dict[str, Any]:
    head, kws = spec.split(":", 1)
    lv, ty = head.split(".")
    keywords = [k.strip() for k in kws.split(";") if k.strip()]
    for k in keywords:
        if k.lower() not in text.lower():
            errs.append(f"{where} keyword {k!r} not in text")
    return {"level": LV[lv], "type": TYP[ty], "keywords": keywords}


def build(errs: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    sources = sorted(p for p in HERE.glob("*.txt") if p.stem != "sequences")
    for f in sources:
        lang, persona, n = f.stem, None, 0
        for ln, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{f.name}:{ln}"
            if not line.strip():
                continue
            if line.startswith("# persona:"):
                persona = line.split(":", 1)[1].strip()
                continue
            if line.startswith("#"):
                continue
            parts = line.split("¦")
            fam, text = parts[0].strip(), parts[1].strip().replace("\\n", "\n")
            if fam not in FAM:
                errs.append(f"{where} family {fam}")
                continue
            memories = [parse_memory(m.strip(), text, where, errs)
                        for m in parts[2:] if m.strip()]
            family = FAM[fam]
            if family.startswith("none") and memories:
                errs.append(f"{where} a none family with memories")
            if not family.startswith("none") and not memories:
                errs.append(f"{where} no memories for {family}")
            if family == "two_facts" and len(memories) < 2:
                errs.append(f"{where} two_facts with fewer than two")
            n += 1
            out.append({"id": f"heldout-{lang}-{n:04d}", "split": "heldout", "lang": lang,
                        "family": family, "source": f"written (held-out, {persona})",
                        "text": text, "memories": memories})
    for text, count in collections.Counter(r["text"] for r in out).items():
        if count > 1:
            errs.append(f"duplicate text: {text[:60]}")
    return out


def main() -> None:
    errs: list[str] = []
    out = build(errs)
    for e in errs:
        print("ERR", e)
    by = collections.Counter(r["lang"] for r in out)
    none = collections.Counter(r["lang"] for r in out if not r["memories"])
    for lang in sorted(by):
        print(f"{lang}: {by[lang]} turns, none {none[lang]} ({none[lang] / by[lang]:.0%})")
    print("total", len(out), "none share", f"{sum(none.values()) / len(out):.1%}")
    print(collections.Counter(r["family"] for r in out).most_common())
    if "--write" in sys.argv and not errs:
        with open(HERE.parent / "heldout.jsonl", "w", encoding="utf-8") as fh:
            for r in out:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        print("written")


if __name__ == "__main__":
    main()
