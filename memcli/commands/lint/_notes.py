"""Checks of one file: its text (UTF-8, secrets), its name, and a note's frontmatter."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from memcli.commands.lint._report import Finding, finding
from memcli.commands.lint._scan import FileScan, StoreScan, key_line
from memcli.safety.hidden_markup import Hidden, might_hide
from memcli.safety.invisible_chars import describe_char, find_invisible, has_invisible, kind_of
from memcli.safety.redact import REDACTED
from memcli.store.names import (
    NOTE_TYPES,
    canonical_type,
    name_key,
    note_filename,
    parse_note_name,
    slugify,
)
from memcli.store.notes import Note
from memcli.text import clip

REQUIRED_TEXT_KEYS = ("type", "title", "summary")


DATE_KEYS = ("created", "updated")


# Compiled on first use (re caches them): a store of well-formed notes needs neither.
_KNOWN_KEY = r"^(?:type|title|summary|created|updated)[ \t]*:"
_ASCII_SLUG = r"[a-z0-9]+(?:-[a-z0-9]+)*"


def store_files(scan: StoreScan) -> Iterator[Finding]:
    """Entries that are not notes: odd, unreadable and stray files, and the index's text."""
    for name, why in scan.odd.items():
        yield finding("M306", scan.file(name), None,
                      f"{name} is {why}; replace it with a regular file or move it out")
    for name, why in scan.unreadable.items():
        fix = "split it or move it out" if why.startswith("larger than") else \
            "fix its permissions"
        yield finding("M307", scan.file(name), None, f"cannot read {name} ({why}); {fix}")
    for name in scan.stray:
        yield from _stray(scan, name)
    if scan.index is not None:
        yield from text_problems(scan, scan.index)
    for names in scan.twins.values():
        first, *others = sorted(names)
        yield finding("M310", scan.file(first), None,
                      f"{first} and {', '.join(others)} are one note: their names differ only "
                      "in case or Unicode normalisation, and a case-insensitive file system "
                      "holds only one of them; merge them into one note by hand")


def _stray(scan: StoreScan, name: str) -> Iterator[Finding]:
    if name_key(name) in scan.twins:
        return  # M310 says it
    target = case_variant_target(name)
    if target is not None:
        yield finding("M208", scan.file(name), None,
                      f"{name} is not a note name as written; rename it to {target} "
                      "(`memcli lint --fix` does)")
        return
    yield finding("M305", scan.file(name), None,
                  f"{name} is not a note (<type>_<slug>.md) nor MEMORY.md; rename it to a "
                  "note name or move it out of the store")


def text_problems(scan: StoreScan, file: FileScan) -> Iterator[Finding]:
    if file.bad_byte is None and not file.secrets:
        return iter(())  # the common case: no generator, no path
    return _text_problems(file, file.shown)


def _text_problems(file: FileScan, path: str) -> Iterator[Finding]:
    if file.bad_byte is not None:
        line, column = _byte_position(file.data, file.bad_byte)
        yield finding("M301", path, line,
                      f"byte {file.bad_byte} is not valid UTF-8; re-save the file as UTF-8",
                      column)
    for secret in file.secrets:
        yield finding("M302", path, secret.line,
                      f"a secret ({secret.kind}) is stored here; revoke it, then run "
                      f"`memcli lint --fix` to replace it with {REDACTED}", secret.column)


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1


def check_note(scan: StoreScan, file: FileScan) -> Iterable[Finding]:
    # Each check runs behind a cheap test that a note written as memcli writes it passes:
    # the checks themselves (and the path they name) are for the few notes that fail it.
    note = file.note
    if note is not None and file.utf8 and _named_canonically(file) and _well_formed(note):
        return ()  # most notes: no generator at all
    return _check_note(scan, file)


def _well_formed(note: Note) -> bool:
    """True when every check of a parsed note's own text passes (the tests below, at once)."""
    body = note.body
    return (not body.lstrip().startswith("---") and _has_required_keys(note.meta)
            and _dates_in_order(note.meta) and not (not body or body.isspace())
            and not has_invisible(body) and not _might_hide(note))


