"""What `memcli mcp` offers an MCP client, as plain functions over Settings (no SDK here).

Each tool is one core call whose result is a JSON-ready value (the same JSON as the
command's `--json`, from :mod:`memcli.render`); :mod:`memcli.mcp.server`
registers them with the MCP SDK. Errors are memcli's own (``MemcliError``), which the server
hands back to the client as a failed tool call with memcli's one-line message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memcli.errors import InputError
from memcli.json_values import JsonObject

if TYPE_CHECKING:
    from memcli.safety.unattended import Guard
    from memcli.settings.config import Settings

MAX_LIMIT = 100
# Operations one `propose` or `apply` call takes: a client is an agent (untrusted), and what
# one conversation turn means to remember is a handful; `memcli apply` takes up to 1000.
MAX_CLIENT_OPERATIONS = 100
# MEMORY.md is read for a client whole; the context block loads 25 KiB of it.
MAX_INDEX_BYTES = 4 * 1024 * 1024


def search(settings: Settings, query: str, level: str | None = None,
           limit: int = 10) -> list[dict[str, Any]]:
    """Notes ranked for QUERY, best first (``memcli search``), each with a snippet."""
    from memcli.search.engine import search as run_search

    limit = max(1, min(int(limit), MAX_LIMIT))
    result = run_search(settings, query, level=level, limit=limit)
    return [{"level": h.level, "name": h.filename, "type": h.type, "title": h.title,
             "summary": h.summary, "score": round(h.score, 4), "snippet": h.snippet}
            for h in result.hits]


def show(settings: Settings, name: str) -> dict[str, Any]:
    from memcli.commands.lookup import show_note

    found = show_note(settings, name, None)
    if found.note is None:
        raise InputError(f"{found.level}/{found.filename} cannot be read: {found.problem}")
    from memcli.safety.invisible_chars import safe_line
    from memcli.search.engine import for_agent, shown_text

    # The client is an agent: a repository's note reaches it redacted and without hidden
    # text, as `memcli recall` hands it over.
    return {"level": found.level, "name": found.filename, "type": found.note.type,
            "title": safe_line(shown_text(found.level, found.note.title)),
            "text": for_agent(shown_text(found.level, found.note.raw.decode("utf-8",
                                                                              "replace")))}


def context(settings: Settings) -> str:
    from memcli.commands.context import context as context_block

    return context_block(settings).text


def log(settings: Settings, note: str | None = None, level: str | None = None,
        limit: int = 20) -> JsonObject:
    """The stores' transactions, newest first (``memcli log --json``); with note, its history."""
    from memcli.commands.undo import read_log
    from memcli.render.history import log_json

    limit = max(1, min(int(limit), MAX_LIMIT))
    return log_json(read_log(settings, level, note, limit))


def _untrusted_guard(settings: Settings) -> Guard:
    from dataclasses import replace

    from memcli.safety.unattended import UNATTENDED

    return replace(UNATTENDED, review=settings.review, lifted_by="MEMCLI_TRUST_WRITES=mcp")


def document_text(operations: str | list[Any] | dict[str, Any]) -> str:
    """An operations document as a model sends it (JSON text, or the JSON itself: most
    models send an array or an object) as the text `memcli apply` reads."""
    if isinstance(operations, str):
        return operations
    import json

    return json.dumps(operations, ensure_ascii=False)


def propose(settings: Settings, operations: str | list[Any] | dict[str, Any],
            trusted: bool = False, *, inbox: bool = False, client: str = "?") -> JsonObject:
    """Validate an operations document against the stores; the diff `apply` would write
    (with the guard it writes under, so what it would refuse is shown refused). INBOX:
    leave the operations in the review inbox for the person (`memcli review`) instead."""
    from dataclasses import replace

    from memcli.commands.apply import apply_text
    from memcli.render.store import apply_json
    from memcli.safety.unattended import UNATTENDED
    from memcli.writes.history import Source

    text = document_text(operations)
    if inbox:
        source = Source("propose", via=f"mcp:{_client_name(client)}", unattended=True)
        report = apply_text(settings, text, source=source,
                            max_operations=MAX_CLIENT_OPERATIONS,
                            guard=replace(UNATTENDED, review=frozenset({"all"})))
        return in_mcp_words({**apply_json(report), "proposed": list(report.proposed)})
    report = apply_text(settings, text, dry_run=True,
                        max_operations=MAX_CLIENT_OPERATIONS,
                        guard=None if trusted else _untrusted_guard(settings))
    return in_mcp_words({**apply_json(report), "diff": report.diff})


