"""What print-mode outputs share: a closing ``result`` record, and replies sent in pieces.

``claude -p --output-format json`` and ``cursor-agent -p --output-format json`` print that
record alone, and then its ``result`` is the only copy of the reply. In ``stream-json``
output it closes each turn and repeats what the turn's assistant records already said
(Claude: the last reply; Cursor: all of them joined), so there it is not read twice. With
``--stream-partial-output`` Cursor also closes a reply with one record holding the whole
of it, after the parts it already sent: that copy is not read twice either.

Gemini CLI's stream-json sends every reply in pieces (``delta``), and Cursor its thinking:
the pieces in a row are one message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from memcli.transcripts.content import text_pieces
from memcli.transcripts.model import Entry, Piece, Record, get_str

# the formats whose streams close a turn with a result record
RESULT_FORMATS = frozenset({"claude-stream-json", "cursor-stream-json", "droid-stream-json"})
# the record that closes a turn: Claude's and Cursor's result, Droid's completion
_CLOSING = frozenset({"result", "completion"})


def result_pieces(rec: Record) -> list[Piece] | None:
    """The reply a ``result`` record carries; an error's text is nobody's words."""
    text = get_str(rec, "result")
    if text is None or rec.get("is_error") is True:
        return None
    return text_pieces(text, "assistant", get_str(rec, "timestamp"))


def drop_repeated_results(entries: list[Entry], dropped: Counter[str]) -> None:
    """Results (and Cursor's whole-reply copies) that repeat their turn's replies go."""
    said: list[str] = []  # what the assistant said in this turn so far
    for entry in entries:
        if entry.fmt not in RESULT_FORMATS or not entry.pieces:
            continue
        if any(p.kind == "user" and not p.injected for p in entry.pieces):
            said = []  # a new turn (an input stream sends each prompt as a user record)
        if entry.rec.get("type") in _CLOSING:
            if said:
                dropped["duplicate"] += len(entry.pieces)
                entry.pieces = []
            said = []
            continue
        if _is_whole_reply(entry) and said:
            _keep_what_is_new(entry, "".join(said), dropped)
        said += [p.text for p in entry.pieces or () if p.kind == "assistant"]


def _is_whole_reply(entry: Entry) -> bool:
    """Cursor's copy of the whole reply: an assistant record with neither a model call id
    (the text before a tool call) nor a timestamp (the streamed parts)."""
    rec = entry.rec
    return (entry.fmt == "cursor-stream-json" and rec.get("type") == "assistant"
            and "model_call_id" not in rec and "timestamp_ms" not in rec)


def _keep_what_is_new(entry: Entry, said: str, dropped: Counter[str]) -> None:
    """The copy starts with what the turn already said (white space aside): only the rest
    of it is new (the parts streamed after the last tool call, which are not read)."""
    pieces = [p for p in entry.pieces or () if p.kind == "assistant"]
    if len(pieces) != 1:
        return
    known = "".join(said.split())
    rest = _after(pieces[0].text, len(known))
    if rest is None or "".join(pieces[0].text.split())[: len(known)] != known:
        return
    if rest.strip():
        pieces[0].text = rest.strip()
    else:
        dropped["duplicate"] += 1
        entry.pieces = []


def _after(text: str, count: int) -> str | None:
    """``text`` after its first ``count`` characters that are not white space."""
    seen = 0
    for index, char in enumerate(text):
        if seen == count:
            return text[index:]
        seen += not char.isspace()
    return "" if seen == count else None


# format -> whether a record is a piece of a message the next records go on with
_DELTAS: dict[str, Callable[[Record], bool]] = {
    "gemini-stream-json": lambda rec: rec.get("delta") is True,
    "cursor-stream-json": lambda rec: rec.get("type") == "thinking"
    and rec.get("subtype") == "delta",
}


def join_deltas(entries: list[Entry], dropped: Counter[str]) -> None:
    """Pieces of one message in a row are joined into the first (a tool call, or anything
    else between them, ends the message)."""
    head: Piece | None = None
    parts: list[str] = []
    for entry in entries:
        piece = _delta(entry)
        if piece is None or (head is not None and piece.kind != head.kind):
            _close(head, parts)
            head, parts = piece, [piece.text] if piece is not None else []
        elif head is None:
            head, parts = piece, [piece.text]
        else:
            parts.append(piece.text)
            entry.pieces = []  # still a record that held a message: its words moved up
    _close(head, parts)


def _delta(entry: Entry) -> Piece | None:
    is_delta = _DELTAS.get(entry.fmt)
    if is_delta is None or not is_delta(entry.rec):
        return None
    pieces = entry.pieces or []
    if len(pieces) != 1 or pieces[0].injected:
        return None
    return pieces[0]


def _close(head: Piece | None, parts: list[str]) -> None:
    if head is not None and len(parts) > 1:
        head.text = "".join(parts)
