"""Claude Code's auto-memory folder, in and out.

Claude Code keeps one folder per project (``~/.claude/projects/<project>/memory/``): a
``MEMORY.md`` index of links, ``- [Title](file.md) — description``, and one Markdown file
per memory with ``name``, ``description`` and ``type`` in its frontmatter (newer versions
write the type as ``metadata: {type: ...}``); the types are user, feedback, project and
reference. Older folders also hold topic files without frontmatter and free text in
``MEMORY.md`` itself.

Import turns every note into a create operation and applies them all through
:func:`memcli.core.apply.apply_items` (one transaction, the same validation as ``apply``). The
source folder is only read. Whatever cannot become a note is listed with its reason, so that
nothing disappears without a word.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memcli.config import Settings
from memcli.core.apply import ApplyReport, apply_items
from memcli.core.stores import open_stores
from memcli.durable import fsync_dir, write_durably
from memcli.errors import BrokenNoteError, InputError, StoreError, UsageError
from memcli.index import IndexEntry, ordered
from memcli.names import INDEX_NAME, LEVELS, canonical_type, parse_note_name
from memcli.notes import Note, dump_yaml, parse_note
from memcli.text import derive_summary, one_line, shorten

CLAUDE_TYPES: dict[str, str] = {
    "user": "user_preference",
    "feedback": "correction_feedback",
    "project": "project_knowledge",
    "reference": "reference_material",
}
MEMCLI_TO_CLAUDE: dict[str, str] = {v: k for k, v in CLAUDE_TYPES.items()}
DEFAULT_TYPE = "project_knowledge"
MAX_TITLE_CHARS = 100  # what operations accept
KNOWN_KEYS = frozenset({"name", "description", "type", "metadata"})
LEFTOVER_TITLE = "Claude Code MEMORY.md"
EXPORT_HEADER = "# Memory index\n\n"

# "- [Title](file.md) — description"; the separator varies by hand and by version.
_LINK = re.compile(
    r"^\s*[-*+]\s+\[(?P<title>(?:\\.|[^\]\\])*)\]\((?P<target>[^()\s]+)\)"
    r"\s*(?:(?:—|–|-|:)\s*(?P<desc>.*?))?\s*$"
)
_HEADING = re.compile(r"^#{1,6}\s+(?P<text>.+?)\s*#*\s*$")
_TYPE_PREFIX = re.compile(r"^(?P<type>user|feedback|project|reference)[_-]")


# --------------------------------------------------------------------------- results


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
    def exit_code(self) -> int:
        if self.report is not None and self.report.exit_code:
            return self.report.exit_code
        return 1 if any(item.problem for item in self.left_out) else 0

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

    @property
    def exit_code(self) -> int:
        return 1 if any(item.problem for item in self.left_out) else 0


# --------------------------------------------------------------------------- import


@dataclass(frozen=True)
class _Link:
    title: str
    description: str


def import_folder(settings: Settings, folder: Path, *, level: str = "project",
                  dry_run: bool = False, on_conflict: str = "fail") -> ImportResult:
    """Convert a Claude Code memory folder into create operations and apply them."""
    level = _one_level(level)
    if not folder.is_dir():
        raise InputError(f"{folder} is not a folder; pass a Claude Code memory folder")
    index_path = folder / INDEX_NAME
    index_text = _read_index(index_path)
    links, index_lines = _parse_links(index_text or "")
    result = ImportResult(folder, level, [])
    items: list[dict[str, Any]] = []
    imported_names: set[str] = set()
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name == INDEX_NAME:
            continue
        item = _import_entry(entry, level, links, result)
        if item is not None:
            items.append(item)
            result.sources.append(entry.name)
            imported_names.add(entry.name)
    leftover = _leftover_index_text(index_lines, imported_names)
    if leftover:
        items.append({"action": "create", "level": level, "type": DEFAULT_TYPE,
                      "title": LEFTOVER_TITLE, "content": leftover,
                      "reason": f"from {INDEX_NAME}: its lines that are not links to notes"})
        result.sources.append(INDEX_NAME)
    if not items:
        if index_text is None and not any(i.problem for i in result.left_out):
            raise InputError(_not_a_memory_folder(folder))
        result.warnings.append(f"no notes to import in {folder}")
        return result
    from memcli.history import Source

    result.report = apply_items(settings, items, {}, dry_run=dry_run, on_conflict=on_conflict,
                                source=Source("import"))
    return result


def _one_level(level: str) -> str:
    if level not in LEVELS:
        raise UsageError(f"unknown level '{level}'; use project or user")
    return level


def _read_index(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    return data.decode("utf-8", "replace").removeprefix("\ufeff")


def _parse_links(text: str) -> tuple[dict[str, _Link], list[tuple[str, str | None]]]:
    """Link entries by target file name, and every line with the target it links to."""
    links: dict[str, _Link] = {}
    lines: list[tuple[str, str | None]] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        match = _LINK.match(line)
        target = match["target"].removeprefix("./") if match else None
        if match and target and "/" not in target and target.endswith(".md"):
            title = re.sub(r"\\(.)", r"\1", match["title"]).strip()
            links.setdefault(target, _Link(title, (match["desc"] or "").strip()))
            lines.append((line, target))
        else:
            lines.append((line, None))
    return links, lines


def _leftover_index_text(lines: list[tuple[str, str | None]], imported: set[str]) -> str:
    """Lines of MEMORY.md that say something beyond headings and links to imported notes."""
    kept = [line for line, target in lines if target is None or target not in imported]
    # The file's own title and comments on top belong to the index, not to a memory.
    while kept and (not kept[0].strip() or kept[0].startswith("# ")
                    or kept[0].strip().startswith("<!--")):
        kept.pop(0)
    meaningful = [ln for ln in kept if ln.strip() and not _HEADING.match(ln)]
    return "\n".join(kept).strip("\n") if meaningful else ""


def _not_a_memory_folder(folder: Path) -> str:
    hint = ""
    if (folder / "memory" / INDEX_NAME).exists():
        hint = f"; did you mean {folder / 'memory'}?"
    return f"no MEMORY.md and no notes in {folder}: not a Claude Code memory folder{hint}"


def _import_entry(entry: os.DirEntry[str], level: str, links: dict[str, _Link],
                  result: ImportResult) -> dict[str, Any] | None:
    name = entry.name
    is_markdown = name.lower().endswith(".md")
    if name.startswith("."):
        result.left_out.append(LeftOut(name, "hidden file; ignored", False))
        return None
    if entry.is_symlink():
        result.left_out.append(LeftOut(name, "a symlink; not followed", is_markdown))
        return None
    if entry.is_dir():
        result.left_out.append(LeftOut(name, "a folder; only the notes at the top level are "
                                       "imported", False))
        return None
    if not is_markdown or not entry.is_file():
        result.left_out.append(LeftOut(name, "not a Markdown note", False))
        return None
    try:
        with open(entry.path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        result.left_out.append(LeftOut(name, f"cannot read it: {exc.strerror}", True))
        return None
    try:
        meta, body = _split(name, raw)
    except BrokenNoteError as exc:
        result.left_out.append(LeftOut(name, str(exc).removeprefix(f"{name}: "), True))
        return None
    return _operation(name, meta, body, level, links.get(name), result.warnings)


def _split(name: str, raw: bytes) -> tuple[dict[str, Any], str]:
    """Frontmatter keys and body; a file without frontmatter is all body."""
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise BrokenNoteError(f"{name}: not valid UTF-8 (byte {exc.start})") from None
    if text.split("\n", 1)[0].strip() != "---":
        return {}, text.replace("\r\n", "\n").strip("\n")
    note = parse_note(name, raw)
    return note.meta, note.content


def _operation(name: str, meta: dict[str, Any], body: str, level: str, link: _Link | None,
               warnings: list[str]) -> dict[str, Any] | None:

    title = (_text(meta.get("name")) or (link.title if link else "") or _heading(body)
             or _title_from_file(name))
    if len(title) > MAX_TITLE_CHARS:
        warnings.append(f"{name}: title shortened to {MAX_TITLE_CHARS} characters")
        title = shorten(title, MAX_TITLE_CHARS)
    summary = (_text(meta.get("description")) or (link.description if link else "")
               or _summary_below_heading(body))
    content = body
    if not content.strip():
        content = summary or title
        warnings.append(f"{name}: empty body; its description became the content")
    unknown = sorted(k for k in meta if k not in KNOWN_KEYS)
    metadata = meta.get("metadata")
    if isinstance(metadata, dict):
        unknown += sorted(f"metadata.{k}" for k in metadata if k != "type")
    if unknown:
        warnings.append(f"{name}: frontmatter not carried over (it stays in the source file): "
                        + ", ".join(unknown))
    item: dict[str, Any] = {"action": "create", "level": level,
                            "type": _note_type(name, meta, warnings), "title": title,
                            "content": content, "reason": f"from {name}"}
    if summary:
        item["summary"] = summary
    return item


def _text(value: Any) -> str:
    return one_line(value) if isinstance(value, str) else ""


def _note_type(name: str, meta: dict[str, Any], warnings: list[str]) -> str:
    declared = meta.get("type")
    metadata = meta.get("metadata")
    if declared is None and isinstance(metadata, dict):
        declared = metadata.get("type")
    if isinstance(declared, str):
        found = canonical_type(declared)
        if found is not None:
            return found
        warnings.append(f"{name}: unknown type '{declared}'; imported as {DEFAULT_TYPE}")
        return DEFAULT_TYPE
    prefix = _TYPE_PREFIX.match(name)
    if prefix is not None:
        return CLAUDE_TYPES[prefix["type"]]
    warnings.append(f"{name}: no type; imported as {DEFAULT_TYPE}")
    return DEFAULT_TYPE


def _summary_below_heading(body: str) -> str:
    """The first sentence after a leading heading (memcli would fold the heading into it)."""

    lines = body.split("\n")
    while lines and (not lines[0].strip() or _HEADING.match(lines[0])):
        lines.pop(0)
    return derive_summary("\n".join(lines)) if lines else ""


def _heading(body: str) -> str:
    for line in body.split("\n"):
        if line.strip():
            match = _HEADING.match(line)
            return one_line(match["text"]) if match else ""
    return ""


def _title_from_file(name: str) -> str:
    stem = name[:-3]
    return one_line(re.sub(r"[_-]+", " ", stem)) or stem


# --------------------------------------------------------------------------- export


def export_store(settings: Settings, folder: Path, *, level: str = "project") -> ExportResult:
    """Write one memcli store as a Claude Code memory folder (notes, then MEMORY.md)."""
    level = _one_level(level)
    store = settings.store_for(level)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder} exists and is not a folder")
    if _same_path(folder, settings.project_store) or _same_path(folder, settings.user_store):
        raise UsageError(f"{folder} is a memcli store; export to a separate folder")
    with open_stores(settings, [level]) as stores:
        state = stores[level]
        notes = state.notes  # each parsed when exported: never all at once
        entries = ordered(state.entries())
        broken = dict(state.broken)
    result = ExportResult(folder, level)
    for filename, why in sorted(broken.items()):
        result.left_out.append(LeftOut(filename, why.removeprefix(f"{filename}: "), True))
    if not notes:
        if not state.exists:
            result.left_out.append(LeftOut(str(store), f"the {level} store does not exist yet",
                                           False))
        return result
    folder.mkdir(parents=True, exist_ok=True)
    exported: list[tuple[IndexEntry, str]] = []
    for entry in entries:
        note = notes.get(entry.filename)
        if note is None:
            continue
        target = _claude_name(note)
        change = _write_if_changed(folder / target, _claude_note(note, entry))
        result.files.append(ExportedFile(target, change, note.filename))
        exported.append((entry, target))
    index = _claude_index(_read_index(folder / INDEX_NAME), exported)
    result.files.append(ExportedFile(INDEX_NAME, _write_if_changed(folder / INDEX_NAME, index),
                                     ""))
    if any(f.change != "unchanged" for f in result.files):
        try:
            fsync_dir(folder)  # the renames themselves survive a power cut
        except OSError as exc:
            raise StoreError(f"cannot write {folder}: {exc.strerror}") from None
    return result


def _same_path(a: Path, b: Path) -> bool:
    with contextlib.suppress(OSError):
        return a.resolve() == b.resolve()
    return False


def _claude_type(note: Note) -> str:
    parsed = parse_note_name(note.filename)
    memcli_type = canonical_type(note.type) or (parsed.type if parsed else DEFAULT_TYPE)
    return MEMCLI_TO_CLAUDE.get(memcli_type, "project")


def _claude_name(note: Note) -> str:
    parsed = parse_note_name(note.filename)
    slug = parsed.slug if parsed else note.filename.removesuffix(".md")
    return f"{_claude_type(note)}_{slug}.md"


def _claude_note(note: Note, entry: IndexEntry) -> bytes:
    meta = {"name": entry.title, "description": entry.summary, "type": _claude_type(note)}
    return f"---\n{dump_yaml(meta)}---\n\n{note.content}\n".encode()


def _claude_index(existing: str | None, exported: list[tuple[IndexEntry, str]]) -> bytes:
    """Our link lines after the header; lines about notes we did not write are kept."""
    ours = {target for _, target in exported}
    lines = [f"- [{_escape_link(e.title)}]({target})"
             + (f" — {one_line(e.summary)}" if e.summary.strip() else "")
             for e, target in exported]
    if existing is None:
        return (EXPORT_HEADER + "".join(f"{ln}\n" for ln in lines)).encode()
    _, parsed = _parse_links(existing)
    first_link = next((i for i, (_, t) in enumerate(parsed) if t is not None), len(parsed))
    header = [ln for ln, _ in parsed[:first_link]]
    rest = [ln for ln, t in parsed[first_link:] if t not in ours]
    while header and not header[-1].strip():
        header.pop()
    while rest and not rest[-1].strip():
        rest.pop()
    body = [*header, "", *lines, *rest] if header else [*lines, *rest]
    return ("\n".join(body) + "\n").encode()


def _escape_link(title: str) -> str:
    return re.sub(r"([\[\]\\])", r"\\\1", one_line(title))


def _write_if_changed(path: Path, data: bytes) -> str:
    try:
        before: bytes | None = path.read_bytes()
    except FileNotFoundError:
        before = None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from None
    if before == data:
        return "unchanged"
    temporary = path.with_name(f".{path.name}.memcli-tmp")
    try:
        write_durably(temporary, data)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise StoreError(f"cannot write {path}: {exc.strerror}") from None
    return "created" if before is None else "updated"
