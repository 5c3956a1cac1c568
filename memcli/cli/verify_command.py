"""`memcli verify`: are the files the project notes cite still what they were written about?"""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli import _complete
from memcli.cli._app import DryRunOpt, JsonOpt, command, finish
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, resolve_settings


@command(section="review and history", rank=55)
@handled
def verify(
    ctx: typer.Context,
    notes: Annotated[list[str] | None, typer.Argument(
        metavar="[NOTE]...", autocompletion=_complete.note_name,
        help="project/NAME.md, paths, file names, slugs or titles (default: every note "
        "that cites a file).",
    )] = None,
    repin: Annotated[bool, typer.Option(
        "--repin", help="Accept what the cited files hold now (after you checked the note): "
        "moved anchors follow, changed ones are pinned again, gone ones are dropped.",
    )] = False,
    staged: Annotated[bool, typer.Option(
        "--staged", help="Only the anchors whose file the staged commit changes; report them "
        "and exit 0 (the pre-commit hook's warning).",
    )] = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Check that the files the notes cite did not change.

    Checks each anchor (`cites:`) of the project notes against the working tree:
    unchanged, changed (with a short diff summary), moved (the same content at another
    path or lines), gone, or unpinned. Exits 1 when any is changed or gone.

    \b
    Examples:
      memcli verify
      memcli verify project_knowledge_deploy.md --json
      memcli verify --repin "Deploy workflow"
    """
    from memcli.commands import verify as verifying
    from memcli.errors import UsageError
    from memcli.render.anchors import verify_report

    if repin and not notes:
        raise UsageError("--repin needs the notes you checked: memcli verify --repin NOTE...")
    if repin and staged:
        raise UsageError("--repin and --staged contradict each other; use one")
    if dry_run and not repin:
        raise UsageError("--dry-run goes with --repin")
    settings = resolve_settings(ctx)
    if repin:
        report = verifying.repin(settings, notes or [], dry_run=dry_run)
    elif staged:
        report = verifying.verify_staged(settings)
    else:
        report = verifying.verify(settings, notes or [])
    verify_report(make_output(as_json), report)
    finish(report)
