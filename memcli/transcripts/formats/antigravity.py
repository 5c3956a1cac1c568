"""Antigravity CLI: ``brain/<conversation>/.system_generated/logs/transcript.jsonl``.

One step a line, each with ``step_index``, ``source`` (``USER_EXPLICIT``, ``MODEL``,
``SYSTEM``), ``type`` and ``created_at``. A ``USER_INPUT`` holds the typed words inside
``<USER_REQUEST>`` beside the settings the person changed; a ``PLANNER_RESPONSE`` is the
model's turn (``content``, ``thinking``, ``tool_calls``); the model's other steps
(``RUN_COMMAND``, ``VIEW_FILE``, ``CODE_ACTION``, ...) are its tools' output; ``SYSTEM``
steps (a compaction ``CHECKPOINT``, a ``SYSTEM_MESSAGE``) are the CLI's own.
"""

from __future__ import annotations

from memcli.transcripts.content import reply_pieces, text_pieces, tool_piece
from memcli.transcripts.model import Format, Piece, Record, get_list, get_str

_SYSTEM_REASONS = {"CHECKPOINT": "compaction summary"}


def _matches(rec: Record) -> bool:
    return isinstance(rec.get("step_index"), int) and isinstance(rec.get("type"), str) and (
        isinstance(rec.get("source"), str))


def read(rec: Record) -> list[Piece] | None:
    kind, source = rec.get("type"), rec.get("source")
    ts = get_str(rec, "created_at")
    content = get_str(rec, "content")
    if kind == "USER_INPUT":
        return text_pieces(content or "", "user", ts, injected=source != "USER_EXPLICIT")
    if source == "SYSTEM":
        if content is None:
            return None  # a marker: history loaded
        reason = _SYSTEM_REASONS.get(str(kind), "injected")
        return [Piece("user", content, ts, True, reason)]
    if kind == "PLANNER_RESPONSE":
        return reply_pieces(get_str(rec, "thinking"), content, get_list(rec, "tool_calls"),
                            "args", ts)
    return [tool_piece(content, ts)] if content is not None else None


ANTIGRAVITY = Format(
    name="antigravity",
    agents="Antigravity CLI",
    where="~/.gemini/antigravity-cli/brain/<conversation>/.system_generated/logs/"
    "transcript.jsonl",
    matches=_matches,
    read=read,
)
