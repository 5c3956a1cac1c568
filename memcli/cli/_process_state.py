"""The process's state, read for a command: its settings, the clock and the person's zone,
the working and home folders, the terminal, stdin or an input file.

Only typer and the standard library are imported here, as in :mod:`memcli.cli._app`: TAB
completion and `--help` import it on every key press.
"""

# No `from __future__ import annotations`, as in memcli.cli._app.
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import typer

if TYPE_CHECKING:
    from datetime import datetime

    from memcli.render.output import Output
    from memcli.settings.config import Settings
    from memcli.settings.zone import Zone

# The one place where the process's state (environment, working folder, home folder, clock,
# stdin, terminal) enters memcli; everything below gets it as Settings or as arguments.


def resolve_settings(ctx: typer.Context, **flags: Any) -> "Settings":
    """Resolve the configuration once, from the flags, the environment and the config files."""
    from memcli.settings.resolve import Flags, resolve

    options = dict(ctx.obj or {})
    options.update({k: v for k, v in flags.items() if v is not None})
    settings = resolve(Flags(**options), os.environ, working_folder(), home=home_folder(),
                       clock=system_clock, zone=person_zone())
    if ctx.info_name not in QUIET_ABOUT_PROBLEMS:
        for problem in settings.problems.values():
            sys.stderr.write(f"memcli: warning: {problem} (only extraction uses it; "
                             f"`memcli {ctx.info_name}` goes on without it)\n")
    for message in (*settings.unknown, *settings.capped):
        sys.stderr.write(f"memcli: warning: {message}\n")
    # A command that names a team store (`--level NAME`) fails on the problem instead.
    level = ctx.params.get("level")  # a list for the rule-file exports: no one store named
    named = isinstance(level, str) and level not in ("all", "project", "user")
    if settings.teams_problem is not None and ctx.info_name not in FAIL_ON_TEAMS and not named:
        from memcli.safety.invisible_chars import safe_line  # a team's name is TOML text

        sys.stderr.write(safe_line(f"memcli: warning: {settings.teams_problem}; the team "
                                   "stores are left out until it is fixed") + "\n")
    return settings


# Commands that report a bad extraction setting themselves (extract fails on it, config shows it).
QUIET_ABOUT_PROBLEMS = frozenset({"extract", "config"})
# Commands that report a bad [teams] declaration themselves (sync fails on it, config shows it).
FAIL_ON_TEAMS = frozenset({"sync", "config"})


def system_clock() -> "datetime":
    from datetime import UTC, datetime

    return datetime.now(UTC)


def person_zone() -> "Zone":
    """The person's time zone: TZ, else the system's, as the C library reads them (with
    their daylight saving rules, for any date)."""
    import time

    from memcli.settings.zone import Zone

    if hasattr(time, "tzset"):  # POSIX: TZ as the environment says now, not at start-up
        time.tzset()
    return Zone(utc_offset)


def utc_offset(seconds: float) -> int:
    """Seconds east of UTC of the person's zone at a POSIX time."""
    import time

    return time.localtime(seconds).tm_gmtoff


def working_folder() -> Path:
    """The folder the command runs in; one clear error when it was deleted under the shell."""
    try:
        return Path.cwd()
    except OSError as exc:
        from memcli.errors import UsageError

        raise UsageError(f"the working folder cannot be read ({exc.strerror}); it was probably "
                         "deleted: cd to a folder that exists and run again") from None


def home_folder() -> Path | None:
    """The person's home folder; None when the system cannot tell (no $HOME, no passwd entry)."""
    try:
        if os.environ.get("HOME") == "" and os.name == "posix":
            # An empty HOME (cron, some CI) names no home; Path.home() would answer "/", and
            # the user store would be /.memcli/memory. The account's own home it is.
            import pwd

            return Path(pwd.getpwuid(os.getuid()).pw_dir)
        return Path.home()
    except (RuntimeError, KeyError):
        return None


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR, pre-commit or a dumb TERM says no."""
    env = os.environ
    if env.get("NO_COLOR") or env.get("PRE_COMMIT") or env.get("TERM") == "dumb":
        return False
    return _isatty(stream)


def make_output(as_json: bool = False) -> "Output":
    import shutil

    from memcli.render.output import Output

    return Output(out=sys.stdout, err=sys.stderr, as_json=as_json,
                  color=use_color(sys.stdout), err_color=use_color(sys.stderr),
                  terminal=_isatty(sys.stdout), err_is_terminal=_isatty(sys.stderr),
                  width=shutil.get_terminal_size((80, 24)).columns)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# The most memcli reads from one input file or stdin. An operations document of 10,000
# notes is about 20 MB; a transcript of a long session can be several times that. A larger
# input (or /dev/zero, or a pipe that never ends) is refused rather than read into memory.
MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_TRANSCRIPT_BYTES = 512 * 1024 * 1024


def read_input(source: str | Path, what: str = "input", limit: int = MAX_INPUT_BYTES) -> str:
    """Read a file, or stdin for '-', as UTF-8; bad input is one clear error."""
    from memcli.errors import InputError

    data = read_input_bytes(source, what, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"the {what} is not valid UTF-8 (byte {exc.start})") from None


def read_input_bytes(source: str | Path, what: str = "input",
                     limit: int = MAX_INPUT_BYTES, how: str = "pipe it in or pass a file",
                     *, refuse: bool = True) -> bytes:
    """The bytes of a file, or of stdin for '-', at most ``limit`` of them; HOW says what to
    do when stdin is a terminal (read at once, not waited on). Without REFUSE, a longer
    input is no error: its first ``limit + 1`` bytes are returned, for a caller that reads
    the rest its own way."""
    from memcli.errors import InputError

    try:
        if str(source) == "-":
            if sys.stdin is None or sys.stdin.isatty():
                raise InputError(f"no {what} on stdin; {how}")
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(source, "rb") as handle:
                data = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror}") from None
    except MemoryError:
        raise InputError(f"the {what} does not fit in memory") from None
    if len(data) > limit and refuse:
        where = "stdin" if str(source) == "-" else str(source)
        raise InputError(f"the {what} in {where} is larger than {limit // (1024 * 1024)} MiB, "
                         "the most memcli reads; split it") from None
    return data


def trusted_writes(kind: str) -> bool:
    """Whether the person lets KIND ("mcp", "memory-tool") write without the unattended
    guard: ``MEMCLI_TRUST_WRITES`` lists the kinds, comma-separated. An environment variable
    the person sets where the client is configured, never anything the client sends."""
    listed = os.environ.get("MEMCLI_TRUST_WRITES", "")
    return kind in {part.strip() for part in listed.split(",")}
