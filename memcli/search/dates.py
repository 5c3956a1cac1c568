"""Dates a prompt names, and how near a note's own dates are to them.

"What did we decide on 2026-11-20?", "what did Maria say on 3 June, 2023?", "the deploy
change in March 2026": a prompt that names a day or a month asks about what was written
then, and a note carries when it was written (`created`) and last changed (`updated`).
The words of a date match nothing useful in a note's text; its dates do.

Absolute dates (ISO `2026-11-20`, `20 November 2026`, `November 20, 2026`, `November 2026`)
are read on their own; relative ones (`today`, `yesterday`, `3 days ago`, `last Monday`,
`this week`, `last week`, `this month`, `last month`) only when the caller gives the day the
prompt is asked (a live prompt; a benchmark's questions have none).

A prompt that asks *when* ("when did we move to Postgres?", "how long has the flag been
on?") names no date at all: it is answered by a note that says when (`in March`, `since
2024`, `last week`, `3 years ago`), which :func:`asks_when` and :func:`tells_when` find.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from datetime import date, timedelta

from memcli.search.english import MONTHS, WEEKDAYS

_MONTHS = {name: number for number, name in enumerate(MONTHS, start=1)}
_MONTH = "|".join(_MONTHS)
_ORDINAL = r"(?:st|nd|rd|th)?"
_DAY_FIRST = re.compile(rf"\b(\d{{1,2}}){_ORDINAL}\s+({_MONTH}),?\s+(\d{{4}})\b", re.IGNORECASE)
_MONTH_FIRST = re.compile(rf"\b({_MONTH})\s+(\d{{1,2}}){_ORDINAL},?\s+(\d{{4}})\b", re.IGNORECASE)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_YEAR = re.compile(rf"\b({_MONTH}),?\s+(\d{{4}})\b", re.IGNORECASE)
_NOTE_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7}
_RELATIVE = re.compile(
    r"\b(?:(today)|(yesterday)"
    rf"|(\d{{1,2}}|{'|'.join(_COUNTS)})\s+(days?|weeks?)\s+ago"
    rf"|(?:last|on)\s+({'|'.join(WEEKDAYS)})"
    r"|(this|last)\s+(week|month))\b",
    re.IGNORECASE)

_WHEN_UNIT = r"(?:day|week|weekend|month|year|summer|winter|spring|autumn|night|morning|evening)s?"
_ASKS_WHEN = re.compile(
    r"(?:^|[.?!]\s)\W*(?:when|since when|how long"
    r"|what (?:year|month|day|date|time)|how many (?:days|weeks|months|years))\b",
    re.IGNORECASE)
# `may` is a month only when capitalised ("you may skip it" says no time).
_MONTH_WORD = "|".join(m for m in MONTHS if m != "may") + "|(?-i:May)"
_TELLS_WHEN = re.compile(
    rf"\b(?:{_MONTH_WORD}|{'|'.join(WEEKDAYS)}|(?:19|20)\d\d"
    r"|yesterday|today|tomorrow|tonight|ago|recently|since"
    rf"|(?:last|next|this|past|coming|previous)\s+(?:{_WHEN_UNIT}|{'|'.join(WEEKDAYS)})"
    rf"|(?:\d+|{'|'.join(_COUNTS)}|eight|nine|ten|few|several)\s+{_WHEN_UNIT})\b",
    re.IGNORECASE)

# A note written this many days from the day a prompt names still half matches: notes are
# often written a day or two after what they record. Chosen on the tuning part of LoCoMo's
# development half (0, 3 and 7 tie there; docs/recall.md).
NEAR_DAYS = 3
# A prompt with a pasted log may hold thousands of dates; a question names a few. Past this
# many, the rest are ignored (each is compared with every candidate note).
MAX_DATES = 31


@dataclass(frozen=True)
class Named:
    days: tuple[date, ...]
    months: tuple[tuple[int, int], ...]  # (year, month)

    def __bool__(self) -> bool:
        return bool(self.days or self.months)


def named_dates(text: str, today: date | None = None) -> Named:
    """The days a prompt names; the months it names only when it names no day. Relative
    dates are read only when TODAY (the day the prompt is asked) is given."""
    days: list[date] = []
    months: list[tuple[int, int]] = []
    if today is not None:
        for match in _RELATIVE.finditer(text):
            _relative(match, today, days, months)
    for match in _DAY_FIRST.finditer(text):
        _add(days, match.group(3), _MONTHS[match.group(2).lower()], match.group(1))
    for match in _MONTH_FIRST.finditer(text):
        _add(days, match.group(3), _MONTHS[match.group(1).lower()], match.group(2))
    for match in _ISO.finditer(text):
        _add(days, match.group(1), int(match.group(2)), match.group(3))
    if days:
        return Named(tuple(dict.fromkeys(days))[:MAX_DATES], ())
    months += [(int(m.group(2)), _MONTHS[m.group(1).lower()])
               for m in _MONTH_YEAR.finditer(text)]
    return Named((), tuple(dict.fromkeys(months))[:MAX_DATES])


def _relative(match: re.Match[str], today: date, days: list[date],
              months: list[tuple[int, int]]) -> None:
    today_word, yesterday, count, unit, weekday, which, span = match.groups()
    if today_word or yesterday:
        days.append(today - timedelta(days=1 if yesterday else 0))
    elif count:
        number = _COUNTS.get(count.lower()) or int(count)
        days.append(today - timedelta(days=number * (7 if unit.lower().startswith("w") else 1)))
    elif weekday:
        back = (today.weekday() - WEEKDAYS.index(weekday.lower())) % 7 or 7
        days.append(today - timedelta(days=back))
    elif span.lower() == "week":
        monday = today - timedelta(days=today.weekday())
        if which.lower() == "last":
            monday -= timedelta(days=7)
        end = min(monday + timedelta(days=6), today)
        days.extend(monday + timedelta(days=i) for i in range((end - monday).days + 1))
    else:
        first = today.replace(day=1)
        if which.lower() == "last":
            first = (first - timedelta(days=1)).replace(day=1)
        months.append((first.year, first.month))


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


def asks_when(prompt: str) -> bool:
    """Whether PROMPT asks for a time: a sentence of it starts with `when`, `how long`..."""
    return _ASKS_WHEN.search(prompt) is not None


def tells_when(text: str) -> bool:
    """Whether TEXT says when something happened: a month, a day of the week, a year, or a
    relative time (`yesterday`, `last week`, `3 years ago`, `since`)."""
    return _TELLS_WHEN.search(text) is not None
