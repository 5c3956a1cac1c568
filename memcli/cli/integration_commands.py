"""Commands that connect memcli to other tools: the agent hooks' entry points, completion.

Import and export are in `interop_commands`."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from memcli.cli import _complete
from memcli.cli._app import command, command_group
from memcli.cli._errors import handled

hook_app = command_group("hook", help="Entry points for agent hooks (they never fail the agent).",
                         section="plumbing", rank=30)


EventArg = Annotated[str | None, typer.Argument(
    help="The event, when the payload does not name it (Copilot CLI's camelCase events).")]


ExtractorOpt = Annotated[str | None, typer.Option(
    "--extractor", metavar="PROVIDER",
    help="The provider the hook's extractions use (written by `hooks install --extractor`).")]


def _run_hook(ctx: typer.Context, agent: str, event: str | None,
              extractor: str | None = None) -> None:
    from memcli.hooks.dispatch import run_hook

    # Fails open by design: the hook logs its own errors and never breaks the agent's session.
    try:
        cwd = Path.cwd()
    except OSError:  # the working folder was deleted; the payload's cwd is used anyway
        cwd = Path(os.sep)
    sys.stdout.write(run_hook(agent, dict(ctx.obj or {}), os.environ, cwd, event=event,
                              extractor=extractor))


@hook_app.command("claude-code")
def hook_claude_code(ctx: typer.Context, event: EventArg = None,
                           extractor: ExtractorOpt = None) -> None:
    """Handle a Claude Code hook payload on stdin; always exits 0.

    SessionStart prints the context block; Stop and PreCompact queue an extraction.

    \b
    Example:
      echo '{"hook_event_name":"SessionStart"}' | memcli hook claude-code
    """
    _run_hook(ctx, "claude-code", event, extractor)


@hook_app.command("codex")
def hook_codex(ctx: typer.Context, event: EventArg = None,
                     extractor: ExtractorOpt = None) -> None:
    """Handle a Codex CLI hook payload on stdin; always exits 0.

    SessionStart prints the context block; Stop and PreCompact queue an extraction.

    \b
    Example:
      memcli hooks install --agent codex
    """
    _run_hook(ctx, "codex", event, extractor)


@hook_app.command("gemini")
def hook_gemini(ctx: typer.Context, event: EventArg = None,
                      extractor: ExtractorOpt = None) -> None:
    """Handle a Gemini CLI hook payload on stdin; always exits 0 and prints JSON only.

    SessionStart prints the context block; AfterAgent and PreCompress queue an extraction.

    \b
    Example:
      memcli hooks install --agent gemini
    """
    _run_hook(ctx, "gemini", event, extractor)


@hook_app.command("copilot")
def hook_copilot(ctx: typer.Context, event: EventArg = None,
                       extractor: ExtractorOpt = None) -> None:
    """Handle a GitHub Copilot CLI hook payload on stdin; always exits 0.

    sessionStart prints the context block; agentStop and preCompact queue an extraction.

    \b
    Example:
      memcli hook copilot agentStop < payload.json
    """
    _run_hook(ctx, "copilot", event, extractor)


@command(section="plumbing", rank=50)
@handled
def completion(
    shell: Annotated[str | None, typer.Argument(
        metavar="[bash|zsh|fish]", autocompletion=_complete.shell, help="The shell.")] = None,
    write_to: Annotated[Path | None, typer.Option(
        "--write-to", metavar="DIR", hidden=True, help="Write all three scripts into DIR."
    )] = None,
) -> None:
    """Print the shell completion script for bash, zsh or fish.

    \b
    Example:
      mkdir -p ~/.local/share/bash-completion/completions
      memcli completion bash > ~/.local/share/bash-completion/completions/memcli
    """
    from memcli.cli.completion_scripts import completion_script, write_scripts
    from memcli.errors import UsageError

    if write_to is not None:
        for path in write_scripts(write_to):
            sys.stdout.write(f"wrote {path}\n")
    elif shell is None:
        raise UsageError("name a shell: bash, zsh or fish")
    else:
        sys.stdout.write(completion_script(shell))
