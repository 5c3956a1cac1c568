"""`memcli lint`: check stores for broken, drifting, duplicate or secret-holding notes."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli import _complete
from memcli.cli._app import JsonOpt, LevelOpt, command, finish
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, resolve_settings


@command(section="review and history", rank=50)
@handled
def lint(
    ctx: typer.Context,
    paths: Annotated[
        list[str] | None,
        typer.Argument(metavar="[PATH]...", help="Store folders, MEMORY.md files or notes."),
    ] = None,
    fix: Annotated[bool, typer.Option("--fix", help="Repair what can be repaired safely.")] = False,
    output_format: Annotated[str | None, typer.Option(
        "--format", "-f", metavar="[text|json|github]", autocompletion=_complete.lint_format,
        help="Output format (default: text; github for GitHub Actions annotations).",
    )] = None,
    as_json: JsonOpt = False,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    level: LevelOpt = None,
) -> None:
    """Check stores for broken, stale, duplicate or secret notes.

    Reads the stores (default: both) or the given folders and files; writes only with --fix,
    which repairs what can be repaired without losing anything.

    \b
    Examples:
      memcli lint
      memcli lint --fix .memcli/memory
      memcli lint --level user
      memcli lint --format github   # in CI
    """
    from memcli.commands import lint as linting
    from memcli.errors import UsageError
    from memcli.render.lint import LINT_FORMATS, lint_report

    if as_json and output_format not in (None, "json"):
        raise UsageError(f"--json and --format {output_format} contradict each other; use one")
    output_format = "json" if as_json else (output_format or "text")
    if output_format not in LINT_FORMATS:
        choices = ", ".join(LINT_FORMATS)
        raise UsageError(f"unknown --format '{output_format}'; use {choices}")
    settings = resolve_settings(ctx)
    report = linting.run_lint(settings, paths or [], fix=fix, level=level, strict=strict)
    lint_report(make_output(output_format == "json"), report, output_format)
    finish(report)
