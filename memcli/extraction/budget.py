"""How much of a transcript an extractor is handed: cut before it reads a word.

One message can hold a paste of megabytes (a log, a file, a dump), and a whole session
can hold thousands of messages. A model is sent only so much of them, and the rules
extractor's time and memory grow with the text it reads: handing either all of it costs
minutes and hundreds of megabytes and finds nothing more. So, before either reads:

- every message is cut to ``MESSAGE_CHARS``, its start and its end kept around a mark
  (a person writes what they ask before and after what they paste);
- the newest messages are kept within the extractor's total, and everything older than
  the first one left out is left out too (one cut, never a gap): a model is sent
  ``PROMPT_CHARS`` of the conversation; the rules read only the person's words, and
  ``RULES_CHARS`` of them.

The cut is deterministic: the same transcript always gives the same text to read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memcli.messages import Message

MESSAGE_CHARS = 60_000
# What a model is sent of the conversation (about 15,000 tokens); one message fits whole.
PROMPT_CHARS = 60_000
# The rules extractor's total, of the person's words only: a long session's typed prompts
# fit (about a second of the rules' time per 200,000 characters of prose).
RULES_CHARS = 1_000_000
# A cut looks this far for a line break or a space, so that no word is cut in two.
_NEAR = 200


@dataclass(frozen=True)
class Budget:
    """An extractor's budget: the characters of each message and of all of them."""

    total: int
    person_only: bool  # only the person's messages count (the rules read nothing else)
    message: int = MESSAGE_CHARS


PROMPT = Budget(PROMPT_CHARS, person_only=False)
RULES = Budget(RULES_CHARS, person_only=True)


@dataclass(frozen=True)
class Cut:
    """What a budget left out, for the person to be told."""

    budget: Budget
    shortened: int = 0  # messages cut to their start and end
    characters: int = 0  # what those lost
    dropped: int = 0  # older messages left out whole

    def __bool__(self) -> bool:
        return bool(self.shortened or self.dropped)


def fit(messages: Sequence[Message], budget: Budget) -> tuple[list[Message], Cut]:
    """The messages an extractor is handed within BUDGET, and what was left out."""
    shortened = characters = 0
    kept: list[Message] = []
    total = 0
    for message in reversed(messages):
        text = message.text
        if len(text) > budget.message:
            text = cut_middle(text, budget.message)
            shortened += 1
            characters += len(message.text) - len(text)
        counts = message.role == "user" or not budget.person_only
        if counts:
            if kept and total + len(text) > budget.total:
                break
            total += len(text)
        kept.append(message if text is message.text else
                    Message(message.role, text, message.timestamp))
    kept.reverse()
    return kept, Cut(budget, shortened, characters, len(messages) - len(kept))


def cut_middle(text: str, limit: int) -> str:
    """TEXT in at most LIMIT characters: its start and its end around a mark saying how
    much was left out between them."""
    if len(text) <= limit:
        return text
    mark_room = 48  # "\n[… 999,999,999,999 characters left out …]\n" fits
    half = max((limit - mark_room) // 2, 0)
    head_end = _break_before(text, half)
    tail_start = _break_after(text, len(text) - half)
    left_out = tail_start - head_end
    return f"{text[:head_end]}\n[… {left_out:,} characters left out …]\n{text[tail_start:]}"


def _break_before(text: str, pos: int) -> int:
    """A position at or shortly before POS just after a line break or a space."""
    for sep in ("\n", " "):
        found = text.rfind(sep, max(pos - _NEAR, 0), pos)
        if found >= 0:
            return found + 1
    return pos


def _break_after(text: str, pos: int) -> int:
    """A position at or shortly after POS at a line break or a space."""
    for sep in ("\n", " "):
        found = text.find(sep, pos, pos + _NEAR)
        if found >= 0:
            return found
    return pos
