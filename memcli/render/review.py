"""`memcli review`: the inbox's proposals, and what became of each decision."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memcli.json_values import JsonObject
from memcli.render.output import Output

if TYPE_CHECKING:
    from memcli.commands.review import Decisions, Inbox, Pending
    from memcli.writes.inbox import Proposal


def proposal_json(pending: Pending) -> JsonObject:
    p = pending.proposal
    return {"id": p.id, "level": p.level, "created": p.created, "source": dict(p.source),
            "evidence": p.evidence, "operations": len(p.operations),
            "applies": not pending.problems, "problems": list(pending.problems),
            "moved": pending.moved, "diff": pending.diff}


def inbox_list(output: Output, inbox: Inbox) -> None:
    """`review --list`: one line a proposal (its id first), expired ones said once."""
    if output.as_json:
        output.data({"proposals": [proposal_json(p) for p in inbox.pending],
                     "expired": [p.id for p in inbox.expired], "problems": inbox.problems})
        return
    for problem in inbox.problems:
        output.warn(problem)
    _expired(output, inbox.expired)
    for pending in inbox.pending:
        output.line(headline(pending))
    if not inbox.pending:
        output.note("memcli: no proposal awaits review")


def headline(pending: Pending) -> str:
    from memcli.safety.invisible_chars import safe_line

    p = pending.proposal
    src = p.source
    origin = " ".join(x for x in (src.get("via") or src.get("command", ""),
                                  src.get("session", "")[:12], src.get("model", "")) if x)
    what = ", ".join(_summary(op) for op in p.operations[:3])
    more = f" (+{len(p.operations) - 3})" if len(p.operations) > 3 else ""
    state = "  [no longer applies]" if pending.problems else ""
    return safe_line(f"{p.id}  {p.level}  {p.created}  {origin}  {what}{more}{state}")


def proposal_text(pending: Pending) -> str:
    """A proposal as the interactive review shows it: source, the turn's words, the diff."""
    from memcli.safety.invisible_chars import safe_line

    p = pending.proposal
    lines = [headline(pending)]
    if p.evidence:
        lines.append("  the turn's words:")
        lines.extend("  > " + safe_line(line) for line in p.evidence.splitlines()[-12:])
    for op in p.operations:
        if op.get("reason"):
            lines.append(safe_line(f"  why ({_summary(op)}): {op['reason']}"))
    if pending.problems:
        lines.extend(f"  no longer applies: {safe_line(x)}" for x in pending.problems)
    else:
        if pending.moved:
            lines.append("  (the store changed since it was proposed: re-planned)")
        lines.extend(safe_line(line) for line in pending.diff.splitlines())
    return "\n".join(lines)


def decisions(output: Output, result: Decisions) -> None:
    if output.as_json:
        output.data({"decisions": [{"id": d.id, "verdict": d.verdict, "message": d.message,
                                    "transaction": d.transaction} for d in result.decisions],
                     "expired": [p.id for p in result.expired]})
        return
    _expired(output, result.expired)
    for d in result.decisions:
        text = f"{d.id}: {d.verdict}" + (f" ({d.message})" if d.message else "")
        if d.verdict in ("gone", "stale"):
            output.warn(text)
        else:
            output.line(text)
    if not result.decisions:
        output.note("memcli: no proposal awaits review")


def _expired(output: Output, expired: Sequence[Proposal]) -> None:
    for p in expired:
        output.note(f"memcli: proposal {p.id} ({p.level}, {p.created}) expired and was "
                    "taken out of the inbox")


def _summary(op: dict[str, object]) -> str:
    action = str(op.get("action", "?"))
    name = op.get("title") if action == "create" else op.get("filename")
    return f"{action} {str(name)[:60]}"
