"""Statements whose cue is weaker than "remember": an aside ("fyi", "heads up", 备注), a
scope ("in this repo we …"), and a fact set right after a "no," ("that's wrong, the cache
TTL is 5 minutes"). Each is kept only when what follows has the shape of something that
lasts: the same words before news ("fyi I pushed a fix"), a request or a pointer at the
screen keep nothing."""

from __future__ import annotations

import re

from memcli.extraction.rules.model import Hit
from memcli.extraction.rules.patterns import INSTRUCTION_VERBS, lazy
from memcli.extraction.rules.sentences import PH, is_cjk, restore
from memcli.extraction.rules.topics import pair_category

# --------------------------------------------------------------------------- asides

# News, not a lasting fact: the person themselves ("I pushed", "my machine"), a pointer at
# what is on the screen, a moment, something happening or done.
_NEWS_EN = lazy(
    r"\b(?:i|i'm|im|i've|i'll|i'd|me|my|mine)\b|^(?:it|it's|its|that|that's|they|there|"
    r"here)\b|\b(?:this|these|those|today|tonight|tomorrow|yesterday|now|later|soon|again|"
    r"yet|already|just|currently|right now|at the moment|for now|anymore|recently|lately|"
    r"was|were|did|didn't|had|got|broke|went|came|found|wait)\b"
    # a time of one day: "the demo is at 3pm", "… on friday"
    r"|\b(?:at|by|until|till)\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?\b|\b\d{1,2}(?::\d\d)?\s*(?:am|pm)\b"
    r"|\bon\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
    r"|\b(?:is|are|am|'s|'re)\s+(?:\w+ing)\b"
    # a state of the moment: "the api is down", "the PR is merged", "tests pass on ci"
    r"|\b(?:is|are|'s|'re)\s+(?:(?:still|all|also|a bit|kind of)\s+)?(?:down|up|broken|green|"
    r"red|done|merged|fixed|ready|live|out|slow|flaky|back|deployed|released|open|closed|stuck|"
    r"finished|complete|completed|gone|over|busy|blocked|working|updated|outdated|fine|ok|"
    r"okay|good|bad|better|worse|weird|wrong|missing|empty|full|failing|passing|red)\b"
    r"|\b(?:pass|passes|fail|fails|works|breaks|crashes|hangs|left|if you need|if needed)\b"
    # a past tense, not the participle of a passive ("is generated from", "are owned by")
    r"|(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bget )(?<!\bgets )(?<!\bbeen )\b[a-z]{2,}(?<!e)ed\b",
    re.I)
# A statement of how things are: a copula, a modal, or a verb in the present.
_STATES_EN = lazy(
    r"\b(?:is|are|isn't|aren't|has|have|must|should|shouldn't|can't|cannot|won't|doesn't|"
    r"don't|only|always|never|needs?|requires?)\b|^(?:we|you)\s+\w+"
    r"|^\S+(?:\s+\S+){0,4}?\s+[a-z]{3,}(?<![su])s\b", re.I)
_NEWS_ZH = lazy(
    r"我(?!们)|了|已经|刚|正在|还没|一下|吧|[这那](?!样|个项目|个仓库|个代码库)|今天|明天|昨天|现在|刚才|待会|下午|上午|"
    r"晚上|吗|呢")
_MIN_ASIDE_WORDS = 4


def lasting_aside(text: str, slots: list[str]) -> bool:
    """Whether the words after an aside ("fyi", 备注) state a lasting fact."""
    plain = restore(text, slots)
    if any(is_cjk(ch) for ch in plain):
        return len(plain) >= _MIN_ASIDE_WORDS and not _NEWS_ZH.search(plain)
    return (len(plain.split()) >= _MIN_ASIDE_WORDS and not _NEWS_EN.search(plain)
            and bool(_STATES_EN.search(plain)))


# --------------------------------------------------------------------------- scope

# After "in this repo,": "we <verb> …" of a habit, not "we have a bug in the router".
_WE_HABIT_RE = lazy(
    r"we\s+(?:(?:always|never|don't|do not|only|usually|generally|normally|typically|all|also|"
    r"mostly)\s+)?(?!(?:have|had|got|found|saw|need to fix|broke|were|are|was)\b)"
    r"(?:" + INSTRUCTION_VERBS + r"|squash|stick|target|treat|write|name|keep)\b\s+\S"
    r"|(?:我们|咱们)?(?:统一|都|一律|一般|通常|只|不|从不)?(?:用|使用|采用|写|放|遵循|按|要|不用)\S",
    re.I)


