"""Freshness: a note's optional ``expires`` and ``review_after`` dates.

``expires: 2026-12-05``: after that day the note is stale; ``context`` leaves it out and
lint and ``status`` report it. ``review_after: 2027-03-01``: after that day lint and
``status`` remind a person to look at it again. A date is a calendar day of the person's
(it is over when their own day is after it: ``now`` carries their zone's offset); a full
ISO date-time is also accepted and compared as a moment. A value that is neither is reported by
lint and otherwise ignored (a note is never hidden because of a typo).
"""

from __future__ import annotations

import datetime as dt

EXPIRES = "expires"
REVIEW_AFTER = "review_after"


def parse_when(value: object, zone: dt.tzinfo | None = None) -> dt.datetime | None:
    """The last moment a date covers in ZONE (UTC when None), or the moment a date-time
    names; else None."""
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time.max, zone or dt.UTC)
    elif isinstance(value, str) and value.strip():
        text = value.strip()
        try:
            if len(text) == 10:
                day = dt.date.fromisoformat(text)
                return dt.datetime.combine(day, dt.time.max, zone or dt.UTC)
            moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            return None
    else:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def is_past(value: object, now: dt.datetime) -> bool:
    """Whether the date is over at ``now`` (False for a missing or unreadable date): a day
    ends at midnight in ``now``'s own offset, the person's when ``now`` is their wall time
    (``Settings.moment()``)."""
    when = parse_when(value, now.tzinfo)
    return when is not None and now > when


def valid(value: object) -> bool:
    return value in (None, "") or parse_when(value) is not None


def as_text(value: object) -> str:
    """The frontmatter value as written, for heads and reports."""
    if isinstance(value, dt.date):
        return value.isoformat()
    return value.strip() if isinstance(value, str) else ""
