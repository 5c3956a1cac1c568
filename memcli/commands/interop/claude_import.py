"""`memcli import claude-code`: a Claude Code memory folder as memcli notes.

Import turns every note into a create operation and applies them all through
:func:`memcli.commands.apply_items` (one transaction, the same validation as ``apply``). The
source folder is only read, and never through a link: a ``MEMORY.md`` or a note that is a
symbolic link (to ``~/.netrc``, say) is left out with its reason, as is anything else that
cannot become a note, so that nothing disappears without a word.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from memcli.commands.apply import apply_items
from memcli.commands.interop._files import read_file
from memcli.commands.interop._known import Unit, new_items
from memcli.commands.interop.claude_export import claude_note
from memcli.commands.interop.claude_format import (
    CLAUDE_TYPES,
    DEFAULT_TYPE,
    Link,
    one_level,
    parse_links,
    read_index,
)
from memcli.commands.interop.results import ImportResult, LeftOut
from memcli.errors import BrokenNoteError, InputError
from memcli.settings.config import Settings
from memcli.store.folder import StoreState
from memcli.store.names import INDEX_NAME, canonical_type
from memcli.store.notes import parse_note
from memcli.text import derive_summary, one_line, shorten

MAX_TITLE_CHARS = 100  # what operations accept
KNOWN_KEYS = frozenset({"name", "description", "type", "metadata"})
LEFTOVER_TITLE = "Claude Code MEMORY.md"
_HEADING = re.compile(r"^#{1,6}\s+(?P<text>.+?)\s*#*\s*$")
_TYPE_PREFIX = re.compile(r"^(?P<type>user|feedback|project|reference)[_-]")


def import_folder(settings: Settings, folder: Path, *, level: str = "project",
                  dry_run: bool = False, on_conflict: str = "fail") -> ImportResult:
    """Convert a Claude Code memory folder into create operations and apply them."""
    level = one_level(level)
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() or folder.is_symlink() else "does not exist"
        raise InputError(f"{folder} {what}; pass a Claude Code memory folder "
                         "(~/.claude/projects/<project>/memory)")
    index_path = folder / INDEX_NAME
    index_text = read_index(index_path)
    links, index_lines = parse_links(index_text or "")
    result = ImportResult(folder, level, [])
    units: list[Unit] = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name == INDEX_NAME:
            continue
        unit = _import_entry(entry, level, links, result)
        if unit is not None:
            units.append(unit)
    leftover = _leftover_index_text(index_lines, {unit.source for unit in units})
    if leftover:
        units.append(Unit(INDEX_NAME, {
            "action": "create", "level": level, "type": DEFAULT_TYPE, "title": LEFTOVER_TITLE,
            "content": leftover,
            "reason": f"from {INDEX_NAME}: its lines that are not links to notes"}, b""))
    if not units:
        if index_text is None and not any(i.problem for i in result.left_out):
            raise InputError(_not_a_memory_folder(folder))
        result.warnings.append(f"no notes to import in {folder}")
        return result
    # The files memcli's export wrote from notes the store still holds are those notes.
    items = new_items(settings, result, units, _exported_note)
    if not items:
        return result
    from memcli.writes.history import Source

    result.report = apply_items(settings, items, {}, dry_run=dry_run, on_conflict=on_conflict,
                                source=Source("import"))
    return result


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


def _exported_note(state: StoreState, name: str) -> bytes:
    return claude_note(state.notes[name], state.heads[name].entry)


def _import_entry(entry: os.DirEntry[str], level: str, links: dict[str, Link],
                  result: ImportResult) -> Unit | None:
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
        raw = read_file(Path(entry.path))  # O_NOFOLLOW: swapped for a link since the listing
    except InputError as exc:
        result.left_out.append(LeftOut(name, str(exc).replace(entry.path, "it"), True))
        return None
    if raw is None:
        result.left_out.append(LeftOut(name, "removed while memcli read the folder", True))
        return None
    try:
        meta, body = _split(name, raw)
    except BrokenNoteError as exc:
        result.left_out.append(LeftOut(name, str(exc).removeprefix(f"{name}: "), True))
        return None
    item = _operation(name, meta, body, level, links.get(name), result.warnings)
    return None if item is None else Unit(name, item, raw)


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


def _operation(name: str, meta: dict[str, Any], body: str, level: str, link: Link | None,
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
