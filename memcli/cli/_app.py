"""The typer application, the options every command shares, and the per-command helpers.

Only typer and the standard library are imported here: TAB completion and `--help` run
this module on every key press, so each command imports what it needs when it runs.
"""

# No `from __future__ import annotations` here: typer reads every command's annotations on
# every run, and string annotations cost an eval() apiece (10 ms per start for this app).
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Annotated, Any, NoReturn, TypeVar

import typer

# The base class that typer.Typer's documented `cls=` parameter names for a custom group.
# Only public names of typer are imported anywhere in memcli (tests/test_typer_api.py);
# what memcli calls on the group, its contexts, parameters and errors is click's documented
# API (typer vendors click), listed and checked in that test.
from typer.core import TyperGroup

from memcli import __version__
from memcli.cli import _complete
from memcli.cli._errors import command_line_error, is_command_line_error
from memcli.errors import ExitStatus, Outcome, exit_status

# The order a newcomer meets the commands in `memcli --help`: a section each, everyday work
# first, plumbing (what hooks, git and shells run) last and on one line. Each command states
# its section and its rank within it where it is defined (`@command(section=..., rank=...)`),
# so adding a command edits only its own module; ranks go in tens to leave room between.
SECTIONS = ("everyday", "review and history", "agents and integrations", "plumbing")
PLACES: dict[str, tuple[int, int]] = {}
# Shown between the one-line description and the commands: what to type first, where to read.
GETTING_STARTED = """\
Long-term memory for AI agents as reviewable Markdown.

\b
Get started (in a git repository):
  memcli add "The test command is make test."  # a note, by hand
  memcli hooks install --agent claude-code     # or codex, gemini, copilot
  memcli show                                  # what is remembered

Docs: `memcli COMMAND --help`, and README.md and docs/ in memcli's source.
"""

CommandFunction = TypeVar("CommandFunction", bound=Callable[..., Any])


# Options of the memcli group that a person may also put after the subcommand.
GLOBAL_OPTIONS = ("--project-store", "--user-store")


def command_order(names: Iterable[str]) -> list[str]:
    """NAMES in the order of their sections and ranks; a command without a place goes last."""
    last = (len(SECTIONS), 0)
    return sorted(names, key=lambda name: PLACES.get(name, last))


def _place(name: str, section: str, rank: int) -> None:
    if section not in SECTIONS:
        raise ValueError(f"{name}: unknown section {section!r}; use one of {SECTIONS}")
    PLACES[name] = (SECTIONS.index(section), rank)


def summary(help_text: str | None) -> str:
    """A command's line in a listing: the first sentence of its help, whole (click cuts it
    at the width with "..."; the listing wraps it instead)."""
    paragraph = (help_text or "").split("\n\n", 1)[0].replace("\b", " ")
    words = " ".join(paragraph.split())
    end = words.find(". ")
    return words if end < 0 else words[:end + 1]


