"""What ``gemini -p`` prints with ``--output-format stream-json`` or ``json``.

stream-json (google-gemini/gemini-cli ``packages/core/src/output/types.ts``) is one event a
line, each with ``type`` and an ISO ``timestamp``: ``init`` (``session_id``, ``model``),
``message`` (``role`` user or assistant, ``content`` a string; the reply comes in pieces
marked ``delta``), ``tool_use``, ``tool_result``, ``error`` and the closing ``result``.
json is one object, ``{"session_id", "response", "stats"}`` (``error`` when the run failed).
"""

from __future__ import annotations

from memcli.messages import Role
from memcli.transcripts.content import call_piece, text_pieces, tool_piece
from memcli.transcripts.model import Format, Piece, Record, get_str

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}
# keys a message event never has: other formats' {"type": "message", "role": ...} records
_NOT_AN_EVENT = frozenset({"id", "message", "parts", "uuid", "payload", "model"})


def _is_event(rec: Record) -> bool:
    kind = get_str(rec, "type")
    if kind is None or not isinstance(rec.get("timestamp"), str):
        return False
    if kind == "message":
        return (get_str(rec, "role") in _ROLES and isinstance(rec.get("content"), str)
                and _NOT_AN_EVENT.isdisjoint(rec))
    required = _EVENT_KEYS.get(kind)
    return required is not None and required <= rec.keys()


_EVENT_KEYS: dict[str, frozenset[str]] = {
    "init": frozenset({"session_id", "model"}),
    "tool_use": frozenset({"tool_name", "tool_id"}),
    "tool_result": frozenset({"tool_id", "status"}),
    "error": frozenset({"severity", "message"}),
    "result": frozenset({"status"}),
}


def read(rec: Record) -> list[Piece] | None:
    ts = get_str(rec, "timestamp")
    kind = rec.get("type")
    if kind == "message":
        role = _ROLES[str(rec["role"])]
        # Gemini runs slash commands and shell escapes itself, as in its chat sessions
        text = get_str(rec, "content") or ""
        if role == "user" and text.lstrip().startswith(("/", "!")):
            return [Piece("user", text, ts, True, "slash command")]
        return text_pieces(text, role, ts)
    if kind == "tool_use":
        return [call_piece(get_str(rec, "tool_name"), rec.get("parameters"), ts)]
    if kind == "tool_result":
        return [tool_piece(rec.get("output", rec.get("error")), ts)]
    return None  # init, error, result: no one's words


GEMINI_STREAM = Format(
    name="gemini-stream-json",
    agents="gemini -p --output-format stream-json or json (scripts, CI)",
    where="standard output of the command",
    matches=_is_event,
    read=read,
)

# --- gemini -p --output-format json -------------------------------------------------------------


def _is_json_output(rec: Record) -> bool:
    if "type" in rec or "role" in rec:
        return False
    reply, error = rec.get("response"), rec.get("error")
    return (isinstance(reply, str) or isinstance(error, dict)) and (
        "stats" in rec or isinstance(rec.get("session_id"), str)
    ) and rec.keys() <= _JSON_OUTPUT_KEYS


_JSON_OUTPUT_KEYS = frozenset({"session_id", "response", "stats", "error", "version"})


def read_json_output(rec: Record) -> list[Piece] | None:
    reply = get_str(rec, "response")
    return text_pieces(reply, "assistant", None) if reply else None


GEMINI_JSON = Format(
    name="gemini-stream-json",
    agents="gemini -p --output-format json",
    where="standard output of the command",
    matches=_is_json_output,
    read=read_json_output,
)
