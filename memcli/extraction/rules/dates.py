"""Relative dates ("tomorrow", 下周五) written as the ISO dates they meant when said."""

from __future__ import annotations

import datetime
import re

from memcli.extraction.rules.patterns import lazy

# --------------------------------------------------------------------------- dates

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS = "一二三四五六日"
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_DATE_EN_RE = lazy(
    r"\b(?:(?:the\s+)?day after tomorrow|tomorrow|today|yesterday|next week|last week|"
    r"the other day|a few days ago|"
    r"(?P<which>next|this|last)\s+(?P<day>" + "|".join(_WEEKDAYS) + r")|"
    r"in\s+(?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?P<unit>days?|weeks?))\b", re.I)
_DATE_ZH_RE = lazy(
    r"大后天|后天|明天|今天|昨天|前几天|前些天|(?P<which>下|这|本|上)(?:周|星期|礼拜)"
    r"(?P<day>[一二三四五六日天])|(?P<week>下|上)(?:周|星期|礼拜)(?![一二三四五六日天末])")
# "today", weekdays, "the other day" and "in 3 days" hold "day"
_DATE_EN_RE.needs = ("tomorrow", "week", "day")
_DATE_ZH_RE.needs = ("天", "周", "星期", "礼拜")  # 前几天 holds 天


def absolute_dates(text: str, today: datetime.date) -> str:
    """Relative dates become ISO dates: a note is read long after the day it was written."""
    text = _DATE_EN_RE.sub(lambda m: _english_date(m, today), text)
    return _DATE_ZH_RE.sub(lambda m: _chinese_date(m, today), text)


def _monday(today: datetime.date, weeks_ahead: int) -> datetime.date:
    return today - datetime.timedelta(days=today.weekday()) + datetime.timedelta(weeks=weeks_ahead)


def _english_date(match: re.Match[str], today: datetime.date) -> str:
    word = " ".join(match.group(0).lower().split())
    fixed = {"today": 0, "tomorrow": 1, "yesterday": -1, "day after tomorrow": 2,
             "the day after tomorrow": 2}
    if word in fixed:
        return (today + datetime.timedelta(days=fixed[word])).isoformat()
    if word in ("next week", "last week"):
        return "the week of " + _monday(today, 1 if word == "next week" else -1).isoformat()
    if word in ("the other day", "a few days ago"):
        return "a few days before " + today.isoformat()  # no one day in particular
    if match.group("day"):
        return _weekday(match.group("which").lower(), _WEEKDAYS.index(match.group("day").lower()),
                        today).isoformat()
    amount = match.group("n").lower()
    count = int(amount) if amount.isdigit() else _NUMBER_WORDS[amount]
    days = count * (7 if match.group("unit").lower().startswith("week") else 1)
    return (today + datetime.timedelta(days=days)).isoformat()


def _chinese_date(match: re.Match[str], today: datetime.date) -> str:
    # 明天发布 -> "2026-05-13 发布": an ISO date glued to Han characters is hard to read.
    before = match.string[match.start() - 1:match.start()]
    after = match.string[match.end():match.end() + 1]
    lead = " " if before and not before.isspace() and before not in "（(“\"" else ""
    trail = " " if after and not after.isspace() and after not in "，。,.!！？?、；;）)”\"" else ""
    return lead + _chinese_date_text(match, today) + trail


def _chinese_date_text(match: re.Match[str], today: datetime.date) -> str:
    fixed = {"今天": 0, "明天": 1, "后天": 2, "大后天": 3, "昨天": -1}
    word = match.group(0)
    if word in fixed:
        return (today + datetime.timedelta(days=fixed[word])).isoformat()
    if word in ("前几天", "前些天"):
        return today.isoformat() + " 的前几天"
    if match.group("day") is None:
        return _monday(today, 1 if match.group("week") == "下" else -1).isoformat() + " 那一周"
    which = {"下": "next", "上": "last"}.get(match.group("which"), "this")
    day = 6 if match.group("day") == "天" else _ZH_WEEKDAYS.index(match.group("day"))
    if which == "last":
        return (_monday(today, -1) + datetime.timedelta(days=day)).isoformat()  # 上周二
    return _weekday(which, day, today).isoformat()


def _weekday(which: str, day: int, today: datetime.date) -> datetime.date:
    """ "next Friday" is the Friday of next week (as 下周五), "this Friday" of this week,
    "last Friday" the last Friday before today."""
    if which == "last":
        return today - datetime.timedelta(days=(today.weekday() - day) % 7 or 7)
    return _monday(today, 1 if which == "next" else 0) + datetime.timedelta(days=day)
