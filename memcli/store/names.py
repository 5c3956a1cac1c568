"""Note types, slugs and file names: the only names memcli ever reads or writes in a store."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Final

from memcli.safety.invisible_chars import strip_invisible
from memcli.value_types import FrozenRecord

NOTE_TYPES: tuple[str, ...] = (
    "correction_feedback",
    "user_preference",
    "project_knowledge",
    "reference_material",
)
LEVELS: tuple[str, ...] = ("project", "user")
INDEX_NAME = "MEMORY.md"
# The folder a batch is staged in until it is committed (memcli.writes.transaction).
TXN_PREFIX = ".memcli-txn-"
# A proposal file of a store's review inbox (memcli.writes.inbox): <UTC time>-<random>.json.
PROPOSAL_NAME = r"[0-9]{8}T[0-9]{6}-[0-9a-f]{8}\.json"


def inbox_folder(store: Path) -> Path:
    """Where a store's proposals wait for review: beside the store, `.memcli/inbox/` for the
    default layout (`.memcli/memory`, `~/.memcli/memory`), `<store>.inbox` for another name."""
    return store.parent / ("inbox" if store.name == "memory" else f"{store.name}.inbox")


# Said when the working folder is the home folder: its .memcli/ is the user's own.
NO_PROJECT = ("no project here (the working folder is your home folder, outside any project): "
              "run memcli in a project folder, or pass --project-store PATH")
MAX_SLUG_CHARS = 64
# Leaves room for the longest type prefix and ".md" under the 255-byte limit of most filesystems.
MAX_SLUG_BYTES = 200

# Claude Code and other tools name the same types differently; models trained on them too.
TYPE_ALIASES: dict[str, str] = {
    "user": "user_preference",
    "preference": "user_preference",
    "feedback": "correction_feedback",
    "correction": "correction_feedback",
    "project": "project_knowledge",
    "knowledge": "project_knowledge",
    "reference": "reference_material",
}

# A slug holding a backslash or a line-breaking character could never sit on one index line:
# such a file is not a note (lint reports it as a stray file).
# (The two line breaks beyond Latin-1 are looked for with `in`: a character class holding
# them compiles a table of 65,536 entries at every start.)
_SLUG_REFUSED = re.compile(r"[/\\\x00-\x1f\x7f\x85]")
_SLUG_KEEP_CATEGORIES = ("L", "N", "M")


def canonical_type(value: str) -> str | None:
    """The note type a (possibly aliased, any-case) name stands for, or None."""
    key = value.strip().lower().replace("-", "_").replace(" ", "_")
    if key in NOTE_TYPES:
        return key
    return TYPE_ALIASES.get(key)


def slugify(text: str) -> str:
    """Lower-case words of any script joined by '-', never empty, at most 64 characters."""
    normal = unicodedata.normalize("NFC", strip_invisible(text)).lower()
    words: list[str] = []
    current: list[str] = []
    for char in normal:
        if unicodedata.category(char)[0] in _SLUG_KEEP_CATEGORIES:
            current.append(char)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    slug = unicodedata.normalize("NFC", "-".join(words))
    slug = _cut_slug(slug)
    if slug:
        return slug
    import hashlib  # rare (a title with no letters or digits), and _hashlib costs 1.5 ms

    return "note-" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _cut_slug(slug: str) -> str:
    if len(slug) <= MAX_SLUG_CHARS and len(slug.encode()) <= MAX_SLUG_BYTES:
        return slug
    cut = slug[:MAX_SLUG_CHARS]
    while len(cut.encode()) > MAX_SLUG_BYTES:
        cut = cut[:-1]
    # Prefer a word boundary, unless that throws away most of the slug.
    boundary = cut.rfind("-")
    if boundary >= len(cut) // 2:
        cut = cut[:boundary]
    return cut.strip("-")


def is_canonical_slug(slug: str) -> bool:
    return bool(slug) and slugify(slug) == slug


def note_filename(note_type: str, slug: str) -> str:
    return f"{note_type}_{slug}.md"


def name_key(filename: str) -> str:
    """Two file names with the same key are the same note (case and NFC twins)."""
    return unicodedata.normalize("NFC", strip_invisible(filename)).casefold()


def title_key(title: str) -> str:
    """Two titles with the same key are duplicates within a level."""
    return " ".join(unicodedata.normalize("NFC", strip_invisible(title)).casefold().split())


class NoteName(FrozenRecord):
    """A note file name read as its type and slug."""

    __slots__ = __match_args__ = ("filename", "type", "slug")
    filename: Final[str]
    type: Final[str]
    slug: Final[str]

    def __init__(self, filename: str, type: str, slug: str) -> None:
        self.filename = filename
        self.type = type
        self.slug = slug


def _type_and_slug(filename: str) -> tuple[str, str] | None:
    if not filename.endswith(".md"):
        return None
    for note_type in NOTE_TYPES:
        if filename.startswith(note_type) and filename[len(note_type):len(note_type) + 1] == "_":
            slug = filename[len(note_type) + 1:-3]
            if (not slug or _SLUG_REFUSED.search(slug) is not None
                    or "\u2028" in slug or "\u2029" in slug):
                return None
            return note_type, slug
    return None


def is_note_name(filename: str) -> bool:
    """Whether FILENAME is a plain note file name (parse_note_name without building one)."""
    return _type_and_slug(filename) is not None


def parse_note_name(filename: str) -> NoteName | None:
    """Split a plain note file name into type and slug; None when it is not one."""
    found = _type_and_slug(filename)
    return None if found is None else NoteName(filename, *found)


def unsafe_name_reason(filename: str) -> str | None:
    """Why a file name given in an operation may not be used in a store, or None when safe."""
    if not filename:
        return "the file name is empty"
    if "\x00" in filename:
        return "the file name holds a NUL character"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in filename):
        return "the file name holds control or invisible formatting characters"
    if "/" in filename or "\\" in filename:
        return "the file name holds a path separator; give a plain file name"
    if filename in (".", "..") or ".." in filename:
        return "the file name holds '..'"
    if filename.startswith("."):
        return "the file name starts with a dot (hidden files are not notes)"
    if name_key(filename) == name_key(INDEX_NAME):
        return "MEMORY.md is the index, not a note"
    if len(filename.encode("utf-8", "surrogatepass")) > 255:
        return "the file name is longer than 255 bytes"
    parsed = parse_note_name(filename)
    if parsed is None:
        return f"'{filename}' is not a note name: expected <type>_<slug>.md with type one of " + (
            ", ".join(NOTE_TYPES)
        )
    return None
