"""Continue (the VS Code and JetBrains extension, and its CLI): a saved session.

``~/.continue/sessions/<sessionId>.json`` holds ``{"sessionId", "title",
"workspaceDirectory", "history": [...]}``; each history item is ``{"message": {"role",
"content", "toolCalls"?}, "contextItems": [...], "reasoning"?, "toolCallStates"?}``. What
the person typed is the user message's ``content``; the files, selections and other
context attached to it are its ``contextItems``, which are not the person's words.
"""

from __future__ import annotations

from memcli.messages import Role
from memcli.transcripts.content import blocks, call_piece
from memcli.transcripts.model import Format, Piece, Record, as_text, get_dict, get_list, get_str

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant", "tool": "tool",
                           "thinking": "thinking"}


def _matches(rec: Record) -> bool:
    message = get_dict(rec, "message")
    return (message is not None and isinstance(message.get("role"), str)
            and isinstance(rec.get("contextItems"), list) and "type" not in rec)


def read(rec: Record) -> list[Piece] | None:
    message = get_dict(rec, "message") or {}
    role = get_str(message, "role")
    if role == "system":
        return blocks(message.get("content"), "user", None, injected=True)
    kind = _ROLES.get(str(role))
    if kind is None:
        return None
    reasoning = get_dict(rec, "reasoning") or {}
    pieces = [Piece("thinking", text, None)] if (text := get_str(reasoning, "text")) else []
    pieces += blocks(message.get("content"), kind, None)
    for call in get_list(message, "toolCalls"):
        function = get_dict(call, "function") if isinstance(call, dict) else None
        if function is not None:
            pieces.append(call_piece(get_str(function, "name"), function.get("arguments"), None))
    pieces += _context(get_list(rec, "contextItems"))
    return pieces


def _context(items: list[object]) -> list[Piece]:
    """The attached context: one injected piece, its text made only when it is shown."""
    attached = [item for item in items if isinstance(item, dict)]
    if not attached:
        return []
    return [Piece("user", "", None, True, "injected", later=_context_text, raw=attached)]


def _context_text(piece: Piece) -> str:
    return "\n\n".join(f"{get_str(item, 'name') or 'context'}:\n{as_text(item.get('content'))}"
                       for item in piece.raw)


CONTINUE = Format(
    name="continue",
    agents="Continue (VS Code, JetBrains, the cn CLI)",
    where="~/.continue/sessions/<sessionId>.json",
    matches=_matches,
    read=read,
)
