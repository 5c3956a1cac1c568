"""Team stores: git repositories of notes a person mounts beside the project and user stores.

Declared in the user config, one table each::

    [teams.platform]
    url = "git@github.com:acme/platform-memory.git"   # or a path to a repository
    mode = "ro"                                       # the default; "rw" also allowed

A repository's config may declare one only when the person trusted it (`memcli trust`):
otherwise a checkout could make memcli fetch from any address it names. `memcli sync` keeps
a clone of each in memcli's own folder (``$MEMCLI_HOME/teams/NAME``); its top level is the
store (MEMORY.md and one file per note, as a synced user store). The clone's content is
untrusted, as a remote's is to sync.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from memcli.errors import ConfigError
from memcli.value_types import FrozenRecord

MODES = ("ro", "rw")
# A name is what `--level NAME` and `apply --store NAME` say, and a folder name.
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
RESERVED = frozenset({"project", "user", "all"})
TEAMS_FOLDER = "teams"


class TeamStore(FrozenRecord):
    """One declared team store: its name, where it comes from, its mode and its clone."""

    __slots__ = __match_args__ = ("name", "url", "mode", "folder", "origin")
    name: Final[str]
    url: Final[str]
    mode: Final[str]
    folder: Final[Path]  # the local clone; its top level is the store
    origin: Final[str]  # "user config" or "project config"

    def __init__(self, name: str, url: str, mode: str, folder: Path, origin: str) -> None:
        self.name = name
        self.url = url
        self.mode = mode
        self.folder = folder
        self.origin = origin

    @property
    def read_only(self) -> bool:
        return self.mode == "ro"


def read_teams(user_tables: Any, project_tables: Any, user_home: Path,
               cwd: Path, home: Path | None) -> tuple[TeamStore, ...]:
    """The team stores of the user config, then those a (trusted) project config adds.

    PROJECT_TABLES is None when the project config may not declare any (it is not trusted);
    a name both declare is the user's.
    """
    found: dict[str, TeamStore] = {}
    for origin, tables in (("user config", user_tables), ("project config", project_tables)):
        if tables is None:
            continue
        if not isinstance(tables, Mapping):
            raise ConfigError(f"'teams' in the {origin} must be tables: [teams.NAME] with "
                              "url = \"...\"")
        for name, table in tables.items():
            if name in found:
                continue
            found[name] = _team(str(name), table, origin, user_home, cwd, home)
    return tuple(found.values())


def _team(name: str, table: Any, origin: str, user_home: Path, cwd: Path,
          home: Path | None) -> TeamStore:
    where = f"[teams.{name}] in the {origin}"
    if not _NAME.fullmatch(name) or name in RESERVED:
        raise ConfigError(f"{where}: a team store's name is lower-case letters, digits, '-' "
                          "and '_' (at most 32), and not project, user or all")
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where} must be a table with url = \"...\"")
    unknown = sorted(set(table) - {"url", "mode"})
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}; a team store has url and mode")
    url = table.get("url")
    if not isinstance(url, str) or not url.strip() or url.startswith("-"):
        raise ConfigError(f"{where} needs url = \"...\" (a git URL or a path)")
    mode = table.get("mode", "ro")
    if mode not in MODES:
        raise ConfigError(f"{where}: mode is \"ro\" or \"rw\", not {mode!r}")
    return TeamStore(name, _location(url.strip(), cwd, home), str(mode),
                     user_home / TEAMS_FOLDER / name, origin)


def _location(url: str, cwd: Path, home: Path | None) -> str:
    """A URL as it is; a path made absolute (git would read it from the clone's folder)."""
    if "://" in url or re.match(r"^[\w.-]+@[\w.-]+:", url):
        return url
    if url.startswith("~/") and home is not None:
        return str(home / url[2:])
    path = Path(url)
    return str(path if path.is_absolute() else cwd / path)


def find_team(teams: tuple[TeamStore, ...], name: str) -> TeamStore | None:
    return next((team for team in teams if team.name == name), None)
