"""Notes added and removed by hand (`memcli add`, `memcli rm`): each becomes an operation
that goes through `apply`, so a hand edit is checked and recorded like any other."""

from __future__ import annotations

from collections.abc import Sequence

from memcli.commands.apply import ApplyReport, apply_items
from memcli.commands.lookup import Found
from memcli.errors import ConfigError, InputError
from memcli.settings.config import Settings
from memcli.store.index import IndexEntry
from memcli.store.names import LEVELS, NO_PROJECT
from memcli.writes.stores import no_project

# A note type's usual store, when `add` is told the type but not the level.
USUAL_LEVEL = {"user_preference": "user"}
MAX_INDEX_LINE = 200


def remove(settings: Settings, targets: Sequence[Found], *, dry_run: bool) -> ApplyReport:
    from memcli.writes.history import Source

    items = [{"action": "delete", "level": t.level, "filename": t.filename} for t in targets]
    return apply_items(settings, items, {}, dry_run=dry_run, strict=True, source=Source("rm"))


def add_target(level: str | None, note_type: str | None) -> tuple[str, str]:
    """Level and type of a note added by hand: each defaults to agree with the other."""
    from memcli.store.names import NOTE_TYPES, canonical_type

    if level is not None and level not in LEVELS:
        raise InputError(f"unknown level '{level}'; use project or user")
    if note_type is None:
        chosen = level or "project"
        return chosen, "user_preference" if chosen == "user" else "project_knowledge"
    canonical = canonical_type(note_type)
    if canonical is None:
        raise InputError(f"unknown type '{note_type}'; use {', '.join(NOTE_TYPES)}")
    return level or USUAL_LEVEL.get(canonical, "project"), canonical


def add(settings: Settings, *, level: str | None, note_type: str | None, text: str,
        title: str | None, summary: str | None, on_conflict: str = "fail",
        dry_run: bool = False, expires: str | None = None,
        cites: Sequence[str] = ()) -> ApplyReport:
    from memcli.safety.redact import redact
    from memcli.store.freshness import parse_when
    from memcli.text import derive_summary
    from memcli.writes.history import Source

    if not text.strip():
        raise InputError("the memory text is empty; pass TEXT or pipe it with '-'")
    if expires is not None and parse_when(expires) is None:
        raise InputError(f"--expires {expires!r} is not a date; use YYYY-MM-DD")
    level, note_type = add_target(level, note_type)
    if level == "project" and no_project(settings):
        raise ConfigError(f"{NO_PROJECT}, or add it with --level user")
    first_sentence = derive_summary(redact(text)[0])
    # The title is cut from the text: cut first, a token would lose the length that makes
    # it recognisable and slip past the redaction of the title.
    chosen_title = title or short_title(first_sentence)
    item: dict[str, object] = {
        "action": "create", "level": level, "type": note_type, "content": text,
        "title": chosen_title,
        "summary": summary or _summary_within_line(first_sentence, note_type, chosen_title),
    }
    if expires is not None:
        item["expires"] = expires
    if cites:
        item["cites"] = _anchors(cites, level)
    return apply_items(settings, [item], {}, dry_run=dry_run, strict=True,
                       on_conflict=on_conflict, source=Source("add"))


def _anchors(cites: Sequence[str], level: str) -> list[str]:
    """--cite values, checked here so that a bad one is a usage error, not a rejection."""
    from memcli.store.anchors import AnchorError, parse_short

    if level != "project":
        raise InputError("--cite anchors a note to this repository's files: only project "
                         "notes carry it (drop --cite, or use --level project)")
    for value in cites:
        try:
            parse_short(value)
        except AnchorError as exc:
            raise InputError(f"--cite {value!r}: {exc}") from None
    return list(cites)


# Words a title cut from a sentence does not end on: "rebuilt every night at".
TITLE_WORDS = 6
TITLE_WORDS_WHOLE = 8
_DANGLING = frozenset(("a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into",
                       "is", "are", "of", "on", "or", "so", "than", "that", "the", "then",
                       "to", "was", "when", "with", "every", "each", "any", "some", "all", "no",
                       "its", "their", "our", "your", "my", "this", "these", "those"))


def short_title(sentence: str) -> str:
    """A title for a memory typed by hand: the head of its first sentence, a few words (as
    the rules extractor cuts its titles), never ending on a word that leads somewhere, and
    no ellipsis. The file name is made from it, so it stays short too."""
    from memcli.extraction.rules.sentences import cut_title

    sentence = sentence.rstrip(".。!?")
    if len(sentence.split()) <= TITLE_WORDS_WHOLE:  # a few words are their own title
        words = cut_title(sentence, TITLE_WORDS_WHOLE).split()
    else:  # a longer sentence gives its head, from the noun: "The staging database…"
        head = sentence.split(maxsplit=1)
        if head[0].lower() in ("a", "an", "the"):
            sentence = head[1][:1].upper() + head[1][1:]
        words = cut_title(sentence, TITLE_WORDS).split()
    while len(words) > 2 and words[-1].lower().strip(",;:") in _DANGLING:
        words.pop()
    return " ".join(words).rstrip(",;:") or sentence


def _summary_within_line(summary: str, note_type: str, title: str) -> str:
    """The summary, shortened so that the note's index line stays within lint's limit."""
    from memcli.store.index import render_line
    from memcli.store.names import note_filename, slugify
    from memcli.text import shorten

    filename = note_filename(note_type, slugify(title))
    bare = render_line(IndexEntry("", note_type, title, "", filename))
    room = MAX_INDEX_LINE - len(bare) - len(" — ")
    return shorten(summary, max(room, 24))
