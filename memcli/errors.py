"""One exception family; the CLI maps each class to an exit status in one place."""

from __future__ import annotations


class MemcliError(Exception):
    """Base of every error memcli reports to a person. The message says what to do."""

    exit_code = 1


class UsageError(MemcliError):
    """Bad flags, arguments or input documents."""

    exit_code = 2


class ConfigError(UsageError):
    """A setting (flag, environment variable or config file) is missing or invalid."""


class InputError(UsageError):
    """Input on stdin or in a file that cannot be read as what it should be."""


class StoreError(MemcliError):
    """A store cannot be read or written safely."""

    exit_code = 3


class BrokenNoteError(StoreError):
    """A note on disk that a person broke by hand (bad YAML, not UTF-8, ...)."""


class LockTimeout(StoreError):
    """Another memcli process held a store lock for too long."""


class ProviderError(MemcliError):
    """The LLM provider failed or answered with nothing usable."""

    exit_code = 4


class NotFoundError(MemcliError):
    """A note named on the command line does not exist."""

    exit_code = 1
