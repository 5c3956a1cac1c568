"""Where memcli's folders are: the person's home, memcli's own folder, the project root and
the git work tree around the working folder. Found from the environment and the working
folder the CLI passes in; nothing here reads the process state itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memcli.errors import ConfigError
from memcli.paths import resolved

CONFIG_NAME = "config.toml"


MARKER_DIR = ".memcli"


def home_folder(env: Mapping[str, str]) -> Path:
    """The person's home folder as the environment gives it ($HOME)."""
    if not env.get("HOME"):
        raise ConfigError("HOME is not set, so memcli cannot find the user store; set HOME "
                          "or MEMCLI_HOME")
    return Path(env["HOME"])


def memcli_home(env: Mapping[str, str], home: Path | None = None) -> Path:
    """The user's memcli folder: $MEMCLI_HOME, else ~/.memcli (config, logs, user store)."""
    if env.get("MEMCLI_HOME"):
        return expand_home(env["MEMCLI_HOME"], home if home is not None else maybe_home(env))
    return (home if home is not None else home_folder(env)) / MARKER_DIR


def maybe_home(env: Mapping[str, str]) -> Path | None:
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
        top = absolute(env["GIT_WORK_TREE"], cwd, None)
        return top if inside(cwd, top) else None
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


def absolute(value: Any, cwd: Path, home: Path | None) -> Path:
    path = expand_home(str(value), home)
    return path if path.is_absolute() else cwd / path


def inside(path: Path, root: Path) -> bool:
    try:
        resolved(path).relative_to(resolved(root))
    except ValueError:
        return False
    return True
