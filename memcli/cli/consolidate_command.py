"""`memcli consolidate`: propose an operations document that tidies the stores."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli import _complete
from memcli.cli._app import JsonOpt, LevelOpt, command
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, resolve_settings


@command(section="review and history", rank=60)
@handled
def consolidate(
    ctx: typer.Context,
    level: LevelOpt = None,
    provider: Annotated[
        str | None, typer.Option(metavar="[rules|openai|anthropic]",
                                 autocompletion=_complete.provider,
                                 help="Who proposes: the rules (default) or a model.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Propose how to tidy the stores; write nothing.

    Proposes merges of near-duplicates, fixes of contradictions, deletes of expired notes
    and shorter summaries.

    Reads the stores; writes nothing. Prints an operations document on stdout, each
    operation with its kind and reason; review it with `memcli apply --dry-run`, then apply
    it (its deletes need --allow-delete). Without --json the proposals are also listed on
    stderr.

    \b
    Example:
      memcli consolidate > tidy.json && memcli apply --dry-run tidy.json
      memcli apply --allow-delete tidy.json
    """
    from memcli.commands.consolidate import propose
    from memcli.render import history as render_history

    settings = resolve_settings(ctx, provider=provider)
    render_history.proposal(make_output(as_json), propose(settings, level, provider))
