"""One setting's value: where it came from (:class:`Setting`), how the sources are ranked
(flag > environment > project config > user config > default) and the checks a value
passes (a provider's name, MEMCLI_NOW, a number of seconds, a store's folder), each error
naming the file and line the value came from.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from memcli.errors import ConfigError
from memcli.settings.config_file import ConfigFile
from memcli.settings.locations import absolute
from memcli.settings.provider_registry import EXTRACTORS
from memcli.value_types import FrozenRecord

# Longer waits are a typo (or "inf", "1e308", which overflow the clocks they are added to).
MAX_SECONDS = 24 * 3600.0


# What a repository's config may make memcli wait, at most: a checkout is untrusted, and its
# config applies to every command run in it, the agent's hooks included. The person (flags,
# environment, user config) may set up to MAX_SECONDS.
PROJECT_MAX_SECONDS = {"timeout": 600.0, "lock_timeout": 60.0}


_VARIABLES = {"timeout": "MEMCLI_TIMEOUT", "lock_timeout": "MEMCLI_LOCK_TIMEOUT"}


class Setting(FrozenRecord):
    """One resolved value and where it came from (for `memcli config`)."""

    __slots__ = __match_args__ = ("value", "source", "origin")
    value: Final[Any]
    source: Final[str]
    origin: Final[Path | None]  # the config file the value came from

    def __init__(self, value: Any, source: str, origin: Path | None = None) -> None:
        self.value = value
        self.source = source
        self.origin = origin


def choose(
    name: str,
    flag: Any,
    env_names: tuple[str, ...],
    env: Mapping[str, str],
    project_cfg: ConfigFile,
    user_cfg: ConfigFile,
    default: Any,
) -> Setting:
    if flag is not None:
        return Setting(flag, "flag")
    for env_name in env_names:
        if env.get(env_name):
            return Setting(env[env_name], f"environment {env_name}")
    if name in project_cfg:
        return Setting(project_cfg[name], "project config", project_cfg.origin)
    if name in user_cfg:
        return Setting(user_cfg[name], "user config", user_cfg.origin)
    return Setting(default, "default")


def located(message: str, name: str, setting: Setting) -> str:
    """`path:line: message` when the value came from a config file."""
    path = setting.origin
    if path is None:
        return f"{message} (from {setting.source})"
    return f"{path}:{line_of(path, name)}: {message}"


def line_of(path: Path, key: str) -> int:
    import re

    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return 1
    match = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", text, flags=re.M)
    return text.count("\n", 0, match.start()) + 1 if match else 1


def provider_name(provider: Any) -> str:
    name = str(provider).strip().lower()
    if name not in EXTRACTORS:
        raise ConfigError(f"unknown provider '{provider}'; use {', '.join(EXTRACTORS)}")
    return name


# What MEMCLI_NOW may be: an ISO 8601 date, or date and time, with an optional zone (UTC when
# none). Python's own parser takes more (week dates, no separators), which memcli would
# then write into frontmatter and history as they were typed.
_NOW_FORMAT = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,6})?)?(?:Z|[+-][0-9]{2}:[0-9]{2})?)?"
)


# Timestamps are written in UTC and history goes back in time from them: far enough from
# the ends of datetime's range that neither step overflows.
_NOW_YEARS = range(1970, 9000)


def fixed_now(value: str) -> str:
    """MEMCLI_NOW as memcli writes timestamps (UTC, to the second); a bad value is a ConfigError.

    This is the one place the variable is checked: everything else reads Settings.now.
    """
    import re  # compiled when MEMCLI_NOW is set, not on every start

    example = "use an ISO date-time such as 2026-11-29T10:00:00Z"
    if re.fullmatch(_NOW_FORMAT, value.strip()) is None:
        raise ConfigError(f"MEMCLI_NOW {value!r} is not an ISO date-time; {example}")
    try:
        moment = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.UTC)
        moment = moment.astimezone(dt.UTC)
    except (ValueError, OverflowError):
        raise ConfigError(f"MEMCLI_NOW {value!r} is not a valid date-time; {example}") from None
    if moment.year not in _NOW_YEARS:
        raise ConfigError(f"MEMCLI_NOW {value!r} is out of range (years {_NOW_YEARS.start} to "
                          f"{_NOW_YEARS.stop - 1}); {example}")
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_now(value: str) -> dt.datetime:
    """Settings.now (already checked by fixed_now) as an aware datetime."""
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def store_folder(name: str, value: Any, cwd: Path, home: Path | None,
           sources: Mapping[str, Setting]) -> Path:
    """A store's folder; an empty value (the working folder) or a file system root is refused:
    memcli would write notes and MEMORY.md into whatever folder the command ran in. A NUL
    (TOML can write one) is in no path: the file system calls would raise."""
    text = str(value).strip()
    path = absolute(text, cwd, home) if text and "\0" not in text else None
    if path is None or path == Path(path.anchor):
        shown = repr(str(value))
        raise ConfigError(located(f"{name} {shown} is not a store folder; name a folder of "
                                   "its own, such as ~/.memcli/memory", name, sources[name]))
    return path


def drop_bad_seconds(project_cfg: ConfigFile) -> list[str]:
    """Take out of a project config a number of seconds that is no number, negative or past
    MAX_SECONDS; a warning for each. A repository is untrusted: its `lock_timeout = 1e9`
    must not make every command in the checkout fail (the person's own bad value still does,
    and says where it is)."""
    warnings = []
    for name in PROJECT_MAX_SECONDS:
        if name not in project_cfg or project_cfg.origin is None:
            continue
        try:
            check_seconds(name, project_cfg[name])
        except ConfigError as exc:
            del project_cfg[name]
            warnings.append(f"{project_cfg.origin}:{line_of(project_cfg.origin, name)}: "
                            f"{exc}; the project config's value is ignored")
    return warnings


def seconds_of(name: str, value: Any, sources: Mapping[str, Setting]) -> float:
    """VALUE as a number of seconds; a bad one is named by where it came from."""
    try:
        return check_seconds(name, value)
    except ConfigError as exc:
        raise ConfigError(located(str(exc), name, sources[name])) from None


def bounded(name: str, value: float, sources: dict[str, Setting], capped: list[str]) -> float:
    """VALUE, or PROJECT_MAX_SECONDS when a project config asks for more (said in CAPPED).

    Cut, not refused: like the settings an untrusted config may not decide, which are left
    out with a warning, a repository's value must not stop every command in the checkout.
    """
    cap, setting = PROJECT_MAX_SECONDS[name], sources[name]
    if setting.source != "project config" or value <= cap:
        return value
    sources[name] = Setting(cap, setting.source, setting.origin)
    capped.append(located(
        f"{name} = {value:g} is more than a project config may set; memcli waits {cap:g} s "
        f"(the user config or {_VARIABLES[name]} may set up to {MAX_SECONDS:g})", name, setting))
    return cap


def check_seconds(name: str, value: Any) -> float:
    try:
        if isinstance(value, bool):  # TOML's `timeout = true` is no number of seconds
            raise TypeError(value)
        number = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a number of seconds, not {value!r}") from None
    if number != number or number < 0 or number > MAX_SECONDS:  # number != number: NaN
        raise ConfigError(f"{name} must be a number of seconds from 0 to {MAX_SECONDS:g}, "
                          f"not {value!r}")
    return number
