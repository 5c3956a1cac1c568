"""Preferences: "I prefer …", "I'd rather you …", "I like / love …", 我更喜欢…, 我宁愿你….

A preference is the person's, and follows them from project to project. "I would like to
enrol" is a request, "I love how you tell it" praise, "I'd rather you fix the login first"
today's order; "I love the ocean" or "I like to collect jerseys" name their life, not the
work.
"""

from __future__ import annotations

import re

from memcli.extraction.rules.chat import is_gerund, names_the_work
from memcli.extraction.rules.model import Hit, State
from memcli.extraction.rules.patterns import POINTER_RE, PatternGroup, lazy
from memcli.extraction.rules.sentences import restore
from memcli.extraction.rules.topics import use_category

_PREFER_RES = (
    # "I would like to enrol" is a request; only "I'd prefer/rather" states a preference.
    # "I'd rather you use f-strings than .format()", "I'd prefer it if you didn't add
    # comments": a preference about how the assistant works, when it names a habit (a verb
    # of _HABIT_RE) or a comparison; "I'd rather you fix the login first" is today's order.
    lazy(r"i(?:'d|\s+would)\s+(?:(?:really|much|still)\s+)?(?:prefer|rather)\s+"
         r"(?:(?:that|it if)\s+)?you\s+(?:to\s+)?(?P<you>.+)", re.I),
    lazy(r"i(?:'d|\s+would)\s+(?:(?:really|much|still)\s+)?(?:prefer|rather)\s+"
               r"(?P<rest>.+)", re.I),
    lazy(r"i\s+(?:(?:really|strongly|generally|usually|much|also|do|definitely|"
               r"personally|always|still)\s+)*(?P<verb>prefer|like|love|dislike|don't like|"
               r"do not like|can't stand|cannot stand)\s+(?P<rest>.+)", re.I),
    lazy(r"my\s+preference\s+is\s+(?:for\s+|to\s+)?(?P<rest>.+)", re.I),
    lazy(r"我(?:个人)?(?:更|比较|还是|一般|通常|非常|很|真的|特别|最)*"
               r"(?:喜欢|偏好|倾向于|偏爱|习惯|讨厌|不喜欢|(?:宁愿|宁可|希望)你?)(?P<rest>.+)"),
)
_VAGUE_OBJECT_RE = lazy(
    # "I love how you tell it" praises; "Yeah, I love to" agrees
    r"^(?:(?:it|this|that|these|those|them|your|you|the idea|how|what|when)\b|to\s*$|你|这|那|它)",
    re.I)


_HABIT_RE = lazy(
    # "I'd rather you didn't touch the lockfile": any verb, when it is what not to do
    r"^(?:didn't|did not|don't|do not|not|never)\s+(?!do\b|say\b|go\b)[a-z]+\b.*\s\S"
    r"|^(?:(?:didn't|did not|don't|do not|not|never|always)\s+)?(?:use|used|write|wrote|keep|"
    r"kept|ask|asked|avoid|avoided|stick|stuck|put|name|named|add|added|run|ran|leave|left|"
    r"follow|followed|explain|explained|answer|answered|reply|replied|split|mock|mocked|pin|"
    r"pinned|log|logged|commit|committed|push|pushed|check|checked|stop|stopped|skip|"
    r"skipped)\b.*\s\S|.*\b(?:than|over|instead of|rather than)\s+\S", re.I)


def find_prefer(text: str, slots: list[str], state: State) -> Hit | None:
    for pattern in _PREFERS.candidates(text):
        match = pattern.fullmatch(text)
        if match is None:
            continue
        you = match.groupdict().get("you")
        if you is not None:
            return Hit("prefer", text) if _HABIT_RE.match(you) and not POINTER_RE.search(
                you) else None
        rest = match.group("rest")
        if not _VAGUE_OBJECT_RE.match(rest) and not _fond_of_life(match, restore(rest, slots)):
            return Hit("prefer", text, use_category(restore(rest, slots)))
    return None


# "I love the ocean", "I like to collect jerseys", "I love baking": fond words that name a
# way of working only when they name the work ("I love small, focused PRs").
_LIKED_THING_RE = lazy(r"^(?:(?:all\s+)?(?:the|his|her|their|our|its)\b|to\s|\w+ing\b)", re.I)


def _fond_of_life(match: re.Match[str], rest: str) -> bool:
    verb = (match.groupdict().get("verb") or "").lower()
    if verb in ("", "prefer") or names_the_work(rest) or use_category(rest):
        return False
    first = rest.split()[0] if rest.split() else ""
    return bool(_LIKED_THING_RE.match(rest)) and (
        not first.lower().endswith("ing") or is_gerund(first))



_PREFER_RES[0].needs = _PREFER_RES[1].needs = ("prefer", "rather")
_PREFER_RES[2].needs = ("prefer", "like", "love", "can't stand", "cannot stand")
_PREFER_RES[3].needs = ("preference",)
_PREFER_RES[4].needs = ("喜欢", "偏好", "倾向于", "偏爱", "习惯", "讨厌", "宁愿", "宁可", "希望")
_PREFERS = PatternGroup(*_PREFER_RES)
