"""`memcli export claude-code`: one memcli store as a Claude Code memory folder.

Notes first, then ``MEMORY.md`` (link lines for the notes memcli wrote after the file's
header; lines about other notes are kept). Every file is replaced through a fresh temporary
file (:func:`memcli.durable.replace_file`), so a link planted in the folder, at a
note's name or at a temporary name, never carries the write into another file.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from memcli.commands.interop._files import make_folder, read_file, write_bytes_if_changed
from memcli.commands.interop.claude_format import (
    DEFAULT_TYPE,
    MEMCLI_TO_CLAUDE,
    decode_index,
    one_level,
    parse_links,
)
from memcli.commands.interop.results import ExportedFile, ExportResult, LeftOut
from memcli.durable import fsync_dir
from memcli.errors import InputError, StoreError, UsageError
from memcli.settings.config import Settings
from memcli.store.frontmatter_yaml import dump_yaml
from memcli.store.index import IndexEntry, ordered
from memcli.store.names import INDEX_NAME, canonical_type, parse_note_name
from memcli.store.notes import Note
from memcli.text import one_line
from memcli.writes.stores import open_stores

EXPORT_HEADER = "# Memory index\n\n"


def export_store(settings: Settings, folder: Path, *, level: str = "project",
                 dry_run: bool = False) -> ExportResult:
    """Write one memcli store as a Claude Code memory folder (notes, then MEMORY.md)."""
    level = one_level(level)
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
    result = ExportResult(folder, level, dry_run=dry_run)
    for filename, why in sorted(broken.items()):
        result.left_out.append(LeftOut(filename, why.removeprefix(f"{filename}: "), True))
    if not notes:
        if not state.exists:
            result.left_out.append(LeftOut(str(store), f"the {level} store does not exist yet",
                                           False))
        return result
    if not dry_run:
        make_folder(folder)
    planned = [(entry, note.filename, _claude_name(note), claude_note(note, entry))
               for entry in entries if (note := notes.get(entry.filename)) is not None]
    # Every file this export replaces is read first, never through a link: a link at any
    # of their names stops the export before it has written anything.
    before = {target: read_file(folder / target) for _, _, target, _ in planned}
    index_before = read_file(folder / INDEX_NAME)
    exported: list[tuple[IndexEntry, str]] = []
    for entry, source, target, data in planned:
        change = write_bytes_if_changed(folder / target, data, before[target], dry_run=dry_run)
        result.files.append(ExportedFile(target, change, source))
        exported.append((entry, target))
    index = _claude_index(decode_index(index_before), exported)
    result.files.append(ExportedFile(
        INDEX_NAME, write_bytes_if_changed(folder / INDEX_NAME, index, index_before,
                                           dry_run=dry_run), ""))
    if not dry_run and any(f.change != "unchanged" for f in result.files):
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


def claude_note(note: Note, entry: IndexEntry) -> bytes:
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
    _, parsed = parse_links(existing)
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
