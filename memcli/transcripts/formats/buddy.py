"""CodeBuddy Code and WorkBuddy: session JSONL of OpenAI Agents SDK items, one a line.

Each line is an item (``message`` with ``role`` and ``content`` as a string or
``input_text``/``output_text`` parts, ``function_call``, ``function_call_result``,
``reasoning``) or a record of the CLI's own (``file-history-snapshot``, ``summary``,
``topic``, ``turn-metrics``, ...), with ``sessionId``, ``id``, ``timestamp`` in
milliseconds and ``providerData``. A user message the CLI wrote itself (task
notifications, "continue" nudges) says so in ``providerData.isMeta``; a slash command and
its caveat in ``providerData.skipRun``. When the CLI adds context to a prompt it puts the
typed words inside ``<user_query>``.
"""

from __future__ import annotations

from memcli.transcripts.formats.codex import response_item
from memcli.transcripts.model import Format, Piece, Record, get_dict, millis_to_iso

_ITEMS = frozenset({"message", "function_call", "function_call_result", "reasoning"})
_OWN = frozenset({
    "session_start", "reasoning_text", "summary", "topic", "ai-title", "turn-metrics",
    "file-history-snapshot",
})


def _matches(rec: Record) -> bool:
    kind = rec.get("type")
    if not isinstance(kind, str) or "payload" in rec or isinstance(rec.get("message"), dict):
        return False
    if not (isinstance(rec.get("sessionId"), str) or isinstance(rec.get("providerData"), dict)):
        return False
    # Claude Code writes titles and summaries too, stamped with ISO text, never a number
    return kind in _ITEMS or kind == "session_start" or (
        kind in _OWN and isinstance(rec.get("timestamp"), int))


def read(rec: Record) -> list[Piece] | None:
    if rec.get("type") not in _ITEMS:
        return None  # the CLI's own records: titles, metrics, snapshots, summaries
    stamp = rec.get("timestamp")
    ts = stamp if isinstance(stamp, str) else millis_to_iso(stamp)
    item = rec
    if rec.get("type") == "reasoning" and isinstance(rec.get("rawContent"), str):
        item = {"type": "reasoning", "content": [{"type": "text", "text": rec["rawContent"]}]}
    pieces = response_item(item, ts)
    meta = get_dict(rec, "providerData") or {}
    if pieces and rec.get("role") == "user" and (meta.get("isMeta") or meta.get("skipRun")):
        reason = "slash command" if meta.get("skipRun") else "injected"
        for piece in pieces:
            piece.injected, piece.reason = True, reason
    return pieces


BUDDY = Format(
    name="codebuddy",
    agents="CodeBuddy Code, WorkBuddy",
    where="~/.codebuddy/projects/<project>/<session>.jsonl (WorkBuddy: ~/.workbuddy/...)",
    matches=_matches,
    read=read,
)
