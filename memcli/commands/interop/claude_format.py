"""Claude Code's auto-memory folder: the format both directions share.

Claude Code keeps one folder per project (``~/.claude/projects/<project>/memory/``): a
``MEMORY.md`` index of links, ``- [Title](file.md) — description``, and one Markdown file
per memory with ``name``, ``description`` and ``type`` in its frontmatter (newer versions
write the type as ``metadata: {type: ...}``); the types are user, feedback, project and
reference. Older folders also hold topic files without frontmatter and free text in
``MEMORY.md`` itself. Import is :mod:`memcli.commands.interop.claude_import`, export
:mod:`memcli.commands.interop.claude_export`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from memcli.commands.interop._files import read_file
from memcli.errors import UsageError
from memcli.store.names import LEVELS

CLAUDE_TYPES: dict[str, str] = {
    "user": "user_preference",
    "feedback": "correction_feedback",
    "project": "project_knowledge",
    "reference": "reference_material",
}
MEMCLI_TO_CLAUDE: dict[str, str] = {v: k for k, v in CLAUDE_TYPES.items()}
DEFAULT_TYPE = "project_knowledge"

# "- [Title](file.md) — description"; the separator varies by hand and by version.
_LINK = re.compile(
    r"^\s*[-*+]\s+\[(?P<title>(?:\\.|[^\]\\])*)\]\((?P<target>[^()\s]+)\)"
    r"\s*(?:(?:—|–|-|:)\s*(?P<desc>.*?))?\s*$"
)


@dataclass(frozen=True)
class Link:
    title: str
    description: str


def read_index(path: Path) -> str | None:
    """MEMORY.md's text (bytes that are not UTF-8 replaced); None when there is none.

    A MEMORY.md that is a link is refused, not followed: it could point at any file.
    """
    return decode_index(read_file(path))


def decode_index(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", "replace").removeprefix("\ufeff")


def one_level(level: str) -> str:
    if level not in LEVELS:
        raise UsageError(f"unknown level '{level}'; use project or user")
    return level


def parse_links(text: str) -> tuple[dict[str, Link], list[tuple[str, str | None]]]:
    """Link entries by target file name, and every line with the target it links to."""
    links: dict[str, Link] = {}
    lines: list[tuple[str, str | None]] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        match = _LINK.match(line)
        target = match["target"].removeprefix("./") if match else None
        if match and target and "/" not in target and target.endswith(".md"):
            title = re.sub(r"\\(.)", r"\1", match["title"]).strip()
            links.setdefault(target, Link(title, (match["desc"] or "").strip()))
            lines.append((line, target))
        else:
            lines.append((line, None))
    return links, lines