def apply(settings: Settings, operations: str | list[Any] | dict[str, Any],
          on_conflict: str = "fail", *, client: str = "?", trusted: bool = False) -> JsonObject:
    """Validate and write an operations document in one transaction.

    An MCP client is a model, and a prompt-injected one must not wipe the stores: unless the
    person trusts MCP clients (``MEMCLI_TRUST_WRITES``), its writes are unattended (no
    deletes, no update that removes most of a note, at most a few existing notes a call) and
    `memcli restore` lists them. The record names the client as the client names itself.
    """
    from memcli.commands.apply import apply_text
    from memcli.render.store import apply_json
    from memcli.writes.history import Source

    source = Source("apply", via=f"mcp:{_client_name(client)}", unattended=not trusted)
    report = apply_text(settings, document_text(operations), on_conflict=on_conflict,
                        source=source, guard=None if trusted else _untrusted_guard(settings),
                        max_operations=MAX_CLIENT_OPERATIONS)
    refused = [o for o in report.outcomes if o.status in ("rejected", "held")]
    if refused and not any(o.status in ("applied", "unchanged", "proposed")
                           for o in report.outcomes):
        # Nothing written, nothing already so: to a model that is a failed call, or it
        # carries on as if the notes were there.
        raise RefusedError(mcp_words("nothing written: " + "; ".join(
            f"#{o.position} {o.action} rejected: {o.message}" for o in refused)))
    return in_mcp_words({**apply_json(report), "diff": report.diff,
                         "proposed": list(report.proposed)})


# apply's messages name the command line's options; a model calling the tool knows them
# by the tool's argument names.
_CLI_TO_MCP = (("--on-conflict update|rename", "on_conflict update or rename"),
               ("--on-conflict", "on_conflict"))


def mcp_words(text: str) -> str:
    for cli, mcp in _CLI_TO_MCP:
        text = text.replace(cli, mcp)
    return text


def in_mcp_words(result: JsonObject) -> JsonObject:
    """apply's JSON with the messages of its operations in the tool's words."""
    for status in ("applied", "unchanged", "rejected", "held"):
        outcomes = result.get(status)
        for outcome in outcomes if isinstance(outcomes, list) else []:
            if isinstance(outcome, dict):
                for key in ("message", "warnings"):
                    value = outcome.get(key)
                    if isinstance(value, str):
                        outcome[key] = mcp_words(value)
                    elif isinstance(value, list):
                        outcome[key] = [mcp_words(v) if isinstance(v, str) else v
                                        for v in value]
    return result


class RefusedError(InputError):
    """Every operation of an MCP `apply` call was refused."""


def _client_name(name: str) -> str:
    """The client's name as it gave it, cut to one short printable word."""
    import re

    return re.sub(r"[^A-Za-z0-9._-]", "_", name)[:40] or "?"


def index_text(settings: Settings, level: str) -> str:
    """A store's MEMORY.md ('' when the store has none yet), redacted and without hidden
    text: the client is an agent, and a repository's MEMORY.md is whatever was committed.

    It is read only as a regular file, never through a link: a checkout could make it a
    link to the user's SSH key, which went to the client as it was.
    """
    import errno

    from memcli.errors import BrokenNoteError
    from memcli.paths import NotRegularFileError, read_regular_file
    from memcli.search.engine import for_agent, shown_text
    from memcli.store.index import not_utf8

    path = settings.store_for(level) / "MEMORY.md"
    try:
        data = read_regular_file(path, MAX_INDEX_BYTES + 1)
    except FileNotFoundError:
        return ""
    except NotRegularFileError:
        raise InputError(f"{path} is not a regular file; memcli reads only a regular "
                         "MEMORY.md") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{path} is a symbolic link; memcli does not follow it") from None
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > MAX_INDEX_BYTES:
        raise InputError(f"{path} is larger than {MAX_INDEX_BYTES // (1024 * 1024)} MiB")
    problem = not_utf8(path.name, data)
    if problem:  # replaced characters would read as what the person wrote
        raise BrokenNoteError(f"{level} store: {problem}")
    from memcli.store.index import DEFAULT_HEADER

    text = data.decode("utf-8")
    # memcli's own header is a comment too: the rest is the repository's.
    head = DEFAULT_HEADER if text.startswith(DEFAULT_HEADER) else ""
    return for_agent(head + shown_text(level, text[len(head):]))
