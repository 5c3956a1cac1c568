"""What a clause says once its cues are gone: a correction, a command, a reference, a rule…"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import replace

from memcli.extraction.rules.asides import (
    find_corrected_fact,
    find_scoped,
    lasting_aside,
    of_the_moment,
)
from memcli.extraction.rules.chat import is_gerund, own_plan
from memcli.extraction.rules.command_lines import find_command, find_reference
from memcli.extraction.rules.conventions import find_convention, find_personal_setup
from memcli.extraction.rules.imperatives import find_generic_imperative
from memcli.extraction.rules.layout import find_layout
from memcli.extraction.rules.model import Hit, State
from memcli.extraction.rules.patterns import (
    INSTRUCTION_VERBS,
    POINTER_RE,
    SHORTEST_TEXT,
    LazyPattern,
    PatternGroup,
    lazy,
)
from memcli.extraction.rules.preferences import find_prefer
from memcli.extraction.rules.sentences import is_cjk, restore
from memcli.extraction.rules.standing import REASON, find_fact, find_standing
from memcli.extraction.rules.topics import pair_category, style_topic, tool_category, use_category
from memcli.extraction.rules.uses import find_uses

# --------------------------------------------------------------------------- detection

_KINDS = {"correction": "a correction", "rule": "a rule", "prefer": "a preference",
          "fact": "a fact", "reference": "a link to look things up", "command": "a command",
          "behaviour": "how the assistant should behave"}


def statement_why(hit: Hit, state: State) -> str:
    """The cues seen and the kind of statement, as --explain shows them."""
    cues = [name for flag, name in ((state.remember, "'remember'"),
                                    (state.durable, "'from now on'"),
                                    (state.todo, "'remember to' with a recurring moment"),
                                    (state.corrective, "after a 'no'"),
                                    (state.aside, "an aside ('fyi', 'heads up')"),
                                    (state.scoped, "'in this repo'"))
            if flag]
    kind = hit.rule or _KINDS.get(hit.kind, hit.kind)
    return kind + (" (cue: " + ", ".join(cues) + ")" if cues else "")


def detect(state: State, slots: list[str]) -> Hit | None:
    text = state.text
    for detector, label in _DETECTORS:
        hit = detector(text, slots, state)
        if hit is not None:
            return hit if hit.rule else replace(hit, rule=label)
    if state.remember or ((state.durable or state.todo) and not own_plan(text)):
        # "I'll start journaling from now on" is the speaker's plan, not the assistant's rule
        return Hit("rule" if state.durable or state.todo else "fact", text)
    if state.aside and lasting_aside(text, slots):
        return Hit("fact", text, rule="a lasting fact told in passing ('fyi', 'heads up')")
    return find_scoped(text) if state.scoped else None


# What the choice is for, before its 用: "金额用分存整数", "这个项目用 pnpm". Reported speech
# ("他说用 yarn") is not the person's word.
_SUBJECT_ZH = r"(?P<subj>(?![^，,。]*?(?:说|觉得|认为|问|如果|要是|假如))[^，,。用]{0,12}?)"
_USE_VERB = (r"(?:(?:we\s+|you\s+should\s+|let's\s+|always\s+)?(?:use|switch to|go with|pick|"
             r"choose|stick with|stick to|should use)|(?:we're|we\s+are)\s+using)")
# What the choice is for, before it: "for repeatable installs use npm ci, not npm install".
_PURPOSE_LEAD = r"(?:(?:for|when|in)\s++[^,\s][^,]{0,40}?,?\s++)?"
_CORRECTION_RES = (
    # (?:\s*+,\s*+|\s++), not \s*,?\s+: that one tries every split of a run of spaces.
    lazy(_PURPOSE_LEAD + _USE_VERB + r"\s+(?P<x>\S+(?:\s+\S+){0,3}?)(?:\s*+,\s*+|\s++)"
         r"(?:instead of|rather than|not|over|and not|never|don't use|do not use)"
               r"\s+(?P<y>\S+(?:\s+\S+){0,3}?)(?:\s+(?:for|to|when|in|on|with)\s+.+)?$", re.I),
    lazy(r"(?:we\s+)?(?:don't|do not|never|stop)\s+(?:use|using)\s+(?P<y>.+?)\s*[,;:]?\s+"
               r"(?:use|we use|instead use|prefer|go with|switch to)\s+(?P<x>.+?)"
               r"(?:\s+instead)?$", re.I),
    # "we switched to ruff, stop using black", "我们换成 pnpm 了，别再用 npm": the move, then
    # what is left behind.
    lazy(r"(?:we(?:'ve|\s+have)?\s+)?(?:switched|moved|migrated)\s+(?:over\s+)?to\s+"
         r"(?P<x>\S+(?:\s+\S+){0,3}?)(?:\s+for\s+[^,;]+)?\s*[,;]\s*(?:so\s+)?(?:stop using|"
         r"don't use|do not use|never use|no more)\s+(?P<y>\S+(?:\s+\S+){0,3}?)"
         r"(?:\s+(?:anymore|any more|again))?", re.I),
    lazy(r"(?:我们)?(?:已经)?(?:换成|改成|迁移到|切换到|换到)(?:了)?\s*+(?P<x>[^，,]+?)(?<!\s)(?:了)?\s*+[，,]\s*+"
         r"(?:别|不要)(?:再)?(?:用|使用)\s*(?P<y>.+?)(?:了)?"),
    lazy(r"(?:不要|别|不)(?:再)?(?:用|使用)(?P<y>.+?)[，,、；;\s]*(?:了)?[，,]?\s*"
               r"(?:要|请|改|而是|应该|就)?(?:用|使用)(?P<x>.+)$"),
    lazy(_SUBJECT_ZH + r"(?:(?:要|请|应该|改)?(?:用|使用)|应该是|应是)(?P<x>" + SHORTEST_TEXT
         + r")\s*+(?:而不是|"
         r"而非|[，,]?\s*+(?:不要|别|不是|不用|不使用))(?:用|使用)?\s*(?P<y>.+)$"),
    lazy(_SUBJECT_ZH + r"(?:要|请|应该|改)?(?:用|使用)(?P<x>" + SHORTEST_TEXT + r")\s*+(?:来)?"
         r"(?:代替|替代|取代|替换)\s*(?P<y>.+)$"),
)
_DONT_USE_RES = (
    lazy(r"(?:don't|do not|never|stop)\s+(?:use|using)\s+(?P<y>.+)$", re.I),
    lazy(r"(?:不要|别)(?:再)?(?:用|使用)(?P<y>.+)$"),
)
_USE_INSTEAD_ALONE_RE = lazy(r"(?:use|we use|switch to)\s+(?P<x>.+?)\s+instead$", re.I)
_SIDE_TRIM = " \t，,。.!！了吧"


def find_correction(text: str, slots: list[str], state: State) -> Hit | None:
    head = _ReasonHead(text)
    for pattern in _CORRECTIONS.candidates(text):  # none of the others matches the head
        match = pattern.fullmatch(text) or head.choice(pattern)
        if match:
            x = restore(match.group("x").strip(_SIDE_TRIM), slots)
            y = restore(match.group("y").strip(_SIDE_TRIM), slots)
            return _correction_hit(text, x, y, _subject(match))
    for pattern in _DONT_USE_RES:
        match = pattern.fullmatch(text)
        if match:
            return _correction_hit(text, None, restore(match.group("y").strip(_SIDE_TRIM), slots))
    match = _USE_INSTEAD_ALONE_RE.fullmatch(text) if state.corrective else None
    if match:
        return _correction_hit(text, restore(match.group("x").strip(_SIDE_TRIM), slots), None)
    match = (_NOT_THAT_RE.fullmatch(text) or _NOT_THAT_ZH_RE.fullmatch(text)
             if state.corrective else None)
    if match and not of_the_moment(text):
        # "no, money is stored as Decimal, never float": the statement is the correction;
        # only a category ("…, don't use tabs" -> Indentation) gives it a shorter title.
        y = restore(match.group("y").strip(_SIDE_TRIM), slots)
        return Hit("correction", text, pair_category(None, y), frozenset({_term(y)}),
                   rule="correction")
    return find_corrected_fact(text, slots) if state.corrective else None


# "use npm instead of pnpm, the deploy box doesn't have pnpm": the choice, then why. The
# reason stays in the note; the choice is read without it.
_TRAILING_REASON_RE = lazy(r"(?P<head>" + SHORTEST_TEXT + r")(?:" + REASON
                           + r"|\s*+[，,；;]\s*+(?:因为|由于|毕竟|否则|不然|要不然).+)", re.I,
                           needs=(",", ";", "—", "–", "-", "，", "；"))


class _ReasonHead:
    """The clause without its trailing reason, found once for all the correction patterns:
    the reason's pattern tries every position of the clause, the costliest of the rules."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._head: str | bool | None = False  # False: not looked for yet

    def choice(self, pattern: LazyPattern) -> re.Match[str] | None:
        if self._head is False:
            reason = _TRAILING_REASON_RE.fullmatch(self.text)
            self._head = reason.group("head") if reason else None
        return pattern.fullmatch(self._head) if isinstance(self._head, str) else None