# ... or what every one of a kind is: "errors are wrapped with fmt.Errorf".
_KIND_IS_RE = lazy(r"[a-z][\w-]*s\s+(?:are|must be|should be)\s+(?!\w+ing\b)\w+\s+\S", re.I)


def find_scoped(text: str) -> Hit | None:
    """ "in this repo we keep one component per file", after "in this repo": a habit of
    the project."""
    if (_WE_HABIT_RE.match(text) or _KIND_IS_RE.match(text)) and not _NEWS_ZH.search(text):
        return Hit("rule", text, rule="what the project does, said of it")
    return None


# --------------------------------------------------------------------------- corrected facts

# After "no,": "it's X, not Y" puts the right thing beside the wrong one ("no, it's `make
# check`, not `make test`", 不对，是 pnpm 不是 npm). X and Y are names, not "fine" or "the
# other one".
_ITS_NOT_EN = lazy(
    r"(?:it's|it is|its|that's|that is|it should be|should be|we're on|we are on|we use)\s+"
    r"(?P<x>(?!not\b|the other\b|fine\b|ok\b|okay\b|that\b|this\b)\S+(?:\s+\S+){0,3}?)"
    r"\s*+,?\s*+(?:not|rather than|instead of)\s+(?P<y>(?!a\b|an\b|the\b|that\b|this\b)\S+"
    r"(?:\s+\S+){0,3})", re.I)
_ITS_NOT_ZH = lazy(
    r"(?:应该)?是\s*(?P<x>[^，,。\s这那][^，,。]{0,20}?)\s*[，,]?\s*(?:而)?不是\s*(?P<y>[^，,。]{1,20})")
# "that's wrong, the cache TTL is 5 minutes", 错了，API 的版本是 v3: a setting and its value,
# which holds a number, a name in code, a path or a link; not news about a bug or a test.
_SETTING_IS_EN = lazy(
    r"(?:the|our)\s+(?!(?:bug|problem|issue|error|fix|cause|reason|test|tests|result|results|"
    r"output|failure|failures|function|method|file|one|other|code|thing|point|question|answer|"
    r"pr|prs|commit|build|ci|job|run|ticket|line|page|step|count|number|total|score)\b)"
    r"(?P<what>[\w.-]+(?:\s+[\w.-]+){0,3}?)\s+(?:is|are)\s+(?:in\s+|at\s+|on\s+)?"
    r"(?P<value>(?:" + PH + r"|[^\s,]*\d[^\s,]*|[\w.-]+/[\w./-]*|\S+\.\S+)(?:\s+\S+){0,2})",
    re.I)
_SETTING_IS_ZH = lazy(
    r"(?P<what>(?!这|那)[^，,。是]{2,12}?)(?:是|为|在)\s*(?P<value>[^，,。\s]*[0-9A-Za-z"
    "\ue000][^，,。]{0,20})")
# "it's 2 failures now, not 3", 是 2 个失败: a count of the moment, not a setting
_MOMENT_RE = lazy(r"\b(?:now|still|yet|left|today|anymore|failures?|errors?|failing|broken|"
                  r"passing)\b|失败|报错|错误|\d\s*个", re.I)


def of_the_moment(text: str) -> bool:
    """Whether a correction counts or reports the moment ("2 failures now, not 3")."""
    return bool(_MOMENT_RE.search(text))


_DOING_RE = lazy(r"\b\w+ing\b|失败|报错|挂", re.I)


def find_corrected_fact(text: str, slots: list[str]) -> Hit | None:
    """A fact put right after a "no," / 不对，: "it's X, not Y", "the TTL is 5 minutes"."""
    match = _ITS_NOT_EN.fullmatch(text) or _ITS_NOT_ZH.fullmatch(text)
    if match and not of_the_moment(text):
        x = restore(match.group("x").strip(" ,，`"), slots)
        y = restore(match.group("y").strip(" ,，.。`"), slots)
        cjk = any(is_cjk(ch) for ch in x + y)
        title = pair_category(x, y) or (f"用{x}，不用{y}" if cjk else f"Use {x}, not {y}")
        return Hit("correction", text, title, rule="a correction (it is X, not Y)")
    match = _SETTING_IS_EN.fullmatch(text) or _SETTING_IS_ZH.fullmatch(text)
    if match and not _DOING_RE.search(match.group("what")) and not _NEWS_ZH.search(text):
        return Hit("correction", text, rule="a fact put right")
    return None


# Only after a "no" are these tried, so the words they need are not listed: a word as
# common as "is" would make every clause's one scan for needed words (patterns.py) longer.