class SummaryGroup(TyperGroup):
    """A command group whose listing gives each subcommand's first sentence whole."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = self.summary_rows(ctx, self.list_commands(ctx))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def summary_rows(self, ctx: Any, names: Iterable[str]) -> list[tuple[str, str]]:
        found = [(name, self.get_command(ctx, name)) for name in names]
        return [(name, summary(cmd.help)) for name, cmd in found
                if cmd is not None and not cmd.hidden]


class _OrderedGroup(SummaryGroup):
    def list_commands(self, ctx: Any) -> list[str]:
        return command_order(super().list_commands(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """Usage, what memcli is with a first example, the commands by section, options."""
        self.format_usage(ctx, formatter)
        self.format_help_text(ctx, formatter)
        self.format_commands(ctx, formatter)
        with formatter.section("Options"):
            formatter.write_dl([row for p in self.get_params(ctx)
                                if (row := p.get_help_record(ctx)) is not None])

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        names = self.list_commands(ctx)
        # One column width for every section, so the summaries line up down the screen.
        width = max((len(n) for n in names), default=0)
        for index, title in enumerate(SECTIONS):
            listed = [n for n in names if PLACES.get(n, (len(SECTIONS) - 1, 0))[0] == index]
            rows = self.summary_rows(ctx, listed)
            if not rows:
                continue
            if title == "plumbing":  # out of the way: the names only, on one line
                with formatter.section("Plumbing, run for you by hooks, git and shells"):
                    formatter.write(" " * formatter.current_indent
                                    + ", ".join(name for name, _ in rows) + "\n")
                continue
            with formatter.section(title.capitalize()):
                formatter.write_dl([(name.ljust(width), text) for name, text in rows])

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        """Click's main, with usage errors in memcli's one-line form (exit 2), and TAB
        completion answered by memcli (memcli.cli.completion_answers)."""
        instruction = os.environ.get(COMPLETE_VAR)
        if instruction:
            status = _answer_tab(self, instruction)
        else:
            status = self._run(list(sys.argv[1:] if args is None else args), prog_name,
                               windows_expand_args, extra)
        if not standalone_mode:
            return status
        sys.exit(status if isinstance(status, int) else 0)

    def _run(self, args: list[str], prog_name: str | None, windows_expand_args: bool,
             extra: dict[str, Any]) -> Any:
        try:
            return super().main(hoist_global_options(args), prog_name or "memcli",
                                standalone_mode=False,
                                windows_expand_args=windows_expand_args, **extra)
        except typer.Abort:
            sys.stderr.write("memcli: aborted\n")
            return 1
        except Exception as exc:
            if not is_command_line_error(exc):
                raise
            sys.stderr.write(command_line_error(exc, self).rstrip("\n") + "\n")
            return int(exc.exit_code)  # type: ignore[attr-defined]


# What the completion scripts (memcli.cli.completion_scripts) set to ask for candidates.
COMPLETE_VAR = "_MEMCLI_COMPLETE"


def _answer_tab(group: Any, instruction: str) -> int:
    from memcli.cli.completion_answers import answer

    text, status = answer(group, instruction, os.environ)
    (sys.stdout if status == 0 else sys.stderr).write(text)
    return status


def hoist_global_options(argv: list[str]) -> list[str]:
    """Move --project-store/--user-store given after the subcommand to before it."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--":
            rest.extend(argv[i:])
            break
        name = token.split("=", 1)[0]
        if name in GLOBAL_OPTIONS and rest:
            takes_next = "=" not in token and i + 1 < len(argv)
            front.extend(argv[i:i + 2] if takes_next else [token])
            i += 2 if takes_next else 1
            continue
        rest.append(token)
        i += 1
    return front + rest


def exclusive(**flags: bool) -> None:
    """A usage error when more than one of these flags is set: they contradict each other."""
    given = [name for name, on in flags.items() if on]
    if len(given) > 1:
        from memcli.errors import UsageError

        names = " and ".join(name if name.isupper() else "--" + name.replace("_", "-")
                             for name in given)
        raise UsageError(f"{names} contradict each other; use one")


# How typer builds memcli's command group: every setting is one of typer.Typer's documented
# parameters. No --install-completion (memcli ships its completion scripts); plain help.
APP_SETTINGS: dict[str, Any] = {
    "cls": _OrderedGroup, "name": "memcli", "help": GETTING_STARTED, "add_completion": False,
    "rich_markup_mode": None, "pretty_exceptions_enable": False, "suggest_commands": False,
    "no_args_is_help": True, "context_settings": {"help_option_names": ["-h", "--help"]},
}
# What the command modules register, in memcli's own table: each run builds the typer app it
# needs from it (build_app) through typer's public API, rather than copying typer's.
COMMANDS: dict[str, Callable[..., Any]] = {}


class CommandGroup:
    """A command group (`memcli hooks ...`): its help, its commands (registered with
    ``@group.command(name)``) and the typer app that holds them."""

    def __init__(self, help: str) -> None:
        self.help = help
        self.commands: dict[str, Callable[..., Any]] = {}
        self.app = typer.Typer(help=help, cls=SummaryGroup)

    def command(self, name: str) -> Callable[[CommandFunction], CommandFunction]:
        def register(function: CommandFunction) -> CommandFunction:
            self.commands[name] = function
            registered: CommandFunction = self.app.command(name)(function)
            return registered

        return register


GROUPS: dict[str, CommandGroup] = {}


def command(name: str | None = None, *, section: str, rank: int
            ) -> Callable[[CommandFunction], CommandFunction]:
    """Register a command (NAME, else the function's name with dashes), with its place in
    `memcli --help`."""
    def register(function: CommandFunction) -> CommandFunction:
        called = name or function.__name__.lower().replace("_", "-")
        _place(called, section, rank)
        COMMANDS[called] = function
        return function

    return register


def command_group(name: str, *, help: str, section: str, rank: int) -> CommandGroup:
    """A command group, with its place in `memcli --help`."""
    group = GROUPS[name] = CommandGroup(help)
    _place(name, section, rank)
    return group


