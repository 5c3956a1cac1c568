"""Grok CLI: ``chat_history.jsonl``, beside its ``summary.json``, in the session's folder.

One record a line, its ``type`` the role: ``system`` (the system prompt), ``user`` (parts;
``prompt_index`` on what the person typed, ``synthetic_reason`` on what the CLI injected;
the typed words sit inside ``<user_query>`` when the CLI adds context around them),
``assistant`` (``content`` a string, ``tool_calls`` with JSON-string arguments, and the
``model_id``), ``reasoning``, ``tool_result`` (``tool_call_id``) and ``backend_tool_call``
(a server-side search). No record has a time.
"""

from __future__ import annotations

from memcli.transcripts.content import blocks, call_piece, reply_pieces, tool_piece
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_list, get_str

# keys only Grok's records carry beside their type
_USER_KEYS = frozenset({"prompt_index", "synthetic_reason", "prior_turn_interrupt"})
_ASSISTANT_KEYS = frozenset({"model_id", "model_fingerprint", "reasoning_effort"})


def _matches(rec: Record) -> bool:
    kind = rec.get("type")
    if kind == "user":
        # Gemini CLI's user records always have an id and a timestamp; Grok's none
        return not _USER_KEYS.isdisjoint(rec) or (
            isinstance(rec.get("content"), list) and set(rec) <= {"type", "content"})
    if kind == "assistant":
        return not _ASSISTANT_KEYS.isdisjoint(rec) and "message" not in rec
    if kind == "tool_result":
        return isinstance(rec.get("tool_call_id"), str) and "role" not in rec
    if kind == "backend_tool_call":
        return isinstance(rec.get("kind"), dict)
    return kind == "system" and set(rec) == {"type", "content"}


def read(rec: Record) -> list[Piece] | None:
    kind = rec.get("type")
    if kind == "user":
        reason = get_str(rec, "synthetic_reason")
        return blocks(rec.get("content"), "user", None, injected=reason is not None)
    if kind == "assistant":
        reasoning = get_dict(rec, "reasoning") or {}
        return reply_pieces(get_str(reasoning, "text"), get_str(rec, "content"),
                            get_list(rec, "tool_calls"), "arguments", None)
    if kind == "tool_result":
        return [tool_piece(rec.get("content"), None)]
    if kind == "backend_tool_call":
        search = get_dict(rec, "kind") or {}
        return [call_piece(get_str(search, "tool_type"), search.get("action"), None)]
    return None  # the system prompt


GROK = Format(
    name="grok",
    agents="Grok CLI",
    where="~/.grok/sessions/<project>/<session>/chat_history.jsonl",
    matches=_matches,
    read=read,
)
