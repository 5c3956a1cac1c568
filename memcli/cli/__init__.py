"""The command line: parse arguments, call one core function, render its result.

One module per command group registers its commands on the typer app; the error handler in
``_errors`` is the one place where outcomes and errors become exit statuses. Only typer and
the standard library are imported at start-up: TAB completion and `--help` run this package
on every key press, so each command imports what it needs when it runs.

A run of one command imports only the module that registers it (``COMMAND_MODULES``), and
typer builds the click command of that command only (``_only``): importing every command
module and converting all thirty-odd commands costs about a fifth of ``import typer`` on
every run, and converting the six of store_commands for a `memcli show` about 3 %.
``memcli --help`` imports them all but converts none of their parameters (``_listing``);
an unknown command and TAB completion get them all whole, and so does ``memcli.cli.app``
(the tests' and other callers' view of the whole application).
"""

import copy
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memcli import __version__

if TYPE_CHECKING:
    import typer

__all__ = ["COMMAND_MODULES", "app", "app_for", "main"]

# Each top-level command (or command group) and the modules under memcli.cli that register
# it; tests/test_import_guard.py checks this against what the modules really register.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "extract": ("extract_commands",), "config": ("extract_commands",),
    "apply": ("store_commands",), "add": ("store_commands",), "rm": ("store_commands",),
    "show": ("store_commands",), "context": ("store_commands",),
    "index": ("store_commands",),
    "search": ("recall_commands",), "recall": ("recall_commands",),
    "log": ("history_commands",), "undo": ("history_commands",),
    "status": ("history_commands",),
    "consolidate": ("consolidate_command",),
    "lint": ("lint_command",), "verify": ("verify_command",),
    "restore": ("safety_commands",), "trust": ("safety_commands",),
    "review": ("review_command",),
    "transcript": ("transcript_command",),
    "merge-index": ("agent_commands",), "sync": ("agent_commands",),
    "mcp": ("agent_commands",), "memory-tool": ("agent_commands",),
    "hooks": ("agent_commands",),
    "completion": ("integration_commands",), "hook": ("integration_commands",),
    "import": ("interop_commands",), "export": ("interop_commands",),
}
ALL_MODULES = tuple(dict.fromkeys(m for group in COMMAND_MODULES.values() for m in group))
# The memcli group's own options that take a value (they may come before the command).
_VALUE_OPTIONS = ("--project-store", "--user-store")


def register(modules: Sequence[str] = ALL_MODULES) -> "typer.Typer":
    """Import the command modules (each registers its commands on the app); the app."""
    for name in modules:
        importlib.import_module(f"memcli.cli.{name}")
    from memcli.cli._app import app

    return app


def __getattr__(name: str) -> Any:
    if name == "app":
        return register()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def command_of(argv: Sequence[str]) -> str | None:
    """The command a command line runs (the first word after the group's options), if any."""
    i = 0
    while i < len(argv):
        token = argv[i]
        if token in _VALUE_OPTIONS:
            i += 2
        elif token.startswith(tuple(f"{o}=" for o in _VALUE_OPTIONS)):
            i += 1
        else:
            return None if token.startswith("-") else token
    return None


def main() -> None:
    argv = sys.argv[1:]
    if argv == ["--version"]:
        # Answered before typer builds the command tree, which is a tenth of the start-up
        # time and not needed here; the output is the same as the --version option's.
        sys.stdout.write(f"memcli {__version__}\n")
        return
    # TAB completion (answered by the group: memcli.cli.completion_answers) needs every
    # command, whatever the line names.
    completing = "_MEMCLI_COMPLETE" in os.environ  # memcli.cli._app.COMPLETE_VAR
    # memcli allocates many small, long-lived objects (one per note, and typer's and the
    # modules' own while they are imported) and frees none of them before it exits: the
    # default thresholds collect over and over for nothing (measured: lint on 10,000 notes
    # per level 2.13 s -> 1.92 s, same peak memory; importing typer ~3 % faster).
    gc.set_threshold(100_000, 20, 100)
    app_for(argv, completing=completing)()


def app_for(argv: Sequence[str], *, completing: bool = False) -> "typer.Typer":
    """The app that runs the command line ARGV: the one command it names, the listing for
    the group's help, else the whole app (an unknown command, TAB completion). The tests
    run ARGV in process through it too, so that they convert what `memcli` converts."""
    command = None if completing else command_of(argv)
    app = register(COMMAND_MODULES.get(command or "", ALL_MODULES))
    if command in COMMAND_MODULES:
        return _only(app, command)
    if list(argv) in _GROUP_HELP and not completing:  # completing, argv is empty too
        return _listing(app)
    return app


# `memcli` and `memcli --help` list the commands with their docstrings' first lines; typer
# would still turn every parameter of every command into a click option for it (a sixth
# of the run), so the listing gets the commands without their parameters.
_GROUP_HELP: tuple[list[str], ...] = ([], ["--help"], ["-h"])


def _only(app: "typer.Typer", name: str) -> "typer.Typer":
    """A copy of APP that holds only the command or command group NAME (APP is left whole)."""
    from memcli.cli._app import command_name

    view = copy.copy(app)
    view.registered_commands = [
        info for info in app.registered_commands
        if info.callback is not None and command_name(info.name, info.callback) == name]
    view.registered_groups = [info for info in app.registered_groups if info.name == name]
    return view


def _listing(app: "typer.Typer") -> "typer.Typer":
    """A copy of APP whose commands (and command groups' commands) take no parameters: the
    same names, help, order and hidden ones, for the group's help only."""
    view = copy.copy(app)
    view.registered_commands = [_unparameterised(info) for info in app.registered_commands]
    view.registered_groups = []
    for info in app.registered_groups:
        group = copy.copy(info)
        if info.typer_instance is not None:
            group.typer_instance = _listing(info.typer_instance)
        view.registered_groups.append(group)
    return view


def _unparameterised(info: Any) -> Any:
    """A copy of a typer CommandInfo whose callback has the name and docstring (the help
    text typer reads) of the real one, and no parameters."""
    listed = copy.copy(info)
    real = info.callback

    def callback() -> None:
        raise AssertionError("a command of the help listing ran")  # pragma: no cover

    if real is not None:
        callback.__name__, callback.__doc__ = real.__name__, real.__doc__
        listed.callback = callback
    return listed
