"""Topic slots: the settings of a project that hold one value at a time.

"We deploy with Heroku" and, days later, "heads up, we moved everything to Fly.io" are two
values of one slot (the deploy target): the later statement replaces the earlier note,
whatever words either used. A text is in a slot when it names one of the slot's tools or
one of its names in a language the extractor reads. A qualifier splits a slot ("unit",
"e2e": two test commands). The extractor and ``consolidate`` share this understanding.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from memcli.extraction.rules.slot_words import (
    CAPITALISED,
    COMMON_WORDS,
    NAMES,
    QUALIFIERS,
    TOOLS,
)

# Each slot: the tools that fill it (lower case, as written), then its names.
_TOOLS, _NAMES, _CAPITALISED, _QUALIFIERS = TOOLS, NAMES, CAPITALISED, QUALIFIERS


@functools.cache
def _words() -> tuple[Any, list[tuple[str, str, bool]]]:
    """All the slots' words in one automaton (ahocorasick_rs: one pass over a text, about a
    microsecond a title; a regular expression per slot cost a millisecond), and for each
    word its slot and whether it is a tool."""
    import ahocorasick_rs

    entries: list[tuple[str, str, bool]] = []
    for slot, tools in _TOOLS.items():
        entries += [(w, slot, True) for w in tools]
        entries += [(w, slot, False) for w in _NAMES.get(slot, ())]
    entries += [(w.casefold(), slot, True) for w, slot in _CAPITALISED.items()]
    automaton = ahocorasick_rs.AhoCorasick(
        [w for w, _, _ in entries], matchkind=ahocorasick_rs.MatchKind.LeftmostLongest)
    return automaton, entries


def _stands_alone(text: str, start: int, end: int) -> bool:
    """An ASCII word is a word of the text, not part of one ("uv", not "uvicorn"); a Korean
    or Japanese particle may follow it ("DynamoDB를")."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return (not ((before.isalnum() and before.isascii()) or before in "_.-")
            and not ((after.isalnum() and after.isascii()) or after in "_-"))


def _said(text: str) -> tuple[str, list[tuple[str, str, bool]]]:
    """The case-folded text and each slot word it says on its own: (word, slot, is a tool).
    A tool that is also an English word counts only capitalised."""
    automaton, entries = _words()
    folded = text.casefold()
    if len(folded) != len(text):  # a letter that folds to two: match on the folded text
        text = folded
    said = []
    for index, start, end in automaton.find_matches_as_indexes(folded):
        word, slot, tool = entries[index]
        if word.isascii() and not _stands_alone(folded, start, end):
            continue
        if word in _CAPITALISED_LOWER and (not text[start:start + 1].isupper()
                                           or _ordered(folded, start, end)):
            continue  # "render the page", "Render the docs" name no deploy target
        said.append((word, slot, tool))
    return folded, said


_OBJECT_RE = re.compile(r"\s+(?:the|a|an|this|that|these|those|it|them|all|our|my|your|some|"
                        r"every|each)\b")