_NOT_THAT_RE = lazy(r"(?!(?:it|it's|this|that|that's|you|you're|he|she|they|i|i'm|there|"
                    r"the other|not)\b)(?P<x>.{3,}?)\s*,\s*(?:not|never|don't use|do not use|"
                    r"don't|rather than|instead of|and not)\s+(?P<y>.+)", re.I)
_NOT_THAT_ZH_RE = lazy(r"(?!(?:这|那|它|你|他|她))(?P<x>[^，,]{2,}?)\s*[，,]\s*"
                       r"(?:不要|别|不是|而不是|不用|不能)(?P<y>.+)")
_PROJECT_SUBJECT_RE = lazy(r"^(?:这个|本|我们的?|该)(?:项目|仓库|代码库|repo)(?:里|中)?$|^我们$")


def _subject(match: re.Match[str]) -> str:
    subject = (match.groupdict().get("subj") or "").strip()
    return "" if _PROJECT_SUBJECT_RE.match(subject) else subject


def _correction_hit(text: str, x: str | None, y: str | None, subject: str = "") -> Hit:
    # Only a choice ("use X") may take over the category's note; a bare "don't use Y" would
    # otherwise overwrite "use uv instead of pip" with less than it said.
    category = pair_category(x, y) if x else None
    if category is not None:
        return Hit("correction", text, category)
    terms = frozenset(_term(t) for t in (x, y) if t)
    cjk = any(is_cjk(ch) for ch in (x or "") + (y or ""))
    if x and y:
        title = f"{subject}用{x}，不用{y}" if cjk else f"Use {x}, not {y}"
    elif y:
        title = f"不要用{y}" if cjk else f"Don't use {y}"
    else:
        title = f"用{x}" if cjk else f"Use {x}"
    return Hit("correction", text, title, terms)


