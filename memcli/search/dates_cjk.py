"""Chinese date expressions (and the Japanese words written the same way).

`昨天我们做了什么？`, `上周改了什么`, `三天前的笔记`, `3月5日决定了什么`: Chinese names days
with words of its own, and numbers in digits or in characters (`三`, `十二`, `两`). Absolute
dates (`2026年11月20日`, `2026年11月`) are read on their own; the rest counts from the day
the prompt is asked (:mod:`memcli.search.dates` reads them only when that day is given).
Japanese shares `昨日`, `今日`, `先週`, `今週`, `先月`, `今月`, `去年`, `今年` and the
`3月5日` form.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

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
    weekend,
    year_months,
)

_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")} | {"零": 0, "两": 2}
_NUMBER = r"(\d{1,2}|[〇零一二两三四五六七八九十]{1,3})"
_WEEK = r"(?:个)?(?:周|星期|礼拜)"
_WEEKDAYS = {c: i for i, c in enumerate("一二三四五六")} | {"日": 6, "天": 6}
_WEEKDAY = r"([一二三四五六日天])"


def number(text: str) -> int:
    """A count written in digits or in Chinese characters (`3`, `三`, `十二`, `二十`), 0 for
    what is not one."""
    if text.isdigit():
        return int(text)
    if "十" not in text:
        return _DIGITS.get(text, 0) if len(text) == 1 else 0
    tens, _, units = text.partition("十")
    if (tens and tens not in _DIGITS) or (units and units not in _DIGITS):
        return 0
    return (_DIGITS[tens] if tens else 1) * 10 + (_DIGITS[units] if units else 0)


def _read_ago(match: re.Match[str], today: date) -> tuple[Days, Months]:
    count, unit = number(match.group(1)), match.group(2)
    if count == 0:
        return [], []
    if unit.endswith("月"):
        return [], [month_back(today, count)]
    if unit == "天":
        return [today - timedelta(days=count)], []
    return week_of(today - timedelta(days=7 * count), today), []


def _week(back: int) -> Reader:
    def read(_match: re.Match[str], today: date) -> tuple[Days, Months]:
        return week_of(today - timedelta(days=7 * back), today), []

    return read


def _month(back: int) -> Reader:
    def read(_match: re.Match[str], today: date) -> tuple[Days, Months]:
        return [], [month_back(today, back)]

    return read


def _year(back: int) -> Reader:
    def read(_match: re.Match[str], today: date) -> tuple[Days, Months]:
        return [], year_months(today.year - back, today)

    return read


def _read_weekday_of_week(back: int) -> Reader:
    """`上周一` (Monday of last week), `这周一` (of this week)."""
    def read(match: re.Match[str], today: date) -> tuple[Days, Months]:
        monday = today - timedelta(days=today.weekday() + 7 * back)
        day = monday + timedelta(days=_WEEKDAYS[match.group(1)])
        return ([day] if day <= today else []), []

    return read


def _weekend(last: bool) -> Reader:
    def read(_match: re.Match[str], today: date) -> tuple[Days, Months]:
        return weekend(today, last), []

    return read


def _read_weekday(match: re.Match[str], today: date) -> tuple[Days, Months]:
    """`周一` alone: the last Monday before today, as English `on Monday`."""
    back = (today.weekday() - _WEEKDAYS[match.group(1)]) % 7 or 7
    return [today - timedelta(days=back)], []


def _read_day(match: re.Match[str], today: date) -> tuple[Days, Months]:
    return latest_day(number(match.group(1)), number(match.group(2)), today), []


def _read_month(match: re.Match[str], today: date) -> tuple[Days, Months]:
    return [], latest_month(number(match.group(1)), today)


READERS: tuple[tuple[re.Pattern[str], Reader], ...] = tuple(
    (re.compile(pattern), reader) for pattern, reader in (
        (r"前几天|前些天|前两天|前些日子", other_day),
        (r"前天", fixed(2)),
        (r"昨天|昨日|昨晚|昨儿", fixed(1)),
        (r"今天|今日|今早|今晚|今儿", fixed(0)),
        (rf"{_NUMBER}\s*(天|{_WEEK}|个月)(?:以)?前", _read_ago),
        (r"上(?:个)?周末", _weekend(True)),
        (r"(?:这|本)?(?:个)?周末", _weekend(False)),
        (rf"上{_WEEK}{_WEEKDAY}", _read_weekday_of_week(1)),
        (rf"(?:这|本){_WEEK}{_WEEKDAY}", _read_weekday_of_week(0)),
        (rf"(?:上{_WEEK}|先週)", _week(1)),
        (rf"(?:(?:这|本){_WEEK}|今週)", _week(0)),
        (rf"(?<![上这本个]){_WEEK.removeprefix('(?:个)?')}{_WEEKDAY}", _read_weekday),
        (r"上个?月|先月", _month(1)),
        (r"这个?月|本月|今月", _month(0)),
        (r"去年", _year(1)),
        (r"今年", _year(0)),
        (rf"{_NUMBER}\s*月\s*{_NUMBER}\s*[日号號]", _read_day),
        (rf"(?<![个個]){_NUMBER}\s*月(?!\s*[前内])", _read_month),
    ))

_FULL_DAY = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]")
_FULL_MONTH = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月")


def read_absolute(text: str, found: Found) -> None:
    """`2026年11月20日` (a day) and `2026年11月` (a month) into FOUND."""
    for match in _FULL_DAY.finditer(text):
        found.take(match, (day_of(*map(int, match.groups())), []))
    for match in _FULL_MONTH.finditer(text):
        month = int(match.group(2))
        if not found.overlaps(match) and 1 <= month <= 12:
            found.take(match, ([], [(int(match.group(1)), month)]))
