"""Lead words peeled off a clause: fillers, corrections, politeness, questions and memory cues."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memcli.extraction.rules.model import State
from memcli.extraction.rules.patterns import lazy, words_in

# --------------------------------------------------------------------------- lead words

# The lead-word patterns have no "^": they are matched with ``match_at`` at the position
# where the words before them end (see _peel_fillers). A leading run of white space in the
# trailing patterns is taken whole, from its start ((?<!\s), possessive): a search that
# started again inside every run of spaces was quadratic in it, and a match never starts
# there (it could start one space earlier).

LIST_MARK_RE = lazy(r"\s*(?:[-*•+]\s+|\d+[.)、]\s*|\d+[，,](?!\d)\s*)")
_FILLERS_EN = (
    "ok", "okay", "also", "and", "btw", "by the way", "oh", "hey", "so", "one more thing",
    "just fyi", "fyi", "nb", "ps", "plus", "great", "thanks", "thank you", "cool", "alright",
    "all right", "well", "again", "important",
    "crucial", "critical", "note to self", "quick note", "side note", "note",
    "just so you know", "for your information", "for context", "fwiw", "psa", "heads[- ]up",
    "good to know", "worth noting",
    *(f"{w}\\s+thing(?:\\s+though|\\s+before we (?:continue|go on|start|move on))?"
      for w in ("one", "quick", "small", "another", "last", "one last", "one other",
                "one small")),
    "real quick", "you're right", "you are right", "good point", "fair enough", "exactly",
    "right", "yes", "yeah", "yep", "sure", "personally", "honestly", "frankly", "tbh", "imo",
    "imho", "to be honest", "ideally")


def _by_first_letter(words: tuple[str, ...]) -> str:
    """ "a(?:lso|nd|gain)|b(?:tw|y the way)|…" for "also|and|again|btw|by the way|…": a
    sentence that starts with none of them is refused at its first letter, not tried
    against each of the sixty (the order within a letter is kept)."""
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[0], []).append(word[1:])
    return "|".join(first + "(?:" + "|".join(rests) + ")" for first, rests in groups.items())


_FILLER_RE = lazy(
    r"(?:(?:" + _by_first_letter(_FILLERS_EN) + r")\b|好的|好吧|嗯嗯?|哦|噢|"
    r"你说得对|你说的对|说得对|没错|对的|"
    r"另外|还有|对了|顺便说一下|顺便说一句|顺便提一句|顺便提一下|顺便说|顺便|补充一下|补充|"
    r"提醒一下|提个醒|备注一下|备注|然后|那么|所以|注意|重要)\s*[,:;!，。:：！、—–-]*\s*",
    re.I)
# An aside before a statement ("fyi the build takes ten minutes", "heads up: main is
# protected", 备注：…) tells the agent something that lasts only when what follows has the
# shape of a lasting fact (see :func:`memcli.extraction.rules.asides.lasting_aside`); the same words
# before news ("fyi I pushed a fix") or a request keep nothing.
_ASIDE_RE = lazy(
    r"\b(?:fyi|note to self|note|quick note|side note|just so you know|for your information|"
    r"for context|fwiw|psa|heads[- ]up|good to know|worth noting)\b"
    r"|\b(?:important|crucial|critical)\s*[:：]"
    r"|(?:顺便说一句|顺便提一句|顺便提一下|顺便说一下|提醒一下|提个醒|备注一下|备注|注意|fyi)"
    r"\s*[,:：，]", re.I)
_EARLIER = (r"(?:\s+(?:before|already|earlier|above|yesterday|last\s+time|the\s+other\s+day|"
            r"(?:so\s+|too\s+)?many\s+times|a\s+(?:few|couple\s+of|dozen|hundred|million)\s+times|"
            r"(?:twice|three\s+times)(?:\s+already)?))*")
_SAID_AGAIN = (
    r"i(?:'ve|\s+have)\s+said\s+it\s+before,?\s+and\s+i(?:'ll|\s+will)\s+say\s+it\s+again"
    r"\s*[,.!:;—–-]*|"
    r"i(?:'ve|\s+have)?\s+(?:already\s+|clearly\s+|just\s+)?(?:said|told\s+you)"
    r"(?:\s+(?:this|that|it)(?=\s*[,.!:;—–-]|\s+(?:before|already|earlier)\b))?" + _EARLIER
    + r"(?:\s+to\b)?[,.!:;—–-]*"
    r"|(?:like|as)\s+i(?:'ve|\s+have)?\s+(?:already\s+|just\s+)?(?:said|told\s+you|mentioned|"
    r"explained|wrote|noted)" + _EARLIER + r"\s*[,.!:;—–-]*"
    r"|i(?:'ve|\s+have)?\s+already\s+(?:mentioned|explained)(?:\s+(?:this|that|it))?" + _EARLIER
    + r"\s*[,.!:;—–-]+"
    r"|i\s+(?:keep|kept)\s+(?:telling\s+you|saying)(?:\s+(?:this|that|it))?\s*[,.!:;—–-]*"
    r"|i\s+repeat\s*[,.!:;—–-]*|(?:once|yet)\s+again\s*[,.!:;—–-]+"
    r"|we(?:'ve|\s+have)\s+(?:already\s+)?(?:been|gone)\s+over\s+(?:this|that|it)" + _EARLIER
    + r"\s*[,.!:;—–-]*"
    r"|for\s+the\s+(?:second|third|fourth|fifth|tenth|hundredth|thousandth|millionth|umpteenth|"
    r"nth|last|\d+(?:st|nd|rd|th))\s+time\s*[,.!:;—–-]*"
    r"|how\s+many\s+(?:more\s+)?times\s+(?:do|must|should|will|have|did)\s+i\s+(?:have\s+to\s+|"
    r"need\s+to\s+|got\s+to\s+|gotta\s+)?(?:say|tell\s+you|repeat|explain|ask\s+you)"
    r"(?:\s+(?:this|that|it|myself))?(?:\s+again)?\s*[?!,.:;—–-]*"
    r"|(?:我|你)?(?:之前|以前|早就|已经|都|明明)?(?:跟你|和你|对你|给你)?(?:说|讲|强调|提醒)(?:过|了)"
    r"(?:很多|好几|多少|几|无数|[二三四五六七八九十两\d]+)?[次遍]?了?(?!的)[，,。！!:：、]*"
    r"|(?:我)?(?:再|重新)?(?:说|讲|强调|重申)(?:一遍|一次|一下)[，,。！!:：、]*"
    r"|(?:我)?重申(?:一下)?[，,。！!:：、]*"
    r"|(?:要我|我要)(?:说|讲)(?:多少|几)[次遍](?:你才(?:记得住|记住|明白|懂))?[?？!！，,。]*"
    r"|(?:这是)?第[二三四五六七八九十几\d]+次(?:说|强调|提醒)?了?[，,。！!:：、]*")
_CORRECTIVE_RE = lazy(
    r"(?:(?:no|nope|nah|wrong|incorrect|not quite|that's wrong|that is wrong|"
    r"that's not right)\s*[,.!:;—–-]+|(?:actually|correction|wait)\b[,.!:;—–-]*"
    # typed without the comma: "no it's make check", "nope we use uv"
    r"|(?:no|nope|nah)\s+(?=(?:it's|it is|its|that's|we|we're|use|it should|should|don't|"
    r"do not|never|always|no|nope)\b)"
    r"|(?:不对|不是这样|不是的|不是|错了|不行|不)[，,。！!:：、]+|其实(?:呢)?[，,]?(?=\s*(?:是|应该|我们|用))"
    # The person repeating what they said before: "I said use pnpm", "I told you to run the
    # tests first", "like I said, …", "for the third time, …", "how many times do I have to
    # tell you, …", 我说过不要提交 lockfile, 说了多少次了，用中文回答: a convention said again
    # weighs as a correction: _SAID_AGAIN_RE, tried after these.
    r")\s*", re.I)
# The last choice of the correcting lead words, a pattern of its own: it is some 2,000
# characters (about 5 ms to compile) and every match holds one of its ``needs`` words, so a
# turn that says nothing again never compiles it. Tried after _CORRECTIVE_RE, as it was its
# last alternative: the first alternative that matches wins either way.
_SAID_AGAIN_RE = lazy(
    r"(?:" + _SAID_AGAIN + r")\s*", re.I,
    needs=("said", "told", "mentioned", "explained", "wrote", "noted", "telling", "saying",
           "repeat", "again", "over", "time", "说", "讲", "强调", "提醒", "重申", "第"))
_POLITE_RE = lazy(
    r"^(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+)?"
    r"(?=(?:remember|note|keep in mind|make a note)(?:\s+(?:that|to)\b|\s*[:,])"
    r"|(?:always|never|from now on|stop|not)\b)"
    r"|你?(?:能不能|能否|可不可以|可以|能)(?:请你|帮我|麻烦你)?"
    r"(?=记住|记下|记一下|以后|从现在开始|总是|不要|别))", re.I)
_POLITE_END_RE = lazy(r"(?<!\s)\s*+[吗嘛么]?\s*+[?？]+\s*$", needs=("?", "？"))
_QUESTION_START_RE = lazy(
    r"^(?:(?:do(?!\s+not\b)|does|did|should|shall|can|could|would|will|is|are|was|were|has|have|why|"
    r"what|how|where|which|who|whose|isn't|aren't|doesn't|didn't|shouldn't|won't|"
    r"wouldn't|may|might|am)\b|don't you\b(?!\s+ever\b)|为什么|怎么|什么|哪|谁|是否)", re.I)
_QUESTION_ZH_RE = lazy(
    r"(?<!问)(?<!问我)(?<!问你)(?:是不是|要不要|能不能|可不可以|会不会|对不对|有没有|好不好|行不行)"
    r"|[吗呢么]\W*$",
    needs=("不", "没", "吗", "呢", "么"))
_HYPOTHETICAL_RE = lazy(
    # "If in doubt, ask" and "if you're not sure, ask me" are standing instructions.
    r"^(?:(?:if(?!\s+(?:in\s+doubt|unsure|uncertain|you(?:'re|\s+are)\s+(?:not\s+sure|unsure|"
    r"uncertain|in\s+doubt))\b)|suppose|supposing|imagine|what if|say|let's say|lets say|"
    r"assuming|assume|"
    r"hypothetically|in case|unless|even if|pretend|for example|for instance|as if|"
    # wondering aloud is not deciding: "maybe we should always squash"
    r"maybe|perhaps|i wonder|wondering|i was wondering|not sure (?:if|whether)|"
    r"curious (?:if|whether)|"
    r"i was thinking|thinking (?:about|of)|what about|how about|"
    r"e\.g\.)(?:\b|(?=\W))|如果|假如|要是|假设|万一|比如|例如|譬如|假使|倘若)", re.I)
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
# Someone else's words, reported: "he said use yarn", "同事说以后都用 pnpm".
_REPORTED_RE = lazy(
    r"^(?:(?:he|she|they|someone|somebody|people|you|my (?:colleague|boss|manager|lead|teammate)|"
    r"the (?:team|docs?|readme|assistant|model|agent|bot)|[A-Z][a-z]+)\s+(?:(?:just|earlier|"
    r"already)\s+)?(?:said|says|told me|thinks|suggested|wrote|mentioned|claimed|claims?)\b"
    r"|你(?:刚才|之前|上面|刚刚)?(?:说|提到|建议)(?!得|的对|的没错)|(?:他|她|他们|她们|同事|别人|有人|老板|领导|用户|客户|大家|文档|注释|README|"
    r"readme|[^，,。我]{1,6}?(?:同事|老师|文档|说明))(?:也|还|都)?(?:说|觉得|认为|提到|建议|写着))")
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
    r"millionth|umpteenth|nth|last|\d+(?:st|nd|rd|th))\s+time)" + _EARLIER + r"\s*[.!。！]*$"
    r"|[（(，,]\s*(?:我)?(?:都|已经|早就)?(?:说|讲)(?:过|了)(?:很多|好几|多少|几)?[次遍]?了?[)）]?[。！!]*$",
    re.I,
    needs=("said", "told you", "mentioned", "keep telling", "keep saying", "time", "说", "讲"))
_TRAILING_POLITE_RE = lazy(r"(?<!\s)\s*+,?\s*+(?:please|thanks|thank you)\s*[.!]*$", re.I,
                           needs=("please", "thank"))
_REPORTED_RE.needs = ("said", "says", "told me", "thinks", "suggested", "wrote", "claim",
                      "mentioned", "说", "觉得", "认为", "提到", "建议", "写着")


def prepare(state: State) -> State | None:
    """Peel lead words off a clause; None for a question or a hypothetical."""
    state = _strip_fillers(state)
    polite = _POLITE_RE.match(state.text)
    if polite:
        text = _POLITE_END_RE.sub("", state.text[polite.end():])
        state = state.but(text=text)
    elif _is_question(state.text):
        return None
    if _HYPOTHETICAL_RE.match(state.text) or _REPORTED_RE.match(state.text):
        return None
    return _strip_cues(state)


def not_kept_because(state: State) -> str:
    """Why :func:`prepare` gave up on a sentence."""
    state = _strip_fillers(state)
    if _POLITE_RE.match(state.text) is None and _is_question(state.text):
        return "a question: nothing was decided"
    if _REPORTED_RE.match(state.text):
        return "someone else's words, reported"
    return "a hypothetical or an example, not meant as said"


def _strip_fillers(state: State) -> State:
    pos, corrective = _peel_fillers(state.text, 0)
    if pos == 0:
        return state
    aside = state.aside or bool(_ASIDE_RE.search(state.text[:pos]))
    return state.but(text=state.text[pos:], corrective=state.corrective or corrective,
                     aside=aside)


def _peel_fillers(text: str, pos: int) -> tuple[int, bool]:
    """Where the list marks, fillers and "no,"s from ``pos`` end, and whether a "no" was one.

    The lead-word patterns are matched at a position of the one text, not on what is left
    of it: cutting the text after each of thousands of stacked fillers was quadratic.
    """
    corrective = False
    said_again = _SAID_AGAIN_RE.possible(text)
    while True:
        start = pos
        found = LIST_MARK_RE.match_at(text, pos)
        if found:
            pos = found.end()
        found = _FILLER_RE.match_at(text, pos)
        if found:
            pos = found.end()
        found = _CORRECTIVE_RE.match_at(text, pos)
        if found is None and said_again:
            found = _SAID_AGAIN_RE.match_at(text, pos)
        if found:
            pos, corrective = found.end(), True
        if pos == start:
            return pos, corrective


def only_corrects(text: str) -> bool:
    """Whether a sentence is nothing but a "no" or the person saying it again ("How many
    times do I have to tell you?"): it corrects the sentence after it."""
    pos, corrective = _peel_fillers(text, 0)
    return corrective and not text[pos:].strip(" \t.!?。！？,，")


def is_question(text: str) -> bool:
    """Whether a sentence asks something (a question mark, a question word first, 吗/呢)."""
    return _is_question(_strip_fillers(State(text)).text)


def _is_question(text: str) -> bool:
    stripped = text.rstrip(" \t")
    if stripped.endswith(("?", "？")) or _QUESTION_START_RE.match(text):
        return True
    # asked of the whole text first: its words are known already, the stripped text's not
    return _QUESTION_ZH_RE.possible(text) and bool(_QUESTION_ZH_RE.search(text.rstrip("。！.! ")))


def _strip_cues(state: State) -> State:
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
        pos, after_no = _peel_fillers(text, cue_end)
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