def _check_note(scan: StoreScan, file: FileScan) -> Iterator[Finding]:
    if not _named_canonically(file):
        yield from _note_name(scan, file, file.shown)
    if not file.utf8:
        return  # M301 says it; nothing else can be read reliably
    if file.no_frontmatter:
        yield finding("M202", file.shown, 1,
                      "the note has no frontmatter; start it with a '---' block holding type, "
                      "title, summary, created and updated")
        return
    if file.note is None:
        # notes.py's messages mostly end in what to do already ("...; add one").
        how = "" if ";" in file.problem else "; fix the frontmatter"
        yield finding("M203", file.shown, file.problem_line, file.problem + how)
        return
    note = file.note
    body = note.body
    if body.lstrip().startswith("---"):
        yield from _second_block(file.shown, file, note)
    if not _has_required_keys(note.meta):
        yield from _required_keys(file.shown, file, note)
    if not _dates_in_order(note.meta):
        yield from _dates(file.shown, file, note)
    if not body or body.isspace():  # what an empty `content` is, without copying
        yield finding("M209", file.shown, _body_line(file, note),
                      "the note's body is empty; write what the agent should remember, or "
                      "delete the note")
    if not body.isascii():
        yield from _invisible(file.shown, file, note)
    if _might_hide(note):
        yield from _hidden(file.shown, file, note)


# The slug of a note name memcli writes: ASCII, its own canonical form.
_CANONICAL_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _named_canonically(file: FileScan) -> bool:
    """True when canonical_name(file) is the file's own name, decided without building it
    (False means only "ask canonical_name")."""
    name = parse_note_name(file.name)
    if name is None or len(name.slug) > 64 or _CANONICAL_SLUG.fullmatch(name.slug) is None:
        return False
    # The frontmatter's type renames the file only when it is text naming another type.
    note_type = file.note.meta.get("type") if file.note is not None else None
    return not isinstance(note_type, str) or note_type == name.type


def _has_required_keys(meta: dict[str, Any]) -> bool:
    """True when _required_keys finds nothing (False means only "run it")."""
    note_type, title, summary = meta.get("type"), meta.get("title"), meta.get("summary")
    return (isinstance(note_type, str) and note_type in NOTE_TYPES and isinstance(title, str)
            and isinstance(summary, str) and not title.isspace() and not summary.isspace()
            and title != "" and summary != "")


def _dates_in_order(meta: dict[str, Any]) -> bool:
    """True when _dates finds nothing: both dates are there, readable, and in order."""
    created, updated = meta.get("created"), meta.get("updated")
    if not isinstance(created, str) or not isinstance(updated, str):
        return False
    if created == updated:  # a note never updated: one date to read
        return parse_date(created) is not None
    first, last = parse_date(created), parse_date(updated)
    return first is not None and last is not None and first <= last


def _invisible(path: str, file: FileScan, note: Note) -> Iterator[Finding]:
    """M215: characters that hide text from whoever reads the body (titles and summaries
    are written without them, and index lines never show them)."""
    found = find_invisible(note.body)
    if not found:
        return
    offset, char = found[0]
    start = len(file.text) - len(note.body) + offset
    line_start = file.text.rfind("\n", 0, start) + 1
    kinds = sorted({kind_of(c) for _, c in found})
    count = f"{len(found)} invisible characters" if len(found) > 1 else "an invisible character"
    yield finding("M215", path, file.text.count("\n", 0, start) + 1,
                  f"the body holds {count} ({', '.join(kinds)}; the first is "
                  f"{describe_char(char)}), which can hide text from a reviewer or instructions "
                  "from an agent; delete them", start - line_start + 1)


def _might_hide(note: Note) -> bool:
    title, summary = note.meta.get("title"), note.meta.get("summary")
    return might_hide(note.body) or any(isinstance(v, str) and might_hide(v)
                                        for v in (title, summary))


def _hidden(path: str, file: FileScan, note: Note) -> Iterator[Finding]:
    """M216: text a rendered note never shows (an HTML comment, a link definition no link
    uses, a definition's title): a reviewer on GitHub does not see it, an agent reads it.
    In the title or summary too: MEMORY.md renders them."""
    from memcli.safety.hidden_markup import find_hidden

    found = find_hidden(note.body)
    if found:
        first = found[0]
        start = len(file.text) - len(note.body) + first.start
        line_start = file.text.rfind("\n", 0, start) + 1
        yield finding("M216", path, file.text.count("\n", 0, start) + 1,
                      _hidden_message("the body", note.body, found),
                      start - line_start + 1)
    for key in ("title", "summary"):
        value = note.meta.get(key)
        spans = find_hidden(value) if isinstance(value, str) else []
        if spans:
            yield finding("M216", path, key_line(note, key),
                          _hidden_message(f"the {key}", str(value), spans))


def _hidden_message(where: str, text: str, found: list[Hidden]) -> str:
    from memcli.safety.redact import redact
    from memcli.text import one_line

    kinds = ", ".join(sorted({h.kind for h in found}))
    count = f"{len(found)} hidden texts" if len(found) > 1 else "a hidden text"
    quoted = clip(one_line(redact(text[found[0].start:found[0].end])[0]), 60)
    return (f"{where} holds {count} ({kinds}: {quoted!r}) that a rendered note never shows "
            "but an agent reads; make it visible (plain text, or code in backticks) or "
            "delete it")


