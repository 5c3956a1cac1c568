"""What `memcli mcp` offers an MCP client, as plain functions over Settings (no SDK here).

Each tool is one core call whose result is a JSON-ready value; :mod:`memcli.mcp_server`
registers them with the MCP SDK. Errors are memcli's own (``MemcliError``), which the server
hands back to the client as a failed tool call with memcli's one-line message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memcli.errors import InputError

if TYPE_CHECKING:
    from memcli.config import Settings

MAX_LIMIT = 100
SNIPPET = 160


@dataclass(frozen=True)
class Hit:
    level: str
    name: str
    type: str
    title: str
    summary: str
    score: float
    snippet: str


def search(settings: Settings, query: str, level: str | None = None,
           limit: int = 10) -> list[dict[str, Any]]:
    """Notes matching QUERY, best first: every word of the query, in title, summary or body.

    A simple scorer (a word in the title counts three, in the summary two, in the body one)
    over the store reader; it is what the MCP server offers until memcli has a search
    command of its own.
    """
    from memcli.core import levels_for, open_stores

    words = [w.casefold() for w in query.split()]
    if not words:
        raise InputError("the search query is empty")
    limit = max(1, min(int(limit), MAX_LIMIT))
    hits: list[Hit] = []
    with open_stores(settings, levels_for(level, settings)) as stores:
        for lvl, state in stores.items():
            for filename in state.heads:
                hit = _score(lvl, filename, state.notes[filename], words)
                if hit is not None:
                    hits.append(hit)
    hits.sort(key=lambda h: (-h.score, h.level, h.name))
    return [h.__dict__ for h in hits[:limit]]


def _score(level: str, filename: str, note: Any, words: list[str]) -> Hit | None:
    title, summary, body = note.title, note.summary, note.body
    fields = ((title.casefold(), 3.0), (summary.casefold(), 2.0), (body.casefold(), 1.0))
    score = 0.0
    for word in words:
        found = sum(weight for text, weight in fields if word in text)
        if not found:
            return None
        score += found
    return Hit(level, filename, note.type, title, summary, score, _snippet(body, words[0]))


def _snippet(body: str, word: str) -> str:
    flat = " ".join(body.split())
    at = flat.casefold().find(word)
    start = max(0, at - SNIPPET // 3) if at >= 0 else 0
    cut = flat[start:start + SNIPPET]
    return ("…" if start else "") + cut + ("…" if start + SNIPPET < len(flat) else "")


def show(settings: Settings, name: str) -> dict[str, Any]:
    from memcli.core import show_note

    found = show_note(settings, name, None)
    if found.note is None:
        raise InputError(f"{found.level}/{found.filename} cannot be read: {found.problem}")
    return {"level": found.level, "name": found.filename, "type": found.note.type,
            "title": found.note.title, "text": found.note.raw.decode("utf-8", "replace")
            or found.path.read_text("utf-8", "replace")}


def context(settings: Settings) -> str:
    from memcli.core import context as context_block

    return context_block(settings).text


def propose(settings: Settings, operations: str) -> dict[str, Any]:
    """Validate an operations document against the stores; the diff it would write."""
    from memcli.core import apply_text

    report = apply_text(settings, operations, dry_run=True)
    return {**report.as_json(), "diff": report.diff}


def apply(settings: Settings, operations: str, on_conflict: str = "fail") -> dict[str, Any]:
    """Validate and write an operations document in one transaction."""
    from memcli.core import apply_text

    report = apply_text(settings, operations, on_conflict=on_conflict)
    return {**report.as_json(), "diff": report.diff}


def index_text(settings: Settings, level: str) -> str:
    """A store's MEMORY.md as it is on disk ('' when the store has none yet)."""
    path = settings.store_for(level) / "MEMORY.md"
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        return ""
