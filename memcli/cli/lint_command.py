"""`memcli lint`: check stores for broken, drifting, duplicate or secret-holding notes."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli._app import (
    app,
    finish,
    make_output,
    resolve_settings,
)
from memcli.cli._errors import handled


@app.command()
@handled
def lint(
    ctx: typer.Context,
    paths: Annotated[
        list[str] | None,
        typer.Argument(metavar="[PATH]...", help="Store folders, MEMORY.md files or notes."),
    ] = None,
    fix: Annotated[bool, typer.Option("--fix", help="Repair what can be repaired safely.")] = False,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="text, json or github.")
    ] = "text",
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
) -> None:
    """Check stores for broken, drifting, duplicate or secret-holding notes."""
    from memcli import lint as linting
    from memcli import render
    from memcli.errors import UsageError

    if output_format not in render.LINT_FORMATS:
        choices = ", ".join(render.LINT_FORMATS)
        raise UsageError(f"unknown --format '{output_format}'; use {choices}")
    settings = resolve_settings(ctx)
    report = linting.run_lint(settings, paths or [], fix=fix)
    render.lint_report(make_output(output_format == "json"), report, output_format)
    finish(report.exit_code(strict=strict))
