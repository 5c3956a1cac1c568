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
