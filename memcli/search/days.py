"""Calendar arithmetic for the dates a prompt names, and the reader that collects them.

A date expression is read by a :data:`Reader`: a regular expression's match, and the day
the prompt is asked, to the days and months it names. :class:`Found` runs readers over a
prompt in order, so that a longer form read first ("3 March") keeps a shorter one inside
it ("March") from being read again.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

Days = list[date]
Months = list[tuple[int, int]]  # (year, month)
Reader = Callable[[re.Match[str], date], tuple[Days, Months]]


def day_of(year: int, month: int, day: int) -> Days:
    """[that day], or [] when there is no such day ("31 February")."""
    with contextlib.suppress(ValueError):
        return [date(year, month, day)]
    return []


def latest_day(month: int, day: int, today: date) -> Days:
    """The last MONTH/DAY on or before TODAY ("3 March" asked in November: this year's)."""
    for year in (today.year, today.year - 1):
        found = day_of(year, month, day)
        if found and found[0] <= today:
            return found
    return []


def latest_month(month: int, today: date) -> Months:
    """The last MONTH up to TODAY's ("in March" asked in November: this year's)."""
    if not 1 <= month <= 12:
        return []
    return [(today.year if month <= today.month else today.year - 1, month)]


def week_of(day: date, today: date) -> Days:
    """The days of DAY's week (Monday to Sunday), none after TODAY."""
    monday = day - timedelta(days=day.weekday())
    week = (monday + timedelta(days=i) for i in range(7))
    return [d for d in week if d <= today]


def month_back(today: date, back: int) -> tuple[int, int]:
    """(year, month) BACK months before TODAY's month."""
    index = today.year * 12 + today.month - 1 - back
    return index // 12, index % 12 + 1


def year_months(year: int, today: date) -> Months:
    """The months of YEAR up to TODAY's."""
    return [(year, m) for m in range(1, 13) if (year, m) <= (today.year, today.month)]


def weekday_before(today: date, weekday: int) -> date:
    """The last WEEKDAY (0 = Monday) before TODAY: "on Monday" asked on a Monday is a week ago."""
    return today - timedelta(days=(today.weekday() - weekday) % 7 or 7)


def weekend(today: date, last: bool) -> Days:
    """The weekend a prompt means, none of it after TODAY: `last weekend` (that of last
    week), `the weekend` (the one under way on a Saturday or Sunday, else the last one)."""
    back = 1 if last or today.weekday() < 5 else 0
    saturday = today - timedelta(days=today.weekday() + 7 * back - 5)
    return [d for d in (saturday, saturday + timedelta(days=1)) if d <= today]


def fixed(back: int) -> Reader:
    """A reader for a word that names one day BACK days before the prompt's (`yesterday`)."""
    def read(_match: re.Match[str], today: date) -> tuple[Days, Months]:
        return [today - timedelta(days=back)], []

    return read


def other_day(_match: re.Match[str], today: date) -> tuple[Days, Months]:
    """ "the other day", "a few days ago", 前几天: some days ago, not one of them in
    particular (two to a week before the prompt's day)."""
    return [today - timedelta(days=back) for back in range(2, 8)], []


# "since last Tuesday", "since March", 上周二以来, 自从三天前: a time from then up to the day
# the prompt is asked, not that day alone. 从…开始 needs both its words ("从 3 月 5 日到 3 月
# 10 日" is a span of its own).
_SINCE_BEFORE = re.compile(r"(?:\b(?:ever\s+)?since|自从)\s*$", re.IGNORECASE)
_SINCE_AFTER = re.compile(r"\s*(?:以来|至今|到现在|到今天)")
_FROM_BEFORE = re.compile(r"从\s*$")
_FROM_AFTER = re.compile(r"\s*(?:开始|起)")
# A range longer than this is read as the months it covers: a prompt names a few days.
RANGE_DAYS = 31


def since(match: re.Match[str], read: tuple[Days, Months],
          today: date) -> tuple[tuple[Days, Months], tuple[int, int]]:
    """READ, or the days (or months) from its first up to TODAY when the words around MATCH
    say "since"; and the span of the words read (with 以来, 自从…, which ask nothing else)."""
    start, end = match.span()
    text = match.string
    before = _SINCE_BEFORE.search(text, max(0, start - 12), start)
    after = _SINCE_AFTER.match(text, end)
    if before is None and after is None:
        before = _FROM_BEFORE.search(text, max(0, start - 4), start)
        after = _FROM_AFTER.match(text, end) if before else None
        before = before if after else None
    if before is None and after is None:
        return read, (start, end)
    span = (before.start() if before else start, after.end() if after else end)
    return _up_to(read, today), span


def _up_to(read: tuple[Days, Months], today: date) -> tuple[Days, Months]:
    first = min([*read[0], *(date(year, month, 1) for year, month in read[1])], default=today)
    if first >= today:
        return read
    if (today - first).days < RANGE_DAYS:
        return [first + timedelta(days=i) for i in range((today - first).days + 1)], []
    months = range(first.year * 12 + first.month - 1, today.year * 12 + today.month)
    return [], [(index // 12, index % 12 + 1) for index in months]


@dataclass
class Found:
    """The days, months and spans read from one prompt so far; with the day the prompt is
    asked (``today``), a date after "since" is read as the time from it up to that day."""

    days: Days = field(default_factory=list)
    months: Months = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    today: date | None = None
    # One byte per character of the prompt, set where a span lies: a pasted log can hold
    # thousands of date words, and comparing each with every span taken was quadratic.
    _taken: bytearray = field(default_factory=bytearray, repr=False)

    def overlaps(self, match: re.Match[str]) -> bool:
        start, end = match.span()
        return self._taken.find(1, start, end) != -1

    def take(self, match: re.Match[str], read: tuple[Days, Months]) -> None:
        start, end = match.span()
        if self.today is not None:
            read, (start, end) = since(match, read, self.today)
        self.days += read[0]
        self.months += read[1]
        self.spans.append((start, end))
        if len(self._taken) < end:
            self._taken.extend(bytes(end - len(self._taken)))
        self._taken[start:end] = b"\x01" * (end - start)

    def read(self, text: str, readers: Iterable[tuple[re.Pattern[str], Reader]],
             today: date) -> None:
        """Each reader's matches that no earlier match overlaps, in the readers' order."""
        for pattern, reader in readers:
            for match in pattern.finditer(text):
                if not self.overlaps(match):
                    self.take(match, reader(match, today))
