"""Checks train/written.jsonl and written_sequences.jsonl: fields, ids, keywords, counts."""

from __future__ import annotations

import collections
import json
from pathlib import Path

D = Path(__file__).resolve().parents[1] / "data" / "extraction" / "train"
LEVELS = {"project", "user"}
TYPES = {"user_preference", "correction_feedback", "project_knowledge", "reference_material"}
FIELDS = ["id", "split", "lang", "family", "source", "text", "memories"]

rows = [json.loads(x) for x in (D / "written.jsonl").read_text(encoding="utf-8").splitlines() if x]
ids, texts = (
    collections.Counter(r["id"] for r in rows),
    collections.Counter(r["text"] for r in rows),
)
assert not [i for i, n in ids.items() if n > 1], "duplicate ids"
dup = [t for t, n in texts.items() if n > 1]
assert not dup, f"duplicate texts {dup[:3]}"
bad = []
for r in rows:
    assert list(r) == FIELDS, r["id"]
    assert r["split"] == "written" and r["id"].startswith(f"written-{r['lang']}-")
    fam = r["family"]
    assert fam.startswith("none_") == (not r["memories"]), (r["id"], fam)
    for m in r["memories"]:
        assert m["level"] in LEVELS and m["type"] in TYPES, r["id"]
        assert 1 <= len(m["keywords"]) <= 3, r["id"]
        for k in m["keywords"]:
            if k.lower() not in r["text"].lower():
                bad.append((r["id"], k, r["text"][:60]))
assert not bad, "\n".join(map(str, bad))
per = collections.Counter(r["lang"] for r in rows)
none = sum(1 for r in rows if not r["memories"])
print("turns", len(rows), dict(per), f"none {none} ({none / len(rows):.0%})")
print("families", dict(collections.Counter(r["family"] for r in rows)))
sq = D / "written_sequences.jsonl"
if sq.exists():
    seqs = [json.loads(x) for x in sq.read_text(encoding="utf-8").splitlines() if x]
    assert len({s["id"] for s in seqs}) == len(seqs)
    for s in seqs:
        assert 2 <= len(s["turns"]) <= 4, s["id"]
        for t in s["turns"]:
            if t["topic"] is not None:
                assert t["topic"] in s["topics"], s["id"]
                assert any(k.lower() in t["text"].lower() for k in s["topics"][t["topic"]]), s["id"]
    print("sequences", len(seqs), dict(collections.Counter(s["lang"] for s in seqs)))
