"""`extract --explain`: for each operation, the sentence that produced it and why; for each of
the person's messages that produced none, why not.

How a user learns to trust or correct the extractor: the cue or the kind of statement seen,
the routing (level and type) and its reason, and the note a near-duplicate was matched with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memcli.extraction.dedupe import Merged
from memcli.extraction.rules import RulesTrace
from memcli.messages import Message

MAX_SHOWN_CHARS = 160


@dataclass(frozen=True)
class OperationWhy:
    number: int  # 1-based, among the operations extract prints
    action: str
    level: str
    type: str
    title: str
    message: int | None  # 1-based among the messages read; None when the model said it
    sentence: str
    statement: str  # the cue and the kind of statement
    routing: str
    duplicate: str  # the note it was matched with, and how; "" for none
    found_by: str  # "the cue rules", "the learned detector" or "the model"


@dataclass(frozen=True)
class MessageWhy:
    message: int
    text: str
    reasons: list[str]  # one per sentence: "'sentence': why"


@dataclass
class Explanation:
    operations: list[OperationWhy] = field(default_factory=list)
    silent: list[MessageWhy] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def _found_by(finding: Any) -> str:
    """Which part of the extractor made an operation: a person trusts a cue differently
    from a score."""
    if finding is None:
        return "the model"
    return "the learned detector" if finding.learned else "the cue rules"


def shown(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_SHOWN_CHARS else text[:MAX_SHOWN_CHARS - 1] + "…"


def explain(operations: Sequence[dict[str, Any]], sources: Sequence[int],
            positions: Sequence[int], merged: Sequence[Merged], messages: Sequence[Message],
            trace: RulesTrace | None) -> Explanation:
    """``sources`` maps each operation to its index before near-duplicates were merged,
    ``positions`` that index to the extractor's item number (1-based)."""
    out = Explanation()
    by_source = {m.source: m for m in merged}
    for number, (op, source) in enumerate(zip(operations, sources, strict=True), start=1):
        finding = (trace.kept[positions[source] - 1]
                   if trace is not None and positions[source] <= len(trace.kept) else None)
        out.operations.append(OperationWhy(
            number, str(op["action"]), str(op["level"]), str(op.get("type", "")),
            str(op.get("title", op.get("filename"))),
            finding.message if finding else None,
            shown(finding.quote) if finding else "",
            finding.why if finding else "proposed by the model: " + str(op.get("reason", "")),
            finding.routing if finding else "as the model chose",
            _duplicate(op, by_source.get(source)),
            _found_by(finding)))
    for m in merged:
        if m.outcome == "refused":
            out.refused.append(f"'{m.title}' nearly repeats {m.level}/{m.near.filename} "
                               f"('{m.near.title}': {m.near.why})")
    if trace is not None:
        refused = {trace.kept[positions[m.source] - 1].message for m in merged
                   if m.outcome == "refused" and positions[m.source] <= len(trace.kept)}
        out.silent = _silent(messages, trace, {o.message for o in out.operations}, refused)
    return out


def _duplicate(op: dict[str, Any], merged: Merged | None) -> str:
    if merged is not None and merged.outcome == "merged":
        return f"repeats an earlier statement of this turn ('{merged.near.title}'); one note"
    if merged is not None:
        verb = {"updated": "updates", "kept": "kept beside"}.get(merged.outcome, merged.outcome)
        return (f"{verb} {merged.level}/{merged.near.filename} ('{merged.near.title}': "
                f"{merged.near.why})")
    if op["action"] == "update":
        return f"updates {op['level']}/{op['filename']}: a note on the same topic"
    return ""


def _silent(messages: Sequence[Message], trace: RulesTrace, used: set[int | None],
            refused: set[int]) -> list[MessageWhy]:
    superseded = {f.message for f in trace.found} - {f.message for f in trace.kept}
    silent = []
    for number in trace.said:
        if number in used:
            continue
        reasons = [f"'{shown(s.sentence)}': {s.why}" for s in trace.skipped
                   if s.message == number]
        if number in refused:
            reasons.append("its statement nearly repeats a stored note (see refused)")
        if number in superseded:
            reasons.append("said again later in the turn; the later statement is kept")
        if not reasons:
            reasons = ["nothing outside code blocks, quotations and injected text"]
        silent.append(MessageWhy(number, shown(messages[number - 1].text), reasons))
    return silent
