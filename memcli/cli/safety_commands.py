"""Commands that undo or limit what unattended runs did: restore."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli._app import JsonOpt, app, make_output, resolve_settings
from memcli.cli._errors import handled


@app.command()
@handled
def restore(
    ctx: typer.Context,
    run_id: Annotated[str | None, typer.Argument(
        metavar="[BACKUP]", help="The backup to put back, as `--list` shows it.")] = None,
    list_runs: Annotated[
        bool, typer.Option("--list", help="List the backups, newest first.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Put back notes an unattended run overwrote.

    An unattended run is the hook or extract --apply.

    Every such run keeps the notes it changes, as they were, in ~/.memcli/backups/ (the
    last 50 runs). Reads that folder; writes the notes back into their stores and rebuilds
    MEMORY.md.

    \b
    Example:
      memcli restore --list
      memcli restore 20261129T100000Z-4242
    """
    from memcli import restore as core

    settings = resolve_settings(ctx)
    output = make_output(as_json)
    if list_runs or run_id is None:
        found = core.list_runs(settings)
        if as_json:
            output.data([{"backup": r.run_id, "when": r.when,
                          "notes": [f"{lvl}/{name}" for lvl, name in r.notes]} for r in found])
            return
        for r in found:
            output.line(f"{r.run_id}  {r.when}  " + ", ".join(f"{lvl}/{n}" for lvl, n in r.notes))
        if not found:
            output.note("memcli: no backups: no unattended run has changed a note")
        return
    done = core.restore(settings, run_id)
    if as_json:
        output.data({"backup": done.run_id,
                     "restored": [f"{lvl}/{name}" for lvl, name in done.notes]})
        return
    for lvl, name in done.notes:
        output.line(f"restored {lvl}/{name}")
