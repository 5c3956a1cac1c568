"""What an unattended run (the hook, ``extract --apply``) may do to notes that exist.

A model's reply is untrusted: one prompt-injected turn could answer with an update of
every note to ``"."``. Deletes already need ``--allow-delete``; an update that removes most
of a note is a delete by another name and needs it too, and one turn may change only a few
existing notes (new notes are capped by the extractor's operation limit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Existing notes one unattended turn may update or delete: a turn that corrects more than
# this is rare enough to review by hand (`memcli extract --dry-run`, then `memcli apply`).
MAX_CHANGED_NOTES = 5
# Below this, a note is too short for "most of it" to mean anything.
_MIN_CHARS = 40
# An update keeps less than this share of the old note's length or words: it removes most.
_KEPT_SHARE = 0.5

_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Guard:
    """The limits of one run; the default (a person at ``memcli apply``) has none."""

    allow_delete: bool = True
    max_changed: int | None = None
    # Mark the run's history record as unattended: the record holds the previous content
    # of every note the run changed, and `memcli restore` lists such runs and takes them back.
    unattended: bool = False
    # Refuse a note that tells the next agent to run a downloaded script or to drop its
    # instructions: what a model writes unattended may come from a page or a tool result.
    hold_instructions: bool = False
    # What lets a person allow the refused deletes, as the refusal names it: the MCP server
    # and the memory tool have no --allow-delete flag, only the environment.
    lifted_by: str = "--allow-delete"
    # The `review` setting (memcli.settings.review): the note types whose changes wait in
    # the inbox for a person ({"all"}: every change). When it is on, what the guard would
    # refuse (a delete, an update that removes most of a note, one change too many) waits
    # there too instead of being refused.
    review: frozenset[str] = frozenset()
    # The notes (level, file name) that changed after the run read the stores and before its
    # apply (`extract` with a model: an edit by hand while the model answered). A change of
    # one is refused (with review on, it waits in the inbox): it was made without that edit.
    changed_since: frozenset[tuple[str, str]] = frozenset()

    def reviews(self, note_type: str | None) -> bool:
        """Whether a change to a note of NOTE_TYPE waits for review."""
        return "all" in self.review or (note_type is not None and note_type in self.review)


UNATTENDED = Guard(allow_delete=False, max_changed=MAX_CHANGED_NOTES, unattended=True)


def removes_most(old: str, new: str) -> bool:
    """Whether replacing ``old`` by ``new`` throws most of ``old`` away.

    Length and distinct words both count: "." for a paragraph is short, and a paragraph
    rewritten about something else keeps few of its words. Linear in both texts.
    """
    old_text, new_text = old.strip(), new.strip()
    if len(old_text) < _MIN_CHARS:
        return False
    if len(new_text) < _KEPT_SHARE * len(old_text):
        return True
    old_words = {w.casefold() for w in _WORD.findall(old_text)}
    if len(old_words) < 5:
        return False
    new_words = {w.casefold() for w in _WORD.findall(new_text)}
    return len(old_words & new_words) < _KEPT_SHARE * len(old_words)


# Instructions a note should never carry into the next agent's context unreviewed: a
# downloaded script piped into a shell, and the phrasing of a prompt injection. Each pattern
# is bounded (no nested repeats), so a hostile text costs linear time.
_AIMED_AT_AGENT = (
    ("runs a downloaded script",
     r"\b(?:curl|wget|fetch)\b[^\n|;]{0,400}\|\s*(?:sudo\s+)?(?:ba|z|k|da|fi)?sh\b"
     r"|\b(?:curl|wget)\b[^\n|;]{0,400}\|\s*(?:sudo\s+)?(?:python3?|perl|ruby|node)\b"
     r"|<\(\s*(?:curl|wget)\b|\$\(\s*(?:curl|wget)\b"
     r"|\b(?:iex|invoke-expression)\b[^\n]{0,200}\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b"),
    ("tells the agent to drop its instructions",
     r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)?"
     r"(?:previous|prior|above|earlier|preceding|system|other|existing)\s+"
     r"(?:instructions?|prompts?|rules|directions|guidelines|messages)\b"
     r"|(?:忽略|无视|忘记)(?:之前|以上|前面|所有|上述|先前)的?(?:所有)?(?:指令|指示|规则|提示)"),
)
_COMPILED: list[tuple[str, re.Pattern[str]]] = []


def aimed_at_agent(text: str) -> str | None:
    """What TEXT tells the next agent that no note should, unreviewed; None when nothing."""
    if not _COMPILED:
        _COMPILED.extend((why, re.compile(pattern, re.IGNORECASE))
                         for why, pattern in _AIMED_AT_AGENT)
    for why, pattern in _COMPILED:
        if pattern.search(text):
            return why
    return None