_TITLE_TERMS_RES = (
    lazy(r"^use (?P<x>.+), not (?P<y>.+)$", re.I),
    lazy(r"^用(?P<x>.+)，不用(?P<y>.+)$"),
    lazy(r"^(?:don't use|不要用) ?(?P<y>.+)$", re.I),
)


def title_terms(title: str) -> frozenset[str]:
    for pattern in _TITLE_TERMS_RES:
        match = pattern.match(title.strip())
        if match:
            return frozenset(_term(v) for v in match.groupdict().values() if v)
    return frozenset()


def _term(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text.replace("`", "")).casefold().split())



_ALWAYS_NEVER_RES = (
    lazy(r"(?:never,?\s+ever|don't you ever|do not ever|don't ever|always|allways|alwasy|alwyas|"
         r"never|under\s+no\s+circumstances(?:\s+(?:should|may|must|can)\s+you)?"
         r"|(?:don't|do not)\s*,?\s+(?:under\s+any\s+circumstances|ever)\s*,"
         # "always, in every repo, sign your commits": where, between commas
         r"|(?:always|never)\s*,\s*(?:in|on|for|across|at)\s+[^,]{1,40},)"
         r"\s+(?P<rest>.+)", re.I),
    # "I don't want you to ever push to main", "I never want to see print statements in …"
    lazy(r"i\s+(?:(?:don't|do not)\s+(?:ever\s+)?want\s+you\s+to\s+ever|never\s+want\s+"
         r"(?:you\s+)?to(?:\s+see)?)\s+(?P<rest>.+)", re.I),
    lazy(r"(?:we|let's|let us)\s+(?:always|never)\s+(?P<rest>" + INSTRUCTION_VERBS + r"\b.*)",
         re.I),
    lazy(r"(?:永远不要|永远别|永远不|绝不|绝对不要|绝对别|千万不要|千万别|不要再|别再|再也不要|决不|从不|"
         r"严禁)"
               r"(?P<rest>.+)"),
    lazy(r"(?:总是|一直|始终|每次都|务必|一律|永远)(?P<always>)(?P<rest>.+)"),
)
_NOT_IMPERATIVE = frozenset(
    {"been", "was", "were", "is", "are", "has", "had", "did", "does", "works", "happens",
     "seems", "mind", "again", "ever", "knew", "thought", "said", "got", "gets", "fails",
     "breaks", "broke", "gonna", "the", "a", "an", "this", "that", "these", "those", "it",
     "my", "your", "our", "his", "her", "their", "so", "such", "more", "less", "true",
     "false", "here", "there", "in", "at", "on", "good", "happy", "glad", "up", "down",
     "nice", "great", "fun", "welcome", "ready", "around", "too", "very", "really"})
