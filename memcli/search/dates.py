"""Dates a prompt names, and how near a note's own dates are to them.

"What did we decide on 2026-11-20?", "what did Maria say on 3 June, 2023?", "what did we do
yesterday?", "上周改了什么？": a prompt that names a day, a week or a month asks about what
was written then, and a note carries when it was written (`created`) and last changed
(`updated`). The words of a date match nothing useful in a note's text; its dates do.

Absolute dates (ISO `2026-11-20`, `20 November 2026`, `November 20, 2026`, `November 2026`,
`2026年11月20日`, `2026年11月`) are read on their own. Everything that counts from the day
the prompt is asked is read only when the caller gives that day (a live prompt; a
benchmark's questions have none): English `today`, `yesterday`, `3 days ago`, `2 weeks
ago`, `last Monday` / `on Monday`, `this week`, `last week`, `the past 3 days`, `this
month`, `last month`, `this year`, `the other day`, a day or month without a year (`3
March`, `March 3rd`, `in March`), and any of these after `since` (the days from then to
today: :func:`memcli.search.days.since`); Chinese (and the Japanese words they share) in
:mod:`memcli.search.dates_cjk`.

A prompt that asks *when* ("when did we move to Postgres?", "how long has the flag been
on?") names no date at all: it is answered by a note that says when (`in March`, `since
2024`, `last week`, `3 years ago`), which :func:`asks_when` and :func:`tells_when` find.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from memcli.search import dates_cjk
from memcli.search.days import (
    Days,
    Found,
    Months,
    Reader,
    day_of,
    fixed,
    latest_day,
    latest_month,
    month_back,
    other_day,
    week_of,
    weekday_before,
    weekend,
    year_months,
)
from memcli.search.english import MONTHS, WEEKDAYS
from memcli.settings.zone import UTC, Zone, parse_stamp

_MONTHS = {name: number for number, name in enumerate(MONTHS, start=1)}
_MONTH = "|".join(_MONTHS)
_ORDINAL = r"(?:st|nd|rd|th)?"
_DAY_FIRST = re.compile(rf"\b(\d{{1,2}}){_ORDINAL}\s+({_MONTH}),?\s+(\d{{4}})\b", re.IGNORECASE)
_MONTH_FIRST = re.compile(rf"\b({_MONTH})\s+(\d{{1,2}}){_ORDINAL},?\s+(\d{{4}})\b", re.IGNORECASE)
_ISO = re.compile(r"\b(\d{4})([-/])(\d{2})\2(\d{2})\b")
_MONTH_YEAR = re.compile(rf"\b({_MONTH}),?\s+(\d{{4}})\b", re.IGNORECASE)
_NOTE_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2}
_COUNT = rf"(\d{{1,2}}|{'|'.join(_COUNTS)})"
_WEEKDAY = "|".join(WEEKDAYS)
_NO_YEAR = r"(?!,?\s*\d)"  # "3 March" but not "3 March 2026" (read as an absolute date)
# `May` is a month only when capitalised ("you may skip it" says no time), and alone only
# after a preposition ("May I see the notes?" asks no month).
_MONTH_WORD = "|".join(m for m in MONTHS if m != "may") + "|(?-i:May)"
_CAPITALISED = "|".join(m.capitalize() for m in MONTHS if m != "may")

@dataclass(frozen=True)
class Named:
    days: tuple[date, ...]
    months: tuple[tuple[int, int], ...]  # (year, month)
    # Where the prompt names them (character offsets): what is left once they are taken
    # out says what the prompt asks about besides a time.
    spans: tuple[tuple[int, int], ...] = field(default=(), compare=False)

    def __bool__(self) -> bool:
        return bool(self.days or self.months)


# A note written this many days from the day a prompt names still half matches: notes are
# often written a day or two after what they record. Chosen on the tuning part of LoCoMo's
# development half (0, 3 and 7 tie there; docs/recall.md).
NEAR_DAYS = 3
# A prompt with a pasted log may hold thousands of dates; a question names a few. Past this
# many, the rest are ignored (each is compared with every candidate note).
MAX_DATES = 31


# ---------------------------------------------------------------------- English readers


def _count(text: str) -> int:
    return _COUNTS.get(" ".join(text.lower().split())) or int(text)


def _read_ago(match: re.Match[str], today: date) -> tuple[Days, Months]:
    number, unit = _count(match.group(1)), match.group(2).lower()
    if unit.startswith("month"):
        return [], [month_back(today, number)]
    if unit.startswith("week"):
        return week_of(today - timedelta(days=7 * number), today), []
    return [today - timedelta(days=number)], []


def _read_span(match: re.Match[str], today: date) -> tuple[Days, Months]:
    which, unit = match.group(1).lower(), match.group(2).lower()
    back = 1 if which == "last" else 0
    if unit == "week":
        return week_of(today - timedelta(days=7 * back), today), []
    if unit == "month":
        return [], [month_back(today, back)]
    return [], year_months(today.year - back, today)


def _read_past_days(match: re.Match[str], today: date) -> tuple[Days, Months]:
    number = 7 if match.group(1) is None else min(_count(match.group(1)), MAX_DATES)
    return [today - timedelta(days=i) for i in range(number)], []


def _read_weekend(match: re.Match[str], today: date) -> tuple[Days, Months]:
    return weekend(today, last=match.group(1).lower() == "last"), []


def _read_weekday(match: re.Match[str], today: date) -> tuple[Days, Months]:
    return [weekday_before(today, WEEKDAYS.index(match.group(1).lower()))], []


def _read_day_month(match: re.Match[str], today: date) -> tuple[Days, Months]:
    day, month = match.group("day"), match.group("month")
    return latest_day(_MONTHS[month.lower()], int(day), today), []


def _read_month(match: re.Match[str], today: date) -> tuple[Days, Months]:
    return [], latest_month(_MONTHS[match.group(1).lower()], today)


_ENGLISH: tuple[tuple[re.Pattern[str], Reader], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), reader) for pattern, reader in (
        (r"\b(?:the\s+)?day\s+before\s+yesterday\b", fixed(2)),
        (r"\bthe\s+other\s+day\b|\ba\s+few\s+days\s+(?:ago|back)\b", other_day),
        (r"\b(?:yesterday|last\s+night)\b", fixed(1)),
        (r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b", fixed(0)),
        (rf"\b{_COUNT}\s+(days?|weeks?|months?)\s+ago\b", _read_ago),
        (rf"\b(?:the\s+)?(?:past|last)\s+{_COUNT}\s+days\b|\b(?:the\s+)?past\s+week\b",
         _read_past_days),
        (rf"\b(?:(?:last|on|this\s+past)\s+|(?<=\bsince\s))({_WEEKDAY})\b", _read_weekday),
        (r"\b(last|this|over\s+the|on\s+the|at\s+the|the\s+past)\s+weekend\b", _read_weekend),
        (r"\b(this|last)\s+(week|month|year)\b", _read_span),
        (rf"\b(?P<day>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?(?P<month>{_MONTH})\b{_NO_YEAR}",
         _read_day_month),
        (rf"\b(?P<month>{_MONTH})\s+(?P<day>\d{{1,2}}){_ORDINAL}\b{_NO_YEAR}", _read_day_month),
        (rf"\b(?:in|from|during|of|for|over)\s+({_MONTH_WORD})\b{_NO_YEAR}", _read_month),
        (rf"(?-i:\b({_CAPITALISED})\b){_NO_YEAR}", _read_month),
    ))


# ---------------------------------------------------------------------- reading a prompt


def named_dates(text: str, today: date | None = None) -> Named:
    """The days a prompt names; the months it names only when it names no day. What counts
    from the day the prompt is asked is read only when TODAY (that day) is given."""
    found = Found(today=today)
    _read_absolute(text, found)
    if today is not None:
        found.read(text, (*_ENGLISH, *dates_cjk.READERS), today)
    spans = tuple(sorted(found.spans))
    if found.days:
        return Named(tuple(dict.fromkeys(found.days))[:MAX_DATES], (), spans)
    return Named((), tuple(dict.fromkeys(found.months))[:MAX_DATES], spans)


def _read_absolute(text: str, found: Found) -> None:
    days = ((_DAY_FIRST, 3, 2, 1), (_MONTH_FIRST, 3, 1, 2), (_ISO, 1, 3, 4))
    for pattern, year, month, day in days:
        for match in pattern.finditer(text):
            named = day_of(int(match.group(year)), _month(match.group(month)),
                           int(match.group(day)))
            if named:  # "31 February, 2023" names no day, but still the month
                found.take(match, (named, []))
    dates_cjk.read_absolute(text, found)
    for match in _MONTH_YEAR.finditer(text):
        if not found.overlaps(match):
            found.take(match, ([], [(int(match.group(2)), _month(match.group(1)))]))


def _month(text: str) -> int:
    return int(text) if text.isdigit() else _MONTHS[text.lower()]


def without_dates(text: str, named: Named) -> str:
    """TEXT with the date expressions NAMED found in it taken out (each a space, so the
    words and CJK runs on either side do not join)."""
    pieces: list[str] = []
    position = 0
    for start, end in named.spans:
        pieces.append(text[position:start])
        pieces.append(" ")
        position = max(position, end)
    pieces.append(text[position:])
    return "".join(pieces)


# ---------------------------------------------------------------------- a note's dates


def note_date(stamp: str, zone: Zone = UTC) -> date | None:
    """The person's day (in ZONE) of a note's `created` or `updated` value (ISO), None when
    it has none. A value with a time is an instant, whose day depends on the zone; a bare
    day is the day the person wrote."""
    when = note_time(stamp)
    if isinstance(when, datetime):
        return zone.day_of(when)
    return when


def note_time(stamp: str) -> datetime | date | None:
    """A note's `created` or `updated` value: an instant, a bare day, or None."""
    when = parse_stamp(stamp)
    if when is not None:
        return when
    # Something after the day that is no time ("2026-11-29 evening"): the day is still meant.
    match = _NOTE_DATE.match(stamp.strip())
    if not match:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def nearness(named: Named, stamps: Sequence[str], zone: Zone = UTC) -> float:
    """1 when one of a note's dates is a day (or in a month) the prompt names, 0.5 when it is
    within :data:`NEAR_DAYS` of such a day, else 0 (the note's days in the person's ZONE)."""
    best = 0.0
    for stamp in stamps:
        when = note_date(stamp, zone)
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


