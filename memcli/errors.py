"""One exception family, and the exit statuses it maps to.

The tree::

    MemcliError                 1  something was rejected, not found or ambiguous
    ├── NotFoundError           1  a note named on the command line does not exist
    ├── UsageError              2  bad flags, arguments or input documents
    │   ├── ConfigError         2  a setting (flag, environment, config file) is invalid
    │   └── InputError          2  stdin or a file that cannot be read as what it should be
    ├── StoreError              3  a store cannot be read or written safely
    │   ├── BrokenNoteError     3  a note a person broke by hand (bad YAML, not UTF-8, ...)
    │   └── LockTimeout         3  another memcli process held a store lock for too long
    └── ProviderError           4  the LLM provider failed or answered nothing usable

Any other exception is a bug in memcli: the CLI writes a crash log and exits with
``ExitStatus.CRASH``. :data:`EXIT_STATUSES` is the table the README shows (a test keeps the
two in step). Every exit status is decided in this module: an error's by its class, a
command that ran to its end by :func:`exit_status` from the facts its result states
(``needs_attention``); the CLI only passes the status on.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Protocol


class ExitStatus(IntEnum):
    OK = 0
    REJECTED = 1
    USAGE = 2
    STORE = 3
    PROVIDER = 4
    CRASH = 5
    INTERRUPTED = 130


EXIT_STATUSES: dict[ExitStatus, str] = {
    ExitStatus.OK: "success",
    ExitStatus.REJECTED: "something was rejected, not found or ambiguous; lint found problems; "
    "`index --check` found the index out of date",
    ExitStatus.USAGE: "usage error or bad input: unknown flag, input that is not JSON or not "
    "UTF-8, a bad setting",
    ExitStatus.STORE: "a store could not be read, locked or written (lock timeout, a store "
    "that is not a folder, I/O error)",
    ExitStatus.PROVIDER: "the LLM provider failed (unreachable, refused the key, answered "
    "nothing usable)",
    ExitStatus.CRASH: "a bug in memcli: the message names the crash log to attach to a report",
    ExitStatus.INTERRUPTED: "interrupted",
}


class Outcome(Protocol):
    """A command's result, as far as its exit status goes."""

    @property
    def needs_attention(self) -> bool:
        """Something was rejected, held, left out, in conflict or out of date: the person
        should look (the command itself ran to its end)."""
        ...


def exit_status(outcome: Outcome | ExitStatus | None) -> ExitStatus:
    """The status of a command that ran to its end: REJECTED when its result needs a
    person's look, OK otherwise (an ExitStatus given is kept; None is OK)."""
    if isinstance(outcome, ExitStatus):
        return outcome
    if outcome is not None and outcome.needs_attention:
        return ExitStatus.REJECTED
    return ExitStatus.OK


class MemcliError(Exception):
    """Base of every error memcli reports to a person. The message says what to do."""

    exit_code: ExitStatus = ExitStatus.REJECTED


class UsageError(MemcliError):
    """Bad flags, arguments or input documents."""

    exit_code = ExitStatus.USAGE


class ConfigError(UsageError):
    """A setting (flag, environment variable or config file) is missing or invalid."""


class InputError(UsageError):
    """Input on stdin or in a file that cannot be read as what it should be."""


class StoreError(MemcliError):
    """A store cannot be read or written safely."""

    exit_code = ExitStatus.STORE


class BrokenNoteError(StoreError):
    """A note on disk that a person broke by hand (bad YAML, not UTF-8, ...)."""


class LockTimeout(StoreError):
    """Another memcli process held a store lock for too long."""


class ProviderError(MemcliError):
    """The LLM provider failed or answered with nothing usable."""

    exit_code = ExitStatus.PROVIDER


class NotFoundError(MemcliError):
    """A note named on the command line does not exist."""

    exit_code = ExitStatus.REJECTED
