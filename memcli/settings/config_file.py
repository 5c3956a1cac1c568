"""A config file read into one flat mapping of keys (and where it was, and its bytes).

A repository's config (``.memcli/config.toml``) is untrusted input: it is read only as a
regular file of at most MAX_PROJECT_CONFIG_BYTES, never through a link, and it may not hold
an API key (the project store is committed). What it may decide is :mod:`memcli.settings.resolve`'s
and :mod:`memcli.settings.trust`'s business.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memcli.errors import ConfigError

# Keys a project config may not hold: the project store is committed, secrets must not be.
SECRET_KEYS = frozenset({"api_key", "openai_api_key", "anthropic_api_key"})
# A project config is a few lines; a larger one (or /dev/zero behind a link) is no config.
MAX_PROJECT_CONFIG_BYTES = 64 * 1024


class ConfigFile(dict[str, Any]):
    """The flattened keys of one config file, where that file is, and its bytes."""

    def __init__(self, values: Mapping[str, Any], origin: Path | None,
                 data: bytes = b"") -> None:
        super().__init__(values)
        self.origin = origin
        self.data = data


NO_CONFIG = ConfigFile({}, None)


def read_config(path: Path, *, allow_secrets: bool, untrusted: bool = False) -> ConfigFile:
    """Flatten [memcli] / [extract] / [store] tables of a TOML config into one mapping.

    An UNTRUSTED config (the repository's) is read only as a regular file of at most
    MAX_PROJECT_CONFIG_BYTES, never through a link: a checkout can make it a FIFO (every
    command, the session-start hook included, would wait forever), a link to /dev/zero or
    to a file of the user's.
    """
    try:
        data = untrusted_bytes(path) if untrusted else path.read_bytes()
    except FileNotFoundError:
        return ConfigFile({}, None)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    import tomllib

    try:
        parsed = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); fix or remove it") from None
    flat: dict[str, Any] = {}
    for key, value in parsed.items():
        if key == "teams":  # [teams.NAME] tables: memcli.settings.teams reads them whole
            flat[key] = value
        elif isinstance(value, dict):
            flat.update(value)
        else:
            flat[key] = value
    if not allow_secrets and SECRET_KEYS & flat.keys():
        raise ConfigError(
            f"{path} holds an API key, but project config is committed; move the key to the "
            "user config or the environment"
        )
    return ConfigFile(flat, path, data)


def untrusted_bytes(path: Path) -> bytes:
    import errno

    from memcli.paths import NotRegularFileError, read_regular_file

    try:
        data = read_regular_file(path, MAX_PROJECT_CONFIG_BYTES + 1)
    except NotRegularFileError:
        raise ConfigError(f"{path} is not a regular file; a project config must be "
                          "one") from None
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        raise ConfigError(f"{path} is a symbolic link; memcli reads a project config only "
                          "from a regular file in the repository") from None
    if len(data) > MAX_PROJECT_CONFIG_BYTES:
        raise ConfigError(f"{path} is larger than {MAX_PROJECT_CONFIG_BYTES // 1024} KiB; "
                          "a project config is a few lines") from None
    return data
