"""What an import or an export of another tool's memory did: the files, and what was left out.

Shared by every format (Claude Code, Codex, Gemini CLI), so that the CLI renders them alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memcli.commands.apply import ApplyReport


@dataclass(frozen=True)
class LeftOut:
    """A file of the folder that did not become a note, and why."""

    file: str
    reason: str
    problem: bool  # a Markdown file that looked like a memory but could not be read


@dataclass
class ImportResult:
    folder: Path
    level: str
    sources: list[str]  # the file each operation came from, in operation order
    left_out: list[LeftOut] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    report: ApplyReport | None = None

    @property
    def needs_attention(self) -> bool:
        return ((self.report is not None and self.report.needs_attention)
                or any(item.problem for item in self.left_out))

    def source_of(self, position: int) -> str:
        return self.sources[position - 1] if 0 < position <= len(self.sources) else "?"



@dataclass(frozen=True)
class ExportedFile:
    filename: str
    change: str  # created, updated or unchanged
    source: str  # the memcli note it came from ("" for MEMORY.md)


@dataclass
class ExportResult:
    folder: Path
    level: str
    files: list[ExportedFile] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)
    dry_run: bool = False  # the files say what an export would do; nothing was written

    @property
    def needs_attention(self) -> bool:
        return any(item.problem for item in self.left_out)

