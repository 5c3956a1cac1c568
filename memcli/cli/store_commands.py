"""Commands that read and write the stores: apply, add, rm, show, context, index."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
import sys
from typing import Annotated

import typer

from memcli.cli._app import (
    ConflictOpt,
    DryRunOpt,
    JsonOpt,
    LevelOpt,
    app,
    finish,
    make_output,
    resolve_settings,
)
from memcli.cli._errors import handled


@app.command()
@handled
def apply(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="[FILE|-]", help="Operations document.")] = "-",
    dry_run: DryRunOpt = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Write nothing if any operation is rejected.")
    ] = False,
    on_conflict: ConflictOpt = "fail",
    as_json: JsonOpt = False,
) -> None:
    """Validate an operations document and write it to the stores (one transaction)."""
    from memcli import core, render

    settings = resolve_settings(ctx)
    text = core.read_text(source, "operations document")
    report = core.apply_text(settings, text, dry_run=dry_run, strict=strict,
                             on_conflict=on_conflict)
    render.apply_report(make_output(as_json), report)
    finish(report.exit_code)


@app.command()
@handled
def add(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(help="The memory; '-' reads it from stdin.")],
    level: Annotated[str, typer.Option("--level", "-l", help="project or user.")] = "project",
    note_type: Annotated[str, typer.Option(
        "--type", "-t", help="user_preference, correction_feedback, project_knowledge or "
        "reference_material."
    )] = "project_knowledge",
    title: Annotated[str | None, typer.Option(help="Defaults to the first sentence.")] = None,
    summary: Annotated[str | None, typer.Option(help="Defaults to the first sentence.")] = None,
    on_conflict: ConflictOpt = "fail",
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add one memory by hand, through the same validation and write path."""
    from memcli import core, render

    settings = resolve_settings(ctx)
    body = core.read_text("-", "memory text") if text == "-" else text
    report = core.add(settings, level=level, note_type=note_type, text=body, title=title,
                      summary=summary, on_conflict=on_conflict, dry_run=dry_run)
    render.apply_report(make_output(as_json), report)
    finish(report.exit_code)


@app.command()
@handled
def rm(
    ctx: typer.Context,
    notes: Annotated[
        list[str], typer.Argument(metavar="NOTE...", help="File names, slugs or titles.")
    ],
    level: LevelOpt = None,
    dry_run: DryRunOpt = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Remove notes (and their index lines)."""
    from memcli import core, render

    settings = resolve_settings(ctx)
    output = make_output(as_json)
    targets = core.resolve_removal(settings, notes, level)
    if not dry_run and not yes and sys.stdin.isatty():
        output.note("memcli: about to remove:")
        render.removal_targets(output, targets)
        if not typer.confirm("Remove these notes?", err=True):
            raise typer.Exit(1)
    report = core.remove(settings, targets, dry_run=dry_run)
    render.apply_report(output, report)
    finish(report.exit_code)


@app.command()
@handled
def show(
    ctx: typer.Context,
    note: Annotated[
        str | None, typer.Argument(help="File name, slug or title of one note.")
    ] = None,
    level: LevelOpt = None,
    paths: Annotated[bool, typer.Option("--paths", help="Print the store folders.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List the memory entries, or print one note."""
    from memcli import core, render

    settings = resolve_settings(ctx)
    output = make_output(as_json)
    if note is not None:
        render.one_note(output, core.show_note(settings, note, level))
    else:
        render.listing(output, core.list_entries(settings, level), paths=paths)


@app.command()
@handled
def context(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Print the memory block an agent puts in its system prompt."""
    from memcli import core, render

    render.context_block(make_output(as_json), core.context(resolve_settings(ctx)))


@app.command()
@handled
def index(
    ctx: typer.Context,
    level: LevelOpt = None,
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 1 if out of date.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Rebuild MEMORY.md from the notes."""
    from memcli import core, render

    results = core.rebuild_index(resolve_settings(ctx), level, check=check)
    render.index_results(make_output(as_json), results, check=check)
    if check and not all(r.up_to_date and not r.broken for r in results):
        raise typer.Exit(1)
