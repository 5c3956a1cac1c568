"""QwenPaw (formerly CoPaw): one JSON document a chat session, AgentScope's state dict.

QwenPaw's ``SafeJSONSession`` writes ``{"agent": <the agent's state>}`` to
``<workspace>/sessions/[<user>_]<session>.json``. The agent's messages sit in one of two
places, by release: ``agent.memory.content``, a list of ``[message, marks]`` pairs
(AgentScope's in-memory memory, beside its ``_compressed_summary``), or
``agent.state.context``, a list of messages (the newer agent state, beside its
``summary``). A message is AgentScope's ``Msg.to_dict()``: ``id``, ``name``, ``role``
(``user``, ``assistant`` or ``system``), ``content`` (a string or blocks: ``text``,
``thinking``, ``tool_use``, ``tool_result`` with its ``output``, media), ``metadata`` and a
local ``timestamp`` (``YYYY-MM-DD HH:MM:SS.fff``). Tool results come back as ``system``
messages; a ``system`` message's own text is the agent's, never the person's.
"""

from __future__ import annotations

from typing import Any

from memcli.messages import Role
from memcli.transcripts.content import blocks, text_pieces
from memcli.transcripts.model import Format, Piece, Record, get_dict, get_str

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant", "system": "user"}
_MESSAGE_KEYS = frozenset({"name", "role", "content"})


def _messages(rec: Record) -> list[Any] | None:
    agent = get_dict(rec, "agent")
    if agent is None:
        return None
    memory = get_dict(agent, "memory")
    if memory is not None and isinstance(memory.get("content"), list):
        # [message, marks] pairs; a bare message is taken as it is
        return [m[0] if isinstance(m, list) and m else m for m in memory["content"]]
    state = get_dict(agent, "state")
    if state is not None and isinstance(state.get("context"), list):
        return list(state["context"])
    return None


def _is_message(value: Any) -> bool:
    return isinstance(value, dict) and value.keys() >= _MESSAGE_KEYS and (
        value.get("role") in _ROLES)


def _matches(rec: Record) -> bool:
    messages = _messages(rec)
    # an empty session is QwenPaw's too: read as holding no message, not as unknown
    return messages is not None and all(_is_message(m) for m in messages)


def _stamp(msg: Record) -> str | None:
    stamp = get_str(msg, "timestamp")
    return stamp.replace(" ", "T", 1) if stamp else None


def _read_message(msg: Record) -> list[Piece]:
    role, content, ts = get_str(msg, "role"), msg.get("content"), _stamp(msg)
    parts = content if isinstance(content, list) else [content]
    pieces: list[Piece] = []
    said: list[Any] = []
    for part in parts:
        if isinstance(part, dict) and part.get("type") == "tool_result":
            result = {"type": "tool_result", "content": part.get("output")}
            pieces += blocks([result], "tool", ts)
        else:
            said.append(part)
    if said:
        if role == "system":
            text = "\n".join(p if isinstance(p, str) else get_str(p, "text") or ""
                             for p in said if isinstance(p, (str, dict)))
            pieces = text_pieces(text, "user", ts, True, "system prompt") + pieces
        else:
            pieces = blocks(said, _ROLES[role or "user"], ts) + pieces
    return pieces


def read(rec: Record) -> list[Piece] | None:
    pieces: list[Piece] = []
    for msg in _messages(rec) or []:
        if _is_message(msg):
            pieces += _read_message(msg)
    return pieces


QWENPAW = Format(
    name="qwenpaw",
    agents="QwenPaw (formerly CoPaw), AgentScope sessions",
    where="<QwenPaw workspace>/sessions/[<user>_]<session>.json",
    matches=_matches,
    read=read,
)
