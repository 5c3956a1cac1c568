"""The checks of an operation's fields, in plain Python.

Each field of the operations in :mod:`memcli.operations.model` names one of these. A check
takes the value as it came (any JSON value) and returns it cleaned, or raises ValueError
with what is wrong; a value it does not take as text it returns as it is, and the model
then says it should be a string.
"""

from __future__ import annotations

import re
from typing import Any

from memcli.safety.invisible_chars import clean_body, safe_line, strip_invisible
from memcli.store.names import LEVELS, canonical_type
from memcli.text import one_line

MAX_TITLE_CHARS = 100
MAX_CONTENT_CHARS = 20_000
ACTION_ALIASES = {
    "create": "create", "add": "create", "new": "create", "insert": "create",
    "update": "update", "edit": "update", "modify": "update", "replace": "update",
    "delete": "delete", "remove": "delete", "rm": "delete",
}
SKIPPED_ACTIONS = frozenset({"", "noop", "none", "skip", "nothing"})


def no_surrogates(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("holds text that is not valid Unicode (a lone surrogate)") from None
    return value


def check_level(value: Any) -> str:
    if isinstance(value, str) and value.strip().lower() in LEVELS:
        return value.strip().lower()
    raise ValueError(f"must be one of {', '.join(LEVELS)}")


def check_type(value: Any) -> str:
    found = canonical_type(value) if isinstance(value, str) else None
    if found is None:
        raise ValueError(
            "must be one of user_preference, correction_feedback, project_knowledge, "
            "reference_material"
        )
    return found


def check_title(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    title = one_line(safe_line(no_surrogates(value)))
    if not title:
        raise ValueError("is empty")
    if len(title) > MAX_TITLE_CHARS:
        raise ValueError(f"is longer than {MAX_TITLE_CHARS} characters; shorten it")
    return title


def check_content(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    # Line ends are the note's business, not the operation's (CRLF content is the same
    # text); escape sequences and hidden text have no place in a note an agent will read.
    value = clean_body(no_surrogates(value))
    if not value.strip():
        raise ValueError("is empty")
    if len(value) > MAX_CONTENT_CHARS:
        raise ValueError(f"is longer than {MAX_CONTENT_CHARS} characters; split the note")
    if _opens_with_frontmatter(value):
        # Models often send the whole note file as its content: written as it is, it would
        # become a second frontmatter block under memcli's own (lint M204).
        raise ValueError("starts with a frontmatter block; send the note's body only")
    return value


_NOTE_KEY = re.compile(r"(?:type|title|summary|created|updated)[ \t]*:")


def _opens_with_frontmatter(text: str) -> bool:
    """True when the first non-blank line is '---' and a note key follows before a fence."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None or lines[start].strip() != "---":
        return False
    for line in lines[start + 1 : start + 200]:
        if line.strip() in ("---", "..."):
            return False
        if _NOTE_KEY.match(line):
            return True
    return False


def optional_text(value: Any) -> Any:
    return one_line(safe_line(no_surrogates(value))) if isinstance(value, str) else value


def check_slug(value: Any) -> Any:
    """A slug keeps its control characters: a NUL in it is refused by the planner, with the
    path separators, rather than dropped into a name the model did not send."""
    return one_line(strip_invisible(no_surrogates(value))) if isinstance(value, str) else value


def check_reason(value: Any) -> str | None:
    """An operation's reason, as the dry-run prints it: one line, no escape sequence."""
    return one_line(safe_line(no_surrogates(value))) if isinstance(value, str) else None


def check_filename(value: Any) -> Any:
    return no_surrogates(value) if isinstance(value, str) else value


def check_date(value: Any) -> Any:
    """An ``expires``/``review_after`` value: a date (YYYY-MM-DD) or an ISO date-time."""
    from memcli.store.freshness import as_text, parse_when

    if value is None or value == "":
        return None
    text = as_text(value)
    if parse_when(text) is None:
        raise ValueError("must be a date (YYYY-MM-DD) or an ISO date-time")
    return text


def check_cites(value: Any) -> Any:
    """A `cites` list: each entry an anchor into the repository (memcli.store.anchors), written
    back as memcli writes them; None and [] mean none."""
    from memcli.store.anchors import cites_value, parse_cites

    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError("must be a list of anchors (PATH, PATH:LINES or {path: …})")
    anchors, problems = parse_cites(value)
    if problems:
        raise ValueError(problems[0])
    return cites_value(anchors)


FIELD_ORDER = ("action", "level", "type", "filename", "title", "slug", "summary", "content",
               "expires", "review_after", "cites", "reason")
