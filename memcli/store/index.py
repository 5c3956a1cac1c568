"""MEMORY.md: one line per note, derived from the notes, in an order that trims well.

The block `memcli context` builds from these lines within the context budget is
:mod:`memcli.store.context_block`: a command that only reads or checks the index never loads it.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator, Sequence
from typing import Final, overload

from memcli.safety.invisible_chars import INVISIBLE, drop_lone_joiners
from memcli.store.names import NOTE_TYPES
from memcli.text import one_line
from memcli.value_types import FrozenRecord, Record

DEFAULT_HEADER = (
    "# Memory index\n"
    "\n"
    "<!-- Maintained by memcli from the notes in this folder: edit the notes, then run "
    "`memcli index`. -->\n"
    "\n"
)
SEPARATOR = " — "
MAX_CONTEXT_LINES = 200
MAX_CONTEXT_BYTES = 25 * 1024

_ENTRY = re.compile(r"^- \[(?P<type>[a-z_]+)\] (?P<inner>.*)\)[ \t]*\r?$")
_PLAIN_FILE = re.compile(r"[^()/\\]+\.md")
# A note's own file name may hold parentheses (a hand-named `project_knowledge_a(b).md`).
# Compiled for such a line only (re caches it): a line memcli wrote never needs it.
_NOTE_FILE = r"(?:" + "|".join(NOTE_TYPES) + r")_[^/\\\r\n]*\.md"
_NOTE_FILE_STARTS = tuple(f" ({name}_" for name in NOTE_TYPES)
_TYPE_RANK = {name: rank for rank, name in enumerate(NOTE_TYPES)}


class IndexEntry(FrozenRecord):
    """What the index says about one note; also what the extractors know of a store."""

    __slots__ = __match_args__ = ("level", "type", "title", "summary", "filename", "updated")
    level: Final[str]
    type: Final[str]
    title: Final[str]
    summary: Final[str]
    filename: Final[str]
    updated: Final[str]

    def __init__(self, level: str, type: str, title: str, summary: str,
                 filename: str, updated: str = "") -> None:
        self.level = level
        self.type = type
        self.title = title
        self.summary = summary
        self.filename = filename
        self.updated = updated

    def replace(self, *, title: str | None = None, summary: str | None = None) -> IndexEntry:
        """A copy with the title or summary changed (what a redaction or a shortening
        changes; the other fields say which note it is)."""
        return IndexEntry(self.level, self.type, self.title if title is None else title,
                          self.summary if summary is None else summary, self.filename,
                          self.updated)


class LazyEntries(Sequence[IndexEntry]):
    """Index lines made when first asked for (a big store's 20,000 of which matching reads a
    few): a subclass gives ``__len__`` and ``_entry`` for 0 <= index < len; indexing,
    negative indexes and slices are this class's."""

    def _entry(self, index: int) -> IndexEntry:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> IndexEntry: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[IndexEntry]: ...

    def __getitem__(self, index: int | slice) -> IndexEntry | Sequence[IndexEntry]:
        if isinstance(index, slice):
            return [self._entry(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._entry(index)


# Control characters that are not whitespace, and the bidi embeddings, overrides and
# isolates: in an index line they hide or reorder what a reviewer sees (or drive a terminal),
# and a NUL makes git treat MEMORY.md as a binary file.
_INVISIBLE: dict[int, None] = dict.fromkeys(
    c for c in [*range(0x20), 0x7F, *range(0x80, 0xA0), *range(0x202A, 0x202F),
                *range(0x2066, 0x206A), *INVISIBLE] if not chr(c).isspace()
)


def render_line(entry: IndexEntry) -> str:
    title = shown_text(entry.title).replace(SEPARATOR.strip(), "-") or entry.filename
    summary = shown_text(entry.summary)
    middle = f"{title}{SEPARATOR}{summary}" if summary else title
    return f"- [{entry.type}] {middle} ({entry.filename})"


def shown_text(text: str) -> str:
    """A title or summary as an index line shows it: one line, no invisible controls."""
    # Printable ASCII holds none of them (the common case; translate costs more), and its
    # only whitespace is the space: with no space doubled or at an end it is one line already.
    if not (text.isascii() and text.isprintable()):
        text = drop_lone_joiners(text.translate(_INVISIBLE))
    elif "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return one_line(text)


def parse_line(line: str, level: str = "") -> IndexEntry | None:
    """The entry an index line stands for, or None when the line is not an entry."""
    match = _ENTRY.match(line)
    if match is None:
        return None
    split = _split_file(match["inner"])
    if split is None:
        return None
    rest, filename = split
    title, _, summary = rest.partition(SEPARATOR)
    return IndexEntry(level, match["type"], title, summary, filename)


def own_lines(rendered: Iterable[tuple[IndexEntry, str]]) -> dict[str, str]:
    """Each entry's rendered line that :func:`parse_line` certainly reads back as that
    entry's file name (a note type, a file name without parentheses), by line: an index
    line found here, followed by "\\n" or nothing, is known without parsing it."""
    return {line: entry.filename for entry, line in rendered if is_own_line(entry)}


def is_own_line(entry: IndexEntry) -> bool:
    """Whether parse_line certainly reads ENTRY's rendered line back as ENTRY's file name: a
    note type, and a file name _PLAIN_FILE matches (asked without the regex)."""
    name = entry.filename
    return (entry.type in _TYPE_RANK and len(name) > 3 and name.endswith(".md")
            and "(" not in name and ")" not in name and "/" not in name and "\\" not in name)


def _split_file(inner: str) -> tuple[str, str] | None:
    """Text and file name of `<text> (<file>`; linear time, whatever the line holds."""
    cut = inner.rfind(" (")
    if cut >= 0 and _PLAIN_FILE.fullmatch(inner, cut + 2):
        return inner[:cut], inner[cut + 2 :]
    cut = max(inner.rfind(start) for start in _NOTE_FILE_STARTS)
    if cut >= 0 and re.fullmatch(_NOTE_FILE, inner[cut + 2:]):
        return inner[:cut], inner[cut + 2 :]
    return None


class _Inverted(dict[int, int]):
    """A str.translate table mapping each code point c to 0x10FFFF - c, filled as met."""

    def __missing__(self, code: int) -> int:
        self[code] = 0x10FFFF - code
        return 0x10FFFF - code


_INVERTED = _Inverted()


def sort_key(entry: IndexEntry) -> tuple[int, bool, str, str]:
    """Corrections first, newest first within a type; reference material trails."""
    rank = _TYPE_RANK.get(entry.type, len(NOTE_TYPES))
    # An inverted string sorts newest first without parsing dates that a person may have mangled.
    # (translate: three times faster than a generator of chr(); lint sorts 40,000 entries.)
    newest_first = entry.updated.translate(_INVERTED)
    # A note without a date is not the newest: it goes after the dated ones of its type.
    return rank, not entry.updated, newest_first, entry.filename


def ordered(entries: Iterable[IndexEntry]) -> list[IndexEntry]:
    return sorted(entries, key=sort_key)


class IndexFile(Record):
    """MEMORY.md split into what a person wrote around the entries and the entries."""

    __slots__ = __match_args__ = ("header", "entry_lines", "footer")

    def __init__(self, header: str, entry_lines: list[str], footer: str) -> None:
        self.header = header
        self.entry_lines = entry_lines
        self.footer = footer


def split_index(text: str, *, entries: bool = True, known: Container[str] = ()) -> IndexFile:
    """Lines before the first entry form the header; non-entry lines after it the footer.

    Without ENTRIES the entry lines are left empty: only the frame around them is wanted.
    A line in KNOWN (without its "\\n"; :func:`own_lines` gives such lines) is an entry
    without being parsed."""
    lines: list[tuple[str, bool]] = []
    for line in iter_lines(text):
        entry = (line[:-1] if line.endswith("\n") else line) in known \
            or parse_line(line) is not None
        lines.append((line if entries or not entry else "", entry))
    return split_lines(lines)


# What str.splitlines() ends a line at besides "\n": the ASCII ones by a pattern, the
# three beyond ASCII by str.find (a character class holding U+2028 compiles a table of
# 65,536 entries at every start).
_ODD_ASCII_LINE_END = re.compile("[\r\x0b\x0c\x1c\x1d\x1e]")
_ODD_WIDE_LINE_ENDS = ("\x85", "\u2028", "\u2029")


def has_odd_line_end(text: str, end: int | None = None) -> bool:
    """Whether str.splitlines() would end a line of TEXT (up to END) at anything but "\\n"."""
    end = len(text) if end is None else end
    if _ODD_ASCII_LINE_END.search(text, 0, end) is not None:
        return True
    return not text.isascii() and any(text.find(c, 0, end) >= 0 for c in _ODD_WIDE_LINE_ENDS)


def iter_lines(text: str) -> Iterator[str]:
    """str.splitlines(keepends=True), one line at a time when lines end in "\\n" only (a
    100,000-line index is never split into a list at once)."""
    if has_odd_line_end(text):
        yield from text.splitlines(keepends=True)
        return
    pos, size = 0, len(text)
    while pos < size:
        end = text.find("\n", pos)
        end = size if end < 0 else end + 1
        yield text[pos:end]
        pos = end


def split_lines(lines: Sequence[tuple[str, bool]]) -> IndexFile:
    """:func:`split_index` on lines already split (line ends kept) and parsed: each is
    (the line, whether it is an entry)."""
    first = next((i for i, (_, entry) in enumerate(lines) if entry), None)
    if first is None:
        return IndexFile("".join(line for line, _ in lines), [], "")
    entries: list[str] = []
    footer_lines: list[str] = []
    for line, entry in lines[first:]:
        if entry:
            entries.append(line.rstrip("\r\n"))
        else:
            footer_lines.append(line)
    footer = "".join(footer_lines).strip("\r\n")
    return IndexFile("".join(line for line, _ in lines[:first]), entries,
                     footer + "\n" if footer else "")


def render_index(existing: str | None, entries: Sequence[IndexEntry]) -> str:
    """The MEMORY.md text for these entries, keeping a person's header and footer lines."""
    parts = None if existing is None else split_index(existing)
    return assemble_index(parts, [render_line(e) for e in ordered(entries)])


def assemble_index(parts: IndexFile | None, lines: Iterable[str]) -> str:
    """MEMORY.md from the header and footer of PARTS (None: a new file) and entry LINES
    already rendered and ordered."""
    return "".join(index_pieces(parts, lines))


def index_pieces(parts: IndexFile | None, lines: Iterable[str]) -> Iterator[str]:
    """:func:`assemble_index`'s text in pieces, to compare without building it."""
    if parts is None:
        header, footer = DEFAULT_HEADER, ""
    else:
        header, footer = parts.header, parts.footer
        if header and not header.endswith("\n"):
            header += "\n"
    yield header
    for line in lines:
        yield line
        yield "\n"
    if footer:
        yield "\n"
        yield footer


def not_utf8(name: str, data: bytes | None) -> str:
    """What is wrong with a file's DATA that is not UTF-8 ('' when nothing is), by line."""
    if not data or _is_utf8(data):
        return ""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return f"{name}: line {line} is not valid UTF-8 (byte {exc.start}); re-save it as UTF-8"
    return ""


def _is_utf8(data: bytes, chunk: int = 1 << 20) -> bool:
    """Checked a MiB at a time: `show` and `context` ask it of a 100,000-line index, whose
    decoded text would be twice its size again."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, len(data), chunk):
            decoder.decode(data[start:start + chunk], final=start + chunk >= len(data))
    except UnicodeDecodeError:
        return False
    return True


def is_written_as(data: bytes, parts: IndexFile | None, lines: Iterable[str]) -> bool:
    """Whether DATA is exactly what :func:`assemble_index` writes from PARTS and LINES,
    encoded: compared a chunk of pieces at a time, so a 100,000-line rewrite is never built
    whole to find out (`memcli index --check`, lint's M106)."""
    pos = 0
    for chunk in _chunks(index_pieces(parts, lines)):
        encoded = chunk.encode()
        if not data.startswith(encoded, pos):
            return False
        pos += len(encoded)
    return pos == len(data)


def _chunks(pieces: Iterator[str], size: int = 512) -> Iterator[str]:
    """PIECES joined SIZE at a time: one encode and compare per chunk, not per line."""
    batch: list[str] = []
    for piece in pieces:
        batch.append(piece)
        if len(batch) == size:
            yield "".join(batch)
            batch.clear()
    if batch:
        yield "".join(batch)
