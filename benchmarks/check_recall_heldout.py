"""Check the shape of the held-out recall set and print its counts (never any search result).

    python benchmarks/check_recall_heldout.py

It validates what a loader relies on: unique note files and prompt ids, each file named as
memcli names a note (`<type>_<slug of the title>.md`), every note parseable, every relevant
file present and inside the prompt's scope (its project's notes and the user-level ones),
`cross` true exactly when no relevant note is in the prompt's language. Exit 1 on a problem.
"""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memcli.store.names import NOTE_TYPES, slugify  # noqa: E402
from memcli.store.note_bytes import render_new_note  # noqa: E402
from memcli.store.notes import parse_note  # noqa: E402

HELDOUT = ROOT / "benchmarks" / "data" / "recall-heldout.json"
LANGS = {"en", "zh", "es", "ja", "de", "fr", "ko", "ru", "pt"}
KINDS = {"paraphrase", "exact", "typo", "unrelated"}


def problems(data: dict[str, object]) -> list[str]:
    notes: list[dict[str, object]] = data["notes"]  # type: ignore[assignment]
    prompts: list[dict[str, object]] = data["prompts"]  # type: ignore[assignment]
    projects = set(data["projects"])  # type: ignore[call-overload]
    found: list[str] = []
    by_file: dict[str, dict[str, object]] = {}
    for note in notes:
        name = str(note["file"])
        if name in by_file:
            found.append(f"duplicate note file {name}")
        by_file[name] = note
        expected = f"{note['type']}_{slugify(str(note['title']))}.md"
        if note["type"] not in NOTE_TYPES or name != expected:
            found.append(f"{name}: memcli would name this note {expected}")
        if note["lang"] not in LANGS or note["project"] not in {*projects, None}:
            found.append(f"{name}: bad lang or project")
        if (note["level"] == "user") != (note["project"] is None):
            found.append(f"{name}: level and project disagree")
        meta = {key: note[key] for key in ("type", "title", "summary")}
        meta["created"] = meta["updated"] = "2026-12-01T10:00:00Z"
        if parse_note(name, render_new_note(meta, str(note["body"]))).body.strip() != note["body"]:
            found.append(f"{name}: body does not survive a render and parse")
    ids = collections.Counter(str(p["id"]) for p in prompts)
    found += [f"duplicate prompt id {i}" for i, n in ids.items() if n > 1]
    texts = collections.Counter(str(p["text"]) for p in prompts)
    found += [f"duplicate prompt {t!r}" for t, n in texts.items() if n > 1]
    for p in prompts:
        relevant = [str(f) for f in p["relevant"]]  # type: ignore[attr-defined]
        if p["lang"] not in LANGS or p["kind"] not in KINDS:
            found.append(f"{p['id']}: bad lang or kind")
        if (p["kind"] == "unrelated") != (not relevant) or len(set(relevant)) != len(relevant):
            found.append(f"{p['id']}: kind and relevant disagree, or a file listed twice")
        for name in relevant:
            if name not in by_file:
                found.append(f"{p['id']}: relevant {name} is not a note")
            elif by_file[name]["project"] not in (None, p["project"]):
                found.append(f"{p['id']}: relevant {name} is outside the prompt's scope")
        langs = {by_file[n]["lang"] for n in relevant if n in by_file}
        if bool(p["cross"]) != (bool(relevant) and p["lang"] not in langs):
            found.append(f"{p['id']}: cross is wrong")
    return found


def main() -> None:
    data = json.loads(HELDOUT.read_text("utf-8"))
    found = problems(data)
    for problem in found:
        print(problem)
    notes, prompts = data["notes"], data["prompts"]
    print(f"notes {len(notes)}: by project "
          f"{dict(collections.Counter(str(n['project']) for n in notes))}, by language "
          f"{dict(collections.Counter(n['lang'] for n in notes))}, by type "
          f"{dict(collections.Counter(n['type'] for n in notes))}")
    answerable = [p for p in prompts if p["relevant"]]
    print(f"prompts {len(prompts)}: {len(answerable)} with a relevant note, "
          f"{len(prompts) - len(answerable)} with none, "
          f"{sum(p['cross'] for p in prompts)} cross-language; by kind "
          f"{dict(collections.Counter(p['kind'] for p in prompts))}; by language "
          f"{dict(collections.Counter(p['lang'] for p in prompts))}; by project "
          f"{dict(collections.Counter(str(p['project']) for p in prompts))}; "
          f"relevant notes per answerable prompt "
          f"{dict(sorted(collections.Counter(len(p['relevant']) for p in answerable).items()))}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
