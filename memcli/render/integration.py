"""Output of the commands that meet other tools and the person's own safety nets: import
and export (Claude Code, Codex, Gemini CLI), restore's list and trust (a restore itself is
an undo: `render.history.undo_report`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.json_values import JsonObject, to_json
from memcli.render.output import Output, diff, plural
from memcli.render.store import apply_json, apply_report
from memcli.store.names import INDEX_NAME

if TYPE_CHECKING:
    from memcli.commands.interop.results import ExportResult, ImportResult
    from memcli.commands.interop.rule_files import RuleFileExport
    from memcli.settings.trust import Trusted, TrustedNow
    from memcli.writes.history import Transaction


# --------------------------------------------------------------------------- import


def import_result(output: Output, result: ImportResult) -> None:
    if output.as_json:
        output.data(import_json(result))
        return
    for item in result.left_out:
        text = f"{item.file}: {item.reason}; not imported"
        if item.problem:
            output.error(text)
        else:
            output.note(f"memcli: {text}")
    for warning in result.warnings:
        output.warn(warning)
    if result.report is None:
        return
    apply_report(output, result.report)
    for outcome in result.report.outcomes:
        if outcome.status == "rejected":
            output.note(f"  #{outcome.position} came from {result.source_of(outcome.position)}")


def import_json(result: ImportResult) -> JsonObject:
    return {
        "folder": str(result.folder),
        "level": result.level,
        "sources": to_json(result.sources),
        "left_out": to_json(result.left_out),
        "warnings": to_json(result.warnings),
        "apply": apply_json(result.report) if result.report is not None else None,
    }


# --------------------------------------------------------------------------- export


def export_result(output: Output, result: ExportResult) -> None:
    """`export claude-code`: each file with the note it came from, then a summary."""
    if output.as_json:
        output.data(export_json(result))
        return
    _export_left_out(output, result)
    for exported in result.files:
        source = f"  (from {exported.source})" if exported.source else ""
        output.line(f"{_change(result, exported.change)} {result.folder / exported.filename}"
                    f"{source}")
    if result.files:
        written = sum(1 for f in result.files if f.change != "unchanged")
        done = (f"{plural(written, 'file')} to write; dry run, nothing written" if result.dry_run
                else f"{plural(written, 'file')} written")
        output.note(f"memcli: exported {plural(len(result.files) - 1, 'note')} of the "
                    f"{result.level} store; {done}")


def file_export_result(output: Output, result: ExportResult) -> None:
    """`export codex|gemini`: the one file written into the other agent's memory."""
    if output.as_json:
        output.data(export_json(result))
        return
    _export_left_out(output, result)
    for exported in result.files:
        output.line(f"{_change(result, exported.change)} {result.folder / exported.filename}")
    if result.dry_run and result.files:
        output.note("memcli: dry run, nothing written")


def rule_file_export(output: Output, result: RuleFileExport) -> None:
    """`export agents-md|claude-md|…`: the marked block in one agent's rule file."""
    if output.as_json:
        output.data(rule_file_json(result))
        return
    for warning in result.warnings:
        output.warn(f"memcli: {warning}")
    if result.dry_run and result.stale:
        diff(output, _file_diff(result))
    if result.check:
        state = "stale" if result.stale else "up to date"
        output.line(f"{result.path}: the memcli block is {state}")
        if result.stale:
            output.note(f"memcli: run `memcli export {result.target}` to refresh it")
        return
    change = result.change if not result.dry_run or not result.stale else \
        "would " + result.change.removesuffix("d")
    output.line(f"{change} {result.path} ({plural(result.notes, 'note')}"
                + (f", {result.left_out} left out to fit its size" if result.left_out else "")
                + ")")
    if result.dry_run:
        output.note("memcli: dry run, nothing written")


def _file_diff(result: RuleFileExport) -> str:
    import difflib

    before = (result.before or "").splitlines(keepends=True)
    after = result.after.splitlines(keepends=True)
    old = f"a/{result.path.name}" if result.before is not None else "/dev/null"
    return "".join(line if line.endswith("\n") else line + "\n"
                   for line in difflib.unified_diff(before, after, old, f"b/{result.path.name}"))


def rule_file_json(result: RuleFileExport) -> JsonObject:
    return {"target": result.target, "path": str(result.path), "change": result.change,
            "stale": result.stale, "notes": result.notes, "left_out": result.left_out,
            "levels": list(result.levels), "dry_run": result.dry_run, "check": result.check,
            "warnings": list(result.warnings)}


def _change(result: ExportResult, change: str) -> str:
    """created, updated, unchanged; in a dry run what would be done ("would create")."""
    if not result.dry_run or change == "unchanged":
        return change
    return "would " + change.removesuffix("d")


def _export_left_out(output: Output, result: ExportResult) -> None:
    for item in result.left_out:
        if item.problem:
            output.error(f"{item.file}: {item.reason}; not exported")
        else:
            output.note(f"memcli: {item.reason}; nothing exported")


def export_json(result: ExportResult) -> JsonObject:
    return {
        "folder": str(result.folder),
        "level": result.level,
        "dry_run": result.dry_run,
        "files": [{"file": f.filename, "change": f.change, "from": f.source}
                  for f in result.files],
        "left_out": [{"file": i.file, "reason": i.reason} for i in result.left_out],
    }


# --------------------------------------------------------------------------- restore, trust


def unattended_runs(output: Output, found: Sequence[Transaction]) -> None:
    """`restore --list`: the unattended runs that changed a note, and the notes."""
    from memcli.safety.invisible_chars import safe_line

    if output.as_json:
        output.data([{"backup": t.id, "when": t.time, "command": t.command,
                      "via": t.source.get("via"), "notes": _notes(t)} for t in found])
        return
    for t in found:
        via = f" via {t.source['via']}" if t.source.get("via") else ""
        output.line(safe_line(f"{t.id}  {t.time}  {t.command}{via}  " + ", ".join(_notes(t))))
    if not found:
        output.note("memcli: no unattended run in the history has changed a note")


def _notes(txn: Transaction) -> list[str]:
    return [f"{f.level}/{f.filename}" for f in txn.files if f.filename != INDEX_NAME]


def trusted_configs(output: Output, found: Sequence[Trusted]) -> None:
    if output.as_json:
        output.data(to_json(found))
        return
    for t in found:
        output.line(t.config)
    if not found:
        output.note("memcli: no project config is trusted")


def trust_revoked(output: Output, config: Path, gone: bool) -> None:
    output.note(f"memcli: {'no longer trusted' if gone else 'was not trusted'}: {config}")


def trusted(output: Output, done: TrustedNow) -> None:
    if output.as_json:
        output.data(done)
        return
    output.note(f"memcli: trusted {done.config} as it is now (sha256 {done.sha256[:12]}…)")
    from memcli.safety.invisible_chars import safe_line

    for setting in done.decides:
        output.note(f"  it decides {safe_line(setting)}")
