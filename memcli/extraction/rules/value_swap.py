"""A change that names the old value and the new one updates only the value.

"o reverse proxy do homelab é o traefik" and, later, "troquei o traefik pelo caddy": the
note keeps its subject and its other words, with the new tool in the old one's place
("o reverse proxy do homelab é o caddy"); the person's words are the update's reason.
Such an update rewrites one word of the note, so the unattended guard (which refuses an
update that removes most of a note, :func:`memcli.safety.unattended.removes_most`) lets
it through on its own terms: the guard's rule is not relaxed, the update is smaller. It is
made only where the person's words would replace most of the note (the guard would
refuse them); a short note takes the person's sentence as before.

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
from memcli.extraction.rules.slots import (
    salient_names,
    shared_names,
    slots_of,
    slots_said,
    tools_named,
)

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
    if forbids(title + " " + content):
        return None  # "never deploy with Heroku" told "we moved to Fly.io" is no "never ... Fly.io"
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
    return _swapped_name(statement, title, content)


def _swapped_name(statement: str, title: str, content: str) -> tuple[str, str] | None:
    """The same for a tool no setting lists: the one name the two share ("ModelSim") and
    the one name only the statement holds that is written as a name ("GHDL", "deps.edn",
    "DBMS_SCHEDULER"; a lower-case word may be any word, "gotenberg" or "flourish")."""
    shared = shared_names(statement, content)
    named = [n for n in shared if _count(content, n) == 1 and _count(statement, n)]
    if len(named) != 1:
        shared_tool = [n for n in named if _tool_like(content, n) or _tool_like(statement, n)]
        if len(shared_tool) != 1:
            return None
        named = shared_tool
    (was,) = named
    if _in_a_path(content, was):
        return None
    new = [n for n in salient_names(statement) - salient_names(title + " " + content)
           if _tool_like(statement, n) and not n.replace(".", "").isdigit()
           and not _in_a_path(statement, n)]
    if len(new) != 1 or not _about_setting(statement, content, "", {was, *new}):
        return None
    # "Gazebo classic" told "Gazebo Harmonic": the two words are one name, not two tools
    if re.search(re.escape(was) + r"\s+" + re.escape(new[0]) + "|" + re.escape(new[0])
                 + r"\s+" + re.escape(was), statement, re.I):
        return None
    # "cloth config" told "owo-config": a part of the new name already in the note would
    # stand twice ("owo-config config")
    rest = _without(title + " " + content, {was}).casefold()
    if any(_written(rest, part) for part in re.split(r"[._+-]", new[0]) if len(part) > 1):
        return None
    found = _written(statement, new[0])
    written = found.group() if found else new[0]
    return (_replace(title, was, written) if _written(title, was) else title,
            _replace(content, was, written))


# A note that forbids or denies: the tool it names is what it is about, not its value, and a
# statement naming that tool lifts the rule ("bitte kein AutoMapper" / "AutoMapper wieder
# erlauben") -- never a rule against the new tool.
_NEGATIVE = re.compile(
    r"(?:^|[,.;:!?]\s*)no\s|"  # "no any in the demo"; not "labels no docker" (pt: "in the")
    r"(?<![^\W\d_])(?:don't|do not|never|not|nothing|kein|keine|keinen|nicht|nie|niemals|"
    r"pas|jamais|ne|nunca|nada|não|nao|nem|не|нельзя|никогда|нет|non|mai|niente)(?![^\W\d_])|"
    r"不要|不许|不准|别|禁止|不能|不用|しない|しないで|ない|禁止|ダメ|금지|마|말고|안 ", re.I)


def forbids(text: str) -> bool:
    """TEXT forbids or denies something ("never deploy to Heroku on Fridays", "bitte kein
    AutoMapper", "类型里一律不许用any")."""
    return bool(_NEGATIVE.search(text))


def _in_a_path(text: str, name: str) -> bool:
    """NAME is a part of a path or a longer name in TEXT ("typo3conf/ext")."""
    return any(text[m.start() - 1:m.start()] in ("/", "\\") or text[m.end():m.end() + 1]
               in ("/", "\\") for m in _every(text, name))


_NAME_SHAPE = re.compile(r"\w[._+-]\w|\d|[a-z][A-Z]|^[A-Z][A-Z0-9_]+$")


def _tool_like(text: str, name: str) -> bool:
    """NAME is written in TEXT as a tool's name: with a dot, a dash or a digit inside, in
    capitals, or capitalised inside a sentence; or it is a tool of a setting."""
    if tools_named(name):
        return True
    for match in _every(text, name):
        written = match.group()
        if _NAME_SHAPE.search(written):
            return True
        before = text[:match.start()].rstrip()
        if written[:1].isupper() and before and before[-1] not in ".!?。！？:":
            return True
    return False


def _every(text: str, word: str) -> list[re.Match[str]]:
    edge = r"[^\W_]" if word.isascii() else r"[^\W\d_]"
    return list(re.finditer(f"(?<!{edge})" + re.escape(word) + f"(?!{edge})", text, re.I))


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
    if slot and slot.partition(":")[0] in slots_said(content)[0]:
        return True
    theirs = subject_words(_without(content, tools))
    if theirs & subject_words(_without(statement, tools)):
        return True
    return len(theirs) <= _FEW_WORDS


def _without(text: str, words: set[str]) -> str:
    for word in words:
        text = _replace(text, word, " ")
    return text