def opens_as_verb(text: str, word: str) -> bool:
    """WORD (case-folded) opens a sentence of TEXT before its object: a verb there."""
    folded = text.casefold()
    return any(_ordered(folded, m.start(), m.end())
               for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", folded))


def _ordered(folded: str, start: int, end: int) -> bool:
    """A word opening a sentence before its object is a verb: "Render the docs with
    mkdocs", "Express the idea in one line"."""
    before = folded[:start].rstrip(" \t")
    return (not before or before[-1] in ".!?:;\n") and bool(_OBJECT_RE.match(folded, end))


def slots_of(text: str) -> dict[str, frozenset[str]]:
    """The slots the text is about, each with the tools it names in it. A slot named by its
    name ("the test command is pnpm vitest") is the one it is about: the tools named in
    passing (pnpm) do not put it in another."""
    folded, said = _said(text)
    named: dict[str, set[str]] = {}
    tooled: dict[str, set[str]] = {}
    for word, slot, tool in said:
        key = _qualified(slot, folded)
        if tool:
            tooled.setdefault(key, set()).add(word)
        else:
            named.setdefault(key, set()).update(tooled.get(key, ()))
    if named:
        return {k: frozenset(v | tooled.get(k, set())) for k, v in named.items()}
    return {k: frozenset(v) for k, v in tooled.items()}


def slots_said(text: str) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """The slots the text names by one of their names, and those it names a tool of (with
    the tools): "DB는 오라클 19c예요" names the database and a tool of it."""
    named: set[str] = set()
    tooled: dict[str, set[str]] = {}
    for word, slot, tool in _said(text)[1]:
        if tool:
            tooled.setdefault(slot, set()).add(word)
        else:
            named.add(slot)
    return frozenset(named), {k: frozenset(v) for k, v in tooled.items()}


_CAPITALISED_LOWER = frozenset(w.casefold() for w in _CAPITALISED)


def _qualified(slot: str, text: str) -> str:
    if slot != "test command":
        return slot
    folded = text.casefold()
    for name, words in _QUALIFIERS.items():
        if any(w in folded for w in words):
            return f"{slot}:{name}"
    return slot


def shared_slot(a: str, b: str) -> str | None:
    """The slot two texts both fill, else None. Both must name a value of it (a tool) or
    one its name: "we deploy on Fridays" and "we deploy with Heroku" are two statements."""
    mine, theirs = slots_of(a), slots_of(b)
    for slot in mine:
        if slot in theirs and mine[slot] and theirs[slot]:
            return slot
    return None


def slot_tools(slot: str) -> tuple[str, ...]:
    """Every word :func:`slots_of` takes for a tool of SLOT (qualified or not), case-folded:
    a text is in the slot with a tool only if it holds one of them."""
    base = slot.partition(":")[0]
    return (*_TOOLS.get(base, ()),
            *(word.casefold() for word, named in _CAPITALISED.items() if named == base))


def tools_named(text: str) -> frozenset[str]:
    return frozenset(t for tools in slots_of(text).values() for t in tools)


_COMMON = frozenset(COMMON_WORDS.split())
# ASCII only: a Korean or Japanese particle glued to a name ("hardhat-deploy로") is not part
# of it, but a name inside a word of another Latin or Cyrillic letter ("uft" of "läuft") is
# no name.
_NAME_RE = re.compile(r"[a-z0-9][a-z0-9_.+-]*[a-z0-9_+]|[a-z]")


def _in_a_word(text: str, start: int, end: int) -> bool:
    def letter(i: int) -> bool:
        return 0 <= i < len(text) and text[i].isalpha() and ord(text[i]) < 0x2E80
    return letter(start - 1) or letter(end)


def salient_names(text: str) -> frozenset[str]:
    """The names in a text that are not common words (tools, branches, libraries)."""
    folded = text.casefold()
    words = (m.group() for m in _NAME_RE.finditer(folded)
             if not _in_a_word(folded, m.start(), m.end()))
    return frozenset(w for w in words if len(w) >= 3 and w not in _COMMON and not w.isdigit())


def shared_names(a: str, b: str) -> frozenset[str]:
    """The names both texts hold ("Consul", "PBS", "hardhat-deploy"): what a change
    ("Consul 已经下线了") and the note it changes share. Common words of the languages
    written in Latin letters are no names (slot_words.COMMON_WORDS)."""
    return salient_names(a) & salient_names(b)


def title_slot(title: str) -> str | None:
    """The slot a title names and says nothing else of ("Test command", "Running the tests",
    "Use pnpm", "We deploy with Heroku"; not "Database backups"): two notes so titled are
    one setting said twice."""
    found = slots_of(title)
    if len(found) != 1:
        return None
    automaton, _ = _words()
    rest = title.casefold()
    for _, start, end in reversed(automaton.find_matches_as_indexes(rest)):
        rest = rest[:start] + " " + rest[end:]
    if any(w not in _COMMON for w in re.findall(r"\w+", rest)):
        return None
    return next(iter(found))
