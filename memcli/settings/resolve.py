"""Resolving the settings of one command: flag > environment > project config > user
config > default, once, into a :class:`memcli.settings.config.Settings`.

The CLI collects the flags and the process state (environment, working folder, home folder,
clock) and calls :func:`resolve`; a project config is untrusted input (what it may decide
without the person's trust is dropped here, see :mod:`memcli.settings.trust`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from memcli.errors import ConfigError
from memcli.paths import resolved
from memcli.settings.config import Clock, Settings
from memcli.settings.config_file import NO_CONFIG, ConfigFile, read_config
from memcli.settings.locations import (
    CONFIG_NAME,
    MARKER_DIR,
    absolute,
    find_project_root,
    git_top_level,
    inside,
    maybe_home,
    memcli_home,
)
from memcli.settings.provider_registry import AGENT_CLIS, OFFLINE, PROVIDERS
from memcli.settings.review import DEFAULT_EXPIRY_DAYS, parse_review
from memcli.settings.teams import TeamStore, read_teams
from memcli.settings.values import (
    Setting,
    bounded,
    check_seconds,
    choose,
    drop_bad_seconds,
    fixed_now,
    line_of,
    located,
    provider_name,
    seconds_of,
    store_folder,
)
from memcli.settings.zone import UTC, Zone
from memcli.value_types import FrozenRecord

DEFAULT_LOCK_TIMEOUT = 10.0
# Settings only the environment gives: MEMCLI_NOW fixes the clock for tests and reproducible
# runs, and a repository that could set it would date the user's notes and history and
# decide which of them have expired.
ENVIRONMENT_ONLY = frozenset({"now", "zone"})
# Config tables that are no single setting: read by their own module.
TABLES = frozenset({"teams"})


def _no_clock() -> dt.datetime:
    raise RuntimeError("no clock was passed to resolve (the entry point passes one)")


class Flags(FrozenRecord):
    """What the command line said; None means 'not given'."""

    __slots__ = __match_args__ = ("project_store", "user_store", "provider", "model",
                                  "base_url", "timeout")
    project_store: Final[str | None]
    user_store: Final[str | None]
    provider: Final[str | None]
    model: Final[str | None]
    base_url: Final[str | None]
    timeout: Final[float | None]

    def __init__(self, project_store: str | None = None, user_store: str | None = None,
                 provider: str | None = None, model: str | None = None,
                 base_url: str | None = None, timeout: float | None = None) -> None:
        self.project_store = project_store
        self.user_store = user_store
        self.provider = provider
        self.model = model
        self.base_url = base_url
        self.timeout = timeout


def resolve(flags: Flags, env: Mapping[str, str], cwd: Path, *, home: Path | None = None,
            clock: Clock | None = None, zone: Zone = UTC) -> Settings:
    """The settings of one command; ``home`` defaults to $HOME, ``clock`` has no default,
    ``zone`` (the person's time zone, which the entry point finds) is UTC by default."""
    home = home if home is not None else maybe_home(env)
    user_home = memcli_home(env, home)
    repository = git_top_level(cwd, env)
    root = find_project_root(cwd, user_home, repository)
    user_cfg = read_config(user_home / CONFIG_NAME, allow_secrets=True)
    project_cfg = read_config(root / MARKER_DIR / CONFIG_NAME, allow_secrets=False,
                               untrusted=True)
    ignored = _drop_untrusted(project_cfg, user_home, root, cwd, home)
    capped: list[str] = drop_bad_seconds(project_cfg)
    sources: dict[str, Setting] = {}

    def pick(name: str, flag: Any, env_names: tuple[str, ...], default: Any) -> Any:
        choice = choose(name, flag, env_names, env, project_cfg, user_cfg, default)
        sources[name] = choice
        return choice.value

    project_store = pick("project_store", flags.project_store, ("MEMCLI_PROJECT_STORE",),
                         str(root / MARKER_DIR / "memory"))
    user_store = pick("user_store", flags.user_store, ("MEMCLI_USER_STORE",),
                      str(user_home / "memory"))
    problems: dict[str, str] = {}
    provider = _deferred(problems, "provider", sources, provider_name,
                         pick("provider", flags.provider, ("MEMCLI_PROVIDER",), OFFLINE),
                         OFFLINE)
    spec = PROVIDERS.get(provider)
    agent = AGENT_CLIS.get(provider)
    sources["now"] = choose("now", None, ("MEMCLI_NOW",), env, NO_CONFIG, NO_CONFIG, None)
    now = sources["now"].value
    # Shown by `memcli config`; the entry point reads the zone itself (the C library's).
    sources["zone"] = choose("zone", None, ("TZ",), env, NO_CONFIG, NO_CONFIG, "the system's")
    if now is not None:
        now = fixed_now(str(now))
    review = _deferred(problems, "review", sources, parse_review,
                       pick("review", None, ("MEMCLI_REVIEW",), "none"), frozenset())
    # Checked by the one command that reads it (Settings.expiry_days): a typo must not stop
    # extract or a hook.
    pick("review_expiry_days", None, ("MEMCLI_REVIEW_EXPIRY_DAYS",), DEFAULT_EXPIRY_DAYS)
    teams: tuple[TeamStore, ...] = ()
    teams_problem = None
    try:
        teams = read_teams(user_cfg.get("teams"), project_cfg.get("teams"), user_home, cwd,
                           home)
    except ConfigError as exc:
        # A typo in [teams] must not stop extract, apply or a hook: only a team store's user
        # (sync, --level NAME, apply --store NAME) fails on it.
        teams_problem = str(exc)
    project_path = store_folder("project_store", project_store, cwd, home, sources)
    if sources["project_store"].source == "default":
        _refuse_linked_store(project_path, root, repository)
    return Settings(
        project_root=root,
        project_store=project_path,
        user_home=user_home,
        user_store=store_folder("user_store", user_store, cwd, home, sources),
        lock_timeout=bounded("lock_timeout", seconds_of("lock_timeout", pick(
            "lock_timeout", None, ("MEMCLI_LOCK_TIMEOUT",), DEFAULT_LOCK_TIMEOUT), sources),
            sources, capped),
        now=None if now is None else str(now),
        provider=provider,
        model=pick("model", flags.model, ("MEMCLI_MODEL",),
                   spec.default_model if spec else agent.default_model if agent else None),
        base_url=pick("base_url", flags.base_url,
                      ("MEMCLI_BASE_URL", *(spec.base_url_variables if spec else ())),
                      spec and spec.default_base_url),
        api_key=pick("api_key", None, ("MEMCLI_API_KEY", *(spec.key_variables if spec else ())),
                     None),
        timeout=bounded("timeout", _deferred(
            problems, "timeout", sources, lambda v: check_seconds("timeout", v),
            pick("timeout", flags.timeout, ("MEMCLI_TIMEOUT",), 60.0), 60.0), sources, capped),
        home=home,
        cwd=cwd,
        clock=clock or _no_clock,
        sources=sources,
        problems=problems,
        ignored=ignored,
        unknown=_unknown_keys(sources, (project_cfg, user_cfg)),
        capped=tuple(capped),
        zone=zone,
        repository=repository,
        env=env,
        teams=teams,
        teams_problem=teams_problem,
        review=review,
    )


def for_provider(settings: Settings, provider: str, base_url: str | None = None) -> Settings:
    """SETTINGS resolved again for PROVIDER (what `auto` chose): its model, base URL and key.

    A model or base URL the person gave on the command line or in MEMCLI_* variables is kept;
    the config files are read again (what they say about the provider's defaults applies).
    """
    given = {name: settings.sources[name].value for name in ("model", "base_url", "timeout")
             if name in settings.sources and settings.sources[name].source == "flag"}
    flags = Flags(project_store=str(settings.project_store), user_store=str(settings.user_store),
                  provider=provider, model=given.get("model"),
                  base_url=base_url or given.get("base_url"), timeout=given.get("timeout"))
    cwd = settings.cwd if settings.cwd is not None else settings.project_root
    again = resolve(flags, settings.env, cwd, home=settings.home, clock=settings.clock,
                    zone=settings.zone)
    # A project level a hook closed stays closed.
    return again.without_project() if settings.closed is not None else again


def _unknown_keys(sources: Mapping[str, Setting], files: Sequence[ConfigFile]) -> tuple[str, ...]:
    """A message for each key of FILES that is no setting: a typo is otherwise silent."""
    known = ", ".join(name for name in sources if name not in ENVIRONMENT_ONLY)
    return tuple(f"{cfg.origin}:{line_of(cfg.origin, key)}: {key!r} is not a memcli setting "
                 f"and is left out; the settings are {known}"
                 for cfg in files if cfg.origin is not None
                 for key in cfg if key not in TABLES
                 and (key not in sources or key in ENVIRONMENT_ONLY))


def _drop_untrusted(project_cfg: ConfigFile, user_home: Path, root: Path, cwd: Path,
                    home: Path | None) -> dict[str, str]:
    """Take out of a project config what it may not decide unless trusted; why, by key.

    A repository is untrusted input: its config could send the user's API key and the
    conversation to a server it names, or put user-level notes into the repository.
    """
    if not project_cfg:
        return {}  # the common case, decided without loading the trust records' module
    from memcli.settings.trust import GUARDED_KEYS, UNTRUSTED_HINT, is_trusted

    guarded = [key for key in project_cfg if key in GUARDED_KEYS]
    if not guarded or project_cfg.origin is None:
        return {}
    if "project_store" in guarded and inside(absolute(project_cfg["project_store"], cwd, home),
                                              root):
        guarded.remove("project_store")  # a store inside the project is the project's business
    if not guarded or is_trusted(user_home, project_cfg.origin, project_cfg.data):
        return {}
    for key in guarded:
        del project_cfg[key]
    return {key: UNTRUSTED_HINT for key in guarded}


def _refuse_linked_store(store: Path, root: Path, repository: Path | None) -> None:
    """A project store found in the repository must lead into the repository.

    A checkout can hold `.memcli` or `.memcli/memory` as a symbolic link to any folder of
    the machine (another tool's memory, another project's store): memcli would write notes
    and MEMORY.md there, and hand what it finds there to the agent as project memory. A
    person who means such a store names it (flag, environment, a trusted project config).
    """
    if inside(store, root) or (repository is not None and inside(store, repository)):
        return
    raise ConfigError(
        f"the project store {store} leads through a symbolic link to {resolved(store)}, "
        "outside the repository; memcli does not follow it (pass --project-store or set "
        "MEMCLI_PROJECT_STORE to use that folder)")


def _deferred(problems: dict[str, str], name: str, sources: Mapping[str, Setting],
              check: Callable[[Any], Any], value: Any, fallback: Any) -> Any:
    """VALUE checked; a bad one becomes a problem (with the file and line it came from)."""
    try:
        return check(value)
    except ConfigError as exc:
        problems[name] = located(str(exc), name, sources[name])
        return fallback


