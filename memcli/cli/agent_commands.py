"""Commands that put memcli where agents and machines already are: hooks, git, sync."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
import json
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from memcli.cli import _complete
from memcli.cli._app import DryRunOpt, JsonOpt, command, command_group, finish
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, read_input, resolve_settings, working_folder
from memcli.errors import ExitStatus

if TYPE_CHECKING:
    from memcli.commands.gitstore.teams import TeamSyncResult
    from memcli.settings.config import Settings

hooks_app = command_group(
    "hooks", help="Wire memcli into agents and git, keeping other hooks.\n\n"
    "\b\nExample:\n  memcli hooks install --agent claude-code --dry-run",
    section="agents and integrations", rank=10)

AgentOpt = Annotated[str, typer.Option(
    "--agent", "-a", metavar="[claude-code|codex|gemini|copilot|git]",
    autocompletion=_complete.agent,
    help="The agent (or git, for the MEMORY.md merge driver).")]
ScopeOpt = Annotated[str, typer.Option(
    "--scope", metavar="[project|user]", autocompletion=_complete.scope,
    help="project: the repository's settings; user: your own, for every project.")]


def _home(settings: "Settings") -> Path:
    """The home folder resolve_settings found: the agents' user settings live there."""
    if settings.home is None:
        from memcli.errors import ConfigError

        raise ConfigError("memcli cannot tell your home folder (HOME is not set); set HOME")
    return settings.home


@hooks_app.command("install")
@handled
def hooks_install(
    ctx: typer.Context,
    agent: AgentOpt,
    scope: ScopeOpt = "project",
    extractor: Annotated[str | None, typer.Option(
        "--extractor", metavar="[agent|auto|rules|openai|anthropic|ollama]",
        help="What the hooks extract with: agent = the agent's own CLI, headless; auto (the "
        "default for hooks it adds) = an API key, else the agent's CLI, else a local model, "
        "else rules.")] = None,
    review: Annotated[str | None, typer.Option(
        "--review", metavar="none|all|TYPE,…",
        help="What the hooks leave in the review inbox instead of writing (`memcli review`); "
        "set in the config's [hooks] table.")] = None,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add memcli's hooks to an agent's settings file, keeping every other hook.

    Reads and writes the agent's settings (claude-code: .claude/settings.json, codex:
    .codex/hooks.json, gemini: .gemini/settings.json, copilot: .github/hooks/memcli.json;
    under your home folder with --scope user); git: .gitattributes and the repository's git
    config. Running it again changes nothing; --dry-run prints the diff. Each hook names
    its extractor (`memcli hook AGENT --extractor auto` by default); --extractor X sets X in
    every memcli hook of that file, existing ones included.
    --review sets `review` in the config (.memcli/config.toml, or ~/.memcli/config.toml with
    --scope user): all, or note types whose changes wait for `memcli review`.

    \b
    Examples:
      memcli hooks install --agent codex --dry-run
      memcli hooks install --agent claude-code --extractor agent
      memcli hooks install -a codex --review project_knowledge,correction_feedback
    """
    settings = resolve_settings(ctx)
    reviewed = None
    if review is not None:
        from memcli.commands.review_config import checked_review

        reviewed = checked_review(review)
    if agent == "git":
        if extractor is not None:
            from memcli.errors import UsageError

            raise UsageError("--extractor is for an agent's hooks, not for --agent git")
        from memcli.commands.gitstore.wiring import install_git

        result = install_git([settings.project_store, settings.user_store], working_folder(),
                             os.environ, scope, dry_run=dry_run)
    else:
        from memcli.commands.hooks_install import install

        result = install(agent, scope, settings.project_root, _home(settings), os.environ,
                         dry_run=dry_run, extractor=extractor)
    from memcli.render.agents import hooks_installed

    output = make_output(as_json)
    hooks_installed(output, result, dry_run=dry_run)
    if reviewed is not None:
        from memcli.commands.review_config import set_review
        from memcli.settings.locations import CONFIG_NAME, MARKER_DIR
        from memcli.settings.review import review_text

        config = (settings.user_home if scope == "user"
                  else settings.project_root / MARKER_DIR) / CONFIG_NAME
        changed = set_review(config, reviewed, dry_run=dry_run)
        verb = "would set" if dry_run else "set" if changed else "already had"
        output.note(f"memcli: {verb} review = {review_text(reviewed)} in {config}")
    if agent != "git" and shutil.which("memcli", path=os.environ.get("PATH")) is None:
        # The agent runs `memcli hook …` through its own PATH: a venv that is not activated
        # makes every hook fail where nobody sees it.
        output.warn("memcli is not on PATH: the agent will not find `memcli hook`; put "
                    "memcli's folder on PATH (or activate its virtual environment)")
    finish(result)


@hooks_app.command("status")
@handled
def hooks_status(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Show which agents' settings run memcli, for this project and for you.

    Reads the agents' settings files and the repository's .gitattributes; writes nothing.
    For each agent's hooks: the extractor they run, and for auto what it would choose now
    (an API key, the agent's CLI on PATH, a local server that answers, else rules) and why.

    \b
    Example:
      memcli hooks status
    """
    from memcli.commands.gitstore.wiring import git_status
    from memcli.commands.hooks_install import status
    from memcli.render.agents import hooks_status as show_status
    from memcli.settings.resolve import for_provider

    settings = resolve_settings(ctx)
    # Where `--provider auto` would look for a local server: as the hook's job resolves it.
    base_url = settings.base_url if settings.provider == "auto" or settings.problems \
        else for_provider(settings, "auto").base_url
    rows = status(settings.project_root, _home(settings), os.environ,
                  provider=settings.provider, base_url=base_url)
    git_path, wired, missing = git_status([settings.project_store, settings.user_store],
                                          working_folder(), os.environ)
    show_status(make_output(as_json), rows, git_path, wired, missing)
    finish()