def command_paths() -> list[tuple[str, Callable[..., Any] | None]]:
    """Every command line memcli registers (``hooks install``; a group alone, with no
    function), with the function it runs: memcli's own view of its commands."""
    paths: list[tuple[str, Callable[..., Any] | None]] = list(COMMANDS.items())
    for name, group in GROUPS.items():
        paths.append((name, None))
        paths += [(f"{name} {sub}", function) for sub, function in group.commands.items()]
    return sorted(paths, key=lambda path: path[0])


def build_app(names: Iterable[str] | None = None, *, listing: bool = False) -> typer.Typer:
    """The typer app of the registered commands and command groups NAMES (None: all).

    LISTING, for the group's help only: each command without its parameters and each group
    without its commands (the same names, help and order), since typer would otherwise turn
    every parameter of every command into a click option for nothing (a sixth of the run).
    """
    app = typer.Typer(**APP_SETTINGS)
    app.callback()(main_options)
    wanted = None if names is None else set(names)
    for called, function in COMMANDS.items():
        if wanted is None or called in wanted:
            app.command(called)(_listed(function) if listing else function)
    for called, group in GROUPS.items():
        if wanted is None or called in wanted:
            listed = typer.Typer(help=group.help, cls=SummaryGroup) if listing else group.app
            app.add_typer(listed, name=called)
    return app


def _listed(function: Callable[..., Any]) -> Callable[[], None]:
    """A stand-in for FUNCTION in the help listing: its name and docstring (what typer reads
    for the listing), no parameters."""
    def callback() -> None:
        raise AssertionError("a command of the help listing ran")  # pragma: no cover

    callback.__name__, callback.__doc__ = function.__name__, function.__doc__
    return callback


LEVEL_CHOICES = "[project|user|all]"
ONE_LEVEL_CHOICES = "[project|user]"
# Choice lists too long for an option's column are named in its help text (which wraps)
# instead of its metavar (which does not): on an 80-column terminal the metavar ran past it.
NOTE_TYPES = "user_preference, correction_feedback, project_knowledge or reference_material"
PROVIDERS = "rules, auto, openai, anthropic, ollama, claude-code, codex, gemini or copilot"
CONFLICT_CHOICES = "[fail|update|rename]"

LevelOpt = Annotated[str | None, typer.Option(
    "--level", "-l", metavar=LEVEL_CHOICES, autocompletion=_complete.level_or_all,
    help="Which store: project, user or all (default: all).",
)]
OneLevelOpt = Annotated[str | None, typer.Option(
    "--level", "-l", metavar=ONE_LEVEL_CHOICES, autocompletion=_complete.level,
    help="Which store: project or user.",
)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
# How a transcript is read: the same for `extract` and `transcript`.
IncludeToolsOpt = Annotated[bool, typer.Option(
    "--include-tools", help="Also tool calls and their results (cut to a size budget).",
)]
IncludeThinkingOpt = Annotated[bool, typer.Option(
    "--include-thinking", help="Also the model's thinking blocks (cut to a size budget).",
)]
IncludeInjectedOpt = Annotated[bool, typer.Option(
    "--include-injected", help="Also injected context and summaries.",
)]
TranscriptFormatOpt = Annotated[str | None, typer.Option(
    "--format", metavar="FORMAT", autocompletion=_complete.transcript_format,
    help="Force a transcript format (else detected per line).",
)]


def last_turn_option(help: str) -> Any:
    """``--last-turn``: only the newest turn, from the last message a person typed (each
    command says it in its own words)."""
    return typer.Option("--last-turn", help=help)


def strict_option(help: str) -> Any:
    """``--strict``: transcript lines of unknown shape, or broken JSON, fail the run."""
    return typer.Option("--strict", help=help)


DryRunOpt = Annotated[bool, typer.Option("--dry-run", "-n", help="Show the diff; write nothing.")]
ConflictOpt = Annotated[str, typer.Option(
    "--on-conflict", metavar=CONFLICT_CHOICES, autocompletion=_complete.conflict_policy,
    help="A create whose note already exists: fail, update it, or rename the new one.",
)]


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"memcli {__version__}\n")
        finish()


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


def finish(outcome: Outcome | ExitStatus | None = None) -> NoReturn:
    """End a command that ran to its end with the status memcli.errors.exit_status decides
    from its result."""
    raise typer.Exit(int(exit_status(outcome)))
