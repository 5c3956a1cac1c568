"""Output of the history and health commands: log, undo, status and consolidate."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcli.json_values import JsonObject, JsonValue, to_json
from memcli.render.output import YELLOW, Output, diff, plural
from memcli.render.store import files_json

if TYPE_CHECKING:
    from memcli.commands.consolidate_proposal import Proposal
    from memcli.commands.status import LevelStatus, StatusReport
    from memcli.commands.undo import LogResult, UndoReport
    from memcli.writes.history import Transaction

_MARK = {"created": "A", "modified": "M", "deleted": "D"}


# --------------------------------------------------------------------------- log


def log_result(output: Output, result: LogResult) -> None:
    if output.as_json:
        output.data(log_json(result))
    else:
        for txn in result.transactions:
            _transaction(output, txn)
            if result.note is not None:
                diff(output, result.diff_for(txn))
            output.line()
        if not result.transactions:
            what = f" of {result.note}" if result.note else ""
            output.note(f"memcli: no history{what} yet")
    for name in result.unreadable:
        output.warn(f"{name}: not a readable history record; left as it is")


def log_json(result: LogResult) -> JsonObject:
    """The JSON of `log --json` (and of the MCP log tool)."""
    def one(txn: Transaction) -> JsonValue:
        data = transaction_json(txn)
        if result.note is not None:
            data["diff"] = result.diff_for(txn)
        return data

    return {"note": result.note, "transactions": [one(t) for t in result.transactions],
            "unreadable": to_json(result.unreadable)}


def transaction_json(txn: Transaction) -> JsonObject:
    return {"id": txn.id, "seq": txn.seq, "time": txn.time, "command": txn.command,
            "source": to_json(txn.source), "undoes": txn.undoes, "levels": to_json(txn.levels),
            "operations": to_json(txn.operations),
            "files": [{"level": f.level, "file": f.filename, "change": f.kind}
                      for f in txn.files]}


def _transaction(output: Output, txn: Transaction) -> None:
    from memcli.safety.invisible_chars import safe_line as q

    # A record is JSON in the store's folder, which a checkout can carry: what it says is
    # printed without the escape sequences it may hold.
    source = q(", ".join(f"{k} {v}" for k, v in txn.source.items()))
    undoes = f" (undoes {q(str(txn.undoes))})" if txn.undoes else ""
    head = f"{output.paint(q(txn.id), YELLOW)}  {q(txn.time)}  {q(txn.command)}{undoes}"
    output.line(head + (f"  [{source}]" if source else ""))
    for op in txn.operations:
        where = f"{op.get('level')}/{op.get('file')}" if op.get("file") else ""
        reason = f"  ({op['reason']})" if op.get("reason") else ""
        output.line(q(f"    {op.get('action')} {where}{reason}".rstrip()))
    for item in txn.files:
        output.line(q(f"    {_MARK[item.kind]} {item.level}/{item.filename}"))


# --------------------------------------------------------------------------- undo


def undo_report(output: Output, report: UndoReport) -> None:
    if output.as_json:
        output.data(undo_json(report))
        return
    for level, name, why in report.held:
        # A name that is no note of the store is never written, --force or not.
        hint = "" if "names no note" in why else " (--force restores it anyway)"
        output.warn(f"{level}/{name} left alone: {why}{hint}")
    if report.dry_run:
        diff(output, report.diff)
    for item in report.files:
        verb = "would restore" if report.dry_run else "restored"
        output.line(f"{verb} {item.level}/{item.filename} ({_undo_kind(item.kind)})")
    target = report.target
    state = ("dry run, nothing written" if report.dry_run
             else "written" if report.written else "nothing to restore")
    output.note(f"memcli: {report.command} of {target.id} ({target.command}, {target.time}): "
                f"{len(report.files)} files; {state}")


def undo_json(report: UndoReport) -> JsonObject:
    """The JSON of `undo --json` (and, with the diff, of the MCP undo tool)."""
    return {
        "undo": transaction_json(report.target),
        "dry_run": report.dry_run,
        "written": report.written,
        "files": files_json(report.files),
        "held": [{"level": lvl, "file": name, "reason": why}
                 for lvl, name, why in report.held],
    }


def _undo_kind(kind: str) -> str:
    return {"created": "recreated", "deleted": "removed", "modified": "rewritten"}[kind]


# --------------------------------------------------------------------------- status


def status_report(output: Output, report: StatusReport) -> None:
    if output.as_json:
        output.data(status_json(report))
        return
    output.line(f"context: {report.lines}/{report.max_lines} lines, "
                f"{report.bytes}/{report.max_bytes} bytes, ~{report.tokens} tokens")
    for lv in report.levels:
        _level_status(output, lv)
    if report.transactions:
        from memcli.safety.invisible_chars import safe_line

        output.line("last transactions:")
        for txn in report.transactions:
            output.line(safe_line(f"  {txn.id}  {txn.time}  {txn.command}  "
                                  f"{plural(len(txn.files), 'file')}"))
    output.note("memcli: healthy" if report.healthy else
                "memcli: needs care; `memcli consolidate` proposes fixes")


def _level_status(output: Output, lv: LevelStatus) -> None:
    if lv.outside:
        output.line(f"{lv.level}: the store {lv.path} is {lv.outside}")
    if not lv.exists:
        output.line(f"{lv.level}: no store yet ({lv.path})")
        return
    output.line(f"{lv.level}: {plural(lv.notes, 'note')}; context shows {lv.shown} "
                f"({plural(lv.lines, 'line')}, {plural(lv.bytes, 'byte')}, "
                f"~{plural(lv.tokens, 'token')})")
    _names(output, "cut by the cap", lv.cut)
    _names(output, "expired (left out of context)",
           [f"{d.filename} (expires {d.date})" for d in lv.expired])
    _names(output, "past review", [f"{d.filename} (review after {d.date})"
                                   for d in lv.review])
    _names(output, "near-duplicates", [f"{a} ~ {b} ({why})"
                                       for a, b, why in lv.near_duplicates])
    if lv.proposals:
        output.line(f"  awaiting review: {lv.proposals} "
                    f"proposal{'s' if lv.proposals != 1 else ''} (see `memcli review`)")
    if lv.anchors:
        output.line(f"  anchors: {lv.anchors}, {len(lv.anchors_changed)} changed, "
                    f"{len(lv.anchors_gone)} gone (see `memcli verify`)")
    _names(output, "cited code changed", lv.anchors_changed)
    _names(output, "cited code gone", lv.anchors_gone)
    if lv.broken:
        output.line(f"  broken notes: {lv.broken} (see `memcli lint`)")
    if lv.index_problem:
        output.line(f"  {lv.index_problem}; until then no command rewrites it")


def _names(output: Output, what: str, names: list[str]) -> None:
    if names:
        output.line(f"  {what}: {len(names)}")
        for name in names:
            output.line(f"    {name}")


def status_json(report: StatusReport) -> JsonObject:
    return {
        "healthy": report.healthy,
        "context": {"lines": report.lines, "bytes": report.bytes, "tokens": report.tokens,
                    "max_lines": report.max_lines, "max_bytes": report.max_bytes},
        "levels": [_level_json(lv) for lv in report.levels],
        "transactions": [transaction_json(t) for t in report.transactions],
    }


def _level_json(lv: LevelStatus) -> JsonObject:
    return {
        "level": lv.level, "path": lv.path, "exists": lv.exists, "notes": lv.notes,
        "outside_repository": lv.outside or None, "broken": lv.broken,
        "index_problem": lv.index_problem or None,
        "context": {"entries": lv.shown, "lines": lv.lines, "bytes": lv.bytes,
                    "tokens": lv.tokens},
        "cut_by_cap": to_json(lv.cut),
        "expired": [{"file": d.filename, "expires": d.date} for d in lv.expired],
        "past_review": [{"file": d.filename, "review_after": d.date} for d in lv.review],
        "near_duplicates": [{"files": [a, b], "why": why} for a, b, why in lv.near_duplicates],
        "anchors": {"total": lv.anchors, "changed": to_json(lv.anchors_changed),
                    "gone": to_json(lv.anchors_gone)},
        "awaiting_review": lv.proposals,
    }


# --------------------------------------------------------------------------- consolidate


def proposal(output: Output, found: Proposal) -> None:
    output.data(proposal_json(found))
    if output.as_json:
        return
    for op in found.operations:
        output.note(f"memcli: {op['kind']}: {op['action']} {op['level']}/{op['filename']}"
                    f"  ({op.get('reason', '')})")
    for text in found.notes:
        output.warn(text)
    counts = ", ".join(f"{n} {kind}" for kind, n in found.counts().items() if n)
    output.note(f"memcli: {counts or 'nothing to propose'} ({found.provider}); nothing written")


def proposal_json(found: Proposal) -> JsonObject:
    """The operations document `consolidate` proposes (what `memcli apply` reads)."""
    from memcli.commands.consolidate_proposal import MARKER

    return {"operations": to_json(found.operations), "base": to_json(found.base),
            MARKER: {"provider": found.provider, "proposals": to_json(found.counts()),
                     "notes": to_json(found.notes)}}