@command("merge-index", section="plumbing", rank=20)
@handled
def merge_index(
    base: Annotated[Path, typer.Argument(help="The common ancestor's MEMORY.md (git's %O).")],
    ours: Annotated[Path, typer.Argument(help="Our MEMORY.md, replaced by the result (%A).")],
    theirs: Annotated[Path, typer.Argument(help="Their MEMORY.md (%B).")],
    path: Annotated[str | None, typer.Argument(help="The file's path in the tree (%P).")] = None,
) -> None:
    """git merge driver for MEMORY.md: never a conflict.

    Merges the index entries of both sides.

    Reads the three versions git hands over and writes the merge into OURS, in the index
    order. Wired by `memcli hooks install --agent git`.

    \b
    Example:
      git config merge.memcli.driver 'memcli merge-index %O %A %B %P'
    """
    from memcli.commands.gitstore.merge_index import merge_files

    merge_files(base, ours, theirs)
    finish()


@command(section="agents and integrations", rank=30)
@handled
def sync(
    ctx: typer.Context,
    init: Annotated[str | None, typer.Option(
        "--init", metavar="URL", help="Set the user store up to sync with URL (or clone it).",
    )] = None,
    as_json: JsonOpt = False,
) -> None:
    """Sync the user store and the team stores through git.

    Commits, pulls with --rebase, re-indexes and pushes; clones or updates each team store
    (read only: nothing is pushed to one).

    Reads and writes the user store's git repository and its remote. A note changed on two
    machines keeps both versions (the copy is NAME-conflict-N.md) and exits 1.

    \b
    Example:
      memcli sync --init git@github.com:me/memory.git
    """
    from memcli.commands.gitstore.sync import sync as run_sync
    from memcli.commands.reindex import rebuild_index
    from memcli.render.agents import sync_result
    from memcli.writes.opening import locked

    settings = resolve_settings(ctx)

    def reindex(_store: Path) -> bool:
        return any(r.changed for r in rebuild_index(settings, "user", check=False))

    output = make_output(as_json)
    teams: tuple[TeamSyncResult, ...] = ()
    if init is None:
        settings.require_teams()
    if init is None and settings.teams:
        from memcli.commands.gitstore._git import is_repository
        from memcli.commands.gitstore.teams import sync_team
        from memcli.render.agents import team_sync_results

        teams = tuple(sync_team(team, os.environ) for team in settings.teams)
        if not (settings.user_store.is_dir()
                and is_repository(settings.user_store, os.environ)):
            # Team stores only: the user store is not set up to sync, and need not be.
            team_sync_results(output, teams)
            finish(ExitStatus.REJECTED if any(t.error for t in teams) else None)
    result = run_sync(settings.user_store, os.environ, sys.executable, init_url=init,
                      reindex=reindex,
                      lock=lambda: locked([settings.user_store], settings.lock_timeout))
    sync_result(output, result, teams)
    finish(ExitStatus.REJECTED if any(t.error for t in teams) else result)


@command(section="agents and integrations", rank=20)
@handled
def mcp(ctx: typer.Context) -> None:
    """Serve memcli's tools to an MCP client over stdio.

    Needs the extra: pip install 'memcli[mcp]'.

    Tools: search, show, context (read only), propose (the diff of an operations document)
    and apply (writes both stores); resources: the two MEMORY.md indexes. Reads and writes
    the stores of the folder it is started in. apply is guarded as a hook's writes are (no
    deletes, no gutting updates, at most 5 existing notes a call) unless
    MEMCLI_TRUST_WRITES=mcp is set.

    \b
    Example (Claude Desktop, Cursor, VS Code):
      {"command": "memcli", "args": ["mcp"]}
    """
    from memcli.cli._process_state import trusted_writes
    from memcli.mcp.server import serve

    # Unattended: outside a git work tree it makes no project store (SPEC section 1).
    serve(resolve_settings(ctx).for_unattended(), trusted=trusted_writes("mcp"))


@command("memory-tool", section="plumbing", rank=40)
@handled
def memory_tool(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option(
        "--json", help='Print {"content", "is_error"} instead of the text.')] = False,
) -> None:
    """Run one call of Anthropic's memory tool against the stores.

    The tool is memory_20250818 (view, create, str_replace, insert, delete, rename).

    Reads the tool_use input (JSON) on stdin; /memories/project/... and /memories/user/...
    are the two stores. Writes go through apply's validation in one transaction, guarded
    as a hook's are (delete refused, no gutting updates) unless
    MEMCLI_TRUST_WRITES=memory-tool is set. Prints the tool result; exits 1 when the call
    was a mistake (the text says why).

    \b
    Example:
      echo '{"command": "view", "path": "/memories"}' | memcli memory-tool
    """
    from memcli.commands.memory_tool import run_call
    from memcli.render.agents import memory_tool_result

    text = read_input("-", "memory tool call")
    try:
        call = json.loads(text)
    except json.JSONDecodeError as exc:
        from memcli.errors import InputError

        raise InputError(f"the memory tool call is not JSON: {exc}") from None
    from memcli.cli._process_state import trusted_writes

    result = run_call(resolve_settings(ctx).for_unattended(), call,
                      trusted=trusted_writes("memory-tool"))
    memory_tool_result(make_output(as_json), result)
    finish(result)
