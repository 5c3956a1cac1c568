"""OpenCode: a session is a folder of JSON files, one per message and one per part.

``storage/message/<session>/msg-*.json`` hold ``{id, sessionID, role, time}``;
``storage/part/<message id>/*.json`` hold ``{id, messageID, type, text, ...}``. The folder
reader puts each message's parts into it, so a message record carries its ``parts``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memcli.errors import InputError
from memcli.messages import Role
from memcli.transcripts.content import call_piece, text_pieces
from memcli.transcripts.model import (
    Format,
    Piece,
    Record,
    get_dict,
    get_list,
    get_str,
    millis_to_iso,
)

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}
# A message or part file holds one message's metadata or one part (a tool's output at most):
# far below this. A folder given by mistake (`--input /tmp`) held files of hundreds of MB,
# each read whole and parsed before the "no messages" error (7 s, 860 MB of memory).
MAX_SESSION_FILE_BYTES = 64 * 1024 * 1024


def _matches(rec: Record) -> bool:
    if "sessionID" not in rec or "id" not in rec:
        return False
    return isinstance(rec.get("role"), str) or isinstance(rec.get("messageID"), str)


def read(rec: Record) -> list[Piece] | None:
    role = _ROLES.get(str(rec.get("role")))
    if role is None:
        return None  # a part on its own: its role is in its message's file
    ts = _created(rec)
    return [p for part in get_list(rec, "parts") if isinstance(part, dict)
            for p in _part(part, role, ts)]


def _created(rec: Record) -> str | None:
    """OpenCode stamps milliseconds since the epoch; messages carry ISO 8601 like the rest."""
    return millis_to_iso((get_dict(rec, "time") or {}).get("created"))


def _part(part: Record, role: Role, ts: str | None) -> list[Piece]:
    kind = part.get("type")
    if kind == "text":
        return text_pieces(get_str(part, "text") or "", role, ts, part.get("synthetic") is True)
    if kind == "reasoning":
        return [Piece("thinking", get_str(part, "text") or "", ts)]
    if kind == "tool":
        state = get_dict(part, "state") or {}
        output = state.get("output", state.get("error"))
        return [call_piece(get_str(part, "tool"), state.get("input"), ts),
                Piece("tool", output if isinstance(output, str) else "", ts)]
    return []  # step-start/finish, snapshots, patches, files


OPENCODE = Format(
    name="opencode",
    agents="OpenCode (and Kilo Code's CLI); opencode export",
    where="~/.local/share/opencode/storage/message/<session>/ (pass the folder), or what "
    "opencode export printed",
    matches=_matches,
    read=read,
)

# --- opencode export [sessionID] -------------------------------------------------------------
# {"info": <session>, "messages": [{"info": <message>, "parts": [...]}], "todos": [...]}: each
# message's info is what the message's own file holds, its parts beside it.


def _is_exported_message(rec: Record) -> bool:
    info = get_dict(rec, "info")
    return (info is not None and isinstance(info.get("role"), str)
            and isinstance(info.get("sessionID"), str) and isinstance(rec.get("parts"), list))


def read_exported_message(rec: Record) -> list[Piece] | None:
    info = get_dict(rec, "info") or {}
    return read({**info, "parts": get_list(rec, "parts")})


OPENCODE_EXPORT = Format(
    name="opencode",
    agents="opencode export (a session as JSON)",
    where="what opencode export SESSION printed",
    matches=_is_exported_message,
    read=read_exported_message,
)

# --- opencode run --format json -----------------------------------------------------------------
# One event a line, {type, timestamp (milliseconds), sessionID, ...}: the assistant's finished
# parts (text, reasoning, tool_use with its state), step markers, error and done. The prompt
# is not in it.

_RUN_EVENTS = frozenset({"text", "reasoning", "tool_use", "step_start", "step_finish"})


def _is_run_event(rec: Record) -> bool:
    kind = rec.get("type")
    if not isinstance(rec.get("sessionID"), str) or "id" in rec or not isinstance(kind, str):
        return False
    if kind in _RUN_EVENTS:
        return isinstance(rec.get("part"), dict)
    return kind in ("error", "done")


def read_run_event(rec: Record) -> list[Piece] | None:
    part = get_dict(rec, "part")
    if rec.get("type") not in _RUN_EVENTS or part is None:
        return None  # error, done
    pieces = _part(part, "assistant", millis_to_iso(rec.get("timestamp")))
    return pieces or None  # step markers hold no message


OPENCODE_RUN = Format(
    name="opencode-run",
    agents="opencode run --format json (scripts, CI)",
    where="standard output of the command",
    matches=_is_run_event,
    read=read_run_event,
)


def load_session(folder: Path) -> list[Record]:
    """The messages of a session folder in order, each with its parts."""
    messages: list[Record] = []
    loose_parts: list[Record] = []
    for path in sorted(folder.glob("*.json")):
        value = _load(path)
        if isinstance(value, dict) and isinstance(value.get("role"), str):
            messages.append(value)
        elif isinstance(value, dict) and isinstance(value.get("messageID"), str):
            loose_parts.append(value)
    part_root = folder.parent.parent / "part"
    for message in messages:
        own = [p for p in loose_parts if p.get("messageID") == message.get("id")]
        message_id = str(message.get("id"))
        if part_root.is_dir() and "/" not in message_id:
            own += [v for p in sorted((part_root / message_id).glob("*.json"))
                    if isinstance(v := _load(p), dict)]
        message["parts"] = [*get_list(message, "parts"), *own]
    messages.sort(key=lambda m: (_sort_time(m), str(m.get("id"))))
    return messages


def _sort_time(message: Record) -> float:
    created = (get_dict(message, "time") or {}).get("created")
    return float(created) if isinstance(created, int | float) else 0.0


def _load(path: Path) -> Any:
    try:
        if path.stat().st_size > MAX_SESSION_FILE_BYTES:
            raise InputError(
                f"{path.name} in the session folder is larger than "
                f"{MAX_SESSION_FILE_BYTES // (1024 * 1024)} MiB, not an OpenCode message or "
                "part; a folder is read as an OpenCode session (storage/message/<session>/)")
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise InputError(f"cannot read {path.name} in the session folder: {err}") from None
