"""A git lock that a killed `memcli sync` left in the user store, told from one in use.

`memcli sync` runs git only while it holds the store's own lock, so a `.git/index.lock`
found then was left by a git that died (memcli sync killed together with its children:
every later git there fails with "File exists" until someone removes it) -- or belongs to
a git the person runs by hand in that folder. Only the second holds the file open or has
its working folder there; on Linux /proc tells, for the processes of this user. Where it
cannot tell (no /proc), the lock stays and git's error says what to do.
"""

from __future__ import annotations

import os
from pathlib import Path

LOCK_NAMES = ("index.lock", "HEAD.lock")


def _in_use(lock: Path, folder: Path) -> bool | None:
    """Whether any process of this user holds LOCK open or works inside FOLDER; None when
    there is no /proc to ask."""
    proc = Path("/proc")
    if not (proc / "self" / "fd").is_dir():
        return None
    me, uid = os.getpid(), os.getuid()
    lock_path, root = str(lock), str(folder)
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            cwd = os.readlink(entry / "cwd")
            if cwd == root or cwd.startswith(root + os.sep):
                return True
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) == lock_path:
                    return True
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return False


def remove_stale_locks(folder: Path) -> list[str]:
    """Remove the git locks in FOLDER's .git that no process uses; the names removed.
    Call it only while holding the store's own lock."""
    git_dir = folder / ".git"
    removed: list[str] = []
    for name in LOCK_NAMES:
        lock = git_dir / name
        if lock.is_symlink() or not lock.is_file():
            continue
        if _in_use(lock.resolve(), folder.resolve()) is False:
            lock.unlink()
            removed.append(f".git/{name}")
    return removed
