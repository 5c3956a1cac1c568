"""Text a note hides when it is rendered: HTML comments and link-definition comments.

A Markdown renderer (GitHub's, an editor's preview) shows no ``<!-- … -->`` (nor the other
raw HTML that is no element: ``<?…?>``, ``<!DOCTYPE …>``, ``<![CDATA[…]]>``), no link
reference definition that no link uses (``[//]: # (…)``, ``[comment]: <> (…)``) and no
definition's title (a tooltip at most). A reviewer who reads a note on GitHub never sees
that text; an agent handed the note's source reads every word of it. Code is text: a
``<!--`` in a fenced or indented code block or in a code span is shown as written, so the
note is parsed as CommonMark (markdown-it-py) to tell the two apart.

Everything here is behind :func:`might_hide`, three substring tests: a text without ``<!``,
``<?`` or ``]:`` hides nothing, and the parser is not imported for it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

COMMENT = "HTML comment"
DEFINITION = "link definition"
# What an agent is handed in place of a repository's hidden text: that something was there
# (so that it can tell the person), never what.
LEFT_OUT = "[hidden text left out]"
# How often reveal() escapes what it finds before it gives up: escaping one comment can
# uncover another (`<!-- a <!-- b -->`), rarely more than once.
_REVEAL_ROUNDS = 4


class Hidden(NamedTuple):
    """One stretch of text a renderer does not show: ``text[start:end]``."""

    start: int
    end: int
    kind: str  # COMMENT or DEFINITION


def might_hide(text: str) -> bool:
    """Whether TEXT can hide anything at all (three substring tests; most notes: no)."""
    return "<!" in text or "<?" in text or "]:" in text


def find_hidden(text: str) -> list[Hidden]:
    """Each stretch of TEXT that a CommonMark renderer does not show, in order."""
    if not might_hide(text):
        return []
    env: dict[str, object] = {}
    tokens = _parser().parse(text, env)
    starts = _line_starts(text)
    found: list[Hidden] = []
    labels = _used_labels(tokens)
    for token in tokens:
        if token.map is None:
            continue
        first, last = starts[token.map[0]], starts[min(token.map[1], len(starts) - 1)]
        region = text[first:last] if token.map[1] < len(starts) else text[first:]
        if token.type == "html_block":
            found += (Hidden(first + a, first + b, COMMENT)
                      for a, b in _raw_spans(region, block=True))
        elif token.type == "inline" and any(_is_hidden_html(c) for c in token.children or ()):
            found += _inline_spans(region, first, token)
        elif token.type == "definition" and _hides(token, labels):
            found.append(Hidden(first, first + len(region), DEFINITION))
    return sorted(found)


def without_hidden(text: str, mark: str = LEFT_OUT) -> str:
    """TEXT with each hidden stretch replaced by MARK (a line end it held is kept)."""
    spans = find_hidden(text)
    if not spans:
        return text
    pieces: list[str] = []
    at = 0
    for span in _merged(spans):
        pieces += [text[at:span.start], mark, "\n" if text[span.end - 1:span.end] == "\n"
                   else ""]
        at = span.end
    pieces.append(text[at:])
    return "".join(pieces)


def reveal(text: str) -> str:
    """TEXT with what it hides made visible: each ``<`` of a hidden stretch written as
    ``&lt;`` (which raw HTML reads as text too, where a backslash is no escape) and the
    ``[`` of a definition as ``\\[``, so that a renderer shows them as they were written
    and an agent reads what a reviewer sees. The text is otherwise kept; one that still
    hides something after a few rounds is returned as it then is."""
    for _ in range(_REVEAL_ROUNDS):
        spans = find_hidden(text)
        if not spans:
            break
        text = _escaped(text, spans)
    return text


# ---------------------------------------------------------------------------- parsing


@functools.cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    # `inline_definitions`: a link reference definition is a token with its lines, not only
    # an entry of the parser's environment.
    return MarkdownIt("commonmark", {"inline_definitions": True})


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at != -1:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def _is_hidden_html(token: Token) -> bool:
    return token.type == "html_inline" and token.content[:2] in ("<!", "<?")


def _raw_spans(region: str, *, block: bool) -> Iterator[tuple[int, int]]:
    """The comments, processing instructions, declarations and CDATA sections of REGION
    (raw HTML), as offsets. In an HTML block one left open runs to the block's end; inline,
    an opener without its closer is no comment at all (and no later one can close)."""
    at = region.find("<")
    while at != -1:
        end = _raw_end(region, at)
        if end is None:
            at = region.find("<", at + 1)
            continue
        if end == -1:
            if block:
                yield at, len(region)
            return
        yield at, end
        at = region.find("<", end)


def _raw_end(region: str, at: int) -> int | None:
    """Where the construct opening at AT ends: an offset, -1 when it is never closed, None
    when no construct opens there."""
    rest = region.startswith
    if rest("<!--", at):
        if rest("<!-->", at) or rest("<!--->", at):  # CommonMark's empty comments
            return region.index(">", at + 4) + 1
        close = region.find("-->", at + 4)
        return -1 if close == -1 else close + 3
    for opener, closer in (("<![CDATA[", "]]>"), ("<?", "?>")):
        if rest(opener, at):
            close = region.find(closer, at + len(opener))
            return -1 if close == -1 else close + len(closer)
    if rest("<!", at) and region[at + 2:at + 3].isascii() and region[at + 2:at + 3].isalpha():
        close = region.find(">", at + 2)
        return -1 if close == -1 else close + 1
    return None


@functools.cache
def _backticks() -> re.Pattern[str]:
    return re.compile("`+")


def _masked(region: str) -> str:
    """REGION with its code spans (and each backslash-escaped character) blanked out, at the
    same offsets: a ``<!--`` in them is text. Backtick runs pair with the next run of the
    same length, as CommonMark pairs them."""
    chars = list(region)
    for at in range(len(region) - 1):
        if region[at] == "\\" and chars[at] == "\\":
            chars[at + 1] = " "
    runs = [(m.start(), m.end()) for m in _backticks().finditer("".join(chars))]
    following: dict[int, int] = {}
    pair: list[int | None] = [None] * len(runs)
    for index in range(len(runs) - 1, -1, -1):
        size = runs[index][1] - runs[index][0]
        pair[index] = following.get(size)
        following[size] = index
    index = 0
    while index < len(runs):
        other = pair[index]
        if other is None:
            index += 1
            continue
        for at in range(runs[index][0], runs[other][1]):
            chars[at] = " " if chars[at] != "\n" else "\n"
        index = other + 1
    return "".join(chars)


def _inline_spans(region: str, first: int, token: Token) -> list[Hidden]:
    """The hidden HTML of one paragraph (or heading) at its offsets in the note: found in
    its source with the code spans masked, kept when the parser found the same."""
    wanted = [c.content.split("\n", 1)[0] for c in token.children or () if _is_hidden_html(c)]
    spans = list(_raw_spans(_masked(region), block=False))
    if len(spans) != len(wanted):  # the parser knows better: keep those it also found
        spans = [s for s in spans if region[s[0]:s[1]].split("\n", 1)[0] in wanted]
    return [Hidden(first + a, first + b, COMMENT) for a, b in spans]


@functools.cache
def _label() -> re.Pattern[str]:
    return re.compile(r"\[((?:[^\[\]\\]|\\.){1,999})\]")


def _used_labels(tokens: list[Token]) -> set[str]:
    """The labels a note's links could use (every ``[…]`` of its paragraphs, normalized)."""
    labels: set[str] = set()
    for token in tokens:
        if token.type == "inline" and "[" in token.content:
            labels.update(_normal(m.group(1)) for m in _label().finditer(token.content))
    return labels


def _normal(label: str) -> str:
    return " ".join(label.split()).casefold()


def _hides(token: Token, used: set[str]) -> bool:
    """A definition hides text when it has a title or when no link uses it."""
    meta = token.meta or {}
    return bool(meta.get("title")) or _normal(str(meta.get("label", ""))) not in used


def _merged(spans: list[Hidden]) -> Iterator[Hidden]:
    current = spans[0]
    for span in spans[1:]:
        if span.start <= current.end:
            current = current._replace(end=max(current.end, span.end))
        else:
            yield current
            current = span
    yield current


def _escaped(text: str, spans: list[Hidden]) -> str:
    marks: dict[int, str] = {}
    for span in spans:
        piece = text[span.start:span.end]
        if span.kind == DEFINITION:
            marks[span.start + piece.index("[")] = "\\["
        else:
            marks.update((span.start + i, "&lt;") for i, c in enumerate(piece) if c == "<")
    pieces: list[str] = []
    at = 0
    for index in sorted(marks):
        pieces += [text[at:index], marks[index]]
        at = index + 1
    pieces.append(text[at:])
    return "".join(pieces)
