"""Commands about trust: restore what unattended runs overwrote, trust a project config."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli._app import DryRunOpt, JsonOpt, command, exclusive, finish
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, resolve_settings


@command(section="review and history", rank=40)
@handled
def restore(
    ctx: typer.Context,
    run_id: Annotated[str | None, typer.Argument(
        metavar="[ID]", help="The run to take back, as `--list` shows it.")] = None,
    list_runs: Annotated[
        bool, typer.Option("--list", help="List the unattended runs, newest first.")] = False,
    dry_run: DryRunOpt = False,
    force: Annotated[
        bool, typer.Option("--force", help="Also restore notes changed since the run.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Put back notes an unattended run overwrote.

    An unattended run is the hook or extract --apply. Its transaction's history record
    holds every note it changed as it was; restore is `memcli undo` of that transaction, as
    one new transaction (notes, MEMORY.md and its record). A note changed since the run is
    named and left alone unless --force. Reads the stores' history; writes the notes back.

    \b
    Example:
      memcli restore --list
      memcli restore 3f2a9c1b
    """
    from memcli.commands import restore as core
    from memcli.render.history import undo_report
    from memcli.render.integration import unattended_runs

    settings = resolve_settings(ctx)
    output = make_output(as_json)
    if list_runs or run_id is None:
        unattended_runs(output, core.list_runs(settings))
        return
    report = core.restore(settings, run_id, force=force, dry_run=dry_run)
    undo_report(output, report)
    finish(report)


@command(section="agents and integrations", rank=70)
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
    from memcli.render.integration import trust_revoked, trusted, trusted_configs
    from memcli.settings import trust as core
    from memcli.settings.locations import CONFIG_NAME, MARKER_DIR

    exclusive(list=list_trusted, revoke=revoke)
    settings = resolve_settings(ctx)
    output = make_output(as_json)
    config = settings.project_root / MARKER_DIR / CONFIG_NAME
    if list_trusted:
        trusted_configs(output, core.listed(settings.user_home))
    elif revoke:
        trust_revoked(output, config, core.revoke(settings.user_home, config))
    else:
        trusted(output, core.trust(settings.user_home, config))