def _note_name(scan: StoreScan, file: FileScan, path: str) -> Iterator[Finding]:
    target = canonical_name(file)
    if target is None or target == file.name or name_key(file.name) in scan.twins:
        return  # a twin's name is M310's to report: no rename can fix it
    have, want = parse_note_name(file.name), parse_note_name(target)
    assert have is not None and want is not None  # both are note names by construction
    why = ("its slug is not canonical (lower case, words joined by '-', NFC)"
           if have.type == want.type else "its type prefix does not match the frontmatter's type")
    holder = scan.names.get(name_key(target))
    if holder is not None and holder != file.name:
        how = f"{holder} already exists, so merge the two notes by hand"
    elif not repairable(file):
        how = f"fix the note, then rename it to {target}"
    else:
        how = f"rename it to {target} (`memcli lint --fix` does)"
    yield finding("M208", path, None, f"{file.name} does not match the note: {why}; {how}")


def canonical_name(file: FileScan) -> str | None:
    parsed = parse_note_name(file.name)
    if parsed is None:
        return None
    note_type = parsed.type
    if file.note is not None and isinstance(file.note.meta.get("type"), str):
        note_type = canonical_type(file.note.meta["type"]) or note_type
    return note_filename(note_type, _canonical_slug(parsed.slug))


def _canonical_slug(slug: str) -> str:
    # slugify costs a Unicode lookup per character; plain ASCII slugs are canonical as they are.
    if len(slug) <= 64 and re.fullmatch(_ASCII_SLUG, slug):
        return slug
    return slugify(slug)


def case_variant_target(name: str) -> str | None:
    """The note name a stray file would have in lower case (`Project_Knowledge_X.MD`)."""
    lowered = unicodedata.normalize("NFC", name).lower()
    parsed = parse_note_name(lowered)
    if parsed is None or lowered == name:
        return None
    return note_filename(parsed.type, slugify(parsed.slug))


def _body_line(file: FileScan, note: Note) -> int:
    start = len(file.text) - len(note.body)
    return file.text.count("\n", 0, start) + 1


def _second_block(path: str, file: FileScan, note: Note) -> Iterator[Finding]:
    if not note.body.lstrip().startswith("---"):
        return  # the first line that is not blank is not a fence: no need to split the body
    lines = note.body.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None or lines[start].strip() != "---":
        return
    for line in lines[start + 1: start + 200]:
        if line.strip() in ("---", "..."):
            return
        if re.match(_KNOWN_KEY, line):
            yield finding("M204", path, _body_line(file, note) + start,
                          "a second frontmatter block follows the first; merge the two into "
                          "one block by hand")
            return


def blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _required_keys(path: str, file: FileScan, note: Note) -> Iterator[Finding]:
    for key in REQUIRED_TEXT_KEYS:
        value = note.meta.get(key)
        if blank(value):
            how = {"type": "add `type:` (`memcli lint --fix` takes it from the file name)",
                   "title": "add a `title:`",
                   "summary": "add a one-sentence `summary:` (`memcli lint --fix` takes the "
                              "body's first sentence)"}[key]
            yield finding("M205", path, key_line(note, key),
                          f"the frontmatter has no {key}; {how}")
        elif not isinstance(value, str):
            yield finding("M205", path, key_line(note, key),
                          f"`{key}` is a YAML {type(value).__name__}, not text; quote it")
        elif key == "type" and value not in NOTE_TYPES:
            known = canonical_type(value)
            how = (f"write `type: {known}` (`memcli lint --fix` does)" if known
                   else f"use one of {', '.join(NOTE_TYPES)}")
            yield finding("M207", path, key_line(note, key),
                          f"'{clip(value)}' is not a note type; {how}")


def parse_date(value: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _dates(path: str, file: FileScan, note: Note) -> Iterator[Finding]:
    moments: dict[str, datetime] = {}
    for key in DATE_KEYS:
        value = note.meta.get(key)
        if blank(value):
            yield finding("M206", path, key_line(note, key),
                          f"the frontmatter has no {key}; add it as an ISO 8601 time "
                          "(`memcli lint --fix` uses the file's modification time)")
            continue
        moment = parse_date(value) if isinstance(value, str) else None
        if moment is None:
            yield finding("M210", path, key_line(note, key),
                          f"{key} is not an ISO 8601 date or time; write it like "
                          "2026-11-29T10:00:00Z")
            continue
        moments[key] = moment
    if len(moments) == 2 and moments["created"] > moments["updated"]:
        yield finding("M211", path, key_line(note, "created"),
                      "created is later than updated; correct one of the two")


def repairable(file: FileScan) -> bool:
    """--fix only edits notes it could parse completely."""
    return file.note is not None and file.utf8
