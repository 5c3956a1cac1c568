"""Prompts that ask for a name or a title, and notes that hold one.

"What book did Melanie read?", "what's the name of the staging bucket?", "which band did
she see?": the word that says what is asked for (`book`, `name`, `band`) is rarely in the
note that answers, which says `she read "Charlotte's Web"` or `the bucket is
\\`stg-assets\\``. BM25 cannot see that such a note holds what was asked; this cue can: a
prompt that asks for a name (:func:`asks_name`) is answered by a note that holds a name the
prompt does not already give (:func:`tells_name`): a capitalised word inside a sentence, a
quoted title or a code span.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from memcli.search.analyze import entity_terms

# The nouns (and their plurals) whose answer is a name or a title, and the words that ask for
# one outright. Not `show`: agents are asked to "show me how…" far more often than about one.
_ASKS_NAME = re.compile(
    r"\b(?:(?:book|novel|movie|film|song|album|band|game|artist|author|title)s?"
    r"|series|titled|names?|named|called)\b",
    re.IGNORECASE)
# A quoted title ("Charlotte's Web", “Perfect”, 'Embracing Identity') or a `code span`.
_QUOTED = re.compile(r"\"[^\"\n]+\"|“[^”\n]+”|'[A-Z][^'\n]*'|‘[^’\n]+’|`[^`\n]+`")


def asks_name(prompt: str) -> bool:
    """Whether PROMPT asks for a name or a title (`what book…`, `the name of…`)."""
    return _ASKS_NAME.search(prompt) is not None


def tells_name(text: str, given: Collection[str]) -> bool:
    """Whether TEXT holds a name other than the GIVEN ones (the stems of the names the
    prompt holds): a capitalised word inside a sentence, a quoted title or a code span."""
    if _QUOTED.search(text):
        return True
    return any(name not in given for name in entity_terms(text))
