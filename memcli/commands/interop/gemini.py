"""Gemini CLI's saved memories: the ``## Gemini Added Memories`` section of a GEMINI.md.

Gemini CLI's ``save_memory`` tool appends one ``- fact`` bullet per memory under that
heading (in ``~/.gemini/GEMINI.md``, or a project's). Import turns each bullet into a note;
the rest of the file is instructions, not memories, and is left alone. Export adds a
bullet for every note the section does not hold yet and removes nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from memcli.commands.apply import apply_items
from memcli.commands.interop._files import read_text, write_if_changed
from memcli.commands.interop._known import Unit, new_items
from memcli.commands.interop.results import ExportedFile, ExportResult, ImportResult, LeftOut
from memcli.errors import InputError, UsageError
from memcli.settings.config import Settings
from memcli.store.index import ordered
from memcli.store.names import LEVELS
from memcli.text import one_line, shorten
from memcli.writes.stores import open_stores

FILE_NAME = "GEMINI.md"
SECTION = "## Gemini Added Memories"
MAX_TITLE_CHARS = 60
_HEADING = re.compile(r"^#{1,2}\s")
_FENCE = re.compile(r"^\s*(```|~~~)")


def gemini_file(path: Path) -> Path:
    """PATH itself, or the GEMINI.md inside it."""
    if path.is_symlink():
        raise InputError(f"{path} is a symbolic link; memcli does not follow links")
    return path / FILE_NAME if path.is_dir() else path


def saved_memories(text: str) -> list[str]:
    """The bullets of the section, continuation lines joined; code fences respected."""
    facts: list[str] = []
    inside = fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        if not fenced and line.strip() == SECTION:
            inside = True
            continue
        if not fenced and _HEADING.match(line):
            inside = False
        if not inside:
            continue
        if line.lstrip().startswith("- "):
            facts.append(line.lstrip()[2:].strip())
        elif line.strip() and facts and line[:1].isspace():
            facts[-1] += "\n" + line.strip()
    return [fact for fact in facts if fact]


def import_gemini(settings: Settings, path: Path, *, level: str = "project",
                  dry_run: bool = False, on_conflict: str = "fail") -> ImportResult:
    level = _one_level(level)
    target = gemini_file(path)
    text = read_text(target)
    if text is None:
        raise InputError(f"{target} does not exist; pass a GEMINI.md (~/.gemini/GEMINI.md, or "
                         "a project's) or the folder holding it")
    facts = saved_memories(text)
    result = ImportResult(target, level, [])
    if not facts:
        result.warnings.append(f"{target} has no '{SECTION}' bullets; nothing imported")
        return result
    note_type = "user_preference" if level == "user" else "project_knowledge"
    units = [Unit(f"{target.name} #{number}", {
        "action": "create", "level": level, "type": note_type, "title": _title(fact),
        "summary": shorten(one_line(fact)), "content": fact + "\n",
        "reason": f"from {target.name}: saved memory {number}"}, fact)
        for number, fact in enumerate(facts, 1)]
    if text.replace(SECTION, "").strip() != "\n".join(f"- {f}" for f in facts).strip():
        result.left_out.append(LeftOut(target.name, "the text outside the saved-memories "
                                       "section is instructions, not memories", False))
    # The bullets memcli's export wrote from notes the store still holds are those notes.
    items = new_items(settings, result, units, lambda state, name: _bullet(state.notes[name]))
    if not items:
        return result
    from memcli.writes.history import Source

    result.report = apply_items(settings, items, {}, dry_run=dry_run, on_conflict=on_conflict,
                                source=Source("import"))
    return result


def export_gemini(settings: Settings, path: Path, *, level: str = "project",
                  dry_run: bool = False) -> ExportResult:
    level = _one_level(level)
    target = gemini_file(path)
    text = read_text(target) or ""
    with open_stores(settings, [level]) as stores:
        state = stores[level]
        notes = state.notes
        entries = ordered(state.entries())
        bullets = [_bullet(notes[e.filename]) for e in entries if e.filename in notes]
        result = ExportResult(target.parent, level, dry_run=dry_run)
        for filename, why in sorted(state.broken.items()):
            result.left_out.append(LeftOut(filename, why, True))
    if not state.exists:
        return _no_store(result, settings)
    present = {one_line(fact) for fact in saved_memories(text)}
    new = [b for b in dict.fromkeys(bullets) if b not in present]
    updated = _with_bullets(text, new) if new else text
    change = (write_if_changed(target, updated, dry_run=dry_run) if new or not target.exists()
              else "unchanged")
    result.files.append(ExportedFile(target.name, change, ""))
    return result


def _bullet(note: Any) -> str:
    """The note as one saved memory; its title in front when the text does not start with it,
    so that importing the bullet again finds the same note."""
    text = one_line(note.body) or one_line(note.summary)
    title = one_line(note.title)
    if not text or _title(text) == title or text.casefold().startswith(title.casefold()):
        return text or title
    return f"{title}: {text}"


def _with_bullets(text: str, bullets: list[str]) -> str:
    """TEXT with BULLETS appended to the section (created at the end when missing)."""
    lines = text.splitlines()
    added = [f"- {b}" for b in bullets]
    start = next((i for i, line in enumerate(lines) if line.strip() == SECTION), None)
    if start is None:
        head = text.rstrip("\n")
        return (head + "\n\n" if head else "") + SECTION + "\n" + "\n".join(added) + "\n"
    end = next((i for i in range(start + 1, len(lines)) if _HEADING.match(lines[i])),
               len(lines))
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    merged = lines[:end] + added + lines[end:]
    return "\n".join(merged) + "\n"


def _title(fact: str) -> str:
    label, colon, rest = one_line(fact).partition(": ")
    # A label ends no sentence: "Node.js version: 22" is one, "Use pnpm. Note: x" is not.
    if colon and rest and 2 <= len(label) <= MAX_TITLE_CHARS and \
            not re.search(r"[.!?](?:\s|$)|[。！？]", label):
        return label
    first = re.split(r"(?<=[.!?。])\s", one_line(fact), maxsplit=1)[0].rstrip(".!?。")
    return shorten(first, MAX_TITLE_CHARS) or "Gemini memory"


def _no_store(result: ExportResult, settings: Settings) -> ExportResult:
    """An export of a store that does not exist yet: nothing written, and said so."""
    result.left_out.append(LeftOut(str(settings.store_for(result.level)),
                                   f"the {result.level} store does not exist yet", False))
    return result


def _one_level(level: str) -> str:
    if level not in LEVELS:
        raise UsageError(f"unknown level '{level}'; use project or user")
    return level
