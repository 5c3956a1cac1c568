"""A clause made ready to read: its lead words (lead_words) and memory cues (memory_cues)
peeled off, or nothing kept when it asks, supposes or reports someone else's words."""

from __future__ import annotations

import re

from memcli.extraction.rules.lead_words import strip_fillers
from memcli.extraction.rules.memory_cues import strip_cues
from memcli.extraction.rules.model import State
from memcli.extraction.rules.patterns import lazy

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
# Someone else's words, reported: "he said use yarn", "同事说以后都用 pnpm".
_REPORTED_RE = lazy(
    r"^(?:(?:he|she|they|someone|somebody|people|you|my (?:colleague|boss|manager|lead|teammate)|"
    r"the (?:team|docs?|readme|assistant|model|agent|bot)|[A-Z][a-z]+)\s+(?:(?:just|earlier|"
    r"already)\s+)?(?:said|says|told me|thinks|suggested|wrote|mentioned|claimed|claims?)\b"
    r"|你(?:刚才|之前|上面|刚刚)?(?:说|提到|建议)(?!得|的对|的没错)|(?:他|她|他们|她们|同事|别人|有人|老板|领导|用户|客户|大家|文档|注释|README|"
    r"readme|[^，,。我]{1,6}?(?:同事|老师|文档|说明))(?:也|还|都)?(?:说|觉得|认为|提到|建议|写着))")
_REPORTED_RE.needs = ("said", "says", "told me", "thinks", "suggested", "wrote", "claim",
                      "mentioned", "说", "觉得", "认为", "提到", "建议", "写着")


def prepare(state: State) -> State | None:
    """Peel lead words off a clause; None for a question or a hypothetical."""
    state = strip_fillers(state)
    polite = _POLITE_RE.match(state.text)
    if polite:
        text = _POLITE_END_RE.sub("", state.text[polite.end():])
        state = state.but(text=text)
    elif _is_question(state.text):
        return None
    if _HYPOTHETICAL_RE.match(state.text) or _REPORTED_RE.match(state.text):
        return None
    return strip_cues(state)


def not_kept_because(state: State) -> str:
    """Why :func:`prepare` gave up on a sentence."""
    state = strip_fillers(state)
    if _POLITE_RE.match(state.text) is None and _is_question(state.text):
        return "a question: nothing was decided"
    if _REPORTED_RE.match(state.text):
        return "someone else's words, reported"
    return "a hypothetical or an example, not meant as said"


def is_question(text: str) -> bool:
    """Whether a sentence asks something (a question mark, a question word first, 吗/呢)."""
    return _is_question(strip_fillers(State(text)).text)


def _is_question(text: str) -> bool:
    stripped = text.rstrip(" \t")
    if stripped.endswith(("?", "？")) or _QUESTION_START_RE.match(text):
        return True
    # asked of the whole text first: its words are known already, the stripped text's not
    return _QUESTION_ZH_RE.possible(text) and bool(_QUESTION_ZH_RE.search(text.rstrip("。！.! ")))
