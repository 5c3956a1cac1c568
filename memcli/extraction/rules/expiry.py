"""When a time-bound statement stops being true: the ``expires`` date the rules give a note.

"Use the staging cluster until Friday", "during the code freeze, merge only fixes", "本周内
别动 main 分支": true now, wrong next month. The content holds ISO dates already where the
person gave a relative one (:mod:`.dates`); what is left here is the phrase that bounds the
statement. A bound with a day gives that day; "this week"/本周 the coming Sunday, "this
month"/本月 its last day; a bound without a day ("during the freeze", "for now", 暂时) gives
a fortnight, the common length of a freeze or a sprint, so that the note is reviewed rather
than kept forever.
"""

from __future__ import annotations

import datetime
import re

from memcli.extraction.rules.patterns import lazy

OPEN_ENDED_DAYS = 14
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_DAYS = "一二三四五六日天"

_UNTIL_DATE = lazy(r"\b(?:until|till|til|through|thru|up to|by)\s+(?:the\s+)?"
                   r"(?P<date>\d{4}-\d{2}-\d{2})\b", re.I)
_UNTIL_DATE.needs = ("until", "till", "til", "through", "thru", "up to", "by")
_UNTIL_WEEKDAY = lazy(r"\b(?:until|till|through|by)\s+(?:this\s+)?(?P<day>" + "|".join(_WEEKDAYS)
                      + r")\b", re.I)
_UNTIL_WEEKDAY.needs = ("until", "till", "through", "by")
_THIS_WEEK = lazy(r"\b(?:this|for the rest of the)\s+week\b|\buntil the end of the week\b",
                  re.I)
_THIS_WEEK.needs = ("week",)
_THIS_MONTH = lazy(r"\b(?:this|for the rest of the)\s+month\b|\buntil the end of the month\b",
                   re.I)
_THIS_MONTH.needs = ("month",)
_OPEN_EN = lazy(r"\b(?:during|while)\s+(?:the|this|our)\s+[\w-]+(?:\s+[\w-]+)?\s*"
                r"(?:freeze|sprint|migration|outage|incident|release|launch|rollout|"
                r"maintenance|window)\b|\bfor now\b|\bfor the time being\b|\buntil further "
                r"notice\b|\bthis sprint\b", re.I)
_OPEN_EN.needs = ("during", "while", "for now", "time being", "further notice", "sprint")
_ZH_DATE = lazy(r"(?P<date>\d{4}-\d{2}-\d{2})\s*(?:之前|以前|前|为止|截止)")
_ZH_DATE.needs = ("之前", "以前", "前", "为止", "截止")
_ZH_WEEK = lazy(r"(?:本|这)(?:周|星期|礼拜)(?:内|之内|结束前|[^" + _ZH_DAYS + r"])"
                r"|(?:本|这)(?:周|星期|礼拜)$")
_ZH_WEEK.needs = ("周", "星期", "礼拜")
_ZH_MONTH = lazy(r"(?:本|这个)月(?:内|之内|底前|底之前)")
_ZH_MONTH.needs = ("月",)
_ZH_OPEN = lazy(r"冻结期间|封版期间|(?:在|于).{0,8}期间|暂时|目前先|这个迭代|本次迭代")
_ZH_OPEN.needs = ("期间", "暂时", "目前先", "迭代")


def expires_for(content: str, today: datetime.date) -> str | None:
    """The ISO date after which ``content`` (dates already absolute) is no longer true."""
    for finder in (_dated, _weekday, _week, _month, _open_ended):
        found = finder(content, today)
        if found is not None:
            return found.isoformat()
    return None


def _dated(content: str, today: datetime.date) -> datetime.date | None:
    match = _UNTIL_DATE.search(content) or _ZH_DATE.search(content)
    if match is None:
        return None
    try:
        day = datetime.date.fromisoformat(match["date"])
    except ValueError:
        return None
    return day if day >= today else None


def _weekday(content: str, today: datetime.date) -> datetime.date | None:
    match = _UNTIL_WEEKDAY.search(content)
    if match is None:
        return None
    ahead = (_WEEKDAYS.index(match["day"].lower()) - today.weekday()) % 7
    return today + datetime.timedelta(days=ahead)


def _week(content: str, today: datetime.date) -> datetime.date | None:
    if _THIS_WEEK.search(content) or _ZH_WEEK.search(content):
        return today + datetime.timedelta(days=6 - today.weekday())
    return None


def _month(content: str, today: datetime.date) -> datetime.date | None:
    if _THIS_MONTH.search(content) or _ZH_MONTH.search(content):
        first_next = (today.replace(day=28) + datetime.timedelta(days=4)).replace(day=1)
        return first_next - datetime.timedelta(days=1)
    return None


def _open_ended(content: str, today: datetime.date) -> datetime.date | None:
    if _OPEN_EN.search(content) or _ZH_OPEN.search(content):
        return today + datetime.timedelta(days=OPEN_ENDED_DAYS)
    return None
