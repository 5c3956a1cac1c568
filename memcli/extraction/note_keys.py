"""The words a stored note can be looked up by, derived once and cached with its head.

Matching a statement against a big store asks each question (the same title? a tool of the
same slot? a near-duplicate?) of the notes that can answer it. A note can answer only if
it has a certain *key*: the same title key, a term of its title, a slot it fills with a
tool, a salient name, a word of its title or summary, a topic, a choice of tool. The key
is what the question's own code computes of the note, so the notes that hold one of the
keys a statement asks for are all the notes that can answer, in one search of a text in C.
The callers then ask their question of those notes alone, in stored order, and also only
of the notes today's narrower candidates hold (see :mod:`memcli.extraction.haystack`):
the answer is the one asking every candidate gives.

:func:`note_keys` derives a note's keys (about 50 microseconds); ``extract`` caches them
with each note's head (:mod:`memcli.store.known`), stamped with the size and modification
time of the modules that compute them (:func:`derived_by`): other code starts anew.
"""

from __future__ import annotations

from memcli import code_stamp
from memcli.extraction.key_index import KEY as _KEY
from memcli.extraction.key_index import code

# The modules whose code decides a note's keys: every memcli module note_keys imports,
# directly or through another (tests/test_extract_big_store.py checks the list against the
# imports), so that an edit to any of them in a checkout starts the keys anew.
_DERIVED_FROM = (
    "memcli", "memcli.compiled_regex", "memcli.text", "memcli.safety.invisible_chars",
    "memcli.extraction.concepts", "memcli.extraction.haystack", "memcli.extraction.key_index",
    "memcli.extraction.note_keys", "memcli.extraction.similarity",
    *(f"memcli.extraction.rules.{name}" for name in (
        "asides", "changed_values", "chat", "command_lines", "conventions", "duplicates",
        "imperatives", "layout", "model", "not_changes", "patterns", "preferences", "revisions",
        "sentences", "slot_words", "slots", "standing", "statements", "subjects", "topics",
        "uses")),
)


def derived_by() -> tuple[str, tuple[tuple[int, int], ...]]:
    """memcli's version and the size and modification time of each module deciding keys."""
    return code_stamp(_DERIVED_FROM)


def note_keys(title: str, summary: str) -> str:
    """The codes of the keys of a note of TITLE and SUMMARY, each between two separators
    (see memcli.extraction.key_index)."""
    from memcli.extraction.concepts import concept_keys, has_cjk
    from memcli.extraction.rules.changed_values import content_words, value_kinds
    from memcli.extraction.rules.duplicates import title_key
    from memcli.extraction.rules.slots import salient_names, slots_of
    from memcli.extraction.rules.statements import title_terms
    from memcli.extraction.similarity import choice_categories, title_tokens, topic_of

    keys = []
    words = title_tokens(title)
    keys += ["w:" + w for w in sorted(set(words))]
    if words:
        keys.append("J:" + "".join(words))
    said = title_tokens(summary) if summary else []
    keys += ["v:" + w for w in sorted(set(said))]
    if said:
        keys.append("U:" + "".join(said))
    topic = topic_of(title)
    if topic is not None:
        keys.append("o:" + topic)
    # Concepts are compared only when one side has CJK text: the keys of such a text.
    for kind, text in (("C:", title), ("D:", summary)):
        concepts = concept_keys(text) if text and has_cjk(text) else None
        keys += [kind + c for c in sorted(concepts or ())]
    keys += ["h:" + c for c in sorted(choice_categories(title))]
    keys.append("K:" + title_key(title))
    keys += ["m:" + t for t in sorted(title_terms(title))]
    text = title + " " + summary
    filled = {slot: tools for slot, tools in slots_of(text).items() if tools}
    keys += ["S:" + slot for slot in filled]
    # The tool a setting is filled with: what a statement naming that tool asks first.
    keys += ["F:" + slot + "=" + tool for slot in sorted(filled) for tool in sorted(filled[slot])]
    keys += ["n:" + name for name in sorted(salient_names(text))]
    # What a change with no setting word finds its note by (rules.changed_values): the
    # kinds of value it holds and its content words.
    keys += ["Q:" + kind for kind in sorted(value_kinds(text))]
    keys += ["T:" + word for word in sorted(content_words(text))]
    codes = sorted({code(*key.split(":", 1)) for key in keys})
    return _KEY + _KEY.join(codes) + _KEY
