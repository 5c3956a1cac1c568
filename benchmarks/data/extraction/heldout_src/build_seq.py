import json, pathlib, collections
HERE = pathlib.Path(__file__).parent
out=[]; errs=[]; n=collections.Counter()
for ln,line in enumerate((HERE/"sequences.txt").read_text(encoding="utf-8").splitlines(),1):
    if not line.strip() or line.startswith("#"): continue
    p=[x.strip() for x in line.split("¦")]
    lang,topic,words,expect,stale=p[:5]; words=[w.strip() for w in words.split(",")]
    turns=[]
    for t in p[5:]:
        if not t: continue
        kind,text=t.split(":",1)
        turns.append({"text":text.strip(),"topic":topic if kind=="T" else None})
    alltext=" ".join(t["text"] for t in turns if t["topic"]).lower()
    last=[t["text"] for t in turns if t["topic"]][-1].lower()
    if not 2<=len(turns)<=4: errs.append(f"{ln}: {len(turns)} turns")
    if expect.lower() not in last: errs.append(f"{ln}: expect {expect!r} not in last topical turn")
    if stale!="-" and stale.lower() not in alltext: errs.append(f"{ln}: stale not in text")
    for w in words:
        if w.lower() not in alltext: errs.append(f"{ln}: topic word {w!r} not in text")
    n[lang]+=1
    out.append({"id":f"seq-heldout-{lang}-{n[lang]:02d}","topics":{topic:words},"turns":turns,"split":"heldout",
                "source":"written (held-out)","lang":lang,"expect":{topic:expect},"stale":{topic:None if stale=="-" else stale}})
for e in errs: print("ERR",e)
print(len(out), dict(n))
if not errs:
    with open(HERE.parent/"heldout_sequences.jsonl","w",encoding="utf-8") as fh:
        for r in out: fh.write(json.dumps(r,ensure_ascii=False)+"\n")
