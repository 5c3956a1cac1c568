"""Check a coding-agent recall set's shape (benchmarks/recall_coding.py describes the format).

    python3 benchmarks/check_recall_set.py benchmarks/data/recall-dev3.json

Checks: valid JSON; unique note files and prompt ids; every note's file is memcli's name for
its type and title; every relevant file exists and is in the prompt's scope (the prompt's own
project or user level); unrelated prompts list nothing and others list something. Exits 1
with one line per problem. Reads only the file it is given.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from memcli.store.names import slugify

KINDS = {"paraphrase", "typo", "unrelated", "multi"}


def problems(data: dict) -> list[str]:
    out: list[str] = []
    notes = {n["file"]: n for n in data["notes"]}
    if len(notes) != len(data["notes"]):
        out.append("duplicate note files")
    for n in data["notes"]:
        if n["file"] != f"{n['type']}_{slugify(n['title'])}.md":
            out.append(f"{n['file']}: not memcli's name for its title")
        if (n["project"] is None) != (n["level"] == "user"):
            out.append(f"{n['file']}: level and project disagree")
    ids = [p["id"] for p in data["prompts"]]
    if len(set(ids)) != len(ids):
        out.append("duplicate prompt ids")
    for p in data["prompts"]:
        if p["kind"] not in KINDS:
            out.append(f"{p['id']}: kind {p['kind']!r}")
        if (p["kind"] == "unrelated") != (not p["relevant"]):
            out.append(f"{p['id']}: kind and relevant disagree")
        if p["kind"] == "multi" and len(p["relevant"]) < 2:
            out.append(f"{p['id']}: multi with fewer than two notes")
        for f in p["relevant"]:
            if f not in notes:
                out.append(f"{p['id']}: {f} is not a note")
            elif notes[f]["project"] not in (None, p["project"]):
                out.append(f"{p['id']}: {f} is outside its scope")
        langs = [notes[f]["lang"] for f in p["relevant"] if f in notes]
        cross = bool(p["relevant"]) and p["lang"] not in langs
        if cross != p["cross"]:
            out.append(f"{p['id']}: cross should be {cross}")
    return out


def main() -> None:
    data = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    found = problems(data)
    for line in found:
        print(line)
    print(f"{len(data['notes'])} notes, {len(data['prompts'])} prompts, {len(found)} problems")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
