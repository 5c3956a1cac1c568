"""Commands that find notes for a prompt: search and recall."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli._app import JsonOpt, LevelOpt, command
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, read_input, resolve_settings

DEFAULT_LIMIT = 10
DEFAULT_BUDGET = 1000  # keep in step with memcli.search.recall.DEFAULT_BUDGET (a test checks)
# Bounds of the numeric options: past them a number is a typo, and one past 2**63 reached
# SQLite as an OverflowError (exit 5). typer refuses them as a usage error (exit 2).
MAX_RESULTS = 10_000
MAX_BUDGET = 10_000_000


@command(section="everyday", rank=50)
@handled
def search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help="Words to look for; '-' reads them from stdin.")],
    level: LevelOpt = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=MAX_RESULTS,
                                       help="Most results shown.")] = DEFAULT_LIMIT,
    as_json: JsonOpt = False,
) -> None:
    """Search the notes of both stores, best match first.

    Ranked full-text search over titles, summaries and bodies, with a snippet each.

    Reads the stores; writes only a derived index in memcli's cache folder
    (<memcli home>/cache/search/), which can be deleted at any time.

    \b
    Examples:
      memcli search "make test"
      memcli search --level user --json -- --force-with-lease
    """
    from memcli.render import search as render
    from memcli.render.output import IndexProgress
    from memcli.search.engine import search as run_search

    text = read_input("-", "query") if query == "-" else query
    settings = resolve_settings(ctx)
    output = make_output(as_json)
    with IndexProgress(output) as progress:
        found = run_search(settings, text, level=level, limit=limit, progress=progress.update)
    render.search_result(output, found)


@command(section="everyday", rank=60)
@handled
def recall(
    ctx: typer.Context,
    prompt: Annotated[str, typer.Argument(metavar="[PROMPT|-]",
                                          help="The prompt; '-' (default) reads stdin.")] = "-",
    budget: Annotated[int, typer.Option("--budget", "-b", min=1, max=MAX_BUDGET, metavar="TOKENS",
                                        help="Most tokens of notes to print.")] = DEFAULT_BUDGET,
    level: LevelOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print the notes relevant to a prompt, within a token budget.

    Prints nothing when no note is relevant enough. A prompt that names a time
    ("yesterday", "last week", "in March", 昨天) recalls the notes written or updated
    then, the most recent first. Reads the stores; writes only the
    derived search index in memcli's cache folder. Token counts are estimates (4 characters
    a token, 1 per CJK character).

    \b
    Examples:
      memcli recall "how do I run the unit tests?"
      memcli recall "what did we do yesterday?"
      echo "$PROMPT" | memcli recall --budget 500 --json
    """
    from memcli.render import search as render
    from memcli.render.output import IndexProgress
    from memcli.search.recall import recall as run_recall

    text = read_input("-", "prompt") if prompt == "-" else prompt
    settings = resolve_settings(ctx)
    output = make_output(as_json)
    with IndexProgress(output) as progress:
        found = run_recall(settings, text, budget=budget, level=level,
                           progress=progress.update)
    render.recall_result(output, found)
