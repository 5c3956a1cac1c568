"""Relative dates ("tomorrow", 下周五) written as the ISO dates they meant when said."""

from __future__ import annotations

import datetime
import re

from memcli.rules.patterns import lazy

# --------------------------------------------------------------------------- dates

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS = "一二三四五六日"
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_DATE_EN_RE = lazy(
    r"\b(?:(?:the\s+)?day after tomorrow|tomorrow|today|yesterday|next week|"
    r"(?P<which>next|this)\s+(?P<day>" + "|".join(_WEEKDAYS) + r")|"
    r"in\s+(?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?P<unit>days?|weeks?))\b", re.I)
_DATE_ZH_RE = lazy(
    r"大后天|后天|明天|今天|昨天|(?P<which>下|这|本)(?:周|星期|礼拜)(?P<day>[一二三四五六日天])"
    r"|下(?:周|星期|礼拜)(?![一二三四五六日天])")
_DATE_EN_RE.needs = ("tomorrow", "week", "day")  # "today", weekdays and "in 3 days" hold "day"
_DATE_ZH_RE.needs = ("天", "周", "星期", "礼拜")


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
    if word == "next week":
        return "the week of " + _monday(today, 1).isoformat()
    if match.group("day"):
        # "next Friday" is the Friday of next week (as 下周五); "this Friday" of this week.
        ahead = 1 if match.group("which").lower() == "next" else 0
        day = _WEEKDAYS.index(match.group("day").lower())
        return (_monday(today, ahead) + datetime.timedelta(days=day)).isoformat()
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
    if match.group("day") is None:
        return _monday(today, 1).isoformat() + " 那一周"
    ahead = 1 if match.group("which") == "下" else 0
    day = 6 if match.group("day") == "天" else _ZH_WEEKDAYS.index(match.group("day"))
    return (_monday(today, ahead) + datetime.timedelta(days=day)).isoformat()
