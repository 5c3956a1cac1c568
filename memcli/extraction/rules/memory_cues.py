"""Memory cues peeled off a clause after its lead words: "remember", "save this as a
preference:", "from now on", "our convention is", "in this repo we", 记得, and their trailing
forms ("…, keep that in mind", "…, like I said"); each sets a flag of the clause's State."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memcli.extraction.rules.lead_words import EARLIER, peel_fillers
from memcli.extraction.rules.model import State
from memcli.extraction.rules.patterns import lazy, words_in

# The cue patterns have no "^": they are matched with ``match_at`` where the lead words
# before them end. A leading run of white space in the trailing patterns is taken whole,
# from its start ((?<!\s), possessive): a search that started again inside every run of
# spaces was quadratic in it, and a match never starts there (it could start one space
# earlier).

_DIRECTIVE_RE = lazy(
    r"(?:please|pls|plz|kindly|you should|you must|you need to|you have to|"
    r"make sure (?:to|that you|you)|be sure to|i want you to|i need you to|i'd like you to|"
    r"i would like you to|try to|we should|we must|we need to|请你|请|你要|你应该|一定要|"
    r"我希望你|希望你|我要你|我想让你|麻烦你|拜托你?)"
    r"(?:\b|(?=\W)|(?<=[^\x00-\x7f]))\s*",
    re.I)
_REMEMBER_RE = lazy(
    r"(?:(?:remember|remeber|rember|remmeber|remembr|memori[sz]e|keep in mind|don't forget|"
    r"(?:just\s+)?(?:an?\s+)?(?:friendly\s+|quick\s+|gentle\s+)?reminder|"
    r"do not forget|never forget|memo(?=\s*:)|"
    r"make a note|note for the future|for future reference|reminder|for the record)\b"
    r"(?!\s+(?:when|how|what|why|where|who|whom|whether|if|the time|me)\b)"
    r"(?:\s+(?:this|that)\s*(?=[:：]))?(?:\s+that\b)?"
    r"|(?:帮我|麻烦你?)?(?:记住|记下|记一下|记好|牢记|记着|备忘(?:一下)?(?=\s*[:：]))"
    r"(?:了|啊|哦|这一点|这点)?)"
    r"\s*[:：,，\-–—]?\s*", re.I)
_REMEMBER_RE.needs = ("remember", "remeber", "rember", "remmeber", "remembr", "memo",
                      "keep in mind", "forget", "make a note", "note for", "future reference",
                      "reminder", "for the record", "记", "备忘")
# Words for a memory tool: "save this as a preference:", "add a global memory:", 记到记忆里：.
# A preference, or a global or personal memory, belongs to the person, not the project.
_SAVE_CUE_RE = lazy(
    r"(?:(?:please\s+)?(?:save|store|add|put|keep|record|write)\s+(?:this|that|it)\s+(?:as|in|to|"
    r"into)\s+(?:an?\s+|my\s+|your\s+)?|(?:please\s+)?(?:add|save|create|make)\s+(?:an?\s+)?)"
    r"(?P<whose>(?:global|user|personal|project)\s+)?(?P<what>preference|memory|memories|rule|note)"
    r"s?\s*[:：]\s*"
    # "add a preference to always load my keys", "write a permanent global rule: …"
    r"|(?:please\s+)?(?:add|save|create|make|write|set)\s+(?:an?\s+)?(?:permanent\s+|new\s+|"
    r"standing\s+)?(?P<whose2>(?:global|user|personal|project)\s+)?(?P<what2>preference|rule)"
    r"(?:\s*[:：]|\s+(?:to|that)\b(?!\s+(?:the|my|your|this|a|an)\b))\s*"
    # the memory commands of the agents, typed in a message: /remember …, /memory add …
    r"|/(?:remember|memory\s+add|memorize|mem)\b\s*"
    r"|(?:帮我)?(?:记到|存到|加到|写进|写到|存进|放到|放进)(?:你的)?(?P<zh>长期记忆|记忆|偏好)(?:里|中)?"
    r"\s*[:：,，]?\s*", re.I)
_SAVE_CUE_RE.needs = ("save", "store", "add", "put", "keep", "record", "write", "create", "make",
                      "set", "/", "记", "偏好")
_TODO_TO_RE = lazy(r"to\s+", re.I)
_TODO_ZH_RE = lazy(
    r"(?:记得(?:要)?|(?:千万|可)?(?:别忘了|别忘记|不要忘了|不要忘记))\s*[:：,，]?\s*")
_DURABLE_RE = lazy(
    r"(?:(?:from now on|from here on(?: out)?|(?:going|moving) forward(?!\s+with\b)|"
    r"in (?:the )?future|"
    r"henceforth|for (?:all )?future [a-z]+|in all future [a-z]+|from this point on|"
    r"for the future|for the rest of (?:this|the) (?:project|repo|codebase)|"
    r"(?:until|unless) (?:i say|i tell you|told|you hear|further notice) otherwise)\b"
    r"|(?:你|您|我们|咱们)?(?:从现在开始|从现在起|从今以后|从今往后|从今天起|今后|以后(?!的|再说)|往后)"
    r"(?:都|也|请|你|就|的话)*)"
    r"\s*[:：,，]?\s*", re.I,
    needs=("from now on", "from here on", "going forward", "moving forward", "future",
           "henceforth", "from this point on", "the rest of", "otherwise", "以后", "从现在",
           "从今", "今后", "往后"))
# "in this repo we keep one component per file", 在这个仓库里我们统一用 tab 缩进: what "we" do
# here, said of the project. Peeled like a cue: what follows is read on its own, and a bare
# "we <verb> …" after it is kept (see rules.asides.find_scoped).
_SCOPE_RE = lazy(
    r"(?:around\s+here\s*,?\s*(?=we\b)|"
    r"(?:in|on|for|across|throughout|within|around)\s+(?:this|our|the)\s+(?:repo(?:sitory)?|"
    r"project|codebase|code\s+base|team|org|organi[sz]ation|company|monorepo|shop|workspace)"
    r"(?:\s+here)?\b\s*,?\s*(?=(?:we|our|all|every|each)\b|[a-z][\w-]*s\s+(?:are|must|should)\b)"
    r"|在?(?:(?:我们|咱们)的?)?(?:这个|本|该)?(?:项目|仓库|代码库|团队|repo)(?:里面|里|中|内)\s*[，,]?\s*"
    r"(?=我们|咱们|所有|统一|一律))", re.I,
    needs=("repo", "project", "codebase", "code base", "team", "org", "company", "shop",
           "workspace", "around here", "项目", "仓库", "代码库", "团队"))
# "our convention is that …", "by convention, …", 按照惯例，…, 我们的约定是…: the rule follows.
_CONVENTION_RE = lazy(
    r"(?:(?:our|the|a|one|team|house)\s+(?:convention|rule|norm|practice|policy)"
    r"(?:\s+(?:here|in this (?:repo|project|codebase)))?\s+is\s+(?:that|to\b)?"
    r"(?!\s*(?:confusing|weird|messy|unclear|a mess|kind of|pretty|not|broken|outdated|"
    r"inconsistent|wrong|bad|annoying|strange|odd|different|what|unknown|simple)\b)"
    r"|we\s+have\s+(?:a|the|this)\s+(?:convention|rule)\s+(?:that|of)\b|by\s+convention\b"
    r"|as\s+a\s+(?:general\s+)?rule(?:\s+of\s+thumb)?\b|(?:house|team)\s+rule\s*[:：]"
    r"|(?:general\s+)?rule\s+of\s+thumb\s*[:：,]|make\s+it\s+a\s+(?:rule|habit)\s+to\b"
    r"|(?:make\s+a|get\s+in(?:to)?\s+the)\s+habit\s+of\b"
    r"|(?:我们|咱们)(?:这边|团队|项目)?的(?:约定|惯例|规矩|规范)是|按照?惯例|约定俗成地?"
    r"|(?:约定|规矩)\s*[:：])\s*[:：,，]?\s*", re.I,
    needs=("convention", "rule", "norm", "practice", "policy", "habit", "约定", "惯例", "规矩",
           "规范"))
_TRAILING_DURABLE_RE = lazy(
    r"(?<!\s)\s*+[,;，]?\s*+(?:from now on|going forward|moving forward|in (?:the )?future|"
    r"from here on(?: out)?|以后都这样|以后也是|以后都是|从现在开始)\s*[.!。！]*$", re.I,
    needs=("from now on", "going forward", "moving forward", "future", "from here on", "以后",
           "从现在开始"))
# "… unless I say otherwise" lasts, and its condition stays in the note.
_OTHERWISE_RE = lazy(r"\b(?:until|unless)\s+(?:i say|i tell you|told|you hear)\s+otherwise\b",
                     re.I, needs=("otherwise",))
_TRAILING_REMEMBER_RE = lazy(
    r"(?<!\s)\s*+[,;，—–-]?\s*+(?:(?:so\s+)?keep (?:that|this|it) in mind|remember that|"
    r"don't forget that|for future reference|for the record|fyi|btw|记住了?|记一下|记好了?)"
    r"(?:\s+(?:when|before|while|if)\b.*)?\s*[.!。！]*$", re.I,
    needs=("keep", "remember that", "don't forget that", "for future reference", "for the record",
           "fyi", "btw", "记"))
# "we use pnpm, I already told you", "…, like I said", "…（我说过了）": said again, at the end.
_TRAILING_SAID_RE = lazy(
    r"(?<!\s)\s*+[,;，—–-]\s*+(?:(?:like|as)\s+i(?:'ve|\s+have)?\s+(?:already\s+)?(?:said|told\s+you|"
    r"mentioned)|i(?:'ve|\s+have)?\s+(?:already\s+)?(?:said|told\s+you)(?:\s+(?:this|that|it))?|"
    r"i\s+keep\s+(?:telling\s+you|saying)|for\s+the\s+(?:second|third|fourth|fifth|hundredth|"
    r"millionth|umpteenth|nth|last|\d+(?:st|nd|rd|th))\s+time)" + EARLIER + r"\s*[.!。！]*$"
    r"|[（(，,]\s*(?:我)?(?:都|已经|早就)?(?:说|讲)(?:过|了)(?:很多|好几|多少|几)?[次遍]?了?[)）]?[。！!]*$",
    re.I,
    needs=("said", "told you", "mentioned", "keep telling", "keep saying", "time", "说", "讲"))
_TRAILING_POLITE_RE = lazy(r"(?<!\s)\s*+,?\s*+(?:please|thanks|thank you)\s*[.!]*$", re.I,
                           needs=("please", "thank"))


def strip_cues(state: State) -> State:
    text, pos, corrective = state.text, 0, state.corrective
    flags: dict[str, bool] = {}
    words = words_in(text)  # each of these patterns needs words
    gates = _CueGates(text.rfind("是"), bool(_REMEMBER_RE.mask & words),
                      bool(_SAVE_CUE_RE.mask & words), bool(_SCOPE_RE.mask & words),
                      bool(_CONVENTION_RE.mask & words))
    while True:
        cue_end, found = _one_cue(text, pos, gates)
        if cue_end == pos:
            break
        flags.update(dict.fromkeys(found, True))
        pos, after_no = peel_fillers(text, cue_end)
        corrective = corrective or after_no
    state = state.but(text=text[pos:], corrective=corrective, **flags)
    trailing = _TRAILING_DURABLE_RE.search(state.text)
    if trailing:
        state = state.but(text=state.text[:trailing.start()], durable=True)
    elif _OTHERWISE_RE.mask & words and _OTHERWISE_RE.compiled.search(state.text):
        state = state.but(durable=True)
    trailing = _TRAILING_REMEMBER_RE.search(state.text)
    if trailing and trailing.start() > 0:
        # "…, keep that in mind" remembers; a trailing "btw" or "fyi" only marks an aside.
        said = not re.match(r"\W*(?:fyi|btw)\b", trailing.group(0), re.I)
        state = state.but(text=state.text[:trailing.start()],
                        remember=state.remember or said)
    trailing = _TRAILING_SAID_RE.search(state.text)
    if trailing and trailing.start() > 0:
        state = state.but(text=state.text[:trailing.start()], corrective=True)
    text = _TRAILING_POLITE_RE.sub("", state.text)
    return state.but(text=text.rstrip(" \t.!;,。！；，、"))


@dataclass(frozen=True)
class _CueGates:
    """What is known of a clause's whole text before its cues are peeled one by one:
    where its last 是 is, and whether it holds a word a remember or save cue needs (the
    cues are matched at positions, where ``needs`` is not checked)."""

    last_copula: int
    remember: bool
    save: bool
    scope: bool
    convention: bool


_Cue = tuple[int, tuple[str, ...]]


def _one_cue(text: str, pos: int, gates: _CueGates) -> _Cue:
    """Where the memory cue at ``pos`` ends (``pos``: none) and the flags it sets."""
    for reader in (_directive_cue, _remember_cue, _save_cue, _todo_zh_cue, _flag_cue):
        found = reader(text, pos, gates)
        if found is not None:
            return found
    return pos, ()


def _directive_cue(text: str, pos: int, gates: _CueGates) -> _Cue | None:
    """ "please", "make sure to", 请: peeled, it sets nothing."""
    match = _DIRECTIVE_RE.match_at(text, pos)
    return (match.end(), ()) if match else None


def _remember_cue(text: str, pos: int, gates: _CueGates) -> _Cue | None:
    """ "remember (that) …" keeps a fact; "remember to …" is a to-do."""
    match = _REMEMBER_RE.match_at(text, pos) if gates.remember else None
    if match is None:
        return None
    to = _TODO_TO_RE.match_at(text, match.end())
    return (to.end(), ("todo",)) if to else (match.end(), ("remember",))


def _save_cue(text: str, pos: int, gates: _CueGates) -> _Cue | None:
    """A memory tool's words; a preference, or a global or personal memory, is the person's."""
    match = _SAVE_CUE_RE.match_at(text, pos) if gates.save else None
    if match is None:
        return None
    whose = (match.group("whose") or match.group("whose2") or "").strip().lower()
    what = (match.group("what") or match.group("what2") or "").lower()
    personal = whose in ("global", "user", "personal") or (
        (not whose and what == "preference") or match.group("zh") == "偏好")
    return match.end(), ("remember", "personal") if personal else ("remember",)


def _todo_zh_cue(text: str, pos: int, gates: _CueGates) -> _Cue | None:
    """记得 / 别忘了: 别忘了 + a copula states a fact ("别忘了测试命令是…"); otherwise a task."""
    match = _TODO_ZH_RE.match_at(text, pos)
    if match is None:
        return None
    fact = match.group(0).startswith(("别", "不", "千", "可")) and (
        gates.last_copula >= match.end())
    return match.end(), ("remember",) if fact else ("todo",)


def _flag_cue(text: str, pos: int, gates: _CueGates) -> _Cue | None:
    """ "from now on", "our convention is", "in this repo we": each sets one flag."""
    readers = ((_DURABLE_RE, True, "durable"), (_CONVENTION_RE, gates.convention, "durable"),
               (_SCOPE_RE, gates.scope, "scoped"))
    for pattern, possible, flag in readers:
        match = pattern.match_at(text, pos) if possible else None
        if match:
            return match.end(), (flag,)
    return None
