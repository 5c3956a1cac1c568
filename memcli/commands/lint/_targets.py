"""Which stores `memcli lint` checks: both configured ones, or the store of each PATH."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Final

from memcli.errors import InputError, UsageError
from memcli.settings.config import Settings
from memcli.store.names import INDEX_NAME, parse_note_name
from memcli.value_types import FrozenRecord
from memcli.writes.stores import levels_for


class Target(FrozenRecord):
    """A store lint checks: its level and folder."""

    __slots__ = __match_args__ = ("level", "path")
    level: Final[str]
    path: Final[Path]

    def __init__(self, level: str, path: Path) -> None:
        self.level = level
        self.path = path


def targets(settings: Settings, paths: Iterable[str], level: str | None = None) -> list[Target]:
    """The stores to check: the configured ones LEVEL names (default: both), or the store of
    each PATH."""
    given = list(paths)
    if level not in (None, "all") and given:
        raise UsageError("--level chooses a configured store and PATH names one; give one "
                         "of them")
    # In the home folder the project store found is the user's own: it is the user store.
    wanted = [Target(lvl, settings.store_for(lvl)) for lvl in levels_for(level, settings)]
    if given:
        stores = [_store_of(raw, settings) for raw in given]
        wanted = [Target(_level_of(settings, store), store) for store in stores]
    unique: dict[Path, Target] = {}
    for target in wanted:
        unique.setdefault(_resolved(target.path), target)
    return list(unique.values())


def _store_of(raw: str, settings: Settings) -> Path:
    cwd = settings.cwd
    path = Path(raw)
    path = path if path.is_absolute() or cwd is None else cwd / path
    named_like_store_file = path.name == INDEX_NAME or parse_note_name(path.name) is not None
    if not path.exists() and not path.is_symlink():
        # A configured store nobody has written to yet is what `memcli lint` with no path
        # checks too: an empty store, not a mistyped argument.
        if _is_configured(path, settings):
            return path
        if named_like_store_file and _is_configured(path.parent, settings):
            return path.parent
        raise InputError(f"no store at {raw}: no such file or folder; give a store folder "
                         "or a file in one")
    if path.is_dir() and not named_like_store_file:
        if not _is_store(path, settings) and _has_entries(path):
            # `memcli lint /etc` checked it as a store: one M305 per file, exit 0.
            raise InputError(f"{raw} is not a memcli store (no MEMORY.md and no "
                             "<type>_<slug>.md note in it); give a store folder or a file in one")
        return path
    if not named_like_store_file and not _is_store(path.parent, settings):
        # `memcli lint README.md` would check the repository's root as a store and ask to
        # move every file out of it; a stray file inside a real store is a finding (M305).
        raise InputError(f"{raw} is not a memory file (MEMORY.md or a <type>_<slug>.md note) "
                         "and its folder is not a memcli store; give a store folder or a file "
                         "in one")
    return path.parent


def _is_configured(folder: Path, settings: Settings) -> bool:
    return _resolved(folder) in (_resolved(settings.project_store),
                                 _resolved(settings.user_store))


def _is_store(folder: Path, settings: Settings) -> bool:
    import os

    if _is_configured(folder, settings):
        return True
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    return any(name == INDEX_NAME or parse_note_name(name) is not None for name in names)


def _has_entries(folder: Path) -> bool:
    try:
        return any(folder.iterdir())
    except OSError:
        return True  # unreadable: lint reports it as it would a store's


def _level_of(settings: Settings, store: Path) -> str:
    if _resolved(store) == _resolved(settings.user_store) != _resolved(settings.project_store):
        return "user"
    return "project"


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path
