"""Notes that repeat or contradict a line of the repository's AGENTS.md, CLAUDE.md or GEMINI.md.

Those files are already in every agent's context: a note saying the same costs context
twice, and a note saying the opposite leaves the agent to pick one. The comparison is by
words, sentence against line, after case, plurals and filler words are set aside:

- **repeats**: the same words, or nearly (three in four shared, both at least three words
  long), with the same polarity;
- **contradicts**: a word said plainly on one side and negated on the other ("Use npm" /
  "never use npm", "use pnpm instead of npm"), the two sharing a quarter of their words.

Lines inside code fences and headings are not instructions and are skipped. Files are read
without following symbolic links.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memcli.commands.interop.instruction_files import instruction_paths
from memcli.text import title_tokens

REPEAT_SHARE = 0.75
CONTRADICT_SHARE = 0.25
MIN_WORDS = 3
_FENCE = re.compile(r"^\s*(```|~~~)")
_MARKUP = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+|[`*_>]")
_SENTENCE = re.compile(r"(?<=[.!?;。；])\s+|\n+")
_NEGATION = re.compile(
    r"\b(?:never|not|no|don'?t|do\s+not|avoid|instead\s+of|rather\s+than|over)\b"
    r"(?P<object>(?:\s+\w+){1,3})", re.I)
# Verbs every instruction has; a conflict on them alone means nothing.
_GENERIC = frozenset({"use", "run", "prefer", "make", "do", "be", "get", "write", "add",
                      "keep", "always", "never", "not", "no", "avoid", "instead", "rather",
                      "than", "over", "don", "t", "dont", "it", "them", "file", "code"})


@dataclass(frozen=True)
class InstructionLine:
    file: str
    number: int
    text: str


@dataclass(frozen=True)
class NoteText:
    level: str
    filename: str
    title: str
    summary: str
    body: str


@dataclass(frozen=True)
class Overlap:
    note: NoteText
    kind: str  # "repeats" or "contradicts"
    line: InstructionLine
    sentence: str


def instruction_lines(root: Path) -> list[InstructionLine]:
    lines: list[InstructionLine] = []
    for path in instruction_paths(root):
        name = path.name
        try:
            text = path.read_text("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            continue
        fenced = False
        for number, raw in enumerate(text.splitlines(), 1):
            if _FENCE.match(raw):
                fenced = not fenced
                continue
            stripped = raw.strip()
            if fenced or not stripped or stripped.startswith(("#", "<!--", "|")):
                continue
            clean = _MARKUP.sub("", stripped).strip()
            if len(title_tokens(clean)) >= 2:
                lines.append(InstructionLine(name, number, clean))
    return lines


def overlaps(lines: Iterable[InstructionLine], notes: Iterable[NoteText]) -> list[Overlap]:
    """Each note's first repeat or contradiction of an instruction line, if any."""
    prepared = [(line, _words(line.text)) for line in lines]
    found: list[Overlap] = []
    for note in notes:
        hit = _first_overlap(note, prepared)
        if hit is not None:
            found.append(hit)
    return found


def _first_overlap(note: NoteText,
                   prepared: list[tuple[InstructionLine, tuple[set[str], set[str]]]]
                   ) -> Overlap | None:
    sentences = [note.title, note.summary, *_SENTENCE.split(note.body)]
    for sentence in (s.strip() for s in sentences):
        if not sentence:
            continue
        mine = _words(sentence)
        for line, theirs in prepared:
            kind = _relation(mine, theirs)
            if kind is not None:
                return Overlap(note, kind, line, sentence)
    return None


def _words(text: str) -> tuple[set[str], set[str]]:
    """(plain words, negated words) of TEXT, filler words and generic verbs aside."""
    negated: set[str] = set()
    for match in _NEGATION.finditer(text):
        negated |= _stems(match["object"])
    plain = _stems(_NEGATION.sub(" ", text))
    return plain - negated, negated


def _stems(text: str) -> set[str]:
    """Content words, cut to a rough stem: "indentation" and "indent", "committing" and
    "commit" are one word here."""
    stems = set()
    for word in title_tokens(text):
        if word in _GENERIC:
            continue
        if word.isascii() and len(word) > 5:
            for suffix in ("ation", "ing", "ed"):
                if word.endswith(suffix):
                    word = word[: -len(suffix)]
                    if len(word) > 3 and word[-1] == word[-2]:
                        word = word[:-1]
                    break
        stems.add(word)
    return stems


def _relation(mine: tuple[set[str], set[str]], theirs: tuple[set[str], set[str]]) -> str | None:
    my_plain, my_negated = mine
    their_plain, their_negated = theirs
    my_all, their_all = my_plain | my_negated, their_plain | their_negated
    if not my_all or not their_all:
        return None
    share = len(my_all & their_all) / len(my_all | their_all)
    conflict = (my_plain & their_negated) | (my_negated & their_plain)
    if conflict and share >= CONTRADICT_SHARE:
        return "contradicts"
    if (share >= REPEAT_SHARE and min(len(my_all), len(their_all)) >= MIN_WORDS
            and my_negated == their_negated):
        return "repeats"
    return None


def check_stores(project_root: Path, notes: Iterable[NoteText]) -> list[Overlap]:
    """The overlaps of NOTES with the instruction files at PROJECT_ROOT."""
    lines = instruction_lines(project_root)
    return overlaps(lines, notes) if lines else []
