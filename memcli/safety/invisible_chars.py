"""Characters that change what a text says without being seen.

A model (or a transcript it read) can hide instructions in them: Unicode tag characters
(U+E0000-E007F) spell ASCII that no terminal or editor shows, zero-width characters make two
titles that look the same compare different, and bidi controls reorder what a reviewer reads.
Titles, summaries and slugs are written without them, ``memcli context`` never shows them,
duplicate detection ignores them, and lint flags them in a body (M215).

Left alone on purpose: ordinary whitespace, variation selectors (emoji are built from them
and they hide nothing on their own), and soft hyphens. The zero-width joiner is kept only
inside an emoji sequence (👩‍💻: a symbol, its modifiers, the joiner, a symbol); anywhere
else in a title, a summary or an index line it is dropped like the other zero-width
characters (:func:`drop_lone_joiners`).
"""

from __future__ import annotations

import functools
import re

# Zero-width and invisible formatting characters, and the Hangul fillers that render as
# blank space (used for names that look empty).
_ZERO_WIDTH = (0x180E, 0x200B, 0x200C, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF,
               0x115F, 0x1160, 0x3164, 0xFFA0)
# Arabic letter mark, LRM/RLM, embeddings and overrides, isolates.
_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_TAGS = tuple(range(0xE0000, 0xE0080))

INVISIBLE: frozenset[int] = frozenset((*_ZERO_WIDTH, *_BIDI, *_TAGS))
_TABLE: dict[int, None] = dict.fromkeys(INVISIBLE)


# Compiled when a text that is not ASCII is first searched (a class of characters beyond
# Latin-1 compiles a table of 65,536 entries: about a millisecond on every start otherwise).
@functools.cache
def _pattern() -> re.Pattern[str]:
    return re.compile("[" + "".join(
        f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in (
            (0x180E, 0x180E), (0x200B, 0x200C), (0x2060, 0x2064), (0xFEFF, 0xFEFF),
            (0x115F, 0x1160), (0x3164, 0x3164), (0xFFA0, 0xFFA0), (0x061C, 0x061C),
            (0x200E, 0x200F), (0x202A, 0x202E), (0x2066, 0x2069), (0xE0000, 0xE007F),
        )
    ) + "]")


# What a line for a terminal drops: control characters (ESC sequences drive the terminal:
# clear it, retitle it, rewrite what was printed before), DEL and the C1 controls, and every
# invisible character; line breaks and tabs become spaces, so a message stays one line.
_LINE_TABLE: dict[int, str | None] = {
    **dict.fromkeys((*range(0x20), 0x7F, *range(0x80, 0xA0), *INVISIBLE)),
    **dict.fromkeys(map(ord, "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"), " "),
}
# The same for a text of many lines (a note's body shown to an agent or a person).
_TEXT_TABLE: dict[int, str | None] = {**_LINE_TABLE, ord("\t"): "\t", ord("\n"): "\n"}


# Compiled when first used, like clean_body's gate below: a command that only reads a store
# and prints no note's text (lint, show) needs neither.
@functools.cache
def _ascii_control() -> re.Pattern[str]:
    return re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def safe_line(text: str) -> str:
    """TEXT as one line that shows what it says: no control or invisible character.

    For what memcli prints that someone else wrote: an error a provider sent, a file name a
    repository chose.
    """
    if text.isascii() and text.isprintable():
        return text
    return drop_lone_joiners(text.translate(_LINE_TABLE))


def safe_text(text: str) -> str:
    """TEXT without control or invisible characters; its lines and tabs kept (a ``\\r\\n``
    line end becomes ``\\n``)."""
    if text.isascii() and _ascii_control().search(text) is None:
        return text
    return text.replace("\r\n", "\n").translate(_TEXT_TABLE)


# What a note's body written through memcli drops (an operation's content: a model's reply,
# a document, `memcli add`): control characters but the tab and the line break, and the
# characters that hide or reorder text without any use in prose (tag characters, the bidi
# embeddings, overrides and isolates of "Trojan Source"). Zero-width characters and the
# bidi marks stay: Persian needs the non-joiner and RTL text the marks; lint reports them.
_BODY_TABLE: dict[int, str | None] = {
    **dict.fromkeys((*range(0x20), 0x7F, *range(0x80, 0xA0), *_TAGS,
                     *range(0x202A, 0x202F), *range(0x2066, 0x206A))),
    ord("\t"): "\t", ord("\n"): "\n", ord("\r"): "\n",
}


@functools.cache
def _body_gate() -> re.Pattern[str]:
    return re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
                      "\U000e0000-\U000e007f]")


def clean_body(text: str) -> str:
    """TEXT as a note's body is written: no control character (a CRLF or a lone CR is a
    line break), tag character or bidi embedding, override or isolate."""
    if _body_gate().search(text) is None:
        return text
    return text.replace("\r\n", "\n").translate(_BODY_TABLE)


_SHOWN_AS_CODE = frozenset((*range(0x20), 0x7F, *range(0x80, 0xA0), *INVISIBLE)) - {0x09}


def visible(text: str) -> str:
    """TEXT with each control and invisible character (but the tab) written as ``<U+XXXX>``:
    for a diff a person reviews, where what is hidden is exactly what they must see."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(f"<{describe_char(c)}>" if ord(c) in _SHOWN_AS_CODE else c for c in text)


def strip_invisible(text: str) -> str:
    """``text`` without any invisible character (see the module docstring)."""
    if text.isascii():
        return text
    return drop_lone_joiners(text.translate(_TABLE))


ZWJ = "\u200d"


def drop_lone_joiners(text: str) -> str:
    """TEXT without the zero-width joiners that join no emoji: one pass over the text."""
    if ZWJ not in text:
        return text
    import itertools
    import unicodedata

    parts = text.split(ZWJ)
    kept = [parts[0]]
    for before, after in itertools.pairwise(parts):
        # An emoji sequence joins a symbol (after its skin tone or VS16) to a symbol.
        if (before and after and (before[-1] == "\ufe0f"
                                  or unicodedata.category(before[-1]) in ("So", "Sk"))
                and unicodedata.category(after[0]) == "So"):
            kept.append(ZWJ)
        kept.append(after)
    return "".join(kept)


def find_invisible(text: str) -> list[tuple[int, str]]:
    """(offset, character) of each invisible character, in order."""
    if text.isascii():
        return []
    return [(m.start(), m.group()) for m in _pattern().finditer(text)]


def has_invisible(text: str) -> bool:
    """Whether find_invisible would find any (one search, stopping at the first)."""
    return not text.isascii() and _pattern().search(text) is not None


def kind_of(char: str) -> str:
    """What an invisible character is, in words: "tag", "zero-width" or "bidi control"."""
    code = ord(char)
    if 0xE0000 <= code <= 0xE007F:
        return "tag"
    return "bidi control" if code in _BIDI else "zero-width"


def describe_char(char: str) -> str:
    """``U+200B`` style name of one character, for messages (never the character itself)."""
    return f"U+{ord(char):04X}"
