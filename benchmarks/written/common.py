"""Shared writer for the hand-written training turns (train/written.jsonl).

Each language script lists turns as ``persona|family|memories|text`` lines, written by
hand; ``memories`` is ``l/t:kw;kw`` joined by ``&`` (l: p project, u user; t: pk
project_knowledge, up user_preference, cf correction_feedback, rm reference_material), empty
for nothing lasting. Besides the hand lines, a language lists one-off task requests and
facts said in passing; a fact is appended to a request ("fix X, btw Y") and two requests are
joined, so a fact is seen inside many real requests (deterministic, seed 7).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "data" / "extraction" / "train" / "written.jsonl"
ORDER = ["en", "zh", "es", "pt", "de", "fr", "ja", "ko", "ru", "it"]
LEVEL = {"p": "project", "u": "user"}
TYPE = {
    "pk": "project_knowledge",
    "up": "user_preference",
    "cf": "correction_feedback",
    "rm": "reference_material",
}
PERSONA = {
    "and": "an Android dev, Kotlin/Gradle/Compose",
    "ios": "an iOS dev, Swift/Xcode/fastlane",
    "wp": "a WordPress/PHP freelancer",
    "lar": "a Laravel shop",
    "clim": "a Julia/Fortran climate scientist",
    "bio": "a bioinformatician, Snakemake/conda",
    "go": "a Go logistics microservices team",
    "vue": "a Vue/Nuxt agency",
    "lua": "a Lua game modder",
    "k8s": "a Kubernetes operator author",
    "sec": "a security researcher",
    "sf": "a Salesforce Apex dev",
    "cpp": "a C++ trading systems dev",
    "svk": "a SvelteKit startup",
    "net": "a .NET enterprise dev",
    "hs": "a Haskell hobbyist",
    "ros": "a robotics ROS2 engineer",
    "r": "an R/Shiny statistician",
    "tf": "a Terraform/AWS SRE",
    "spk": "a Scala/Spark data engineer",
    "rb": "a Ruby on Rails maintainer",
    "deno": "a Deno/Bun tinkerer",
    "el": "an Electron app dev",
    "spr": "a Java Spring Boot bank team",
    "tch": "a teacher writing Python exercises",
}


def _mems(spec: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for part in filter(None, (s.strip() for s in spec.split("&"))):
        head, kws = part.split(":", 1)
        lv, ty = head.split("/")
        out.append(
            {
                "level": LEVEL[lv],
                "type": TYPE[ty],
                "keywords": [k.strip() for k in kws.split(";") if k.strip()],
            }
        )
    return out


def _parse(block: str) -> list[tuple[str, str, str, str]]:
    rows = []
    for line in block.strip().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        persona, family, mem, text = line.split("|", 3)
        rows.append((persona.strip(), family.strip(), mem.strip(), text.strip()))
    return rows


def build(
    lang: str,
    hand: str,
    tasks: str,
    facts: str,
    joins: list[str],
    task_joins: list[str],
    total: int,
    none_share: float = 0.48,
) -> list[dict[str, object]]:
    """The turns of one language: the hand lines, then composed ones up to ``total``."""
    rng = random.Random(7)
    task_rows = _parse(tasks)  # family none_oneoff, no memories
    fact_rows = _parse(facts)  # a family (fact_in_passing) and memories
    items = [(*r, False) for r in _parse(hand) + task_rows]
    seen = {it[3] for it in items}
    pairs_pos = [(t, f) for t in task_rows for f in fact_rows]
    pairs_neg = [(a, b) for a in task_rows for b in task_rows if a is not b]
    rng.shuffle(pairs_pos)
    rng.shuffle(pairs_neg)
    while len(items) < total and (pairs_pos or pairs_neg):
        nones = sum(1 for it in items if not it[2])
        want_none = nones < none_share * (len(items) + 1)
        if want_none and pairs_neg:
            a, b = pairs_neg.pop()
            row = (a[0], "none_oneoff", "", a[3] + rng.choice(task_joins) + b[3], True)
        elif pairs_pos:
            t, f = pairs_pos.pop()
            row = (f[0], f[1], f[2], t[3] + rng.choice(joins) + f[3], True)
        else:
            break
        if row[3] not in seen:
            seen.add(row[3])
            items.append(row)
    out = []
    for i, (persona, family, mem, text, joined) in enumerate(items, 1):
        how = "; two lines of this file joined" if joined else ""
        out.append(
            {
                "id": f"written-{lang}-{i:04d}",
                "split": "written",
                "lang": lang,
                "family": family,
                "source": f"written (training, {PERSONA[persona]}{how})",
                "text": text,
                "memories": _mems(mem),
            }
        )
    return out


def write(lang: str, rows: list[dict[str, object]]) -> None:
    """Replace this language's lines in written.jsonl, keep the others."""
    keep = []
    if OUT.exists():
        keep = [
            ln
            for ln in OUT.read_text(encoding="utf-8").splitlines()
            if ln and json.loads(ln)["lang"] != lang
        ]
    lines = keep + [json.dumps(r, ensure_ascii=False) for r in rows]
    lines.sort(key=lambda ln: (ORDER.index(json.loads(ln)["lang"]), json.loads(ln)["id"]))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(lang, len(rows), "none", sum(1 for r in rows if not r["memories"]))
