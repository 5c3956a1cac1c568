"""What the print-mode outputs of Claude Code and Cursor share: a closing ``result`` record.

``claude -p --output-format json`` and ``cursor-agent -p --output-format json`` print that
record alone, and then its ``result`` is the only copy of the reply. In ``stream-json``
output it closes each turn and repeats what the turn's assistant records already said
(Claude: the last reply; Cursor: all of them joined), so there it is not read twice. With
``--stream-partial-output`` Cursor also closes a reply with one record holding the whole
of it, after the parts it already sent: that copy is not read twice either.
"""

from __future__ import annotations

from collections import Counter

from memcli.transcripts.model import Entry, Piece, Record, get_str
from memcli.transcripts.text import text_pieces

# the formats whose streams close a turn with a result record
RESULT_FORMATS = frozenset({"claude-stream-json", "cursor-stream-json"})


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
        pieces = entry.pieces
        if any(p.kind == "user" and not p.injected for p in pieces):
            said = []  # a new turn (an input stream sends each prompt as a user record)
        if _repeats(entry, said):
            dropped["duplicate"] += len(pieces)
            entry.pieces = []
        else:
            said += [p.text for p in pieces if p.kind == "assistant"]
        if entry.rec.get("type") == "result":
            said = []


def _repeats(entry: Entry, said: list[str]) -> bool:
    if not said:
        return False
    if entry.rec.get("type") == "result":
        return True
    whole_reply = (entry.fmt == "cursor-stream-json" and entry.rec.get("type") == "assistant"
                   and "model_call_id" not in entry.rec and "timestamp_ms" not in entry.rec)
    text = "".join(p.text for p in entry.pieces or () if p.kind == "assistant")
    return whole_reply and _squeezed(text) in (_squeezed("".join(said)), _squeezed(said[-1]))


def _squeezed(text: str) -> str:
    return "".join(text.split())
