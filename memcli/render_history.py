"""Output of the history commands: log and undo (text for people, JSON for tools)."""

from __future__ import annotations

from typing import Any

from memcli.render import Output, diff

_YELLOW = "\033[33m"
_MARK = {"created": "A", "modified": "M", "deleted": "D"}


def log_result(output: Output, result: Any) -> None:
    if output.as_json:
        output.data(result.as_json())
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


def _transaction(output: Output, txn: Any) -> None:
    source = ", ".join(f"{k} {v}" for k, v in txn.source.items())
    undoes = f" (undoes {txn.undoes})" if txn.undoes else ""
    head = f"{output.paint(txn.id, _YELLOW)}  {txn.time}  {txn.command}{undoes}"
    output.line(head + (f"  [{source}]" if source else ""))
    for op in txn.operations:
        where = f"{op.get('level')}/{op.get('file')}" if op.get("file") else ""
        reason = f"  ({op['reason']})" if op.get("reason") else ""
        output.line(f"    {op.get('action')} {where}{reason}".rstrip())
    for item in txn.files:
        output.line(f"    {_MARK[item.kind]} {item.level}/{item.filename}")


def undo_report(output: Output, report: Any) -> None:
    if output.as_json:
        output.data(report.as_json())
        return
    for level, name, why in report.held:
        output.warn(f"{level}/{name} left alone: {why} (--force restores it anyway)")
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


def _undo_kind(kind: str) -> str:
    return {"created": "recreated", "deleted": "removed", "modified": "rewritten"}[kind]


def status_report(output: Output, report: Any) -> None:
    if output.as_json:
        output.data(report.as_json())
        return
    output.line(f"context: {report.lines}/{report.max_lines} lines, "
                f"{report.bytes}/{report.max_bytes} bytes, ~{report.tokens} tokens")
    for lv in report.levels:
        if not lv.exists:
            output.line(f"{lv.level}: no store yet ({lv.path})")
            continue
        output.line(f"{lv.level}: {lv.notes} notes; context shows {lv.shown} "
                    f"({lv.lines} lines, {lv.bytes} bytes, ~{lv.tokens} tokens)")
        _names(output, "cut by the cap", lv.cut)
        _names(output, "expired (left out of context)",
               [f"{d.filename} (expires {d.date})" for d in lv.expired])
        _names(output, "past review", [f"{d.filename} (review after {d.date})"
                                       for d in lv.review])
        _names(output, "near-duplicates", [f"{a} ~ {b} ({why})"
                                           for a, b, why in lv.near_duplicates])
        if lv.broken:
            output.line(f"  broken notes: {lv.broken} (see `memcli lint`)")
    if report.transactions:
        output.line("last transactions:")
        for txn in report.transactions:
            output.line(f"  {txn.id}  {txn.time}  {txn.command}  "
                        f"{len(txn.files)} files")
    output.note("memcli: healthy" if report.healthy else
                "memcli: needs care; `memcli consolidate` proposes fixes")


def _names(output: Output, what: str, names: list[str]) -> None:
    if names:
        output.line(f"  {what}: {len(names)}")
        for name in names:
            output.line(f"    {name}")


def proposal(output: Output, found: Any) -> None:
    output.data(found.document())
    if output.as_json:
        return
    for op in found.operations:
        output.note(f"memcli: {op['kind']}: {op['action']} {op['level']}/{op['filename']}"
                    f"  ({op.get('reason', '')})")
    for text in found.notes:
        output.warn(text)
    counts = ", ".join(f"{n} {kind}" for kind, n in found.counts().items() if n)
    output.note(f"memcli: {counts or 'nothing to propose'} ({found.provider}); nothing written")
