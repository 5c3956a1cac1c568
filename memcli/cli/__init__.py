"""The command line: parse arguments, call one core function, render its result.

One module per command group registers its commands in memcli's command table; the error
handler in ``_errors`` is the one place where outcomes and errors become exit statuses. Only
typer and the standard library are imported at start-up: TAB completion and `--help` run
this package on every key press, so each command imports what it needs when it runs.

A run of one command imports only the module that registers it (``COMMAND_MODULES``), and
the typer app built for the run holds that command only (``memcli.cli._app.build_app``, from
memcli's own table of what the modules register, through typer's public API): importing
every command module and converting all thirty-odd commands costs about a fifth of
``import typer`` on every run, and converting the six of store_commands for a `memcli show`
about 3 %. ``memcli --help`` imports them all but converts none of their parameters (the
listing); an unknown command and TAB completion get them all whole, and so does
``memcli.cli.app`` (the tests' and other callers' view of the whole application).
"""

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


def register(modules: Sequence[str] = ALL_MODULES) -> None:
    """Import the command modules: each registers its commands in memcli.cli._app's table."""
    for name in modules:
        importlib.import_module(f"memcli.cli.{name}")


def __getattr__(name: str) -> Any:
    if name == "app":
        from memcli.cli._app import build_app

        register()
        return build_app()
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
    from memcli.cli._app import build_app

    command = None if completing else command_of(argv)
    register(COMMAND_MODULES.get(command or "", ALL_MODULES))
    if command in COMMAND_MODULES:
        return build_app([command])
    if list(argv) in _GROUP_HELP and not completing:  # completing, argv is empty too
        return build_app(listing=True)
    return build_app()


# `memcli`, `memcli --help` and `memcli -h` list the commands with their docstrings' first
# lines: the app built for them has no command's parameters (memcli.cli._app.build_app).
_GROUP_HELP: tuple[list[str], ...] = ([], ["--help"], ["-h"])
