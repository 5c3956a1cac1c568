"""The typer application, the options every command shares, and the per-command helpers.

Only typer and the standard library are imported here: TAB completion and `--help` run
this module on every key press, so each command imports what it needs when it runs.
"""

# No `from __future__ import annotations` here: typer reads every command's annotations on
# every run, and string annotations cost an eval() apiece (10 ms per start for this app).
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
import typer.core

from memcli import __version__

if TYPE_CHECKING:
    from memcli.config import Settings
    from memcli.render import Output

# The order a newcomer meets the commands in: the main job first, plumbing last.
COMMAND_ORDER = ("extract", "apply", "show", "context", "add", "rm", "index", "lint", "config",
                 "import", "export", "hook", "completion")


class _OrderedGroup(typer.core.TyperGroup):
    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)
        rank = {name: i for i, name in enumerate(COMMAND_ORDER)}
        return sorted(names, key=lambda name: rank.get(name, len(rank)))


app = typer.Typer(
    cls=_OrderedGroup,
    name="memcli",
    help="Long-term memory for AI agents as reviewable Markdown.",
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

LevelOpt = Annotated[str | None, typer.Option("--level", "-l", help="project, user or all.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", "-n", help="Show the diff; write nothing.")]
ConflictOpt = Annotated[
    str, typer.Option("--on-conflict", help="A create whose note exists: fail, update or rename.")
]


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"memcli {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def main_options(
    ctx: typer.Context,
    project_store: Annotated[str | None, typer.Option(
        "--project-store", metavar="PATH", help="Project store folder [env MEMCLI_PROJECT_STORE]."
    )] = None,
    user_store: Annotated[str | None, typer.Option(
        "--user-store", metavar="PATH", help="User store folder [env MEMCLI_USER_STORE]."
    )] = None,
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit."
    )] = False,
) -> None:
    """Long-term memory for AI agents as reviewable Markdown."""
    ctx.obj = {"project_store": project_store, "user_store": user_store}


def resolve_settings(ctx: typer.Context, **flags: Any) -> "Settings":
    """Resolve the configuration once, from the flags, the environment and the config files."""
    from memcli.config import Flags, resolve

    options = dict(ctx.obj or {})
    options.update({k: v for k, v in flags.items() if v is not None})
    return resolve(Flags(**options), os.environ, Path.cwd())


def make_output(as_json: bool = False) -> "Output":
    from memcli.render import Output

    return Output(as_json=as_json)


def finish(status: int) -> NoReturn:
    """End a command with the status its result object decided."""
    raise typer.Exit(int(status))
