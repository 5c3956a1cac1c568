"""From pieces to Messages: what the flags let in, the last turn, and the size budgets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from memcli.messages import Message, Role
from memcli.transcripts.model import Entry, Options, Piece

TRUNCATION_MARK = "…[truncated]"

Sourced = tuple[str, Piece]


def visible_pieces(entries: list[Entry], opts: Options, dropped: Counter[str]) -> list[Sourced]:
    kept: list[Sourced] = []
    for e in entries:
        for piece in _expanded(e.pieces or (), opts, dropped):
            reason = left_out_because(piece, opts)
            if reason is not None:
                # a piece made later is a tool call or result: never empty enough to ignore
                if piece.later is not None or (piece.text and not piece.text.isspace()):
                    dropped[reason] += 1
                continue
            text = piece.made().strip()
            if not text:
                continue
            if text is piece.text and piece.raw is None:
                kept.append((e.fmt, piece))  # nothing to drop: nothing later changes a piece
            else:
                # a new piece, as dataclasses.replace makes it at a fifth of the cost
                kept.append((e.fmt, Piece(piece.kind, text, piece.timestamp, piece.injected,
                                          piece.reason, piece.echo, piece.mid_turn)))
    return kept


def _expanded(pieces: Iterable[Piece], opts: Options, dropped: Counter[str]) -> Iterator[Piece]:
    """The pieces, tool results opened only when something in them could be shown."""
    for piece in pieces:
        if piece.expand is None:
            yield piece
        elif opts.include_tools or opts.include_injected:
            yield from piece.expanded()
        else:
            dropped[piece.reason if piece.injected else "tool"] += 1


def left_out_because(piece: Piece, opts: Options) -> str | None:
    if piece.injected and not opts.include_injected:
        return piece.reason
    if piece.kind == "tool" and not opts.include_tools:
        return "tool"
    if piece.kind == "thinking" and not opts.include_thinking:
        return "thinking"
    return None


def role_of(piece: Piece) -> Role:
    if piece.kind == "thinking":
        return "thinking"
    return "tool" if piece.injected else piece.kind


def is_typed(piece: Piece) -> bool:
    return piece.kind == "user" and not piece.injected


def from_last_typed(pieces: list[Sourced], dropped: Counter[str]) -> list[Sourced]:
    """From the last thing a person typed to the end; all of it when nobody typed anything.

    A prompt typed while the agent was still working belongs to the turn it interrupted.
    """
    typed = [i for i, (_, p) in enumerate(pieces) if is_typed(p) and not p.mid_turn]
    if not typed:
        return pieces
    dropped["before the last turn"] += typed[-1]
    return pieces[typed[-1] :]


def apply_budgets(
    pieces: list[Sourced], opts: Options
) -> tuple[list[Message], list[str], int]:
    messages: list[Message] = []
    formats: list[str] = []
    left = opts.max_extra_chars
    truncated = 0
    for fmt, piece in pieces:
        role = role_of(piece)
        text = valid_unicode(piece.text)
        if role in ("tool", "thinking"):
            text, cut = _cut(text, min(opts.max_tool_chars, left))
            truncated += cut
            left -= len(text)
        if text:
            stamp = valid_unicode(piece.timestamp) if piece.timestamp else piece.timestamp
            messages.append(Message(role=role, text=text, timestamp=stamp))
            formats.append(fmt)
    return messages, formats, truncated


def valid_unicode(text: str) -> str:
    """JSON escapes can carry lone surrogates (``"\\ud800"``): they become U+FFFD."""
    if text.isascii():
        return text  # no surrogate in it (and most text is): nothing to encode
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _cut(text: str, limit: int) -> tuple[str, bool]:
    """``text`` in at most ``limit`` characters, marker included; empty when nothing fits."""
    if len(text) <= limit:
        return text, False
    head = text[: max(limit - len(TRUNCATION_MARK), 0)].rstrip()
    return (head + TRUNCATION_MARK if head else ""), True
