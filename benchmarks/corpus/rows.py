"""The checks of a finished training row, shared by the written authors' builders.

Each author's ``benchmarks/corpus/written_*/build.py`` reads its own source syntax (every
author typed turns their own way) and then asks these what is wrong with a turn it made,
so that the rules a row must keep are written once: a nothing-family holds no memory, a
lasting one holds some, two facts hold two, and every keyword is in the text as written.
Run with plain python3: nothing here imports memcli.
"""

from __future__ import annotations

import collections
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

LEVELS = ("project", "user")
TYPES = ("project_knowledge", "user_preference", "correction_feedback", "reference_material")

# The short codes the eighth, ninth and tenth authors typed their turns with (each in a line
# syntax of their own): a family, and a memory as `XY:kw1,kw2` (X the level, Y the type).
LASTING = {"ex": "explicit", "fip": "fact_in_passing", "cor": "correction", "upd": "update",
           "rev": "reversal", "pref": "preference", "two": "two_facts", "ref": "reference"}
NONE = {"q": "none_question", "oo": "none_oneoff", "paste": "none_paste", "thx": "none_thanks",
        "quote": "none_quote", "hyp": "none_hypothetical", "tt": "none_thistask",
        "asst": "none_assistant", "compl": "none_complaint", "small": "none_smalltalk",
        "status": "none_status", "harness": "none_harness"}
LEVEL = {"p": "project", "u": "user"}
TYPE = dict(zip("kucr", TYPES, strict=True))


def memories(spec: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The memories a `XY:kw1,kw2;XY:kw` SPEC names, and what is wrong with it."""
    found: list[dict[str, Any]] = []
    problems: list[str] = []
    for part in spec.split(";"):
        code, _, kws = part.strip().partition(":")
        if len(code) != 2 or code[0] not in LEVEL or code[1] not in TYPE:
            problems.append(f"bad memory code {code!r}")
            continue
        found.append({"level": LEVEL[code[0]], "type": TYPE[code[1]],
                      "keywords": [k.strip() for k in kws.split(",") if k.strip()]})
    return found, problems


def holds(text: str, word: str) -> bool:
    """Is a sequence's topic WORD in TEXT as benchmarks/extraction.py's replay finds it
    (its `_holds_word`, on case-folded text): Chinese, Japanese and Korean by substring,
    other words at word edges, a plural allowed."""
    text, word = text.casefold(), word.casefold()
    if any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in word):
        return word in text
    edge = r"[A-Za-z0-9_]" if word.isascii() else r"\w"
    return re.search(f"(?<!{edge})" + re.escape(word) + f"(?:s|es)?(?!{edge})", text) is not None


def turn_problems(family: str, text: str, memories: Sequence[dict[str, Any]]) -> list[str]:
    """What is wrong with one turn's labels (empty when nothing is)."""
    problems: list[str] = []
    if family.startswith("none_") and memories:
        problems.append(f"{family} holds a memory")
    if not family.startswith("none_") and not memories:
        problems.append(f"{family} holds nothing")
    if family == "two_facts" and len(memories) != 2:
        problems.append("two_facts needs exactly two memories")
    for memory in memories:
        if memory.get("level") not in LEVELS or memory.get("type") not in TYPES:
            problems.append(f"bad level or type in {memory!r}")
        if not memory.get("keywords"):
            problems.append("a memory without keywords")
        problems += [f"keyword {word!r} not in text" for word in memory.get("keywords", ())
                     if word.lower() not in text.lower()]
    return problems


def topic_problems(topic_words: Sequence[str], topical: Sequence[str]) -> list[str]:
    """What is wrong with one sequence's topic: TOPICAL are the texts of its turns on the
    topic, in order; two at least, and every topic word said in one of them."""
    problems: list[str] = []
    if len(topical) < 2:
        problems.append("fewer than two turns on the topic")
    lowered = [text.lower() for text in topical]
    problems += [f"topic word {word!r} in no topic turn" for word in topic_words
                 if not any(word.lower() in text for text in lowered)]
    return problems


def file_problems(rows: Sequence[dict[str, Any]], sequences: Sequence[dict[str, Any]],
                  name: str, train: Path) -> list[str]:
    """What is wrong with an author's NAME files as a whole: a text, an id or a sequence id
    twice, or a text another file of TRAIN (or a dev or test split beside it) holds: the
    model would be trained on it in the other author's fold. The held-out split is never
    read."""
    problems: list[str] = []
    for what, keys in (("text", [r["text"].casefold() for r in rows]),
                       ("id", [r["id"] for r in rows]),
                       ("sequence id", [s["id"] for s in sequences])):
        problems += [f"duplicate {what}: {k!r}" for k, c in collections.Counter(keys).items()
                     if c > 1]
    for other in sorted(train.glob("*.jsonl")) + sorted(train.parent.glob("[dt]e[sv]*.jsonl")):
        if name in other.name or "sequences" in other.name or "heldout" in other.name:
            continue
        seen = {json.loads(line)["text"].strip().casefold()
                for line in other.read_text(encoding="utf-8").splitlines() if line.strip()}
        problems += [f"{r['id']}: same text in {other.name}: {r['text']!r}" for r in rows
                     if r["text"].strip().casefold() in seen]
    return problems


def write_files(train: Path, name: str, rows: Sequence[dict[str, Any]],
                sequences: Sequence[dict[str, Any]]) -> None:
    """NAME.jsonl and NAME_sequences.jsonl in TRAIN, a row a line."""
    for path, items in ((train / f"{name}.jsonl", rows),
                        (train / f"{name}_sequences.jsonl", sequences)):
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(item, ensure_ascii=False) + "\n" for item in items)
