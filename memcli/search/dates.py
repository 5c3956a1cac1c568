"""Dates a prompt names, and how near a note's own dates are to them.

"What did we decide on 2026-11-20?", "what did Maria say on 3 June, 2023?", "the deploy
change in March 2026": a prompt that names a day or a month asks about what was written
then, and a note carries when it was written (`created`) and last changed (`updated`).
The words of a date match nothing useful in a note's text; its dates do.

Only absolute dates are read (ISO `2026-11-20`, `20 November 2026`, `November 20, 2026`,
`November 2026`): a relative one ("last week") would need the clock of the moment the note
was written about, which the prompt does not give.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from datetime import date

from memcli.search.english import MONTHS

_MONTHS = {name: number for number, name in enumerate(MONTHS, start=1)}
_MONTH = "|".join(_MONTHS)
_ORDINAL = r"(?:st|nd|rd|th)?"
_DAY_FIRST = re.compile(rf"\b(\d{{1,2}}){_ORDINAL}\s+({_MONTH}),?\s+(\d{{4}})\b", re.IGNORECASE)
_MONTH_FIRST = re.compile(rf"\b({_MONTH})\s+(\d{{1,2}}){_ORDINAL},?\s+(\d{{4}})\b", re.IGNORECASE)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_YEAR = re.compile(rf"\b({_MONTH}),?\s+(\d{{4}})\b", re.IGNORECASE)
_NOTE_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")

# A note written this many days from the day a prompt names still half matches: notes are
# often written a day or two after what they record. Chosen on the tuning part of LoCoMo's
# development half (0, 3 and 7 tie there; docs/recall.md).
NEAR_DAYS = 3


@dataclass(frozen=True)
class Named:
    days: tuple[date, ...]
    months: tuple[tuple[int, int], ...]  # (year, month)

    def __bool__(self) -> bool:
        return bool(self.days or self.months)


def named_dates(text: str) -> Named:
    """The days a prompt names; the months it names only when it names no day."""
    days: list[date] = []
    for match in _DAY_FIRST.finditer(text):
        _add(days, match.group(3), _MONTHS[match.group(2).lower()], match.group(1))
    for match in _MONTH_FIRST.finditer(text):
        _add(days, match.group(3), _MONTHS[match.group(1).lower()], match.group(2))
    for match in _ISO.finditer(text):
        _add(days, match.group(1), int(match.group(2)), match.group(3))
    if days:
        return Named(tuple(days), ())
    months = tuple((int(m.group(2)), _MONTHS[m.group(1).lower()])
                   for m in _MONTH_YEAR.finditer(text))
    return Named((), months)


def _add(days: list[date], year: str, month: int, day: str) -> None:
    with contextlib.suppress(ValueError):  # "31 February" is not a day
        days.append(date(int(year), month, int(day)))


def note_date(stamp: str) -> date | None:
    """The day of a note's `created` or `updated` value (ISO), None when it has none."""
    match = _NOTE_DATE.match(stamp.strip())
    if not match:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def nearness(named: Named, stamps: tuple[str, ...]) -> float:
    """1 when one of a note's dates is a day (or in a month) the prompt names, 0.5 when it is
    within :data:`NEAR_DAYS` of such a day, else 0."""
    best = 0.0
    for stamp in stamps:
        when = note_date(stamp)
        if when is None:
            continue
        if (when.year, when.month) in named.months:
            return 1.0
        for day in named.days:
            gap = abs((when - day).days)
            if gap == 0:
                return 1.0
            if gap <= NEAR_DAYS:
                best = 0.5
    return best
