"""Chat messages as the model APIs define them: OpenAI, Anthropic and bare ``{role, content}``.

Also what mini-swe-agent, Kimi CLI's context file and fine-tuning sets write, one message
per line or one JSON array of them.
"""

from __future__ import annotations

from memcli.messages import Role
from memcli.transcripts.content import blocks, call_piece
from memcli.transcripts.model import Format, Piece, Record, get_list, get_str

_ANTHROPIC_BLOCKS = frozenset(
    {
        "thinking",
        "redacted_thinking",
        "tool_use",
        "tool_result",
        "server_tool_use",
        "web_search_tool_result",
        "image",
        "document",
    }
)
_OPENAI_KEYS = frozenset(
    {"tool_calls", "tool_call_id", "function_call", "name", "refusal", "reasoning_content"}
)
_RESPONSES_PARTS = frozenset({"input_text", "output_text"})

ROLE_KIND: dict[str, Role] = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "model": "assistant",
    "tool": "tool",
    "function": "tool",
    "ipython": "tool",
}
_CONTEXT_ROLES = frozenset({"system", "developer"})


def role_format(rec: Record) -> str | None:
    """Which of openai, anthropic and plain a ``{role, ...}`` record is written in."""
    if not isinstance(rec.get("role"), str):
        return None
    content = rec.get("content")
    kinds = {get_str(b, "type") for b in content if isinstance(b, dict)} if isinstance(
        content, list
    ) else set()
    if kinds & _ANTHROPIC_BLOCKS:
        return "anthropic"
    if kinds & _RESPONSES_PARTS:
        return "openai"
    if rec.get("type") == "message":
        return "anthropic"
    if isinstance(content, list):
        return "openai"
    if not _OPENAI_KEYS.isdisjoint(rec) or rec.get("role") not in ("user", "assistant", "system"):
        return "openai"
    return "plain"


def read_role_message(rec: Record) -> list[Piece] | None:
    """OpenAI chat, Anthropic Messages and plain ``{role, content}`` records."""
    role = get_str(rec, "role")
    if role is None or (role not in ROLE_KIND and role not in _CONTEXT_ROLES):
        return None  # pseudo-roles such as _checkpoint/_usage, or unknown future roles
    ts = get_str(rec, "timestamp")
    injected = role in _CONTEXT_ROLES
    kind: Role = ROLE_KIND.get(role, "user")
    if kind == "user" and _is_observation(rec.get("content")):
        kind = "tool"
    pieces: list[Piece] = []
    for key in ("reasoning_content", "reasoning"):
        if isinstance(rec.get(key), str):
            pieces.append(Piece("thinking", rec[key], ts, injected, "system prompt"))
    for piece in blocks(rec.get("content"), kind, ts, injected):
        if injected:
            piece.reason = "system prompt"
        pieces.append(piece)
    pieces += _openai_calls(rec, ts)
    return pieces


def _is_observation(content: object) -> bool:
    """A command's output that mini-swe-agent and SWE-agent send back as a user message."""
    return isinstance(content, str) and content.lstrip().startswith(_OBSERVATION_PREFIXES)


_OBSERVATION_PREFIXES = ("<returncode>",)


def _openai_calls(rec: Record, ts: str | None) -> list[Piece]:
    calls = [c.get("function") for c in get_list(rec, "tool_calls") if isinstance(c, dict)]
    legacy = rec.get("function_call")
    return [
        call_piece(get_str(call, "name"), call.get("arguments"), ts)
        for call in [*calls, legacy]
        if isinstance(call, dict)
    ]


def _has_role(rec: Record) -> bool:
    return "role" in rec


def _format(name: str, agents: str, where: str) -> Format:
    return Format(
        name=name,
        agents=agents,
        where=where,
        matches=lambda rec: role_format(rec) == name,
        read=read_role_message,
        accepts=_has_role,
    )


OPENAI = _format(
    "openai",
    "OpenAI Chat Completions and Responses messages, requests and responses; "
    "mini-swe-agent trajectories, Kimi CLI context files, fine-tuning sets",
    "wherever the tool writes them (mini-swe-agent: *.traj.json; Kimi CLI: "
    "~/.kimi/sessions/*/context.jsonl)",
)
ANTHROPIC = _format(
    "anthropic",
    "Anthropic Messages API requests, responses and message lists",
    "wherever the tool writes them",
)
PLAIN = _format(
    "plain",
    "bare {role, content} lines (any tool)",
    "anywhere; what a script writes by hand",
)
