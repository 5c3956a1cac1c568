"""`memcli lint --fix`: repair what can be repaired without losing anything.

A note is repaired as it is read (its bytes are not kept); the index is rebuilt from the
notes as the repairs leave them, once every note was read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from memcli.commands.lint._notes import (
    DATE_KEYS,
    blank,
    canonical_name,
    case_variant_target,
    parse_date,
    repairable,
)
from memcli.commands.lint._scan import FileScan, StoreScan, read_file
from memcli.errors import BrokenNoteError
from memcli.safety.redact import SecretFinding, describe, redact
from memcli.store.folder import NoteHead, StoreState, head_of
from memcli.store.frontmatter_yaml import yaml_error
from memcli.store.names import INDEX_NAME, canonical_type, name_key, parse_note_name
from memcli.store.note_bytes import render_updated_note
from memcli.store.notes import Note, now_iso, parse_note
from memcli.text import derive_summary
from memcli.writes.transaction import Change


@dataclass
class StoreFix:
    """What --fix will write in one store: new note bytes by (new) name, and removals."""

    scan: StoreScan
    notes: dict[str, NoteHead]  # the notes as the fixes leave them
    clock: Callable[[], datetime]
    writes: dict[str, bytes] = field(default_factory=dict)
    removes: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)


def start_fixes(scan: StoreScan, clock: Callable[[], datetime]) -> StoreFix:
    """An empty plan for a store whose notes are about to be read; CLOCK dates a note whose
    file has no modification time to take."""
    return StoreFix(scan, {}, clock, taken=set(scan.names))


def fix_note(plan: StoreFix, file: FileScan) -> None:
    """Plan the repair of one note as it is read."""
    if file.note is not None:
        plan.notes[file.name] = head_of(plan.scan.level, file.note)
    _fix_note(plan, file.name, file)


def finish_fixes(plan: StoreFix) -> tuple[list[Change], list[str]]:
    """The changes of a store once every note was read: renamed strays and the index."""
    scan = plan.scan
    if not scan.exists or scan.problem:
        return [], []
    for name in scan.stray:
        _fix_stray(plan, name)
    _fix_index(plan, scan.state())
    changes = [Change(scan.path, name, data) for name, data in plan.writes.items()]
    changes.extend(Change(scan.path, name, None) for name in plan.removes)
    return changes, plan.done


def _fix_note(plan: StoreFix, source: str, file: FileScan) -> None:
    """Repair one file; `file` is `source` as read, under the name it should have."""
    fixable = repairable(file)
    data, what = (_repaired(file, file.note, plan.clock) if file.note and fixable
                  else (None, []))
    # A broken note keeps its name: its old index line, all it has, is found by that name.
    candidates = [canonical_name(file), file.name] if fixable else [file.name]
    target = next((c for c in candidates if c is not None
                   and (c == source or _claim(plan, source, c))), source)
    if target == source and (data is None or parse_note_name(source) is None):
        return  # nothing to do, or a stray that cannot take its note name: not a note yet
    data = data if data is not None else file.data
    try:
        fixed: Note | None = parse_note(target, data)
    except BrokenNoteError:
        if fixable:
            return  # a repair that breaks the note is no repair
        fixed = None
    plan.writes[target] = data
    plan.notes.pop(source, None)
    if fixed is not None:
        plan.notes[target] = head_of(plan.scan.level, fixed)
    if target != source:
        plan.removes.append(source)
        what.append(f"renamed it to {target}")
    plan.done.append(f"{plan.scan.file(source)}: {'; '.join(what)}")


def _claim(plan: StoreFix, source: str, target: str) -> bool:
    """Reserve a free file name for a rename; a twin of the source itself is fine, unless
    another file is that twin too (`_Use-UV.md`, `_USE-UV.md`): renaming both to one name
    would overwrite one note with the other, so twins are left to a person (M310)."""
    key = name_key(target)
    twins = plan.scan.twins
    if key in twins or name_key(source) in twins:
        return False
    if key != name_key(source) and key in plan.taken:
        return False
    on_disk = plan.scan.path / target
    # On a case-insensitive file system the "new" name is the old file: writing it and then
    # removing the old name would remove the note, so such a rename is left to a person.
    if on_disk.exists() or on_disk.is_symlink():
        return False
    plan.taken.add(key)
    return True


def _fix_stray(plan: StoreFix, name: str) -> None:
    """A note in the wrong case (`Project_Knowledge_X.MD`) is renamed and repaired at once."""
    target = case_variant_target(name)
    path = plan.scan.path / name
    if target is None or path.is_symlink() or not path.is_file():
        return
    try:
        data = path.read_bytes()
    except OSError:
        return
    file = read_file(target, str(path), data)
    _fix_note(plan, name, file)


def _repaired(file: FileScan, note: Note, clock: Callable[[], datetime]
              ) -> tuple[bytes | None, list[str]]:
    """New bytes for a note whose keys can be completed or whose secrets redacted."""
    changes: dict[str, Any] = {}
    what: list[str] = []
    body = note.body
    if file.secrets:  # the scan of the whole file already said whether there is any
        body, secrets = redact(note.body)
        for key, value in note.meta.items():
            clean, found = _redacted(value)
            if found:
                changes[key] = clean
                secrets.extend(found)
        if secrets:
            what.append(f"redacted {describe(secrets)}")
    _complete_keys(file, note, body, changes, what, clock)
    if not changes and body == note.body:
        return None, what
    try:
        data = render_updated_note(note.replace(body=body), changes, None)
    except (yaml_error(), RecursionError, ValueError):
        return None, []
    return (data, what) if data != file.data else (None, [])


def _redacted(value: Any) -> tuple[Any, list[SecretFinding]]:
    """A frontmatter value with every string in it redacted (walked only when not too complex:
    the caller checked)."""
    if isinstance(value, str):
        return redact(value)
    found: list[SecretFinding] = []
    if isinstance(value, list):
        items = [_redacted(item) for item in value]
        found = [f for _, fs in items for f in fs]
        return ([v for v, _ in items] if found else value), found
    if isinstance(value, dict):
        pairs = {k: _redacted(v) for k, v in value.items()}
        found = [f for _, fs in pairs.values() for f in fs]
        return ({k: v for k, (v, _) in pairs.items()} if found else value), found
    return value, found


def _complete_keys(file: FileScan, note: Note, body: str, changes: dict[str, Any],
                   what: list[str],
                   clock: Callable[[], datetime]) -> None:
    added: dict[str, str] = {}
    parsed = parse_note_name(file.name)
    value = note.meta.get("type")
    known = canonical_type(value) if isinstance(value, str) else None
    if blank(value) and parsed is not None:
        added["type"] = parsed.type
    elif known is not None and known != value:
        added["type"] = known
    content = body.replace("\r\n", "\n").strip("\n")
    if blank(note.meta.get("summary")) and content.strip():
        summary = derive_summary(content)
        if summary.strip():  # a body of only markup gives nothing to summarise
            added["summary"] = summary
    added.update(_missing_dates(file, note, clock))
    if added:
        changes.update(added)
        what.append(f"set {', '.join(added)}")


def _missing_dates(file: FileScan, note: Note, clock: Callable[[], datetime]
                   ) -> dict[str, str]:
    missing = [k for k in DATE_KEYS if blank(note.meta.get(k))]
    if not missing:
        return {}
    try:
        mtime = datetime.fromtimestamp(os.stat(file.path).st_mtime, UTC)
    except OSError:
        mtime = clock()
    created, updated = (_date_of(note.meta.get(k)) for k in DATE_KEYS)
    # Keep created <= updated, so that filling one in never makes a new finding.
    chosen = {
        "created": min(mtime, updated) if updated is not None else mtime,
        "updated": max(mtime, created) if created is not None else mtime,
    }
    return {k: now_iso(chosen[k]) for k in missing}


def _date_of(value: Any) -> datetime | None:
    return parse_date(value) if isinstance(value, str) else None


def _fix_index(plan: StoreFix, state: StoreState) -> None:
    scan = plan.scan
    index = scan.index
    if index is not None and not index.utf8:
        return  # rebuilding would turn the bad bytes of a person's header into U+FFFD
    if index is None and (INDEX_NAME in scan.odd or INDEX_NAME in scan.unreadable):
        return
    if index is None and not plan.notes:
        return
    after = state.replace(heads=plan.notes)
    text, secrets = redact(after.rendered_index())
    data = text.encode()
    if index is not None and data == index.data:
        return
    plan.writes[INDEX_NAME] = data
    what = "wrote it from the notes" if index is None else "rebuilt it from the notes"
    if secrets:
        what += f" and redacted {describe(secrets)}"
    plan.done.append(f"{scan.file(INDEX_NAME)}: {what}")
