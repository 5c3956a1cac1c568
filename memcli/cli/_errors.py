"""The one place where an outcome becomes an exit status and an error becomes a message.

A :class:`~memcli.errors.MemcliError` is one line on stderr and its class's status. Anything
else is a bug: one line that names a crash log (traceback, version, platform, command line,
secrets redacted) for the person to attach to a report, and ``ExitStatus.CRASH`` — never a
bare traceback that exits 1, which would read as "rejected". A command line click cannot
run (an unknown option or command, a missing value) is one line and exit 2 too
(:func:`command_line_error`, called by the command group's ``main``).
"""

from __future__ import annotations

import functools
import os
import platform
import sys
import traceback
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import typer

from memcli import __version__
from memcli.errors import ExitStatus, MemcliError

F = TypeVar("F", bound=Callable[..., Any])
CRASH_LOG_NAME = "crash.log"


def handled(command: F) -> F:
    """Wrap a command so that every way it can end becomes a message and a status."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except MemcliError as exc:
            from memcli.safety.invisible_chars import safe_line

            # One line, and no escape sequence from what the message quotes (a provider's
            # error, a file name a repository chose).
            _say(f"memcli: error: {safe_line(str(exc))}")
            raise typer.Exit(int(exc.exit_code)) from None
        except KeyboardInterrupt:
            _say("memcli: interrupted")
            raise typer.Exit(int(ExitStatus.INTERRUPTED)) from None
        except BrokenPipeError:
            # The reader went away (`memcli show | head`): not an error worth a traceback.
            _silence_stdout()
            raise typer.Exit(int(ExitStatus.OK)) from None
        except Exception as exc:
            raise typer.Exit(int(report_crash(exc, os.environ, sys.argv))) from None

    return wrapper  # type: ignore[return-value]


def report_crash(exc: BaseException, env: Mapping[str, str], argv: list[str]) -> ExitStatus:
    """Write the crash log and the one line that points at it; return the crash status."""
    log = crash_log_path(env)
    text = crash_report(exc, argv)
    try:
        _write_private(log, text)
        where = f"; details in {log}"
    except OSError:
        where = " (the crash log could not be written)"
    from memcli.safety.invisible_chars import safe_line
    from memcli.safety.redact import redact
    from memcli.text import clip, one_line

    message = redact(clip(one_line(safe_line(str(exc))), 200))[0]
    _say(f"memcli: internal error: {type(exc).__name__}: {message}{where} — please report it")
    return ExitStatus.CRASH


def crash_log_path(env: Mapping[str, str]) -> Path:
    from memcli.cli._process_state import home_folder
    from memcli.settings.locations import memcli_home

    return memcli_home(env, home_folder()) / "logs" / CRASH_LOG_NAME


def crash_report(exc: BaseException, argv: list[str]) -> str:
    from memcli.safety.redact import redact

    lines = [
        f"time: {datetime.now(UTC).strftime('%Y-%m-%dT%H:%M:%SZ')}",
        f"memcli: {__version__}",
        f"python: {platform.python_version()} ({platform.platform()})",
        f"command: {' '.join(argv)}",
        "",
        *traceback.format_exception(type(exc), exc, exc.__traceback__),
    ]
    return redact("\n".join(line.rstrip("\n") for line in lines) + "\n")[0]


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


# What a newcomer types for a command memcli names otherwise.
COMMAND_HINTS = {"list": "show", "ls": "show", "cat": "show", "view": "show", "get": "show",
                 "remove": "rm", "delete": "rm", "del": "rm", "new": "add", "create": "add",
                 "write": "apply", "check": "lint", "validate": "lint", "settings": "config",
                 "reindex": "index", "prompt": "context"}


def is_command_line_error(exc: BaseException) -> bool:
    """EXC is one of the errors click raises for a command line it cannot run (usage errors
    and the like), recognised by click's documented interface: an ``exit_code`` and a
    ``format_message()``. typer does not export their classes (it vendors click in a private
    module), so they are not named."""
    return (isinstance(getattr(exc, "exit_code", None), int)
            and callable(getattr(exc, "format_message", None)))


def command_line_error(exc: Any, group: Any) -> str:
    """What memcli prints for a command line click could not run: the help, for a command
    group given no command (`memcli`, `memcli hooks`); one line for a usage error; click's
    message for any other."""
    if not hasattr(exc, "ctx"):  # not a usage error (a file click could not open...)
        return f"memcli: error: {exc.format_message()}"
    message = exc.format_message()
    if exc.ctx is not None and message == exc.ctx.get_help():
        return str(message)  # no command given to a group with no_args_is_help
    return usage_error_line(exc, group)


def usage_error_line(exc: Any, group: Any) -> str:
    """`memcli: error: no such option --bogus (see memcli show --help)`."""
    message = exc.format_message().strip().rstrip(".")
    if hasattr(exc, "option_name") and hasattr(exc, "possibilities"):  # no such option
        message = f"no such option {exc.option_name}"
        close = [p for p in (exc.possibilities or ()) if p not in ("--help", "-h")]
        if close:
            message += f"; did you mean {' or '.join(sorted(close))}?"
    elif message.startswith("No such command"):
        message = _unknown_command(message, group)
    message = message[:1].lower() + message[1:]
    path = exc.ctx.command_path if exc.ctx is not None else "memcli"
    return f"memcli: error: {message} (see {path} --help)"


def _unknown_command(message: str, group: Any) -> str:
    import difflib

    typed = message.split("'", 2)[1] if message.count("'") >= 2 else ""
    names = [n for n in group.commands if not group.commands[n].hidden]
    hint = COMMAND_HINTS.get(typed.lower())
    close = [hint] if hint in names else difflib.get_close_matches(typed, names, n=1, cutoff=0.75)
    return f"no command '{typed}'" + (f"; did you mean `memcli {close[0]}`?" if close else "")
