"""M309: a note that repeats or contradicts a line of AGENTS.md, CLAUDE.md or GEMINI.md."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from memcli.commands.interop.instruction_files import instruction_paths
from memcli.commands.lint._report import Finding, finding
from memcli.commands.lint._scan import StoreScan
from memcli.errors import MemcliError
from memcli.store.folder_files import read_bytes
from memcli.store.notes import parse_note
from memcli.text import clip


def instruction_overlaps(root: Path, scans: Iterable[StoreScan]) -> Iterator[Finding]:
    if not instruction_paths(root):
        return  # no instruction file: the comparison is not even loaded
    from memcli.commands.interop.instructions import NoteText, instruction_lines, overlaps

    lines = instruction_lines(root)
    if not lines:  # the common case: no note is read a second time
        return
    chosen = [scan for scan in scans if scan.exists and not scan.problem]
    notes: list[NoteText] = []
    where: dict[tuple[str, str], StoreScan] = {}
    for scan in chosen:
        for name, facts in scan.notes.items():
            if facts.problem:
                continue  # broken: its own finding says so
            try:
                note = parse_note(name, read_bytes(os.path.join(scan.path, name)))
            except (OSError, MemcliError):
                continue  # changed or gone since it was read
            notes.append(NoteText(scan.level, name, note.title, note.summary, note.body))
            where[(scan.level, name)] = scan
    for overlap in overlaps(lines, notes):
        scan = where[(overlap.note.level, overlap.note.filename)]
        verb = "repeats" if overlap.kind == "repeats" else "may contradict"
        advice = ("drop the note, the agents read that file already" if overlap.kind == "repeats"
                  else "make the two agree")
        yield finding("M309", scan.file(overlap.note.filename), None,
                      f"'{clip(overlap.sentence, 60)}' {verb} {overlap.line.file} line "
                      f"{overlap.line.number} ('{clip(overlap.line.text, 60)}'); {advice}")
