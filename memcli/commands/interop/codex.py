"""Codex's memories folder (``~/.codex/memories/``), in and out.

Codex consolidates what it learned into ``MEMORY.md``: blocks, each a YAML header
(``rollout_summary_files``, ``description``, ``keywords``) and bullets. Its
``memory_summary.md`` holds a ``## User Profile`` and ``## General Tips`` that are loaded
into every session, and a ``## What's in Memory`` index of MEMORY.md. Import makes one note
per block, one for the profile and one for the tips; the raw inputs Codex consolidates from
(``raw_memories.md``, ``rollout_summaries/``) and its ``skills/`` are listed, not imported.
Export writes one block per note into MEMORY.md, marked ``memcli_note: NAME`` so that a
second export replaces its own blocks and keeps Codex's.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from memcli.commands.apply import apply_items
from memcli.commands.interop._files import read_text, write_if_changed
from memcli.commands.interop._known import Unit, new_items
from memcli.commands.interop.gemini import _no_store, _one_level
from memcli.commands.interop.results import ExportedFile, ExportResult, ImportResult, LeftOut
from memcli.errors import InputError
from memcli.settings.config import Settings
from memcli.store.frontmatter_yaml import dump_yaml, load_yaml
from memcli.store.index import ordered
from memcli.text import one_line, shorten
from memcli.writes.stores import open_stores

INDEX = "MEMORY.md"
SUMMARY = "memory_summary.md"
MAX_TITLE_CHARS = 80
MARK = "memcli_note"
_BLOCK = re.compile(r"^---[ \t]*\n(?P<head>.*?)\n---[ \t]*\n", re.M | re.S)
_NOT_NOTES = {
    "raw_memories.md": "Codex's raw input to consolidation (the notes come from MEMORY.md)",
    "rollout_summaries": "per-session evidence Codex consolidates from",
    "skills": "Codex skills are procedures, not memories",
    ".git": "Codex's own history of the folder",
}
_SUMMARY_SECTIONS = {"User Profile": ("Codex user profile", "user_preference"),
                     "General Tips": ("Codex general tips", "user_preference")}


def blocks(text: str) -> list[tuple[dict[str, Any], str]]:
    """(header, body) of each MEMORY.md block; a header YAML cannot read is an empty one."""
    return [(head, body) for head, body, _ in _spans(text)]


def _spans(text: str) -> list[tuple[dict[str, Any], str, str]]:
    """Each block's header, body and exact text."""
    found: list[tuple[dict[str, Any], str, str]] = []
    matches = list(_BLOCK.finditer(text))
    for number, match in enumerate(matches):
        end = matches[number + 1].start() if number + 1 < len(matches) else len(text)
        try:
            head = load_yaml(match["head"])
        except Exception:
            head = None
        found.append((head if isinstance(head, dict) else {}, text[match.end():end].strip(),
                      text[match.start():end].rstrip("\n") + "\n"))
    return found


def import_codex(settings: Settings, folder: Path, *, level: str = "user",
                 dry_run: bool = False, on_conflict: str = "fail") -> ImportResult:
    level = _one_level(level)
    if folder.is_symlink() or not folder.is_dir():
        what = "is not a folder" if folder.exists() or folder.is_symlink() else "does not exist"
        raise InputError(f"{folder} {what}; pass Codex's memories folder (~/.codex/memories)")
    result = ImportResult(folder, level, [])
    units: list[Unit] = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name in (INDEX, SUMMARY):
            continue
        why = _NOT_NOTES.get(entry.name) or ("a symbolic link, not followed"
                                              if entry.is_symlink() else "not a Codex memory file")
        result.left_out.append(LeftOut(entry.name, why, False))
    for number, (head, body, raw) in enumerate(_spans(_read(folder / INDEX, result) or ""), 1):
        item = _block_item(head, body, level)
        if item is not None:
            units.append(Unit(f"{INDEX} block {number}", item, raw))
    for title, note_type, text in _summary_sections(_read(folder / SUMMARY, result) or ""):
        units.append(Unit(SUMMARY, {
            "action": "create", "level": level, "type": note_type, "title": title,
            "summary": shorten(one_line(text)), "content": text + "\n",
            "reason": f"from Codex's {SUMMARY}"}, ""))
    if not units:
        if not (folder / INDEX).exists() and not (folder / SUMMARY).exists():
            raise InputError(f"{folder} has neither {INDEX} nor {SUMMARY}; pass Codex's "
                             "memories folder (~/.codex/memories)")
        result.warnings.append(f"no memories to import in {folder}")
        return result
    # The blocks memcli's export wrote from notes the store still holds are those notes.
    items = new_items(settings, result, units, lambda state, name: _block(state.notes[name]))
    if not items:
        return result
    from memcli.writes.history import Source

    result.report = apply_items(settings, items, {}, dry_run=dry_run, on_conflict=on_conflict,
                                source=Source("import"))
    return result


