"""Output of `memcli lint`: findings as text lines, JSON or GitHub annotations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcli.json_values import JsonObject, to_json
from memcli.render.output import RED, YELLOW, Output, plural

if TYPE_CHECKING:
    from memcli.commands.lint import Finding, LintReport

LINT_FORMATS = ("text", "json", "github")


def lint_report(output: Output, report: LintReport, fmt: str) -> None:
    """Findings to stdout (text lines, JSON or GitHub annotations); the summary to stderr."""
    if fmt not in LINT_FORMATS:
        from memcli.errors import InputError

        raise InputError(f"unknown --format '{fmt}'; use {', '.join(LINT_FORMATS)}")
    if fmt == "json":
        output.data(lint_json(report))
        return
    for done in report.fixed:
        output.note(f"memcli: fixed {done}")
    for item in report.findings:
        output.line(_github_line(item) if fmt == "github" else _lint_line(output, item))
    output.note(_lint_summary(report))


def lint_json(report: LintReport) -> JsonObject:
    return {
        "findings": [_finding_json(f) for f in report.findings],
        "fixed": to_json(report.fixed),
        "errors": report.errors,
        "warnings": report.warnings,
        "stores": [{"level": s.level, "path": s.path, "exists": s.exists, "notes": s.notes}
                   for s in report.stores],
    }


def _finding_json(finding: Finding) -> JsonObject:
    return {"code": finding.code, "severity": finding.severity, "path": finding.path,
            "line": finding.line, "column": finding.column, "message": finding.message}


def _lint_line(output: Output, finding: Finding) -> str:
    where = ":".join(str(part) for part in (finding.path, finding.line, finding.column)
                     if part is not None)
    style = RED if finding.severity == "error" else YELLOW
    label = output.paint(f"{finding.code} {finding.severity}", style)
    from memcli.safety.invisible_chars import safe_line

    # File names and quoted lines are a repository's: no escape sequence reaches the terminal.
    return f"{safe_line(where)}: {label}: {safe_line(finding.message)}"


def _github_line(finding: Finding) -> str:
    from memcli.safety.invisible_chars import safe_line

    # Workflow commands: properties escape ',' and ':' too; data escapes '%', CR and LF.
    props = [f"file={_gh_escape(safe_line(finding.path), prop=True)}"]
    if finding.line is not None:
        props.append(f"line={finding.line}")
    if finding.column is not None:
        props.append(f"col={finding.column}")
    props.append(f"title={finding.code}")
    return f"::{finding.severity} {','.join(props)}::{_gh_escape(safe_line(finding.message))}"


def _gh_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _lint_summary(report: LintReport) -> str:
    checked = [s for s in report.stores if s.exists]
    notes = sum(s.notes for s in checked)
    where = (f"{plural(len(checked), 'store')}, {plural(notes, 'note')}" if checked
             else "no store exists yet")
    counts = f"{plural(report.errors, 'error')}, {plural(report.warnings, 'warning')}"
    fixed = f"; fixed {len(report.fixed)}" if report.fixed else ""
    return f"memcli lint: {counts} ({where}){fixed}"
