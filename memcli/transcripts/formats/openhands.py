"""OpenHands trajectories: the session's events, as ``save_trajectory_path`` and the UI's
"Export trajectory" write them (a JSON array), and as evaluation runs keep them
(``{"history": [...]}``).

An event is an action, ``{id, timestamp, source, message, action, args}``, or an
observation, ``{id, timestamp, source, message, cause, observation, content, extras}``;
``source`` is ``user``, ``agent`` or ``environment``. The person's words are the ``message``
actions whose source is the user; the agent's are its own ``message`` and ``finish``
actions. The system prompt, ``recall`` (the workspace context OpenHands adds) and
observations are not anyone's words.
"""

from __future__ import annotations

from memcli.messages import Role
from memcli.transcripts.content import call_piece, text_pieces, tool_piece
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_str

_SOURCES = frozenset({"user", "agent", "environment"})
# state changes and markers: no one's words, no tool traffic
_SILENT = frozenset({"change_agent_state", "agent_state_changed", "null", "pause", "resume"})


def _matches(rec: Record) -> bool:
    return isinstance(rec.get("id"), int) and get_str(rec, "source") in _SOURCES and (
        isinstance(rec.get("action"), str) or isinstance(rec.get("observation"), str)
    )


def read(rec: Record) -> list[Piece] | None:
    ts = get_str(rec, "timestamp")
    action = get_str(rec, "action")
    if action is None:
        return _observation(rec, ts)
    if action in _SILENT:
        return None
    args = get_dict(rec, "args") or {}
    if action == "system":
        return text_pieces(get_str(args, "content") or "", "user", ts, True, "system prompt")
    if action == "recall":
        return None  # the query repeats the person's message; the context is in its result
    if action == "message":
        text = get_str(args, "content") or get_str(rec, "message") or ""
        role: Role = "user" if rec.get("source") == "user" else "assistant"
        return text_pieces(text, role, ts, injected=rec.get("source") == "environment")
    thought = get_str(args, "thought")
    pieces = [Piece("thinking", thought, ts)] if thought else []
    if action == "think":
        return pieces or None
    if action == "finish":
        final = get_str(args, "final_thought") or get_str(rec, "message") or ""
        return [*pieces, *text_pieces(final, "assistant", ts)]
    shown = {k: v for k, v in args.items() if k not in ("thought", "security_risk")}
    return [*pieces, call_piece(action, shown, ts)]


def _observation(rec: Record, ts: str | None) -> list[Piece] | None:
    kind = rec.get("observation")
    if kind in _SILENT:
        return None
    if kind == "recall":
        # the repository's instructions, the runtime, knowledge microagents
        text = get_str(rec, "content") or ""
        return [Piece("user", text, ts, True, "injected")] if text else None
    return [tool_piece(rec.get("content"), ts)]


OPENHANDS = Format(
    name="openhands",
    agents="OpenHands (trajectories and evaluation histories)",
    where="the file save_trajectory_path names, an exported trajectory (.json), "
    "an evaluation's output.jsonl (history)",
    matches=_matches,
    read=read,
)