def _read(path: Path, result: ImportResult) -> str | None:
    try:
        return read_text(path)
    except InputError as exc:
        result.left_out.append(LeftOut(path.name, str(exc), True))
        return None


def _block_item(head: dict[str, Any], body: str, level: str) -> dict[str, Any] | None:
    description = one_line(str(head.get("description") or ""))
    if not body and not description:
        return None
    keywords = head.get("keywords")
    keyword_text = ", ".join(map(str, keywords)) if isinstance(keywords, list) else \
        one_line(str(keywords or ""))
    content = body + (f"\n\nKeywords: {keyword_text}" if keyword_text else "")
    title = description or one_line(body.lstrip("- "))
    return {"action": "create", "level": level, "type": "project_knowledge",
            "title": shorten(re.split(r"(?<=[.;])\s", title, maxsplit=1)[0].rstrip(".;"),
                             MAX_TITLE_CHARS),
            "summary": shorten(description or one_line(body)), "content": content + "\n",
            "reason": "from Codex's MEMORY.md"}


def _summary_sections(text: str) -> list[tuple[str, str, str]]:
    sections: list[tuple[str, str, str]] = []
    parts = re.split(r"^##\s+(.+?)\s*$", text, flags=re.M)
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        known = _SUMMARY_SECTIONS.get(name.strip())
        if known is not None and body.strip():
            sections.append((known[0], known[1], body.strip()))
    return sections


def export_codex(settings: Settings, folder: Path, *, level: str = "user",
                 dry_run: bool = False) -> ExportResult:
    level = _one_level(level)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise InputError(f"{folder} is not a folder memcli can write (a link or a file)")
    path = folder / INDEX
    existing = read_text(path) or ""
    with open_stores(settings, [level]) as stores:
        state = stores[level]
        notes = state.notes
        ours = [_block(notes[e.filename]) for e in ordered(state.entries())
                if e.filename in notes]
        result = ExportResult(folder, level, dry_run=dry_run)
        for filename, why in sorted(state.broken.items()):
            result.left_out.append(LeftOut(filename, why, True))
    if not state.exists:
        return _no_store(result, settings)
    # Codex's own blocks stay byte for byte; memcli's earlier export is replaced.
    kept = [raw for head, _, raw in _spans(existing) if MARK not in head]
    first = _BLOCK.search(existing)
    preamble = existing[:first.start()] if first is not None else existing
    text = preamble + "\n".join([*kept, *ours])
    result.files.append(ExportedFile(INDEX, write_if_changed(path, text, dry_run=dry_run), ""))
    return result


def _block(note: Any) -> str:
    head = {"rollout_summary_files": [], "description": one_line(note.summary or note.title),
            "keywords": note.type.replace("_", " "), MARK: note.filename}
    lines = [line for line in note.body.strip().splitlines()]
    bullets = [line if line.lstrip().startswith("- ") or not line.strip() else f"- {line}"
               for line in lines]
    return _render(head, "\n".join(bullets))


def _render(head: dict[str, Any], body: str) -> str:
    return f"---\n{dump_yaml(head).rstrip()}\n---\n\n{body.strip()}\n"
