"""Settings, resolved once per command: flag > environment > project config > user config > default.

The CLI collects the flags and the process state (environment, working folder, home folder,
clock) and calls :func:`resolve`; everything below receives the resulting :class:`Settings`
and never reads the process state itself.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from memcli.errors import ConfigError
from memcli.paths import resolved
from memcli.settings.config_file import NO_CONFIG, ConfigFile, read_config
from memcli.settings.provider_registry import AGENT_CLIS, EXTRACTORS, OFFLINE, PROVIDERS
from memcli.settings.review import parse_review
from memcli.settings.teams import TeamStore, read_teams
from memcli.settings.zone import UTC, Zone
from memcli.value_types import FrozenRecord, Record

Clock = Callable[[], dt.datetime]

CONFIG_NAME = "config.toml"
MARKER_DIR = ".memcli"
DEFAULT_LOCK_TIMEOUT = 10.0
# Longer waits are a typo (or "inf", "1e308", which overflow the clocks they are added to).
MAX_SECONDS = 24 * 3600.0
# What a repository's config may make memcli wait, at most: a checkout is untrusted, and its
# config applies to every command run in it, the agent's hooks included. The person (flags,
# environment, user config) may set up to MAX_SECONDS.
PROJECT_MAX_SECONDS = {"timeout": 600.0, "lock_timeout": 60.0}
_VARIABLES = {"timeout": "MEMCLI_TIMEOUT", "lock_timeout": "MEMCLI_LOCK_TIMEOUT"}
# Settings only the environment gives: MEMCLI_NOW fixes the clock for tests and reproducible
# runs, and a repository that could set it would date the user's notes and history and
# decide which of them have expired.
ENVIRONMENT_ONLY = frozenset({"now", "zone"})
# Config tables that are no single setting: read by their own module.
TABLES = frozenset({"teams"})


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


def _no_clock() -> dt.datetime:
    raise RuntimeError("no clock was passed to config.resolve (the entry point passes one)")


class Settings(Record):
    """Everything a command needs to know of its run, resolved once by :func:`resolve`
    (read-only: its fields are ``Final``). Only :func:`resolve` builds one."""

    __slots__ = __match_args__ = (
        "project_root", "project_store", "user_home", "user_store", "lock_timeout", "now",
        "provider", "model", "base_url", "api_key", "timeout", "home", "cwd", "clock", "sources",
        "problems", "ignored", "unknown", "capped", "zone", "repository", "closed", "env",
        "teams",
        "review",
    )
    _unshown = frozenset({"api_key", "env"})  # a repr may reach a crash log
    project_root: Final[Path]
    project_store: Final[Path]
    user_home: Final[Path]  # memcli's own folder: $MEMCLI_HOME or ~/.memcli
    user_store: Final[Path]
    lock_timeout: Final[float]
    # MEMCLI_NOW: one fixed time for every timestamp (tests, reproducible runs).
    now: Final[str | None]
    provider: Final[str]  # "rules" or a name in memcli.settings.provider_registry
    model: Final[str | None]  # the provider's default filled in; None for the rules
    base_url: Final[str | None]  # likewise
    api_key: Final[str | None]
    timeout: Final[float]
    home: Final[Path | None]  # the person's home folder, for "~" in paths read and shown
    cwd: Final[Path | None]  # the working folder the command was started in
    clock: Final[Clock]  # the wall clock
    sources: Final[dict[str, Setting]]
    # Settings that only extraction uses and that could not be read: the commands that do not
    # extract run and warn; extract fails with the message.
    problems: Final[dict[str, str]]
    # Project config settings left out because the project is not trusted, and why.
    ignored: Final[dict[str, str]]
    # Keys of a config file that are no setting (a typo such as `provdier`), with where.
    unknown: Final[tuple[str, ...]]
    # Project config values cut to PROJECT_MAX_SECONDS, a message for each.
    capped: Final[tuple[str, ...]]
    # The person's time zone (TZ, else the system's): the days that "yesterday", `expires`
    # and "tomorrow" in a transcript count in. Timestamps stay in UTC.
    zone: Final[Zone]
    # The top level of the git work tree the command runs in; None outside one.
    repository: Final[Path | None]
    # Why the project level is out for this run (an unattended run outside a git work tree
    # with no project store); None when it is open.
    closed: Final[str | None]
    # The environment the entry point was started with: what an agent CLI run as the
    # extractor inherits (its PATH, its sign-in), and where `auto` looks for API keys.
    env: Final[Mapping[str, str]]
    # The team stores the user config (and a trusted project config) mounts.
    teams: Final[tuple[TeamStore, ...]]
    # What an unattended run holds in the inbox for a person (memcli.settings.review):
    # empty for none, {"all"}, or note types.
    review: Final[frozenset[str]]

    def __init__(self, *, project_root: Path, project_store: Path, user_home: Path,
                 user_store: Path, lock_timeout: float, now: str | None, provider: str,
                 model: str | None, base_url: str | None, api_key: str | None, timeout: float,
                 home: Path | None, cwd: Path | None, clock: Clock,
                 sources: dict[str, Setting], problems: dict[str, str],
                 ignored: dict[str, str], unknown: tuple[str, ...] = (),
                 capped: tuple[str, ...] = (), zone: Zone = UTC,
                 repository: Path | None = None, closed: str | None = None,
                 env: Mapping[str, str] | None = None,
                 teams: tuple[TeamStore, ...] = (),
                 review: frozenset[str] = frozenset()) -> None:
        self.project_root = project_root
        self.project_store = project_store
        self.user_home = user_home
        self.user_store = user_store
        self.lock_timeout = lock_timeout
        self.now = now
        self.provider = provider
        self.model = model
        self.base_url = base_url
        self.api_key = api_key
        self.timeout = timeout
        self.home = home
        self.cwd = cwd
        self.clock = clock
        self.sources = sources
        self.problems = problems
        self.ignored = ignored
        self.unknown = unknown
        self.capped = capped
        self.zone = zone
        self.repository = repository
        self.closed = closed
        self.review = review
        self.env = dict(env or {})
        self.teams = teams

    def store_for(self, level: str) -> Path:
        return self.project_store if level == "project" else self.user_store

    def for_unattended(self) -> Settings:
        """These settings for a run nobody watches (a hook, the MCP server): outside a git
        work tree it creates no project store, unless the person named one (flag,
        environment, config) or made the folder's `.memcli/` (or the store) already. A
        hook's payload names any folder as its `cwd`; a `.memcli/` made there (`/` included)
        would collect every project's notes."""
        chosen = self.sources.get("project_store")
        if (self.repository is not None or self.closed is not None
                or (chosen is not None and chosen.source != "default")
                or self.project_store.is_dir() or (self.project_root / MARKER_DIR).is_dir()
                or resolved(self.project_store) == resolved(self.user_store)):
            return self
        return self.without_project()

    def without_project(self) -> Settings:
        """These settings with the project level closed (what a hook decided for its job)."""
        fields = {name: getattr(self, name) for name in self.__match_args__}
        fields["closed"] = (
            f"no project here: {self.project_root} is in no git repository and has no project "
            "store, and an unattended run creates none outside a repository (run `git init`, "
            "create the store by hand with `memcli add --level project`, or set "
            "MEMCLI_PROJECT_STORE)")
        return Settings(**fields)

    def outside_repository(self) -> str | None:
        """How the project store in use lies outside the current repository, or None.

        Said by `context`, `status` and `show --paths`: a store named by a flag, the
        environment or a config may hold another project's notes.
        """
        store, chosen = self.project_store, self.sources.get("project_store")
        if self.closed is not None or resolved(store) == resolved(self.user_store):
            return None
        origin = f"; set by {chosen.source}" if chosen and chosen.source != "default" else ""
        if self.repository is not None:
            if _inside(store, self.repository):
                return None
            return f"outside the current repository ({self.repository}){origin}"
        if self.cwd is not None and _inside(store, self.cwd):
            return None
        return f"outside the working folder, which is in no git repository{origin}"

    def require_extraction(self) -> None:
        """Raise the first problem of a setting that extraction needs."""
        for message in self.problems.values():
            raise ConfigError(message)

    def moment(self) -> dt.datetime:
        """Now, as the person's wall time (aware, with their zone's offset): MEMCLI_NOW when
        set, else the clock. Its ``date()`` is the person's today."""
        return self.zone.local(_parse_now(self.now) if self.now else self.clock())

    def timestamp(self) -> str:
        """Now as the frontmatter writes it (UTC, to the second): MEMCLI_NOW, else the clock."""
        if self.now:
            return self.now
        return self.clock().astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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
    home = home if home is not None else _maybe_home(env)
    user_home = memcli_home(env, home)
    repository = git_top_level(cwd, env)
    root = find_project_root(cwd, user_home, repository)
    user_cfg = read_config(user_home / CONFIG_NAME, allow_secrets=True)
    project_cfg = read_config(root / MARKER_DIR / CONFIG_NAME, allow_secrets=False,
                               untrusted=True)
    ignored = _drop_untrusted(project_cfg, user_home, root, cwd, home)
    capped: list[str] = _drop_bad_seconds(project_cfg)
    sources: dict[str, Setting] = {}

    def pick(name: str, flag: Any, env_names: tuple[str, ...], default: Any) -> Any:
        choice = _choose(name, flag, env_names, env, project_cfg, user_cfg, default)
        sources[name] = choice
        return choice.value

    project_store = pick("project_store", flags.project_store, ("MEMCLI_PROJECT_STORE",),
                         str(root / MARKER_DIR / "memory"))
    user_store = pick("user_store", flags.user_store, ("MEMCLI_USER_STORE",),
                      str(user_home / "memory"))
    problems: dict[str, str] = {}
    provider = _deferred(problems, "provider", sources, _provider_name,
                         pick("provider", flags.provider, ("MEMCLI_PROVIDER",), OFFLINE),
                         OFFLINE)
    spec = PROVIDERS.get(provider)
    agent = AGENT_CLIS.get(provider)
    sources["now"] = _choose("now", None, ("MEMCLI_NOW",), env, NO_CONFIG, NO_CONFIG, None)
    now = sources["now"].value
    # Shown by `memcli config`; the entry point reads the zone itself (the C library's).
    sources["zone"] = _choose("zone", None, ("TZ",), env, NO_CONFIG, NO_CONFIG, "the system's")
    if now is not None:
        now = fixed_now(str(now))
    review = _deferred(problems, "review", sources, parse_review,
                       pick("review", None, ("MEMCLI_REVIEW",), "none"), frozenset())
    project_path = _store("project_store", project_store, cwd, home, sources)
    if sources["project_store"].source == "default":
        _refuse_linked_store(project_path, root, repository)
    return Settings(
        project_root=root,
        project_store=project_path,
        user_home=user_home,
        user_store=_store("user_store", user_store, cwd, home, sources),
        lock_timeout=_bounded("lock_timeout", _seconds("lock_timeout", pick(
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
        timeout=_bounded("timeout", _deferred(
            problems, "timeout", sources, lambda v: _number("timeout", v),
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
        teams=read_teams(user_cfg.get("teams"), project_cfg.get("teams"), user_home, cwd,
                         home),
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
    return tuple(f"{cfg.origin}:{_line_of(cfg.origin, key)}: {key!r} is not a memcli setting "
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
    if "project_store" in guarded and _inside(_absolute(project_cfg["project_store"], cwd, home),
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
    if _inside(store, root) or (repository is not None and _inside(store, repository)):
        return
    raise ConfigError(
        f"the project store {store} leads through a symbolic link to {resolved(store)}, "
        "outside the repository; memcli does not follow it (pass --project-store or set "
        "MEMCLI_PROJECT_STORE to use that folder)")


def _inside(path: Path, root: Path) -> bool:
    try:
        resolved(path).relative_to(resolved(root))
    except ValueError:
        return False
    return True


def _choose(
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


def _deferred(problems: dict[str, str], name: str, sources: Mapping[str, Setting],
              check: Callable[[Any], Any], value: Any, fallback: Any) -> Any:
    """VALUE checked; a bad one becomes a problem (with the file and line it came from)."""
    try:
        return check(value)
    except ConfigError as exc:
        problems[name] = _located(str(exc), name, sources[name])
        return fallback


def _located(message: str, name: str, setting: Setting) -> str:
    """`path:line: message` when the value came from a config file."""
    path = setting.origin
    if path is None:
        return f"{message} (from {setting.source})"
    return f"{path}:{_line_of(path, name)}: {message}"


def _line_of(path: Path, key: str) -> int:
    import re

    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return 1
    match = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", text, flags=re.M)
    return text.count("\n", 0, match.start()) + 1 if match else 1


def _provider_name(provider: Any) -> str:
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


def _parse_now(value: str) -> dt.datetime:
    """Settings.now (already checked by fixed_now) as an aware datetime."""
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def home_folder(env: Mapping[str, str]) -> Path:
    """The person's home folder as the environment gives it ($HOME)."""
    if not env.get("HOME"):
        raise ConfigError("HOME is not set, so memcli cannot find the user store; set HOME "
                          "or MEMCLI_HOME")
    return Path(env["HOME"])


def memcli_home(env: Mapping[str, str], home: Path | None = None) -> Path:
    """The user's memcli folder: $MEMCLI_HOME, else ~/.memcli (config, logs, user store)."""
    if env.get("MEMCLI_HOME"):
        return expand_home(env["MEMCLI_HOME"], home if home is not None else _maybe_home(env))
    return (home if home is not None else home_folder(env)) / MARKER_DIR


def _maybe_home(env: Mapping[str, str]) -> Path | None:
    return Path(env["HOME"]) if env.get("HOME") else None


def expand_home(value: str, home: Path | None) -> Path:
    """``~`` and ``~/...`` in the home folder given (the way a shell would expand them)."""
    if home is not None and (value == "~" or value.startswith("~/")):
        return home / value[2:]
    return Path(value)


def find_project_root(cwd: Path, user_home: Path, repository: Path | None) -> Path:
    """The project root (SPEC section 1): inside a git work tree (REPOSITORY, its top level),
    the nearest folder from CWD up to the top level that holds .memcli/ (not the user's
    own), else the top level; outside one, CWD. Nothing above the repository, or above CWD
    outside one, is ever used: a `.memcli/` planted in a parent folder (`/tmp`, `/`) would
    otherwise be the store and config of every repository below it. Git, pre-commit and uv
    stop at the repository too."""
    user_marker = resolved(user_home)
    if repository is None:
        return cwd
    folders = (cwd, *cwd.parents)
    if repository in folders:  # found by walking up: the common case, no path resolved
        below = folders[:folders.index(repository) + 1]
    else:  # GIT_WORK_TREE may name the top through a link
        top = resolved(repository)
        below = tuple(f for f in folders if resolved(f).is_relative_to(top))
    for folder in below:
        marker = folder / MARKER_DIR
        if marker.is_dir() and resolved(marker) != user_marker:
            return folder
    return repository


def git_top_level(cwd: Path, env: Mapping[str, str]) -> Path | None:
    """The top level of the git work tree holding CWD, found as git finds it, without
    running git (a command's start-up is a few milliseconds; git costs as much again).

    A folder is a work tree's top when it holds `.git`: a repository folder (with HEAD), or
    a file `gitdir: PATH` (a linked worktree, a submodule). GIT_WORK_TREE names the top
    itself; GIT_DIR without it makes the working folder the top, as git does.
    """
    if env.get("GIT_WORK_TREE"):
        top = _absolute(env["GIT_WORK_TREE"], cwd, None)
        return top if _inside(cwd, top) else None
    if env.get("GIT_DIR"):
        return cwd
    for folder in (cwd, *cwd.parents):
        if _is_git_marker(folder / ".git"):
            return folder
    return None


def _is_git_marker(path: Path) -> bool:
    """Read as an untrusted file: a `.git` FIFO planted in a parent folder must not stall
    every command below it."""
    from memcli.paths import read_regular_file

    try:
        if path.is_dir():
            return (path / "HEAD").is_file()
        return read_regular_file(path, 8) == b"gitdir: "
    except OSError:
        return False


def _absolute(value: Any, cwd: Path, home: Path | None) -> Path:
    path = expand_home(str(value), home)
    return path if path.is_absolute() else cwd / path


def _store(name: str, value: Any, cwd: Path, home: Path | None,
           sources: Mapping[str, Setting]) -> Path:
    """A store's folder; an empty value (the working folder) or a file system root is refused:
    memcli would write notes and MEMORY.md into whatever folder the command ran in. A NUL
    (TOML can write one) is in no path: the file system calls would raise."""
    text = str(value).strip()
    path = _absolute(text, cwd, home) if text and "\0" not in text else None
    if path is None or path == Path(path.anchor):
        shown = repr(str(value))
        raise ConfigError(_located(f"{name} {shown} is not a store folder; name a folder of "
                                   "its own, such as ~/.memcli/memory", name, sources[name]))
    return path


def _drop_bad_seconds(project_cfg: ConfigFile) -> list[str]:
    """Take out of a project config a number of seconds that is no number, negative or past
    MAX_SECONDS; a warning for each. A repository is untrusted: its `lock_timeout = 1e9`
    must not make every command in the checkout fail (the person's own bad value still does,
    and says where it is)."""
    warnings = []
    for name in PROJECT_MAX_SECONDS:
        if name not in project_cfg or project_cfg.origin is None:
            continue
        try:
            _number(name, project_cfg[name])
        except ConfigError as exc:
            del project_cfg[name]
            warnings.append(f"{project_cfg.origin}:{_line_of(project_cfg.origin, name)}: "
                            f"{exc}; the project config's value is ignored")
    return warnings


def _seconds(name: str, value: Any, sources: Mapping[str, Setting]) -> float:
    """VALUE as a number of seconds; a bad one is named by where it came from."""
    try:
        return _number(name, value)
    except ConfigError as exc:
        raise ConfigError(_located(str(exc), name, sources[name])) from None


def _bounded(name: str, value: float, sources: dict[str, Setting], capped: list[str]) -> float:
    """VALUE, or PROJECT_MAX_SECONDS when a project config asks for more (said in CAPPED).

    Cut, not refused: like the settings an untrusted config may not decide, which are left
    out with a warning, a repository's value must not stop every command in the checkout.
    """
    cap, setting = PROJECT_MAX_SECONDS[name], sources[name]
    if setting.source != "project config" or value <= cap:
        return value
    sources[name] = Setting(cap, setting.source, setting.origin)
    capped.append(_located(
        f"{name} = {value:g} is more than a project config may set; memcli waits {cap:g} s "
        f"(the user config or {_VARIABLES[name]} may set up to {MAX_SECONDS:g})", name, setting))
    return cap


def _number(name: str, value: Any) -> float:
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
