"""The checks of a finished training row, shared by the written authors' builders.

Each author's ``benchmarks/corpus/written_*/build.py`` reads its own source syntax (every
author typed turns their own way) and then asks these what is wrong with a turn it made,
so that the rules a row must keep are written once: a nothing-family holds no memory, a
lasting one holds some, two facts hold two, and every keyword is in the text as written.
Run with plain python3: nothing here imports memcli.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

LEVELS = ("project", "user")
TYPES = ("project_knowledge", "user_preference", "correction_feedback", "reference_material")


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