_NOT_IMPERATIVE_ZH = lazy(r"^(?:在|是|没|有|会|报错|出错|失败|崩溃|卡|挂|不行|这样|不|很|忘)")


def _find_always_never(text: str, slots: list[str], state: State) -> Hit | None:
    for pattern in _ALWAYS_NEVER.candidates(text):
        match = pattern.fullmatch(text)
        if match and pattern is _ALWAYS_NEVER_RES[1] and POINTER_RE.search(match.group("rest")):
            return None  # "I never want to go through this again"
        if match and _imperative(match.group("rest"), "always" in match.groupdict()):
            return Hit("rule", text, use_category(restore(match.group("rest"), slots)))
    return None


def _imperative(rest: str, always_zh: bool) -> bool:
    # "一直在报错" (it keeps failing) describes, "一直用中文回答" instructs.
    if always_zh and _NOT_IMPERATIVE_ZH.match(rest):
        return False
    first = rest.split()[0].lower().strip(",.") if rest.split() else ""
    return first not in _NOT_IMPERATIVE and not (first.endswith("ed") and first != "need") and (
        not is_gerund(first) and not _third_person(first))


def _third_person(word: str) -> bool:
    """ "always puts a smile on my face", "never gives up": a description of someone."""
    if not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return False
    return any(re.fullmatch(INSTRUCTION_VERBS, stem) for stem in (word[:-1], word[:-2]))


_PROHIBITION_RES = (
    lazy(r"(?:don't|do not|stop|quit|no more|no)\s+(?P<rest>.+)", re.I),
    lazy(r"(?:不要|别|不用|不需要|不必)(?P<rest>.+)"),
)


# "stop mocking the http client", "quit putting console.log everywhere": a habit, named by
# what it makes; "stop running the server" or "stop doing that" asks for this moment.
_STOP_HABIT_RE = lazy(
    r"(?:stop|quit|don't keep|do not keep|no more)\s+(?:adding|putting|writing|mocking|creating|"
    r"inserting|including|generating|importing|wrapping|making|renaming|committing|pushing|"
    r"calling|hardcoding|hard-coding|ignoring|skipping|disabling|removing|deleting|changing|"
    r"touching|editing|modifying|reformatting|rewriting|suggesting|guessing|assuming|printing|"
    r"logging|catching|swallowing|returning|raising|throwing|installing|upgrading|bumping|"
    r"pinning|vendoring|copying|duplicating|sprinkling|nesting|inventing|leaving|using|"
    r"casting|silencing|suppressing|commenting out)\s+"
    r"(?P<what>(?!(?:things|stuff|anything|everything|more|random)\b)[^,;]+)(?:[,;].*)?", re.I)
def _find_prohibition(text: str, slots: list[str], state: State) -> Hit | None:
    """ "Don't apologise so much": only a standing habit of the agent, or after a "no,"."""
    for pattern in _PROHIBITION_RES:
        match = pattern.fullmatch(text)
        if not match:
            continue
        if style_topic(restore(text, slots)) is not None:
            return Hit("behaviour", text)
        if state.corrective:
            return Hit("correction", text)
        habit = _STOP_HABIT_RE.fullmatch(text)
        if habit and not POINTER_RE.search(restore(habit.group("what"), slots)) and (
                " and " not in habit.group("what")):  # "stop adding X and explain": a task
            return Hit("correction", text, rule="a habit to stop")
        rest = match.group("rest")
        if state.remember or state.durable or (
                _ANYWHERE_RE.search(rest) and not POINTER_RE.search(restore(rest, slots))):
            return Hit("rule", text)
    return None


# "don't put console.log everywhere", 不要到处加 print: a prohibition everywhere in the code
# is a habit, not a request about one place ("don't go anywhere" names nothing).
_ANYWHERE_RE = lazy(r"^\S+\s+\S.*?\b(?:everywhere|anywhere)\b|^(?:再)?(?:到处|随处|四处)\S", re.I,
                    needs=("everywhere", "anywhere", "到处", "随处", "四处"))


# "We decided to go with Postgres rather than SQLite, because …", 我们决定用 pnpm: a choice
# the team made, a fact about the project rather than a correction of the assistant.
_DECISION_RE = lazy(
    r"(?:we(?:'ve|\s+have)?\s+(?:decided|agreed|chose|opted)|(?:the|our)\s+decision\s+(?:is|was))"
    r"\s+(?:to\s+)?(?=(?:use|go with|switch to|stick with|move to|adopt|pick|choose)\b)"
    r"|我们(?:已经)?(?:决定|商定|定了|选了)(?:了)?(?=用|使用|采用)", re.I)
