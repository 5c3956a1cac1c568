"""Settings, resolved once per command: flag > environment > project config > user config > default.

The CLI collects the flags and calls :func:`resolve`; everything below receives the
resulting :class:`Settings` and never reads the environment itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memcli.errors import ConfigError

CONFIG_NAME = "config.toml"
MARKER_DIR = ".memcli"
DEFAULT_LOCK_TIMEOUT = 10.0
# Keys a project config may not hold: the project store is committed, secrets must not be.
SECRET_KEYS = frozenset({"api_key", "openai_api_key", "anthropic_api_key"})


@dataclass(frozen=True)
class Setting:
    """One resolved value and where it came from (for `memcli config`)."""

    value: Any
    source: str


@dataclass(frozen=True)
class Settings:
    project_root: Path
    project_store: Path
    user_home: Path
    user_store: Path
    lock_timeout: float
    now: str | None
    provider: str | None
    model: str | None
    base_url: str | None
    api_key: str | None
    timeout: float
    sources: dict[str, Setting] = field(default_factory=dict, compare=False)

    def store_for(self, level: str) -> Path:
        return self.project_store if level == "project" else self.user_store


@dataclass(frozen=True)
class Flags:
    """What the command line said; None means 'not given'."""

    project_store: str | None = None
    user_store: str | None = None
    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    timeout: float | None = None


def resolve(flags: Flags, env: Mapping[str, str], cwd: Path) -> Settings:
    user_home = memcli_home(env)
    root = find_project_root(cwd, user_home)
    user_cfg = _read_config(user_home / CONFIG_NAME, allow_secrets=True)
    project_cfg = _read_config(root / MARKER_DIR / CONFIG_NAME, allow_secrets=False)
    sources: dict[str, Setting] = {}

    def pick(name: str, flag: Any, env_names: tuple[str, ...], default: Any) -> Any:
        choice = _choose(name, flag, env_names, env, project_cfg, user_cfg, default)
        sources[name] = choice
        return choice.value

    project_store = pick("project_store", flags.project_store, ("MEMCLI_PROJECT_STORE",),
                         str(root / MARKER_DIR / "memory"))
    user_store = pick("user_store", flags.user_store, ("MEMCLI_USER_STORE",),
                      str(user_home / "memory"))
    provider = pick("provider", flags.provider, ("MEMCLI_PROVIDER",), "rules")
    provider_name = _provider_name(provider)
    key_env = ("ANTHROPIC_API_KEY",) if provider_name == "anthropic" else ("OPENAI_API_KEY",)
    base_env = ("MEMCLI_BASE_URL",) + (("OPENAI_BASE_URL",) if provider_name != "anthropic"
                                       else ("ANTHROPIC_BASE_URL",))
    settings = Settings(
        project_root=root,
        project_store=_absolute(project_store, cwd),
        user_home=user_home,
        user_store=_absolute(user_store, cwd),
        lock_timeout=_number("lock_timeout", pick("lock_timeout", None, ("MEMCLI_LOCK_TIMEOUT",),
                                                  DEFAULT_LOCK_TIMEOUT)),
        now=pick("now", None, ("MEMCLI_NOW",), None),
        provider=provider_name,
        model=pick("model", flags.model, ("MEMCLI_MODEL",), None),
        base_url=pick("base_url", flags.base_url, base_env, None),
        api_key=pick("api_key", None, ("MEMCLI_API_KEY", *key_env), None),
        timeout=_number("timeout", pick("timeout", flags.timeout, ("MEMCLI_TIMEOUT",), 60.0)),
        sources=sources,
    )
    return settings


def _choose(
    name: str,
    flag: Any,
    env_names: tuple[str, ...],
    env: Mapping[str, str],
    project_cfg: Mapping[str, Any],
    user_cfg: Mapping[str, Any],
    default: Any,
) -> Setting:
    if flag is not None:
        return Setting(flag, "flag")
    for env_name in env_names:
        if env.get(env_name):
            return Setting(env[env_name], f"environment {env_name}")
    if name in project_cfg:
        return Setting(project_cfg[name], "project config")
    if name in user_cfg:
        return Setting(user_cfg[name], "user config")
    return Setting(default, "default")


def _provider_name(provider: Any) -> str | None:
    """None means 'not configured': extract then uses the offline rules."""
    if provider is None:
        return None
    name = str(provider).strip().lower()
    if name not in ("rules", "openai", "anthropic"):
        raise ConfigError(f"unknown provider '{provider}'; use rules, openai or anthropic")
    return name


def memcli_home(env: Mapping[str, str]) -> Path:
    """The user's memcli folder: $MEMCLI_HOME, else ~/.memcli (config, logs, user store)."""
    if env.get("MEMCLI_HOME"):
        return Path(env["MEMCLI_HOME"]).expanduser()
    home = env.get("HOME") or str(Path.home())
    return Path(home) / MARKER_DIR


def find_project_root(cwd: Path, user_home: Path) -> Path:
    """Nearest folder holding .memcli/ (not the user's own), else the git top level, else cwd."""
    user_marker = _resolved(user_home)
    candidates = [cwd, *cwd.parents]
    for folder in candidates:
        marker = folder / MARKER_DIR
        if marker.is_dir() and _resolved(marker) != user_marker:
            return folder
    for folder in candidates:
        if (folder / ".git").exists():
            return folder
    return cwd


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path


def _absolute(value: Any, cwd: Path) -> Path:
    path = Path(str(value)).expanduser()
    return path if path.is_absolute() else cwd / path


def _number(name: str, value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a number of seconds, not {value!r}") from None
    if number < 0:
        raise ConfigError(f"{name} must not be negative")
    return number


def _read_config(path: Path, *, allow_secrets: bool) -> dict[str, Any]:
    """Flatten [memcli] / [extract] / [store] tables of a TOML config into one mapping."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    import tomllib

    try:
        parsed = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); fix or remove it") from None
    flat: dict[str, Any] = {}
    for key, value in parsed.items():
        if isinstance(value, dict):
            flat.update(value)
        else:
            flat[key] = value
    if not allow_secrets and SECRET_KEYS & flat.keys():
        raise ConfigError(
            f"{path} holds an API key, but project config is committed; move the key to the "
            "user config or the environment"
        )
    return flat
