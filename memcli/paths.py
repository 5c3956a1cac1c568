"""Path helpers shared by every layer (no imports from memcli)."""

from __future__ import annotations

from pathlib import Path


def resolved(path: Path) -> Path:
    """The path with symlinks resolved, or the path as given when it cannot be resolved.

    Comparisons of store folders use this: a folder that does not exist yet, a permission
    error or a symlink loop must not turn "is this the same folder?" into a crash.
    """
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path