# ---------------------------------------------------------------------- asking when

_WHEN_UNIT = r"(?:day|week|weekend|month|year|summer|winter|spring|autumn|night|morning|evening)s?"
_ASKS_WHEN = re.compile(
    r"(?:^|[.?!]\s)\W*(?:when|since when|how long"
    r"|what (?:year|month|day|date|time)|how many (?:days|weeks|months|years))\b",
    re.IGNORECASE)
_TELLS_WHEN = re.compile(
    rf"\b(?:{_MONTH_WORD}|{_WEEKDAY}|(?:19|20)\d\d"
    r"|yesterday|today|tomorrow|tonight|ago|recently|since"
    rf"|(?:last|next|this|past|coming|previous)\s+(?:{_WHEN_UNIT}|{_WEEKDAY})"
    rf"|(?:\d+|{'|'.join(c for c in _COUNTS if ' ' not in c)}|few|several)\s+{_WHEN_UNIT})\b",
    re.IGNORECASE)


def asks_when(prompt: str) -> bool:
    """Whether PROMPT asks for a time: a sentence of it starts with `when`, `how long`..."""
    return _ASKS_WHEN.search(prompt) is not None


def tells_when(text: str) -> bool:
    """Whether TEXT says when something happened: a month, a day of the week, a year, or a
    relative time (`yesterday`, `last week`, `3 years ago`, `since`)."""
    return _TELLS_WHEN.search(text) is not None
