"""The repository files every agent already reads as instructions, and whether there are any.

Apart from the comparison (``memcli.commands.interop.instructions``), so that ``memcli lint`` in a
repository without them decides so without loading it.
"""

from __future__ import annotations

from pathlib import Path

INSTRUCTION_FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")


def instruction_paths(root: Path) -> list[Path]:
    """The instruction files in ROOT that are regular files (a symbolic link is not read)."""
    paths = (root / name for name in INSTRUCTION_FILES)
    return [path for path in paths if not path.is_symlink() and path.is_file()]
