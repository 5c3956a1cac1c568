"""memcli: long-term memory for AI agents as plain, reviewable Markdown."""

from __future__ import annotations

import os

__version__ = "0.1.0"


def code_stamp(modules: tuple[str, ...]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """memcli's version and the size and modification time of each of MODULES (dotted
    names of memcli modules; their files, found without importing them): what a cache of
    what that code computed is stamped with, so that other code (another version, or an
    edited module in a checkout) starts the cache anew."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = []
    for name in modules:
        path = os.path.join(root, *name.split("."))
        try:
            info = os.stat(path + ".py")
        except OSError:
            try:
                info = os.stat(os.path.join(path, "__init__.py"))  # a package
            except OSError:
                found.append((-1, -1))
                continue
        found.append((info.st_size, info.st_mtime_ns))
    return __version__, tuple(found)
