"""The `review` setting: which changes of an unattended run wait in the inbox for a person.

``none`` writes as before; ``all`` holds every change; a list of note types (comma- or
space-separated, or a TOML list) holds the changes to notes of those types and writes the
rest. Config key ``review`` (usually under ``[hooks]``), environment ``MEMCLI_REVIEW``.
How long a proposal waits before it expires: ``review_expiry_days`` (environment
``MEMCLI_REVIEW_EXPIRY_DAYS``), 30 by default.
"""

from __future__ import annotations

import re

from memcli.errors import ConfigError

ALL = "all"
NONE = "none"
# Proposals older than this many days expire: the turn they came from is long gone.
DEFAULT_EXPIRY_DAYS = 30
MAX_EXPIRY_DAYS = 36500
_TYPE = re.compile(r"[a-z][a-z_]{0,63}")


def parse_review(value: object) -> frozenset[str]:
    """The types the setting holds for review: empty for ``none``, {``all``} for all."""
    if isinstance(value, (list, tuple)):
        words = [str(v).strip() for v in value]
    elif isinstance(value, str):
        words = [w for w in re.split(r"[\s,]+", value.strip()) if w]
    else:
        raise ConfigError(f"review must be none, all or a list of note types; got {value!r}")
    words = [w.lower() for w in words]
    if not words or words == [NONE]:
        return frozenset()
    if ALL in words:
        return frozenset({ALL})
    bad = [w for w in words if not _TYPE.fullmatch(w) or w == NONE]
    if bad:
        raise ConfigError(f"review: {bad[0]!r} is not a note type; use none, all or note "
                          "types such as project_knowledge,correction_feedback")
    return frozenset(words)


def parse_expiry_days(value: object) -> int:
    """The ``review_expiry_days`` setting: a whole number of days, 1 or more."""
    text = str(value).strip() if isinstance(value, (int, str)) else ""
    # ASCII digits only ("²" and "٣" are digits to str.isdigit, not to int), and at most a
    # century: a day count past datetime's range would fail every review.
    if (isinstance(value, bool) or not (text.isascii() and text.isdecimal())
            or not 1 <= int(text) <= MAX_EXPIRY_DAYS):
        raise ConfigError(f"review_expiry_days must be a whole number of days from 1 to "
                          f"{MAX_EXPIRY_DAYS}, not {value!r}")
    return int(text)


def review_text(types: frozenset[str]) -> str:
    """The setting as a person writes it."""
    return NONE if not types else ",".join(sorted(types))
