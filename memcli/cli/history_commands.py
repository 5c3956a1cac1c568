"""Commands that read and reverse the stores' history: log, undo."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli import _complete
from memcli.cli._app import DryRunOpt, JsonOpt, LevelOpt, command, finish
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, resolve_settings


@command(section="review and history", rank=20)
@handled
def log(
    ctx: typer.Context,
    note: Annotated[
        str | None, typer.Argument(
            metavar="[NOTE]", autocompletion=_complete.note_name,
            help="Only the history of this note (file name, slug, title).")
    ] = None,
    level: LevelOpt = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, max=1_000_000,
                                   help="Show at most this many.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show what changed, when and why: the history, or one note's.

    Lists the recorded transactions, newest first, each with its id; with NOTE, that note's
    changes as diffs (a NAME that is no note and has no history exits 1).

    Reads the history folders of the stores (.memcli-history/); writes nothing.

    \b
    Examples:
      memcli log
      memcli log "Build workflow"
      memcli log --level user --json
    """
    from memcli.commands.undo import read_log
    from memcli.render import history as render_history

    result = read_log(resolve_settings(ctx), level, note, limit)
    render_history.log_result(make_output(as_json), result)


@command(section="review and history", rank=30)
@handled
def undo(
    ctx: typer.Context,
    txn_id: Annotated[
        str | None, typer.Argument(metavar="[ID]", help="Transaction id (default: the newest).")
    ] = None,
    dry_run: DryRunOpt = False,
    force: Annotated[
        bool, typer.Option("--force", help="Also restore notes changed since the transaction.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Take a transaction back (as a new transaction).

    Restores the stores as they were before transaction ID (default: the newest).

    Reads the history and the stores; writes the restored notes, MEMORY.md and a new
    history record (so an undo can be undone). A note changed since is named and left alone
    unless --force.

    \b
    Examples:
      memcli undo --dry-run
      memcli undo 3f2a9c1b
    """
    from memcli.commands.undo import undo as run_undo
    from memcli.render import history as render_history

    report = run_undo(resolve_settings(ctx), txn_id, dry_run=dry_run, force=force)
    render_history.undo_report(make_output(as_json), report)
    finish(report)


@command(section="review and history", rank=10)
@handled
def status(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Is my memory healthy? What context cuts, what is stale.

    Per level: the entries, lines, bytes and estimated tokens that `memcli context` emits
    against its cap, the notes the cap cuts, expired notes and notes past their review date,
    near-duplicates; then the last transactions. Reads the stores; writes nothing.

    \b
    Examples:
      memcli status
      memcli status --json
    """
    from memcli.commands.status import status as run_status
    from memcli.render import history as render_history

    render_history.status_report(make_output(as_json), run_status(resolve_settings(ctx)))
