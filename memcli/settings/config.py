"""The settings of one command (:class:`Settings`), as :mod:`memcli.settings.resolve`
resolves them once: flag > environment > project config > user config > default.

The CLI collects the flags and the process state (environment, working folder, home folder,
clock) and calls ``resolve``; everything below receives the resulting :class:`Settings`
and never reads the process state itself.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from memcli.errors import ConfigError
from memcli.paths import resolved
from memcli.settings.locations import MARKER_DIR, inside
from memcli.settings.review import DEFAULT_EXPIRY_DAYS, parse_expiry_days
from memcli.settings.teams import TeamStore
from memcli.settings.values import Setting, located, parse_now
from memcli.settings.zone import UTC, Zone
from memcli.value_types import Record

Clock = Callable[[], dt.datetime]


class Settings(Record):
    """Everything a command needs to know of its run, resolved once by
    :func:`memcli.settings.resolve.resolve` (read-only: its fields are ``Final``). Only
    ``resolve`` builds one."""

    __slots__ = __match_args__ = (
        "project_root", "project_store", "user_home", "user_store", "lock_timeout", "now",
        "provider", "model", "base_url", "api_key", "timeout", "home", "cwd", "clock", "sources",
        "problems", "ignored", "unknown", "capped", "zone", "repository", "closed", "env",
        "teams", "teams_problem",
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
    # Why the [teams] tables were left out (a bad declaration), or None: only the commands
    # that use a team store fail on it (require_teams), the others warn and go on.
    teams_problem: Final[str | None]
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
                 teams: tuple[TeamStore, ...] = (), teams_problem: str | None = None,
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
        self.teams_problem = teams_problem

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
            if inside(store, self.repository):
                return None
            return f"outside the current repository ({self.repository}){origin}"
        if self.cwd is not None and inside(store, self.cwd):
            return None
        return f"outside the working folder, which is in no git repository{origin}"

    def require_teams(self) -> None:
        """Raise why the team stores were left out, for a command that uses one."""
        if self.teams_problem is not None:
            raise ConfigError(self.teams_problem)

    def expiry_days(self) -> int:
        """How many days a proposal waits in the review inbox; a bad value is a ConfigError
        naming where it came from."""
        setting = self.sources.get("review_expiry_days")
        if setting is None:
            return DEFAULT_EXPIRY_DAYS
        try:
            return parse_expiry_days(setting.value)
        except ConfigError as exc:
            raise ConfigError(located(str(exc), "review_expiry_days", setting)) from None

    def require_extraction(self) -> None:
        """Raise the first problem of a setting that extraction needs."""
        for message in self.problems.values():
            raise ConfigError(message)

    def moment(self) -> dt.datetime:
        """Now, as the person's wall time (aware, with their zone's offset): MEMCLI_NOW when
        set, else the clock. Its ``date()`` is the person's today."""
        return self.zone.local(parse_now(self.now) if self.now else self.clock())

    def timestamp(self) -> str:
        """Now as the frontmatter writes it (UTC, to the second): MEMCLI_NOW, else the clock."""
        if self.now:
            return self.now
        return self.clock().astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
