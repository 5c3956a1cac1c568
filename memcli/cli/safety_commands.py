"""Commands about trust: restore what unattended runs overwrote, trust a project config."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli._app import JsonOpt, app, exclusive, make_output, resolve_settings
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


@app.command()
@handled
def trust(
    ctx: typer.Context,
    list_trusted: Annotated[
        bool, typer.Option("--list", help="List the project configs you trust.")] = False,
    revoke: Annotated[
        bool, typer.Option("--revoke", help="Stop trusting this project's config.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Let this project's config choose provider and stores.

    A repository is untrusted: until you trust its config, memcli ignores the settings in it
    that decide where your API key is sent (provider, base_url, model) or where the stores
    live (user_store, a project_store outside the project); `memcli config` lists what it
    ignored. A trust holds for the config as it is now: when the file changes, run
    `memcli trust` again. Reads the project config; writes ~/.memcli/trust.json.

    \b
    Example:
      cat .memcli/config.toml && memcli trust
      memcli trust --list
    """
    from memcli import trust as core
    from memcli.config import CONFIG_NAME, MARKER_DIR

    exclusive(list=list_trusted, revoke=revoke)
    settings = resolve_settings(ctx)
    output = make_output(as_json)
    config = settings.project_root / MARKER_DIR / CONFIG_NAME
    if list_trusted:
        found = core.listed(settings.user_home)
        if as_json:
            output.data([{"config": t.config, "sha256": t.sha256} for t in found])
        for t in [] if as_json else found:
            output.line(t.config)
        if not found and not as_json:
            output.note("memcli: no project config is trusted")
        return
    if revoke:
        gone = core.revoke(settings.user_home, config)
        output.note(f"memcli: {'no longer trusted' if gone else 'was not trusted'}: {config}")
        return
    done = core.trust(settings.user_home, config)
    if as_json:
        output.data({"config": done.config, "sha256": done.sha256})
        return
    output.note(f"memcli: trusted {done.config} as it is now (sha256 {done.sha256[:12]}…)")
