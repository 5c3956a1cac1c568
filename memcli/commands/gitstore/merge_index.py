"""`memcli merge-index`: git's merge driver for MEMORY.md.

The index is derived from the notes, so two branches that each add or delete notes always
touch it, and git's line merge conflicts whenever their lines sit side by side. The driver
merges entries, not lines: a note's line is kept unless one side deleted it, a line
changed on one side takes that side's version (on both: ours, since git merges the note
file itself and shows that conflict), and the result is written in the index order (by
type, each side's own order kept within a type). The notes decide the final word: ``memcli
index`` after the merge gives the same file when the notes agree with their lines.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from memcli.errors import InputError, StoreError
from memcli.store.index import IndexFile, parse_line, split_index
from memcli.store.names import NOTE_TYPES

_TYPE_RANK = {name: rank for rank, name in enumerate(NOTE_TYPES)}


@dataclass(frozen=True)
class MergeResult:
    text: str
    kept: int
    added: int
    deleted: int


def merge_texts(base: str, ours: str, theirs: str) -> MergeResult:
    """The merged MEMORY.md of the three versions."""
    parts = [split_index(text) for text in (base, ours, theirs)]
    lines = [_by_file(part) for part in parts]
    old, mine, other = lines
    order = _merged_order(list(mine), list(other))
    merged: dict[str, str] = {}
    for name in order:
        if name in old and (name not in mine or name not in other):
            continue  # deleted on one side
        merged[name] = _pick(old.get(name), mine.get(name), other.get(name))
    ranked = sorted(enumerate(merged.items()),
                    key=lambda item: (_rank(item[1][1]), item[0]))
    body = "".join(line + "\n" for _, (_, line) in ranked)
    header = _three_way(parts[0].header, parts[1].header, parts[2].header)
    footer = _three_way(parts[0].footer, parts[1].footer, parts[2].footer)
    if header and not header.endswith("\n"):
        header += "\n"
    text = header + body + ("\n" + footer if footer else "")
    added = sum(1 for name in merged if name not in old)
    return MergeResult(text, kept=len(merged) - added, added=added,
                       deleted=sum(1 for name in old if name not in merged))


def merge_files(base: Path, ours: Path, theirs: Path) -> MergeResult:
    """Merge as git asks a driver to: the result replaces OURS."""
    texts = [_read(path) for path in (base, ours, theirs)]
    result = merge_texts(*texts)
    try:
        ours.write_text(result.text, "utf-8", errors="surrogateescape")
    except OSError as exc:
        raise StoreError(f"cannot write {ours}: {exc.strerror or exc}") from None
    return result


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8", errors="surrogateescape")
    except OSError as exc:  # run by hand, not by git: a name that is not a file
        raise InputError(f"cannot read {path}: {exc.strerror or exc}; git passes the three "
                         "versions as %O %A %B") from None


def _by_file(part: IndexFile) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in part.entry_lines:
        entry = parse_line(line)
        if entry is not None:
            found.setdefault(entry.filename, line)
    return found


def _merged_order(mine: list[str], other: list[str]) -> list[str]:
    """Every name of both sequences once, each side's relative order kept where they agree."""
    order: list[str] = []
    matcher = difflib.SequenceMatcher(a=mine, b=other, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            order += mine[a0:a1]
        else:
            order += other[b0:b1] + mine[a0:a1]
    return list(dict.fromkeys(order))


def _pick(old: str | None, mine: str | None, other: str | None) -> str:
    if mine is None:
        return other or ""
    if other is None or other == old:
        return mine
    return other if mine == old else mine


def _three_way(old: str, mine: str, other: str) -> str:
    return other if mine == old else mine


def _rank(line: str) -> int:
    entry = parse_line(line)
    return _TYPE_RANK.get(entry.type if entry else "", len(NOTE_TYPES))
