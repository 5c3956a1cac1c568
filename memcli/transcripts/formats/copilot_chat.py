"""GitHub Copilot Chat in VS Code: chat sessions and "Chat: Export Chat..." files.

A session is one document, ``{version, requests: [...]}``: each request holds what the person
typed (``message.text``) and the response as a list of parts (Markdown chunks, thinking,
tool invocations, edits, references). VS Code keeps it in
``workspaceStorage/<id>/chatSessions/<session>.json``, since 2025 as ``.jsonl``: an
append-only mutation log whose first line is the whole state (``{"kind": 0, "v": ...}``) and
whose later lines set (1), push onto (2, truncating to ``i`` first) or delete (3) the value at
the path ``k``. The log is replayed to the state it describes before it is read.
"""

from __future__ import annotations

from typing import Any

from memcli.transcripts.content import text_pieces
from memcli.transcripts.model import (
    Format,
    Piece,
    Record,
    as_text,
    get_dict,
    get_list,
    get_str,
    millis_to_iso,
)

# ---------------------------------------------------------------------------- the mutation log


def is_snapshot(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and value.get("kind") == 0
        and isinstance(value.get("v"), dict)
        and isinstance(value["v"].get("requests"), list)
    )


def replayed(values: list[Any]) -> list[Any]:
    """The session a mutation log describes, followed by the lines that are not entries of
    it; ``values`` as they are when they are not such a log."""
    if not values or not is_snapshot(values[0]):
        return values
    state: Any = None
    rest: list[Any] = []
    for value in values:
        if not (isinstance(value, dict) and value.get("kind") in (0, 1, 2, 3)):
            rest.append(value)
        elif value["kind"] == 0:
            state = value.get("v")
        else:
            _apply(state, value)
    return [state, *rest]


def _apply(state: Any, entry: Record) -> None:
    path = entry.get("k")
    if not isinstance(path, list) or not path:
        return
    parent = _walk(state, path[:-1])
    key = path[-1]
    kind, value = entry["kind"], entry.get("v")
    if kind == 2:
        target = _child(parent, key)
        if isinstance(target, list):
            cut = entry.get("i")
            if isinstance(cut, int) and not isinstance(cut, bool) and cut >= 0:
                del target[cut:]
            target.extend(value if isinstance(value, list) else [])
    elif kind == 1:
        _set(parent, key, value)
    elif isinstance(parent, dict) and isinstance(key, str):
        parent.pop(key, None)  # kind 3: delete


def _walk(node: Any, path: list[Any]) -> Any:
    for key in path:
        node = _child(node, key)
    return node


def _child(node: Any, key: Any) -> Any:
    if isinstance(node, dict) and isinstance(key, str):
        return node.get(key)
    if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
        return node[key]
    return None


def _set(parent: Any, key: Any, value: Any) -> None:
    if isinstance(parent, dict) and isinstance(key, str):
        parent[key] = value
    elif isinstance(parent, list) and isinstance(key, int) and 0 <= key <= len(parent):
        if key == len(parent):
            parent.append(value)
        else:
            parent[key] = value


# ---------------------------------------------------------------------------- one request


def _matches(rec: Record) -> bool:
    message = get_dict(rec, "message")
    return (
        message is not None
        and isinstance(message.get("text"), str)
        and isinstance(rec.get("response"), list)
        and "role" not in rec
        and "type" not in rec
    )


def read(rec: Record) -> list[Piece] | None:
    ts = millis_to_iso(rec.get("timestamp"))
    typed = get_str(get_dict(rec, "message") or {}, "text") or ""
    return [*text_pieces(typed, "user", ts), *_response(get_list(rec, "response"), ts)]


# Parts that hold nothing a person or the model said (progress, undo marks, buttons).
_MARKDOWN_KINDS = frozenset({None, "markdownContent", "markdownVuln"})


def _response(parts: list[Any], ts: str | None) -> list[Piece]:
    """Markdown chunks (and the references between them) are one reply until a tool call or
    a thought comes between; chunks are joined as VS Code shows them, with nothing between."""
    pieces: list[Piece] = []
    said: list[str] = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        kind = part.get("kind")
        if kind in _MARKDOWN_KINDS or kind == "inlineReference":
            said.append(_markdown(part) if kind != "inlineReference" else _reference(part))
            continue
        other = _other(part, kind, ts)
        if other is not None:
            pieces += text_pieces("".join(said), "assistant", ts) if said else []
            said = []
            pieces.append(other)
    if said:
        pieces += text_pieces("".join(said), "assistant", ts)
    return pieces


def _other(part: Record, kind: Any, ts: str | None) -> Piece | None:
    if kind == "thinking":
        value = part.get("value")
        text = "".join(v for v in value if isinstance(v, str)) if isinstance(value, list) else (
            value if isinstance(value, str) else "")
        return Piece("thinking", text, ts)
    if kind == "toolInvocationSerialized":
        return Piece("tool", "", ts, later=_tool_text, raw=part)
    if kind == "textEditGroup":
        return Piece("tool", "", ts, later=_edit_text, raw=part)
    return None


def _markdown(part: Record) -> str:
    value = part.get("value", part.get("content"))
    if isinstance(value, dict):
        value = value.get("value")
    return value if isinstance(value, str) else ""


def _reference(part: Record) -> str:
    """A file or symbol the reply links to, by the name VS Code shows for it."""
    name = get_str(part, "name")
    target = part.get("inlineReference")
    if name is None and isinstance(target, dict):
        name = get_str(target, "name")
        location = get_dict(target, "uri") or target
        path = get_str(location, "path") or get_str(location, "fsPath") or ""
        name = name or path.rsplit("/", 1)[-1]
    return f"`{name}`" if name else ""


def _tool_text(piece: Piece) -> str:
    part: Record = piece.raw
    shown = part.get("pastTenseMessage") or part.get("invocationMessage")
    message = _markdown({"value": shown})
    tool = get_str(part, "toolId") or "tool"
    details = part.get("toolSpecificData")
    return f"[{tool}] {message}" + (f"\n{as_text(details)}" if details is not None else "")


def _edit_text(piece: Piece) -> str:
    uri = get_dict(piece.raw, "uri") or {}
    return f"[edit] {get_str(uri, 'path') or get_str(uri, 'fsPath') or ''}"


COPILOT_CHAT = Format(
    name="copilot-chat",
    agents="GitHub Copilot Chat in VS Code (sessions and Chat: Export Chat...)",
    where="VS Code User/workspaceStorage/<id>/chatSessions/<session>.json or .jsonl; "
    "User/globalStorage/emptyWindowChatSessions/",
    matches=_matches,
    read=read,
)
