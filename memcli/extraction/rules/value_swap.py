"""A change that names the old value and the new one updates only the value.

"o reverse proxy do homelab é o traefik" and, later, "troquei o traefik pelo caddy": the
note keeps its subject and its other words, with the new tool in the old one's place
("o reverse proxy do homelab é o caddy"); the person's words are the update's reason. Such an update rewrites one
word of the note, so the unattended guard (which refuses an update that removes most of a
note, :func:`memcli.safety.unattended.removes_most`) lets it through on its own terms: the
guard's rule is not relaxed, the update is smaller.

Only when it is sure which note and which value: the statement names the tool the note
holds (the old value, "traefik") and exactly one other tool of the same setting (the new,
"caddy"), and the note is about that setting (it names the setting, or it shares a word
of its subject with the statement, or it says little besides the tool). A note that merely
names the tool ("Heroku API keys live in 1Password", told "we moved deploys off Heroku to
Fly.io") is about something else: no swap, and the rewrite the statement asks for waits
for the person as before.
"""

from __future__ import annotations

import re

from memcli.extraction.rules.changed_values import subject_words
from memcli.extraction.rules.slots import slots_of, slots_said

# A note's subject beyond its tool is "little" at this many content words or fewer
# ("Deploy with Heroku", "O reverse proxy do homelab e o traefik").
_FEW_WORDS = 3


def _written(text: str, word: str) -> re.Match[str] | None:
    """WORD in TEXT as a whole word, whatever its case."""
    edge = r"[^\W_]" if word.isascii() else r"[^\W\d_]"
    return re.search(f"(?<!{edge})" + re.escape(word) + f"(?!{edge})", text, re.I)


def swapped(statement: str, title: str, content: str) -> tuple[str, str] | None:
    """The note (TITLE, CONTENT) with the tool STATEMENT says it no longer uses replaced by
    the one it uses now, else None (see the module's docstring for when)."""
    mine, theirs = slots_of(statement), slots_of(title + " " + content)
    for slot, tools in mine.items():
        held = theirs.get(slot, frozenset())
        old = tools & held
        new = tools - held
        if len(old) != 1 or len(new) != 1 or len(held) != 1:
            continue
        (was,), (now,) = old, new
        if _count(content, was) != 1 or not _about_setting(statement, content, slot,
                                                                {was, now}):
            continue
        found = _written(statement, now)
        written = found.group() if found else now
        new_content = _replace(content, was, written)
        new_title = _replace(title, was, written) if _written(title, was) else title
        return new_title, new_content
    return None


def _count(text: str, word: str) -> int:
    """How often WORD stands in TEXT: a tool said twice ("deploy with gigalixir: git push
    gigalixir main") is also inside a command, which the new tool's name would break."""
    edge = r"[^\W_]" if word.isascii() else r"[^\W\d_]"
    return len(re.findall(f"(?<!{edge})" + re.escape(word) + f"(?!{edge})", text, re.I))


def _replace(text: str, word: str, by: str) -> str:
    edge = r"[^\W_]" if word.isascii() else r"[^\W\d_]"
    return re.sub(f"(?<!{edge})" + re.escape(word) + f"(?!{edge})", lambda _: by, text,
                  flags=re.I)


def _about_setting(statement: str, content: str, slot: str, tools: set[str]) -> bool:
    """The note is about SLOT: it names it, or shares a subject word with the statement, or
    holds few words besides its tool."""
    if slot.partition(":")[0] in slots_said(content)[0]:
        return True
    theirs = subject_words(_without(content, tools))
    if theirs & subject_words(_without(statement, tools)):
        return True
    return len(theirs) <= _FEW_WORDS


def _without(text: str, words: set[str]) -> str:
    for word in words:
        text = _replace(text, word, " ")
    return text
