"""Builds heldout.jsonl from the per-language source files (one turn a line).

Line format:  family¦text¦memory¦memory...   memory = u|p . pref|corr|know|ref : kw1;kw2
A line "# persona: X" sets the persona of the lines below it.
"""
import json, sys, pathlib, collections
HERE = pathlib.Path(__file__).parent
FAM = {"pref":"preference","corr":"correction","upd":"update","rev":"reversal","pass":"fact_in_passing",
       "two":"two_facts","expl":"explicit","ref":"reference","nq":"none_question","no":"none_oneoff",
       "np":"none_paste","nt":"none_thanks","na":"none_assistant","nh":"none_hypothetical",
       "nquo":"none_quote","ntask":"none_thistask"}
TYP = {"pref":"user_preference","corr":"correction_feedback","know":"project_knowledge","ref":"reference_material"}
LV = {"u":"user","p":"project"}
out = []; errs = []
for f in sorted(p for p in HERE.glob("*.txt") if p.stem != "sequences"):
    lang = f.stem; persona = None; n = 0
    for ln, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip(): continue
        if line.startswith("# persona:"): persona = line.split(":",1)[1].strip(); continue
        if line.startswith("#"): continue
        parts = line.split("¦")
        fam, text, mems = parts[0].strip(), parts[1].strip().replace("\\n", "\n"), parts[2:]
        if fam not in FAM: errs.append(f"{f.name}:{ln} family {fam}"); continue
        memories = []
        for m in mems:
            m = m.strip()
            if not m: continue
            head, kws = m.split(":",1)
            lv, ty = head.split(".")
            kw = [k.strip() for k in kws.split(";") if k.strip()]
            for k in kw:
                if k.lower() not in text.lower(): errs.append(f"{f.name}:{ln} kw {k!r} not in text")
            memories.append({"level":LV[lv],"type":TYP[ty],"keywords":kw})
        fn = FAM[fam]
        if fn.startswith("none") and memories: errs.append(f"{f.name}:{ln} none family with memories")
        if not fn.startswith("none") and not memories: errs.append(f"{f.name}:{ln} no memories for {fn}")
        if fn == "two_facts" and len(memories) < 2: errs.append(f"{f.name}:{ln} two_facts with <2")
        n += 1
        out.append({"id":f"heldout-{lang}-{n:04d}","split":"heldout","lang":lang,"family":fn,
                    "source":f"written (held-out, {persona})","text":text,"memories":memories})
texts = collections.Counter(r["text"] for r in out)
for t,c in texts.items():
    if c>1: errs.append(f"duplicate text: {t[:60]}")
for e in errs: print("ERR", e)
by = collections.Counter(r["lang"] for r in out)
none = collections.Counter(r["lang"] for r in out if not r["memories"])
for l in sorted(by): print(f"{l}: {by[l]} turns, none {none[l]} ({none[l]/by[l]:.0%})")
print("total", len(out), "none share", f"{sum(none.values())/len(out):.1%}")
print(collections.Counter(r["family"] for r in out).most_common())
if "--write" in sys.argv and not errs:
    with open(HERE.parent/"heldout.jsonl","w",encoding="utf-8") as fh:
        for r in out: fh.write(json.dumps(r, ensure_ascii=False)+"\n")
    print("written")
