"""Output of `memcli verify`: each cited place and its state, as text or JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcli.json_values import JsonObject, JsonValue
from memcli.render.output import CYAN, GREEN, RED, YELLOW, Output, plural

if TYPE_CHECKING:
    from memcli.commands.verify import VerifyReport
    from memcli.store.anchor_check import AnchorCheck
    from memcli.store.anchors import Anchor

_STYLE = {"unchanged": GREEN, "moved": CYAN, "unpinned": YELLOW, "changed": YELLOW,
          "gone": RED}


def verify_report(output: Output, report: VerifyReport) -> None:
    from memcli.commands.verify import STATES

    if output.as_json:
        output.data(verify_json(report))
        return
    from memcli.safety.invisible_chars import safe_line

    for note in report.notes:
        output.line(f"project/{note.filename}  {safe_line(note.title)}")
        for result in note.checks:
            state = output.paint(f"{result.state:<9}", _STYLE[result.state])
            detail = f"  {safe_line(result.detail)}" if result.detail else ""
            output.line(f"  {state} {safe_line(result.anchor.label)}{detail}")
    if report.repinned is not None:
        from memcli.render.store import apply_report

        for dropped in report.dropped:
            output.note(f"memcli: dropped the anchor {safe_line(dropped)} (gone)")
        apply_report(output, report.repinned)
        return
    if not report.notes:
        output.note("memcli: the commit changes no cited code that notes rely on"
                    if report.staged else "memcli: no project note cites a file")
        return
    counts = ", ".join(f"{report.count(s)} {s}" for s in STATES if report.count(s))
    anchors = plural(sum(len(n.checks) for n in report.notes), "anchor")
    output.note(f"memcli: {counts} ({anchors} in {plural(len(report.notes), 'note')})")
    if report.stale:
        output.note("memcli: check those notes; `memcli verify --repin NOTE` accepts the "
                    "current content")


def verify_json(report: VerifyReport) -> JsonObject:
    from memcli.commands.verify import STATES
    from memcli.render.store import apply_json

    data: JsonObject = {
        "root": str(report.root),
        "notes": [{"level": n.level, "file": n.filename, "title": n.title,
                   "anchors": [_check_json(c) for c in n.checks]} for n in report.notes],
        "counts": {s: report.count(s) for s in STATES},
        "stale": report.stale,
        "staged": report.staged,
    }
    if report.repinned is not None:
        data["repinned"] = apply_json(report.repinned)
        data["dropped"] = list(report.dropped)
    return data


def _check_json(result: AnchorCheck) -> JsonObject:
    data: JsonObject = {"anchor": anchor_json(result.anchor), "state": result.state,
                        "detail": result.detail}
    if result.state == "moved" and result.now is not None:
        data["now"] = anchor_json(result.now)
    return data


def anchor_json(anchor: Anchor) -> JsonValue:
    value: dict[str, JsonValue] = dict(anchor.as_value())
    return value
