"""The offline extractor: explicit memory cues in what the user typed, turned into operations.

It runs where no LLM is configured, so it is stdlib only and deterministic: the same
messages, known notes and ``today`` always give the same operations in the same order.
It is deliberately conservative. A cue must open its sentence ("Always…", "Remember
that…", "The test command is…"), because a cue word in the middle of a sentence ("the
build never finishes", "he said always…") is almost never an instruction to remember.
docs/rules.md is the user-facing description of the cues and of the routing.

The stages, in order: :mod:`.text` masks code, links and quotations and splits sentences;
:mod:`.cues` peels lead words and memory cues off each clause; :mod:`.statements` says
what the clause states; :mod:`.topics` names its topic and routes it (level, type);
:mod:`.dates` writes relative dates as ISO dates; :mod:`.duplicates` keeps one note per
topic, against the turn and against the stores; :mod:`.expiry` dates a time-bound
statement's ``expires``.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memcli.extraction.rules.duplicates import dedupe, operation
from memcli.extraction.rules.findings import findings_in_text
from memcli.extraction.rules.languages import unread_language
from memcli.extraction.rules.model import Finding, KnownNote, Skip
from memcli.messages import Message

__all__ = ["MODES", "KnownNote", "RulesTrace", "Skip", "extract_rules"]

# The cue rules alone, the learned detector alone, or both (the rules first; the model
# reads the sentences no rule kept). benchmarks/extraction.py measures the three.
MODES = ("rules", "model", "combined")
DEFAULT_MODE = "combined"


@dataclass
class RulesTrace:
    """Why each operation was made (``kept``, one per operation, in order) and why each of
    the person's sentences that gave none did not (``skipped``)."""

    kept: list[Finding] = field(default_factory=list)
    found: list[Finding] = field(default_factory=list)  # before repeats were merged
    skipped: list[Skip] = field(default_factory=list)
    said: list[int] = field(default_factory=list)  # the person's messages, 1-based


def extract_rules(
    messages: Sequence[Message], known: Sequence[KnownNote], *, today: datetime.date,
    trace: RulesTrace | None = None, mode: str = DEFAULT_MODE,
) -> list[dict[str, Any]]:
    """Operations for the explicit memory cues in the user's messages, in order of appearance.

    Only ``role == "user"`` counts: an assistant saying "I'll remember that" has not been
    told anything, and tool output or reasoning is not the user's word.
    """
    trace = trace if trace is not None else RulesTrace()
    findings: list[Finding] = []
    for number, message in enumerate(messages, start=1):
        if message.role != "user":
            continue
        trace.said.append(number)
        found = ([] if mode == "model"
                 else findings_in_text(message.text, today, number, trace.skipped))
        if mode != "rules" and not unread_language(message.text):
            from memcli.extraction.rules.learned_notes import combine

            found = combine(message.text, today, number, found, trace.skipped)
        if mode == "combined" and not unread_language(message.text):
            # What ships: the cue rules alone stay as they were (their figures and golden
            # file are the baseline the combination is measured against).
            from memcli.extraction.rules.settings_said import settings_said

            found = [*found, *settings_said(message.text, today, number, found)]
            from memcli.extraction.rules.changes_said import changes_said

            found = [*found, *changes_said(message.text, today, number, found, known,
                                           findings)]
        findings.extend(_in_order_said(found, message.text))
    trace.found = findings
    trace.kept = dedupe(findings)
    return [_bounded(operation(finding, known), today) for finding in trace.kept]


def _in_order_said(found: list[Finding], text: str) -> list[Finding]:
    """FOUND in the order the message says them: the rules' findings come before the
    model's, and a bare correction ("no wait, it's on Wednesdays") must follow the statement
    it corrects for dedupe() to apply it. A quote not found as written keeps its place
    after the others (a stable sort)."""
    end = len(text)

    def where(finding: Finding) -> int:
        at = text.find(finding.quote)
        return at if at >= 0 else end

    return sorted(found, key=where)


def _bounded(op: dict[str, Any], today: datetime.date) -> dict[str, Any]:
    """A time-bound statement ("until Friday", 本周内) gets the date it stops being true."""
    from memcli.extraction.rules.expiry import expires_for

    content = op.get("content")
    when = expires_for(content, today) if isinstance(content, str) else None
    if when is not None:
        op["expires"] = when
    return op
