"""`memcli extract`'s reading of the stores for a model: the index lines the prompt shows
(redacted) and the stored notes the turn may change."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memcli.messages import Message
from memcli.settings.config import Settings
from memcli.store.index import IndexEntry
from memcli.store.names import LEVELS

if TYPE_CHECKING:  # the prompt loads only for a model or --show-prompt
    from memcli.extraction.prompt import PromptText, RelatedNote
    from memcli.store.folder import StoreState


def prompt_for(messages: Sequence[Message], known: dict[str, Sequence[IndexEntry]], today: dt.date,
            redact: bool, left_out: int, related: Sequence[RelatedNote] = ()) -> PromptText:
    from memcli.extraction.prompt import build_prompt

    shown = {lvl: _redacted_entries(known[lvl], redact) for lvl in LEVELS}
    return build_prompt(messages, shown["project"], shown["user"], today=today.isoformat(),
                        left_out=left_out, related=related)


def related_notes(settings: Settings, states: Sequence[StoreState], messages: Sequence[Message],
             redact: bool) -> list[RelatedNote]:
    from memcli.extraction.prompt import RELATED_NOTES, RelatedNote, within_budget
    from memcli.search.related import related_hits

    # In memory, not the search cache: an extraction that fails leaves every file as it was.
    hits = related_hits(states, "\n".join(m.text for m in messages), None,
                        limit=RELATED_NOTES * 2, now=settings.moment(), zone=settings.zone)
    return within_budget([RelatedNote(h.level, h.filename, h.title, h.summary, h.content)
                          for h in hits], redact)


def _redacted_entries(entries: Sequence[IndexEntry], enabled: bool) -> list[IndexEntry]:
    """The index lines the prompt shows leave the machine too: a note written by hand may
    hold a secret in its title or summary."""
    if not enabled:
        return list(entries)
    from memcli.safety.redact import redact

    return [e.replace(title=redact(e.title)[0], summary=redact(e.summary)[0])
            for e in entries]
