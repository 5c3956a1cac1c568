"""lint's results: the finding codes, a finding, the report (its JSON is drawn by
:mod:`memcli.render.lint`)."""

from __future__ import annotations

from pathlib import Path
from typing import Final, Literal

from memcli.value_types import FrozenRecord

Severity = Literal["error", "warning"]

# Stable codes: M1xx the index, M2xx one note, M3xx any file or the store (docs/lint.md).
CODES: dict[str, tuple[Severity, str]] = {
    "M101": ("error", "an index line that looks like an entry but does not parse"),
    "M102": ("error", "an index line points at a note that does not exist"),
    "M103": ("error", "an index line disagrees with its note"),
    "M104": ("error", "two index lines for one note"),
    "M105": ("error", "the index is not in memcli's order"),
    "M106": ("error", "the index is not laid out as memcli writes it"),
    "M107": ("error", "the store has notes but no MEMORY.md"),
    "M108": ("warning", "index entries past the 200-line / 25 KiB context budget"),
    "M109": ("warning", "an index line longer than 200 characters"),
    "M201": ("error", "a note missing from the index"),
    "M202": ("error", "a note without frontmatter"),
    "M203": ("error", "broken frontmatter"),
    "M204": ("error", "a second frontmatter block"),
    "M205": ("error", "type, title or summary missing or not text"),
    "M206": ("error", "created or updated missing"),
    "M207": ("error", "an unknown note type"),
    "M208": ("error", "a file name that does not match the note's type and slug"),
    "M209": ("warning", "a note with an empty body"),
    "M210": ("error", "created or updated is not a date"),
    "M211": ("warning", "created is after updated"),
    "M212": ("warning", "an expired note (its expires date is over)"),
    "M213": ("warning", "a note past its review_after date"),
    "M214": ("error", "expires or review_after is not a date"),
    "M215": ("error", "invisible characters (tag, zero-width, bidi) in a note's body"),
    "M216": ("warning", "hidden text (an HTML comment, a link-definition comment) in a note"),
    "M217": ("error", "a cites entry that is not an anchor into the repository"),
    "M218": ("warning", "a cited file (or its cited lines or symbol) changed since pinned"),
    "M219": ("warning", "a cited file (or its cited lines or symbol) is gone"),
    "M301": ("error", "a file that is not valid UTF-8"),
    "M302": ("error", "a secret"),
    "M303": ("warning", "near-duplicate titles within a level"),
    "M304": ("warning", "the same note in both levels"),
    "M305": ("warning", "a stray file that is not a note"),
    "M306": ("error", "a note name or MEMORY.md that is not a regular file"),
    "M307": ("error", "a file that cannot be read"),
    "M308": ("error", "the store path is not a folder"),
    "M309": ("warning", "a note repeats or contradicts AGENTS.md, CLAUDE.md or GEMINI.md"),
    "M310": ("error", "two files that are one note (names differ only in case or NFC)"),
    "M311": ("warning", "a sync conflict copy: a note changed on two machines, to merge"),
}


# Finding and CheckedStore are records (memcli.value_types: immutable, compared by value, and
# nothing compiled or evaluated at import). memcli.render.lint names their JSON keys.
class Finding(FrozenRecord):
    """One problem: its code and severity, where it is, and what to do about it."""

    __slots__ = __match_args__ = ("code", "severity", "path", "line", "column", "message")
    code: Final[str]
    severity: Final[Severity]
    path: Final[str]
    line: Final[int | None]
    column: Final[int | None]
    message: Final[str]

    def __init__(self, code: str, severity: Severity, path: str, line: int | None,
                 column: int | None, message: str) -> None:
        self.code = code
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.message = message


class CheckedStore(FrozenRecord):
    """A store lint checked: its level, the path shown, whether it exists, its notes."""

    __slots__ = __match_args__ = ("level", "path", "exists", "notes")
    level: Final[str]
    path: Final[str]
    exists: Final[bool]
    notes: Final[int]

    def __init__(self, level: str, path: str, exists: bool, notes: int) -> None:
        self.level = level
        self.path = path
        self.exists = exists
        self.notes = notes


class LintReport:
    """What a lint run found and fixed, and the stores it checked (a plain class: a
    dataclass would compile its methods at every start)."""

    findings: list[Finding]
    fixed: list[str]
    stores: list[CheckedStore]
    strict: bool  # warnings need a look too (`lint --strict`)

    def __init__(self, strict: bool = False) -> None:
        self.findings = []
        self.fixed = []
        self.stores = []
        self.strict = strict

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")

    @property
    def needs_attention(self) -> bool:
        return bool(self.errors or (self.strict and self.warnings))


def finding(code: str, path: str, line: int | None, message: str,
            column: int | None = None) -> Finding:
    return Finding(code, CODES[code][0], path, line, column, message)


def finding_order(finding: Finding) -> tuple[str, int, int, str]:
    return finding.path, finding.line or 0, finding.column or 0, finding.code


def display(path: Path, cwd: Path | None) -> str:
    """A path as a person typed it: relative to the working folder CWD when inside it."""
    if cwd is None:
        return str(path)
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return str(path)
