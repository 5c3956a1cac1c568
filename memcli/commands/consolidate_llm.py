"""The LLM providers of `memcli consolidate`: one request with the notes, one document back.

The reply is untrusted: each operation is validated like any other (and `apply` holds its
deletes back unless given ``--allow-delete``); an operation without a known ``kind`` is
dropped with a note, and only notes that exist are touched.
"""

from __future__ import annotations

from string import Template
from typing import Any

from memcli.commands.consolidate_proposal import KINDS, Proposal
from memcli.commands.context import context_of, fresh_entries
from memcli.settings.config import Settings
from memcli.store.names import LEVELS
from memcli.writes.stores import levels_for, open_stores

MAX_NOTE_CHARS = 2_000  # each note's content is cut to this in the prompt
MAX_PROMPT_NOTES = 400  # a larger store is consolidated by the rules, or a level at a time


def ask_model(settings: Settings, level: str | None, provider: str) -> Proposal:
    from memcli.commands._extract_model import provider_settings
    from memcli.operations.reply import parse_reply
    from memcli.providers import Prompt, complete, operations_schema

    system, user, proposal, known = _prompt(settings, level)
    proposal.provider = provider
    # A server that holds the answer to the schema must let each operation carry its kind.
    prompt = Prompt(system, user, schema=operations_schema("kind"))
    completion = complete(prompt, provider_settings(settings, provider))
    for position, raw in enumerate(parse_reply(completion.text), start=1):
        _keep(proposal, position, raw, known)
    return proposal


def _prompt(settings: Settings, level: str | None
            ) -> tuple[str, str, Proposal, set[tuple[str, str]]]:
    from memcli.extraction.prompt import template
    from memcli.safety.redact import redact

    levels = levels_for(level, settings)
    with open_stores(settings, LEVELS) as stores:
        base = {lvl: stores[lvl].fingerprint for lvl in stores}
        project, users, expired = fresh_entries(stores, settings.moment())
        block = context_of(settings, project, users, expired)
        lines: list[str] = []
        known: set[tuple[str, str]] = set()
        for lvl in levels:
            state = stores.get(lvl)
            if state is None:
                continue
            for name in sorted(state.heads)[:MAX_PROMPT_NOTES]:
                note = state.notes[name]
                known.add((lvl, name))
                head = state.heads[name]
                lines.append(
                    f"<note level=\"{lvl}\" filename=\"{name}\" updated=\"{note.updated}\""
                    f" expires=\"{head.expires}\">\ntitle: {note.title}\nsummary: "
                    f"{note.summary}\n{note.content[:MAX_NOTE_CHARS]}\n</note>")
    cap = (f"{len(block.cut)} entries are cut off now" if block.cut
           else "it is within its cap now")
    system = Template(template("consolidate.md")).safe_substitute(
        today=settings.moment().date().isoformat(), cap_note=cap)
    user = redact("The notes:\n\n" + "\n\n".join(lines))[0]
    return system, user, Proposal([], base, ""), known


def _keep(proposal: Proposal, position: int, raw: Any, known: set[tuple[str, str]]) -> None:
    from memcli.operations.model import as_dict, validate_item

    parsed = validate_item(position, raw)
    if parsed.op is None:
        if parsed.error:
            proposal.notes.append(f"the model's operation #{position} dropped: {parsed.error}")
        return
    kind = raw.get("kind") if isinstance(raw, dict) else None
    target = (parsed.op.level, getattr(parsed.op, "filename", ""))
    if kind not in KINDS or parsed.op.action == "create" or target not in known:
        proposal.notes.append(f"the model's operation #{position} dropped: not a "
                              "consolidation of a note in the store")
        return
    op = as_dict(parsed.op)
    op["kind"] = kind
    proposal.operations.append(op)