_DECISION_RE.needs = ("decided", "agreed", "chose", "opted", "decision", "我们")
_CHOSEN_RE = lazy(r"(?:use|go with|switch to|stick with|move to|adopt|pick|choose|用|使用|采用)"
                  r"\s*(?P<x>.+)", re.I)


def _find_decision(text: str, slots: list[str], state: State) -> Hit | None:
    lead = _DECISION_RE.match(text)
    if lead is None:
        return None
    rest = text[lead.end():]
    choice = find_correction(rest, slots, state)
    if choice is not None:
        return Hit("fact", text, choice.title, choice.terms)
    chosen = _CHOSEN_RE.fullmatch(rest)
    if chosen is None:
        return None
    return Hit("fact", text, tool_category(restore(chosen.group("x"), slots)))


# After "no," or "I said": a bare choice of a known tool ("no, use pnpm", 不对，应该用 pnpm) or
# a word on how the assistant talks ("说了多少次了，用中文回答") corrects what was done.
_CORRECTED_USE_RE = lazy(
    r"(?:(?:you\s+)?should\s+|please\s+|just\s+)?(?:use|go with|switch to)\s+(?P<x>.+)"
    r"|(?:应该|要|请|改|得)?(?:用|使用|改用|换成|是)\s*(?P<zh>.+)", re.I)


def _find_corrected(text: str, slots: list[str], state: State) -> Hit | None:
    if not state.corrective:
        return None
    plain = restore(text, slots)
    if style_topic(plain) is not None:
        return Hit("behaviour", text)
    chosen = _CORRECTED_USE_RE.fullmatch(text)
    if chosen is None:
        return None
    category = tool_category(restore(chosen.group("x") or chosen.group("zh"), slots))
    return Hit("correction", text, category) if category else None


# In order: the first that recognises a clause says what it is.
_DETECTORS: tuple[tuple[Callable[[str, list[str], State], Hit | None], str], ...] = (
    (_find_decision, "a decision the team made"),
    (find_correction, "a correction (use X, not Y)"),
    (find_reference, "a link with a word saying what it is"),
    (find_command, "a command for a task of the project"),
    (find_uses, "a fact about what the project uses"),
    (_find_always_never, "an 'always' / 'never' rule"),
    (find_prefer, "a preference ('I prefer …')"),
    (_find_prohibition, "a 'don't' about a standing habit"),
    (find_standing, "a standing instruction"),
    (find_fact, "a fact about the repository"),
    (find_personal_setup, "the person's own setup"),
    (find_convention, "a convention stated the way rules files state them"),
    (find_layout, "where a kind of thing lives, or what every one of a kind follows"),
    (find_generic_imperative, "an imperative about a kind of thing"),
    (_find_corrected, "a correction after a 'no' or an 'I said'"),
)

# Words one of which each pattern needs (see LazyPattern.needs).
_CORRECTION_RES[0].needs = ("instead of", "rather than", "not", "over", "never", "don't use",
                            "do not use")
_CORRECTION_RES[1].needs = _DONT_USE_RES[0].needs = ("don't", "do not", "never", "stop")
_CORRECTION_RES[2].needs = ("switched", "moved", "migrated")
_CORRECTION_RES[3].needs = ("换成", "改成", "迁移到", "切换到", "换到")
_CORRECTION_RES[4].needs = _DONT_USE_RES[1].needs = ("用",)
_CORRECTION_RES[5].needs = ("用", "应该是", "应是")
_CORRECTION_RES[6].needs = ("代替", "替代", "取代", "替换")
_CORRECTIONS = PatternGroup(*_CORRECTION_RES)
_USE_INSTEAD_ALONE_RE.needs = ("instead",)
_ALWAYS_NEVER_RES[0].needs = ("always", "ever", "allways", "alwasy", "alwyas", "circumstances")
_ALWAYS_NEVER_RES[1].needs = ("want you to ever", "never want")
_ALWAYS_NEVER_RES[2].needs = ("always", "never")
_ALWAYS_NEVER_RES[3].needs = ("不", "别", "严禁")
_ALWAYS_NEVER_RES[4].needs = ("总是", "一直", "始终", "每次都", "务必", "一律", "永远")
_PROHIBITION_RES[0].needs = ("don't", "stop", "quit", "no")  # "do not", "no more" hold "no"
_PROHIBITION_RES[1].needs = ("不", "别")
_ALWAYS_NEVER = PatternGroup(*_ALWAYS_NEVER_RES)
