"""`memcli hooks install --agent git`: the MEMORY.md merge driver, wired for a repository.

``.gitattributes`` (committed, shared with the team) names the driver for each store's
index; ``git config`` (per clone, since git never runs commands a repository brings along)
says which command the driver is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from memcli.commands.gitstore._git import is_repository, run, top_level
from memcli.commands.hooks_install import InstallResult
from memcli.errors import UsageError

DRIVER = "memcli"
ATTRIBUTE = f"merge={DRIVER}"
DRIVER_NAME = "memcli MEMORY.md index"
DRIVER_ARGS = "merge-index %O %A %B %P"


def driver_config(python: str) -> list[str]:
    """`git -c` options that define the driver for one command (memcli on any PATH)."""
    return ["-c", f"merge.{DRIVER}.name={DRIVER_NAME}",
            "-c", f"merge.{DRIVER}.driver={python} -m memcli {DRIVER_ARGS}"]


def install_git(stores: Sequence[Path], cwd: Path, env: Mapping[str, str], scope: str, *,
                dry_run: bool = False) -> InstallResult:
    if scope != "project":
        raise UsageError("the merge driver is wired per repository: use --scope project")
    if not is_repository(cwd, env):
        raise UsageError(f"{cwd} is not inside a git repository")
    root = top_level(cwd, env)
    path = root / ".gitattributes"
    old = path.read_text("utf-8") if path.exists() else ""
    lines = [_pattern(store, root) + f" {ATTRIBUTE}" for store in stores
             if _inside(store, root)]
    missing = [line for line in dict.fromkeys(lines) if line not in old.splitlines()]
    config = run(root, ["config", "--get", f"merge.{DRIVER}.driver"], env, check=False)
    wanted = f"memcli {DRIVER_ARGS}"
    added = [*missing, *([] if config.stdout.strip() == wanted else [f"git config merge."
                                                                     f"{DRIVER}.driver"])]
    new = old + ("" if not old or old.endswith("\n") else "\n") + "".join(
        line + "\n" for line in missing)
    diff = _diff(old, new) if missing else ""
    if config.stdout.strip() != wanted:
        diff += (f"+ git config merge.{DRIVER}.name '{DRIVER_NAME}'\n"
                 f"+ git config merge.{DRIVER}.driver '{wanted}'\n")
    if added and not dry_run:
        if missing:
            path.write_text(new, "utf-8")
        run(root, ["config", f"merge.{DRIVER}.name", DRIVER_NAME], env)
        run(root, ["config", f"merge.{DRIVER}.driver", wanted], env)
    already = [line for line in lines if line in old.splitlines()]
    return InstallResult("git", path, added, already, bool(added) and not dry_run, diff)


def git_status(stores: Sequence[Path], cwd: Path, env: Mapping[str, str]) -> tuple[Path, list[str],
                                                                                  list[str]]:
    """The .gitattributes path, the stores whose index is wired, those that are not."""
    if not is_repository(cwd, env):
        return cwd / ".gitattributes", [], [str(s) for s in stores]
    root = top_level(cwd, env)
    path = root / ".gitattributes"
    text = path.read_text("utf-8").splitlines() if path.exists() else []
    driver = run(root, ["config", "--get", f"merge.{DRIVER}.driver"], env, check=False)
    wired: list[str] = []
    missing: list[str] = []
    for store in stores:
        if not _inside(store, root):
            continue
        line = _pattern(store, root) + f" {ATTRIBUTE}"
        (wired if line in text and driver.stdout.strip() else missing).append(
            _pattern(store, root))
    return path, wired, missing


def _inside(store: Path, root: Path) -> bool:
    try:
        store.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def _pattern(store: Path, root: Path) -> str:
    relative = store.resolve().relative_to(root.resolve()).as_posix()
    return "MEMORY.md" if relative == "." else f"{relative}/MEMORY.md"


def _diff(old: str, new: str) -> str:
    import difflib

    return "".join(difflib.unified_diff(old.splitlines(keepends=True),
                                        new.splitlines(keepends=True),
                                        fromfile="a/.gitattributes" if old else "/dev/null",
                                        tofile="b/.gitattributes"))
