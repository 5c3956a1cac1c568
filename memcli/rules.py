"""The offline extractor: explicit memory cues in what the user typed, turned into operations.

It runs where no LLM is configured, so it is stdlib only and deterministic: the same
messages, known notes and ``today`` always give the same operations in the same order.
It is deliberately conservative. A cue must open its sentence ("Always…", "Remember
that…", "The test command is…"), because a cue word in the middle of a sentence ("the
build never finishes", "he said always…") is almost never an instruction to remember.
docs/rules.md is the user-facing description of the cues and of the routing.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from memcli.messages import Message

__all__ = ["KnownNote", "extract_rules"]

PROJECT, USER = "project", "user"
PREFERENCE = "user_preference"
CORRECTION = "correction_feedback"
KNOWLEDGE = "project_knowledge"
REFERENCE = "reference_material"

MAX_SUMMARY_CHARS = 120
MAX_TITLE_CHARS = 100
MAX_REASON_CHARS = 200
TITLE_WORDS = 8
TITLE_CJK_CHARS = 20


class KnownNote(Protocol):
    """What the extractor needs to know about a note that is already stored."""

    @property
    def level(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def filename(self) -> str: ...


def extract_rules(
    messages: Sequence[Message], known: Sequence[KnownNote], *, today: datetime.date
) -> list[dict[str, Any]]:
    """Operations for the explicit memory cues in the user's messages, in order of appearance.

    Only ``role == "user"`` counts: an assistant saying "I'll remember that" has not been
    told anything, and tool output or reasoning is not the user's word.
    """
    findings: list[_Finding] = []
    for message in messages:
        if message.role == "user":
            findings.extend(_findings_in_text(message.text, today))
    return [_operation(finding, known) for finding in _dedupe(findings)]


# --------------------------------------------------------------------------- findings


@dataclass(frozen=True)
class _Finding:
    level: str
    type: str
    title: str
    content: str
    quote: str
    # The tools named by an uncategorised "use X, not Y" correction; a later correction
    # that names one of them is about the same topic even though its title differs.
    terms: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Hit:
    """A recognised statement, before routing: what it is and the text that becomes the note."""

    kind: str  # correction | rule | prefer | fact | reference | command | behaviour
    body: str  # masked text of the note body
    title: str | None = None
    terms: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _State:
    """A clause while its lead words are peeled off; the flags say which cues were seen."""

    text: str
    corrective: bool = False
    remember: bool = False
    todo: bool = False
    durable: bool = False


def _dedupe(findings: list[_Finding]) -> list[_Finding]:
    # The later statement wins but keeps the place of the first, so the order stays that
    # of first appearance.
    out: list[_Finding] = []
    for finding in findings:
        for i, earlier in enumerate(out):
            if _same_topic(earlier, finding):
                out[i] = finding
                break
        else:
            out.append(finding)
    return out


def _same_topic(a: _Finding, b: _Finding) -> bool:
    if a.level != b.level:
        return False
    return _title_key(a.title) == _title_key(b.title) or bool(a.terms & b.terms)


def _title_key(title: str) -> str:
    text = unicodedata.normalize("NFC", title).casefold()
    return " ".join(text.split()).rstrip(".。")


def _operation(finding: _Finding, known: Sequence[KnownNote]) -> dict[str, Any]:
    match = _matching_note(finding, known)
    summary = _shorten(finding.content, MAX_SUMMARY_CHARS)
    reason = "user said: '" + _shorten(finding.quote, MAX_REASON_CHARS) + "'"
    if match is None:
        return {"action": "create", "level": finding.level, "type": finding.type,
                "title": finding.title, "summary": summary, "content": finding.content,
                "reason": reason}
    # Same title: keep the stored spelling so that an update does not churn the title.
    same = _title_key(match.title) == _title_key(finding.title)
    return {"action": "update", "level": finding.level, "filename": match.filename,
            "type": match.type, "title": match.title if same else finding.title,
            "summary": summary, "content": finding.content, "reason": reason}


def _matching_note(finding: _Finding, known: Sequence[KnownNote]) -> KnownNote | None:
    same_level = [note for note in known if note.level == finding.level]
    key = _title_key(finding.title)
    for note in same_level:
        if _title_key(note.title) == key:
            return note
    if finding.terms:
        for note in same_level:
            if _title_terms(note.title) & finding.terms:
                return note
    return None


# --------------------------------------------------------------------------- masking

# Code, URLs and quotations are swapped for placeholders before sentences are split and
# cues are looked for: their dots are not full stops and their words are not cues. The
# content gets them back verbatim.
_PH_RE = re.compile("\ue000(\\d+)\ue001")
_PH = "\ue000\\d+\ue001"
_INJECTED_RE = re.compile(
    r"<(system-reminder|command-[\w-]+|local-command-[\w-]+|user-prompt-submit-hook)>"
    r".*?</\1>", re.S)
_BLOCKQUOTE_RE = re.compile(r"^[ \t]*>.*$", re.M)
_LEAD_FENCE_RE = re.compile(
    r":[ \t]*\n[ \t]*(```|~~~)[\w+-]*[ \t]*\n[ \t]*([^\n`]+?)[ \t]*\n[ \t]*\1[ \t]*(?=\n|$)")
_FENCE_RE = re.compile(r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)
_INLINE_CODE_RE = re.compile(r"(`+)([^\n]+?)\1")
_URL_RE = re.compile(r"https?://[^\s<>\"'`）」，。]+")
_QUOTE_RE = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』")


def _mask(text: str, slots: list[str]) -> str:
    text = _INJECTED_RE.sub("\n", text)
    text = _BLOCKQUOTE_RE.sub("", text)
    # A one-line block right after "…is:" is the value being stated; keep it as inline code.
    text = _LEAD_FENCE_RE.sub(lambda m: ": `" + m.group(2) + "`", text)
    text = _FENCE_RE.sub("\n", text)

    def hide(found: str) -> str:
        slots.append(found)
        return f"\ue000{len(slots) - 1}\ue001"

    text = _INLINE_CODE_RE.sub(lambda m: hide(m.group(0)), text)
    text = _URL_RE.sub(lambda m: _hide_url(m.group(0), hide), text)
    return _QUOTE_RE.sub(lambda m: hide(m.group(0)), text)


def _hide_url(url: str, hide: Callable[[str], str]) -> str:
    core = url.rstrip(".,;:!?")
    if core.endswith(")") and core.count("(") < core.count(")"):
        core = core[:-1]
    return hide(core) + url[len(core):]


def _restore(text: str, slots: list[str]) -> str:
    for _ in range(3):  # a quotation may hold a URL placeholder
        if "\ue000" not in text:
            break
        text = _PH_RE.sub(lambda m: slots[int(m.group(1))], text)
    return text


def _url_slot(text: str, slots: list[str]) -> str | None:
    for match in _PH_RE.finditer(text):
        value = slots[int(match.group(1))]
        if value.startswith(("http://", "https://")):
            return value
    return None


# --------------------------------------------------------------------------- sentences

_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "eg", "ie", "etc", "vs", "cf", "approx", "incl", "mr", "mrs", "ms", "dr",
     "st", "al", "fig", "resp"})
_CJK_STOPS = "。！？\n"


def _is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\uff00" <= ch <= "\uffef"


def _split_sentences(text: str) -> list[str]:
    pieces: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if ch in _CJK_STOPS or (ch in ".!?" and _ends_sentence(text, i)):
            pieces.append(text[start:i + 1])
            start = i + 1
    pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip()]


def _ends_sentence(text: str, i: int) -> bool:
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if nxt and not (nxt.isspace() or _is_cjk(nxt)):
        return False  # setup.py, 3.11, "?!", a URL that was not masked
    if text[i] != ".":
        return True
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] == "."):
        j -= 1
    word = text[j:i].lower()
    if word == "etc":  # "etc." closes a list, and often the sentence: "…etc. Always run…"
        return text[i + 2:i + 3].isupper()
    return word not in _ABBREVIATIONS


def _findings_in_text(text: str, today: datetime.date) -> list[_Finding]:
    slots: list[str] = []
    # The placeholder marks must not come from the text itself; typographic apostrophes
    # ("don’t") must match the same cues as typed ones.
    text = text.replace("\ue000", "").replace("\ue001", "").replace("\u2019", "'")
    sentences = _split_sentences(_mask(text, slots))
    findings: list[_Finding] = []
    corrective = False
    i = 0
    while i < len(sentences):
        sentence = quote = sentences[i]
        merged = _merge_dont_use(sentence, sentences[i + 1] if i + 1 < len(sentences) else "")
        if merged is not None:
            sentence, quote, i = merged, quote + " " + sentences[i + 1], i + 1
        if _BARE_NO_RE.match(sentence):
            corrective = True
        else:
            quote = " ".join(_restore(_LIST_MARK_RE.sub("", quote, count=1), slots).split())
            findings.extend(_sentence_findings(sentence, quote, slots, today, corrective))
            corrective = False
        i += 1
    return findings


_BARE_NO_RE = re.compile(
    r"^(?:no|nope|nah|wrong|incorrect|not quite|不对|不是|错了|不)\s*[.!。！,，]*$", re.I)
_DONT_USE_ALONE_RE = re.compile(
    r"^(?:(?:no|nope)[,.!]?\s*)?(?:(?:don't|do not|never|stop)\s+(?:use|using)\s+\S+(?:\s+\S+)?"
    r"|(?:不要|别|不)(?:再)?(?:用|使用)\S+)\s*[.!。！]?$", re.I)
_USE_INSTEAD_RE = re.compile(
    r"^(?:(?:use|we use|switch to|go with)\s+\S+(?:\s+\S+)?(?:\s+instead)?"
    r"|(?:改|要|请)?(?:用|使用)\S+)\s*[.!。！]?$", re.I)


def _merge_dont_use(sentence: str, nxt: str) -> str | None:
    """ "Don't use npm. Use pnpm instead." is one correction, not two."""
    sentence = _LIST_MARK_RE.sub("", sentence, count=1)
    if not (_DONT_USE_ALONE_RE.match(sentence) and _USE_INSTEAD_RE.match(nxt)):
        return None
    return sentence.rstrip(".!。！ ") + "; " + nxt[:1].lower() + nxt[1:]


def _sentence_findings(
    sentence: str, quote: str, slots: list[str], today: datetime.date, corrective: bool
) -> list[_Finding]:
    state = _prepare(_State(sentence, corrective=corrective))
    if state is None:
        return []
    whole = _find_correction(state.text, slots, state)
    if whole is not None:
        found = _finish(whole, state, slots, today, quote)
        return [found] if found is not None else []
    findings = []
    for n, clause in enumerate(_CLAUSE_RE.split(state.text)):
        clause_state = _prepare(replace(state, text=clause)) if n else replace(state, text=clause)
        if clause_state is None:
            continue
        hit = _detect(clause_state, slots)
        found = _finish(hit, clause_state, slots, today, quote) if hit else None
        if found is not None:
            findings.append(found)
    return findings


# One sentence may hold several cues: "answer in Chinese and never use emojis".
_CLAUSE_RE = re.compile(
    r"\s*;\s*|\s*；\s*"
    r"|,?\s+and\s+(?=(?:also\s+)?(?:always|never|don't|do not|please)\b)"
    r"|\s*,\s*(?=(?:always|never)\b)"
    r"|,\s*and\s+(?=(?:the|our)\s)"
    r"|\s*[，,]\s*(?=总是|永远不要|不要|别|绝不|始终|也不要|一直)", re.I)


# --------------------------------------------------------------------------- lead words

_LIST_MARK_RE = re.compile(r"^\s*(?:[-*•+]\s+|\d+[.)、]\s*)")
_FILLER_RE = re.compile(
    r"^(?:(?:ok(?:ay)?|also|and|btw|by the way|oh|hey|so|one more thing|fyi|nb|ps|plus|great|"
    r"thanks|thank you|cool|alright|all right|well|again|as i said|like i said|i repeat|"
    r"important|note|just so you know|heads up)\b|好的|好吧|嗯嗯?|哦|噢|另外|还有|对了|顺便说一下|"
    r"顺便说|顺便|补充一下|补充|然后|那么|所以|注意|重要)\s*[,:;!，。:：！、—–-]*\s*",
    re.I)
_CORRECTIVE_RE = re.compile(
    r"^(?:(?:no|nope|nah|wrong|incorrect|not quite|that's wrong|that is wrong|"
    r"that's not right)\s*[,.!:;—–-]+|(?:actually|correction|wait)\b[,.!:;—–-]*"
    r"|(?:不对|不是这样|不是的|不是|错了|不行|不)[，,。！!:：、]+)\s*", re.I)
_POLITE_RE = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?=(?:remember|note|keep in mind|always|never|make a note|from now on|stop|not)\b)"
    r"|你?(?:能不能|能否|可不可以|可以|能)(?:请你|帮我|麻烦你)?"
    r"(?=记住|记下|记一下|以后|从现在开始|总是|不要|别))", re.I)
_POLITE_END_RE = re.compile(r"\s*[吗嘛么]?\s*[?？]+\s*$")
_QUESTION_START_RE = re.compile(
    r"^(?:(?:do|does|did|should|shall|can|could|would|will|is|are|was|were|has|have|why|"
    r"what|how|where|which|who|whose|isn't|aren't|doesn't|didn't|shouldn't|won't|"
    r"wouldn't|may|might|am)\b|don't you\b|为什么|怎么|什么|哪|谁|是否)", re.I)
_QUESTION_ZH_RE = re.compile(
    r"是不是|要不要|能不能|可不可以|会不会|对不对|有没有|好不好|行不行|[吗呢么]\W*$")
_HYPOTHETICAL_RE = re.compile(
    r"^(?:(?:if|suppose|supposing|imagine|what if|say|let's say|lets say|assuming|assume|"
    r"hypothetically|in case|unless|even if|pretend|for example|for instance|as if|"
    r"e\.g\.)(?:\b|(?=\W))|如果|假如|要是|假设|万一|比如|例如|譬如|假使|倘若)", re.I)
_DIRECTIVE_RE = re.compile(
    r"^(?:please|kindly|you should|you must|you need to|you have to|make sure (?:to|that you|"
    r"you)|be sure to|i want you to|i need you to|i'd like you to|i would like you to|"
    r"try to|we should|we must|we need to|请你|请|你要|你应该|一定要)"
    r"(?:\b|(?=\W)|(?<=[^\x00-\x7f]))\s*",
    re.I)
_REMEMBER_RE = re.compile(
    r"^(?:(?:remember|memori[sz]e|keep in mind|don't forget|do not forget|never forget|"
    r"make a note|note for the future|for future reference|reminder|for the record)\b"
    r"(?!\s+(?:when|how|what|why|where|who|whom|whether|if|the time|me)\b)"
    r"(?:\s+(?:this|that)\s*(?=[:：]))?(?:\s+that\b)?"
    r"|(?:帮我|麻烦你?)?(?:记住|记下|记一下|记好|牢记|记着)(?:了|啊|哦|这一点|这点)?)"
    r"\s*[:：,，\-–—]?\s*", re.I)
_TODO_TO_RE = re.compile(r"^to\s+", re.I)
_TODO_ZH_RE = re.compile(
    r"^(?:记得(?:要)?|(?:千万|可)?(?:别忘了|别忘记|不要忘了|不要忘记))\s*[:：,，]?\s*")
_DURABLE_RE = re.compile(
    r"^(?:(?:from now on|from here on(?: out)?|going forward|moving forward|in (?:the )?future|"
    r"henceforth|for (?:all )?future [a-z]+|in all future [a-z]+|from this point on|"
    r"for the future)\b"
    r"|(?:从现在开始|从现在起|从今以后|从今往后|从今天起|今后|以后|往后)(?:都|也|请|你|就|的话)*)"
    r"\s*[:：,，]?\s*", re.I)
_TRAILING_DURABLE_RE = re.compile(
    r"\s*[,;，]?\s*(?:from now on|going forward|moving forward|in (?:the )?future|"
    r"from here on(?: out)?|以后都这样|以后也是|以后都是|从现在开始)\s*[.!。！]*$", re.I)
_TRAILING_POLITE_RE = re.compile(r"\s*,?\s*(?:please|thanks|thank you)\s*[.!]*$", re.I)


def _prepare(state: _State) -> _State | None:
    """Peel lead words off a clause; None for a question or a hypothetical."""
    state = _strip_fillers(state)
    polite = _POLITE_RE.match(state.text)
    if polite:
        text = _POLITE_END_RE.sub("", state.text[polite.end():])
        state = replace(state, text=text)
    elif _is_question(state.text):
        return None
    if _HYPOTHETICAL_RE.match(state.text):
        return None
    return _strip_cues(state)


def _strip_fillers(state: _State) -> _State:
    while True:
        text = _LIST_MARK_RE.sub("", state.text, count=1)
        text = _FILLER_RE.sub("", text, count=1)
        corrective = _CORRECTIVE_RE.match(text)
        if corrective:
            text = text[corrective.end():]
        if text == state.text:
            return state
        state = replace(state, text=text, corrective=state.corrective or bool(corrective))


def _is_question(text: str) -> bool:
    stripped = text.rstrip(" \t")
    if stripped.endswith(("?", "？")) or _QUESTION_START_RE.match(text):
        return True
    return bool(_QUESTION_ZH_RE.search(text.rstrip("。！.! ")))


def _strip_cues(state: _State) -> _State:
    while True:
        text, flags = _strip_one_cue(state.text)
        if text == state.text:
            break
        state = replace(state, text=text, **{flag: True for flag in flags})
        state = _strip_fillers(state)
    trailing = _TRAILING_DURABLE_RE.search(state.text)
    if trailing:
        state = replace(state, text=state.text[:trailing.start()], durable=True)
    text = _TRAILING_POLITE_RE.sub("", state.text)
    return replace(state, text=text.rstrip(" \t.!;,。！；，、"))


def _strip_one_cue(text: str) -> tuple[str, tuple[str, ...]]:
    match = _DIRECTIVE_RE.match(text)
    if match:
        return text[match.end():], ()
    match = _REMEMBER_RE.match(text)
    if match:
        rest = text[match.end():]
        to = _TODO_TO_RE.match(rest)
        return (rest[to.end():], ("todo",)) if to else (rest, ("remember",))
    match = _TODO_ZH_RE.match(text)
    if match:
        rest = text[match.end():]
        # 别忘了 + a copula states a fact ("别忘了测试命令是…"); otherwise it is a task.
        fact = match.group(0).startswith(("别", "不", "千", "可")) and "是" in rest
        return rest, ("remember",) if fact else ("todo",)
    match = _DURABLE_RE.match(text)
    if match:
        return text[match.end():], ("durable",)
    return text, ()


# --------------------------------------------------------------------------- detection


def _detect(state: _State, slots: list[str]) -> _Hit | None:
    text = state.text
    for detector in (_find_correction, _find_reference, _find_command, _find_uses,
                     _find_always_never, _find_prefer, _find_prohibition):
        hit = detector(text, slots, state)
        if hit is not None:
            return hit
    if state.remember or state.durable or state.todo:
        return _Hit("rule" if state.durable or state.todo else "fact", text)
    return None


_USE_VERB = (r"(?:we\s+|you\s+should\s+|let's\s+|always\s+)?(?:use|switch to|go with|pick|"
             r"choose|stick with|stick to|should use)")
_CORRECTION_RES = (
    re.compile(_USE_VERB + r"\s+(?P<x>\S+(?:\s+\S+){0,3}?)\s*,?\s+(?:instead of|rather than|"
               r"not|over|and not|never|don't use|do not use)"
               r"\s+(?P<y>\S+(?:\s+\S+){0,3}?)(?:\s+(?:for|to|when|in|on|with)\s+.+)?$", re.I),
    re.compile(r"(?:don't|do not|never|stop)\s+(?:use|using)\s+(?P<y>.+?)\s*[,;:]?\s+"
               r"(?:use|we use|instead use|prefer|go with|switch to)\s+(?P<x>.+?)"
               r"(?:\s+instead)?$", re.I),
    re.compile(r"(?:不要|别|不)(?:再)?(?:用|使用)(?P<y>.+?)[，,、；;\s]*(?:了)?[，,]?\s*"
               r"(?:要|请|改|而是|应该|就)?(?:用|使用)(?P<x>.+)$"),
    re.compile(r"(?:要|请|应该|改)?(?:用|使用)(?P<x>.+?)\s*(?:而不是|而非|[，,]?\s*(?:不要|别|不是))"
               r"(?:用|使用)?\s*(?P<y>.+)$"),
    re.compile(r"(?:要|请|应该|改)?(?:用|使用)(?P<x>.+?)\s*(?:来)?(?:代替|替代|取代|替换)\s*(?P<y>.+)$"),
)
_DONT_USE_RES = (
    re.compile(r"(?:don't|do not|never|stop)\s+(?:use|using)\s+(?P<y>.+)$", re.I),
    re.compile(r"(?:不要|别)(?:再)?(?:用|使用)(?P<y>.+)$"),
)
_USE_INSTEAD_ALONE_RE = re.compile(r"(?:use|we use|switch to)\s+(?P<x>.+?)\s+instead$", re.I)
_SIDE_TRIM = " \t，,。.!！了吧"


def _find_correction(text: str, slots: list[str], state: _State) -> _Hit | None:
    for pattern in _CORRECTION_RES:
        match = pattern.fullmatch(text)
        if match:
            x = _restore(match.group("x").strip(_SIDE_TRIM), slots)
            y = _restore(match.group("y").strip(_SIDE_TRIM), slots)
            return _correction_hit(text, x, y)
    for pattern in _DONT_USE_RES:
        match = pattern.fullmatch(text)
        if match:
            return _correction_hit(text, None, _restore(match.group("y").strip(_SIDE_TRIM), slots))
    match = _USE_INSTEAD_ALONE_RE.fullmatch(text) if state.corrective else None
    if match:
        return _correction_hit(text, _restore(match.group("x").strip(_SIDE_TRIM), slots), None)
    return None


def _correction_hit(text: str, x: str | None, y: str | None) -> _Hit:
    # Only a choice ("use X") may take over the category's note; a bare "don't use Y" would
    # otherwise overwrite "use uv instead of pip" with less than it said.
    category = _pair_category(x, y) if x else None
    if category is not None:
        return _Hit("correction", text, category)
    terms = frozenset(_term(t) for t in (x, y) if t)
    cjk = any(_is_cjk(ch) for ch in (x or "") + (y or ""))
    if x and y:
        title = f"用{x}，不用{y}" if cjk else f"Use {x}, not {y}"
    elif y:
        title = f"不要用{y}" if cjk else f"Don't use {y}"
    else:
        title = f"用{x}" if cjk else f"Use {x}"
    return _Hit("correction", text, title, terms)


_TITLE_TERMS_RES = (
    re.compile(r"^use (?P<x>.+), not (?P<y>.+)$", re.I),
    re.compile(r"^用(?P<x>.+)，不用(?P<y>.+)$"),
    re.compile(r"^(?:don't use|不要用) ?(?P<y>.+)$", re.I),
)


def _title_terms(title: str) -> frozenset[str]:
    for pattern in _TITLE_TERMS_RES:
        match = pattern.match(title.strip())
        if match:
            return frozenset(_term(v) for v in match.groupdict().values() if v)
    return frozenset()


def _term(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text.replace("`", "")).casefold().split())


_CMD_EN_RES = (
    re.compile(r"(?:the\s+|our\s+)?(?!(?:my|your|his|her|their|a|an|this|that|which|what)\s)"
               r"(?P<what>[\w-]+(?:\s+[\w-]+)?)\s+(?P<noun>command|cmd|script|process|"
               r"procedure|workflow)\s+is\s*:?\s*(?P<cmd>.+)", re.I),
    re.compile(r"(?:you can\s+|we\s+|always\s+)?(?:run|execute)\s+(?:all\s+)?(?:the\s+)?"
               r"(?:(?:unit|integration|e2e|end-to-end)\s+)?(?P<what>tests?|test suite|linters?|"
               r"type ?checks?|type-checks?|benchmarks?|formatters?)\s+(?:with|using|via|"
               r"by running|through)\s*:?\s*(?P<cmd>.+)", re.I),
    # "we build with bazel" is a fact; a bare "build with bazel" is usually today's request.
    re.compile(r"(?:you can|we|always)\s+(?P<what>test|build|lint|deploy|format|release|"
               r"publish|type-?check)\s+(?:with|using|via|by running|through)\s*:?\s*(?P<cmd>.+)",
               re.I),
    re.compile(r"(?:the\s+)?(?P<what>tests?|builds?|deploys?|deployments?|releases?)\s+(?:are|is)"
               r"\s+(?:run|done|triggered|made|built|deployed)\s+(?:with|using|via|by|through)"
               r"\s*:?\s*(?P<cmd>.+)", re.I),
    re.compile(r"to\s+(?:run\s+)?(?:the\s+)?(?P<what>tests?|build|lint|deploy|format|release|"
               r"publish|type-?check)(?:\s+(?:the\s+)?(?:project|app|code|package|repo|site))?"
               r"\s*,\s*(?:use|run|type)\s*:?\s*(?P<cmd>.+)", re.I),
    re.compile(r"use\s+(?P<cmd>.+?)\s+to\s+(?:run\s+)?(?:the\s+)?(?P<what>tests?|build|lint|"
               r"deploy|format|release|type-?check)(?:\s+(?:the\s+)?(?:project|app|code|"
               r"package|repo|site))?", re.I),
    re.compile(r"(?:we\s+)?(?P<what>deploy)s?\s+(?:to|on)\s+(?P<cmd>.+)", re.I),
    re.compile(r"the\s+(?P<what>deploy(?:ment)?(?:\s+[\w-]+){1,2}?)(?P<noun>)\s+(?:is|are|lives?|"
               r"runs?)\s+(?P<cmd>.+)", re.I),
)
_CMD_ZH_RES = (
    re.compile(r"(?P<what>单元测试|测试|构建|编译|部署|发布|格式化|lint|检查|类型检查)(?:的)?"
               r"(?:命令|指令|脚本)(?:是|为|用)\s*[:：]?\s*(?P<cmd>.+)", re.I),
    re.compile(r"(?:跑|运行|执行)(?:单元|全部|所有的?)?(?P<what>测试|lint|类型检查)(?:要|请|就|都)?"
               r"(?:用|使用|用的是|是)\s*[:：]?\s*(?P<cmd>.+)", re.I),
    re.compile(r"(?:用|使用)\s*(?P<cmd>.+?)\s*(?:来)?(?:跑|运行|执行)(?P<what>测试|lint|构建)",
               re.I),
    re.compile(r"(?P<what>部署|构建|发布)(?:要|请|都)?(?:用|使用|通过)\s*(?P<cmd>.+)"),
)
_COMMAND_TITLES = (
    (re.compile(r"test|测试", re.I), "Test command"),
    (re.compile(r"^(?:build|构建|编译)", re.I), "Build command"),
    (re.compile(r"^(?:lint|检查)", re.I), "Lint command"),
    (re.compile(r"^(?:format|格式化)", re.I), "Format command"),
    (re.compile(r"^(?:type[ -]?check|类型检查)", re.I), "Type check command"),
    (re.compile(r"^(?:deploy(?:s|ment)?|部署)$", re.I), "Deployment"),
    (re.compile(r"^(?:release|publish|发布)", re.I), "Release command"),
    (re.compile(r"^benchmark", re.I), "Benchmark command"),
)


def _find_command(text: str, slots: list[str], state: _State) -> _Hit | None:
    for pattern in (*_CMD_EN_RES, *_CMD_ZH_RES):
        match = pattern.fullmatch(text)
        if match and _restore(match.group("cmd"), slots).strip():
            noun = match.groupdict().get("noun")
            return _Hit("command", text, _command_title(match.group("what"), noun))
    return None


def _command_title(what: str, noun: str | None) -> str:
    what = " ".join(what.split())
    for pattern, title in _COMMAND_TITLES:
        if pattern.search(what):
            return title
    if noun == "":
        return _capitalise(what)  # "the deploy key is …": the key is the topic
    noun = "command" if noun is None or noun.lower() == "cmd" else noun.lower()
    return _capitalise(f"{what} {noun}")


_REF_NOUNS_ZH = r"设计文档|接口文档|API文档|文档|手册|wiki|Wiki|维基|仪表盘|看板|面板|监控|runbook"
_REF_RES = (
    re.compile(r"(?:the\s+|our\s+|my\s+)?(?P<what>[^,:;]{1,60}?)\s+(?:is|are|lives?|"
               r"can be found|is hosted|are hosted|is available|are available)\s+"
               r"(?:at|on|in|under|here)?\s*:?\s*(?P<url>" + _PH + r")(?:[\s,;(].*)?", re.I),
    re.compile(r"(?P<what>.+?)\s+(?:is|are)\s+(?P<documented>documented)\s+(?:at|in|on)\s+"
               r"(?P<url>" + _PH + r")", re.I),
    re.compile(r"(?:(?P<what>.+?)的)?(?P<kind>" + _REF_NOUNS_ZH + r")(?:地址|链接)?"
               r"(?:在|是|位于|见)\s*[:：]?\s*(?P<url>" + _PH + r").*"),
)
# "See <link> for …" points somewhere to look whatever the link is.
_POINTER_RES = (
    re.compile(r"see\s+(?P<url>" + _PH + r")\s+for\s+(?P<what>.+)", re.I),
    re.compile(r"for\s+(?P<what>.+?)\s*,\s*see\s+(?P<url>" + _PH + r")", re.I),
    re.compile(r"(?:参考|参见|请看|详见|见)\s*[:：]?\s*(?P<url>" + _PH + r").*"),
)
_REF_NOUN_RE = re.compile(
    r"\b(?:docs?|documentation|wiki|dashboards?|runbooks?|playbooks?|specs?|specification|"
    r"design doc|board|tracker|guides?|handbook|readme|api|reference|manual|status page|"
    r"grafana|kibana|sentry|jira|confluence|notion|repo|repository|staging|production|ci|"
    r"pipeline|portal|console|registry|changelog|roadmap|calendar|mirror|site|website|"
    r"homepage|storybook|figma|schema|documented)\b|" + _REF_NOUNS_ZH, re.I)
_DOCS_WORDS = frozenset({"docs", "documentation", "project docs", "project documentation",
                         "文档", "the docs"})
_GENERIC_WHAT = re.compile(r"^(?:(?:more|the|further)\s+)*(?:details?|info|information|context|"
                           r"reference|background|more)$", re.I)


def _find_reference(text: str, slots: list[str], state: _State) -> _Hit | None:
    for pattern in (*_REF_RES, *_POINTER_RES):
        match = pattern.fullmatch(text)
        if not match:
            continue
        url = _url_slot(match.group("url"), slots)
        # "The fix is in <PR link>" is news, "the runbook is at <link>" a reference; "see
        # <link>" always points somewhere to look.
        said = (state.remember or state.durable or pattern in _POINTER_RES
                or _REF_NOUN_RE.search(_restore(text, slots)))
        if url is not None and said:
            return _Hit("reference", text, _reference_title(match, slots, url))
    return None


def _reference_title(match: re.Match[str], slots: list[str], url: str) -> str:
    groups = match.groupdict()
    what = _restore(groups.get("what") or "", slots).strip(" :：")
    kind = groups.get("kind")
    if kind is not None:
        what = what + kind if what else kind
    what = re.sub(r"^(?:the|our|my|your)\s+", "", what, flags=re.I)
    if groups.get("documented"):
        what = f"{what} docs"
    if what.lower() in _DOCS_WORDS:
        return "Documentation"
    if not what or _GENERIC_WHAT.match(what):
        return url.split("/")[2]
    return _cut_title(what)


_USES_RES = (
    re.compile(r"(?:we|our team|the team)\s+(?:uses?|are using|is using|standardi[sz]es? on|"
               r"rel(?:y|ies) on)\s+(?P<x>.+?)\s+(?:for|to)\s+(?P<y>.+)", re.I),
    re.compile(r"(?:we|our team|the team)\s+(?:uses?|are using|is using|standardi[sz]es? on)\s+"
               r"(?P<x>.+)", re.I),
    re.compile(r"(?:this|the|our)\s+(?:project|repo|repository|codebase|code base|monorepo|app|"
               r"service|package|library)\s+(?:uses|is using|is built (?:with|on)|runs on|targets|"
               r"requires|depends on|is written in)\s+(?P<x>.+)", re.I),
    re.compile(r"(?:这个|本|我们的?)(?:项目|仓库|代码库|repo)(?:里|中)?(?:用|使用|用的是|采用|基于)"
               r"\s*(?P<x>.+)", re.I),
    re.compile(r"我们(?:都|一般|统一)?(?:用|使用|采用)\s*(?P<x>.+?)\s*(?:来|做|进行)(?P<y>.+)"),
    re.compile(r"我们(?:都|一般|统一)?(?:用|使用|采用)\s*(?P<x>.+)"),
)
_LANG_VERSION_RE = re.compile(
    r"^(python|node(?:\.?js)?|go|golang|rust|java|ruby|typescript|php)\s*v?\d+(?:\.\d+)*\b",
    re.I)
_LANG_NAMES = {"python": "Python", "node": "Node.js", "nodejs": "Node.js", "node.js": "Node.js",
               "go": "Go", "golang": "Go", "rust": "Rust", "java": "Java", "ruby": "Ruby",
               "typescript": "TypeScript", "php": "PHP"}


def _find_uses(text: str, slots: list[str], state: _State) -> _Hit | None:
    for pattern in _USES_RES:
        match = pattern.fullmatch(text)
        if not match:
            continue
        x = _restore(match.group("x"), slots)
        y = match.groupdict().get("y")
        # "we use a lot of memory", "we use it twice": an amount or a pointer, not a choice.
        vague = _VAGUE_USE_RE if y else _VAGUE_USE_ALONE_RE
        if vague.match(x):
            return None
        return _Hit("fact", text, _uses_title(x, _restore(y, slots) if y else None))
    return None


_VAGUE_USE_RE = re.compile(
    r"^(?:it|this|that|them|these|those|up|lots|a lot|a bit|too|way|much|more|less|so|"
    r"这个|那个|它)(?:\b|(?<=[^\x00-\x7f]))", re.I)
_VAGUE_USE_ALONE_RE = re.compile(_VAGUE_USE_RE.pattern + r"|^(?:a|an|the|some|any)\b", re.I)


def _uses_title(x: str, y: str | None) -> str | None:
    category = _tool_category(x)
    if category is not None:
        return category
    version = _LANG_VERSION_RE.match(x.replace("`", "").strip())
    if version:
        return _LANG_NAMES[version.group(1).lower()] + " version"
    if y and not _ANY_PURPOSE_RE.match(y):
        command = _command_in_purpose(y)
        return command or _cut_title(re.sub(r"^(?:the|our)\s+", "", y, flags=re.I), words=6)
    return None


_ANY_PURPOSE_RE = re.compile(r"^(?:everything|anything|all|most things|all of it|所有|一切)\b",
                             re.I)


def _command_in_purpose(purpose: str) -> str | None:
    match = re.match(r"^(?:run\s+)?(?:the\s+)?(tests?|build|lint|deploy|format|type-?check)\b",
                     purpose.strip(), re.I)
    return _command_title(match.group(1), "command") if match else None


_ALWAYS_NEVER_RES = (
    re.compile(r"(?:always|never|don't ever|do not ever|never ever)\s+(?P<rest>.+)", re.I),
    re.compile(r"we\s+(?:always|never)\s+(?P<rest>(?:use|run|commit|push|merge|deploy|write|put|"
               r"keep|add|squash|rebase|test|lint|format|review|tag|release|pin|prefix|name|"
               r"store|log|import|document|avoid|prefer|require|vendor|ship|target|support|"
               r"check|update|bump|sign|open|create|follow|indent|declare|annotate)\b.*)", re.I),
    re.compile(r"(?:永远不要|永远别|永远不|绝不|绝对不要|绝对别|千万不要|千万别|不要再|别再|再也不要|决不|从不)"
               r"(?P<rest>.+)"),
    re.compile(r"(?:总是|一直|始终|每次都|务必|一律|永远)(?P<always>)(?P<rest>.+)"),
)
_NOT_IMPERATIVE = frozenset(
    {"been", "was", "were", "is", "are", "has", "had", "did", "does", "works", "happens",
     "seems", "mind", "again", "ever", "knew", "thought", "said", "got", "gets", "fails",
     "breaks", "broke", "gonna", "the", "a", "an", "this", "that", "these", "those", "it",
     "my", "your", "our", "his", "her", "their", "so", "such", "more", "less", "true",
     "false", "here", "there", "in", "at", "on"})
_NOT_IMPERATIVE_ZH = re.compile(r"^(?:在|是|没|有|会|报错|出错|失败|崩溃|卡|挂|不行|这样|不|很|忘)")


def _find_always_never(text: str, slots: list[str], state: _State) -> _Hit | None:
    for pattern in _ALWAYS_NEVER_RES:
        match = pattern.fullmatch(text)
        if match and _imperative(match.group("rest"), "always" in match.groupdict()):
            return _Hit("rule", text, _use_category(_restore(match.group("rest"), slots)))
    return None


def _imperative(rest: str, always_zh: bool) -> bool:
    # "一直在报错" (it keeps failing) describes, "一直用中文回答" instructs.
    if always_zh and _NOT_IMPERATIVE_ZH.match(rest):
        return False
    first = rest.split()[0].lower().strip(",.") if rest.split() else ""
    return first not in _NOT_IMPERATIVE and not (first.endswith("ed") and first != "need")


_PREFER_RES = (
    # "I would like to enrol" is a request; only "I'd prefer/rather" states a preference.
    re.compile(r"i(?:'d|\s+would)\s+(?:(?:really|much|still)\s+)?(?:prefer|rather)\s+"
               r"(?P<rest>.+)", re.I),
    re.compile(r"i\s+(?:(?:really|strongly|generally|usually|much|also|do|definitely|"
               r"personally|always|still)\s+)*(?:prefer|like|love|hate|dislike|don't like|"
               r"do not like|can't stand|cannot stand)\s+(?P<rest>.+)", re.I),
    re.compile(r"my\s+preference\s+is\s+(?:for\s+|to\s+)?(?P<rest>.+)", re.I),
    re.compile(r"我(?:个人)?(?:更|比较|还是|一般|通常|非常|很|真的|特别|最)*"
               r"(?:喜欢|偏好|倾向于|偏爱|习惯|讨厌|不喜欢)(?P<rest>.+)"),
)
_VAGUE_OBJECT_RE = re.compile(
    r"^(?:it|this|that|these|those|them|your|you|the idea|你|这|那|它)(?:\b|(?=\W)|(?<=\W))", re.I)


def _find_prefer(text: str, slots: list[str], state: _State) -> _Hit | None:
    for pattern in _PREFER_RES:
        match = pattern.fullmatch(text)
        if match and not _VAGUE_OBJECT_RE.match(match.group("rest")):
            return _Hit("prefer", text, _use_category(_restore(match.group("rest"), slots)))
    return None


_PROHIBITION_RES = (
    re.compile(r"(?:don't|do not|stop|quit|no more|no)\s+(?P<rest>.+)", re.I),
    re.compile(r"(?:不要|别|不用|不需要|不必)(?P<rest>.+)"),
)


def _find_prohibition(text: str, slots: list[str], state: _State) -> _Hit | None:
    """ "Don't apologise so much": only a standing habit of the agent, or after a "no,"."""
    for pattern in _PROHIBITION_RES:
        match = pattern.fullmatch(text)
        if not match:
            continue
        if _style_topic(_restore(text, slots)) is not None:
            return _Hit("behaviour", text)
        if state.corrective:
            return _Hit("correction", text)
        if state.remember or state.durable:
            return _Hit("rule", text)
    return None


# --------------------------------------------------------------------------- topics

_ARTEFACT_RE = re.compile(
    r"\b(?:commits?|commit messages?|docstrings?|comments?|logs?|logging|variables?|functions?|"
    r"tests?|prs?|pull requests?|changelog|readme|code|identifiers?|file ?names?|branch(?:es)?|"
    r"docs|documentation|strings?|ui|error messages?|api|fields?)\b"
    r"|提交|注释|变量|函数|日志|代码|测试|文档", re.I)
_LANGS = (r"(?:english|chinese|mandarin|cantonese|french|german|spanish|japanese|korean|"
          r"italian|portuguese|russian|dutch|simplified chinese|traditional chinese)")
_ANSWERS = r"(?:answers?|replies|reply|responses?|explanations?)"
_STYLE_TOPICS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"\b(?:answer|reply|respond|write|talk|speak|communicate|explain|chat)\b.*"
                r"\bin\s+" + _LANGS + r"\b|\b" + _LANGS + r"\s+(?:" + _ANSWERS + r"|only)\b"
                r"|\b" + _ANSWERS + r"\s+in\s+" + _LANGS + r"\b|\bspeak\s+" + _LANGS + r"\b"
                r"|(?:用|使用|说|讲)(?:简体)?(?:中文|汉语|英文|英语|日语|日文|韩语)"
                r"|(?:中文|英文|英语)(?:回答|回复|交流|沟通)", re.I),
     "Answer language", PREFERENCE),
    (re.compile(r"\bbe\s+(?:more\s+|very\s+|less\s+)?(?:concise|brief|terse|succinct|verbose|"
                r"wordy)\b|\b(?:concise|brief|short|shorter|terse|succinct|long|longer|verbose|"
                r"detailed)\s+" + _ANSWERS + r"\b|\bkeep\s+(?:it|them|answers|replies|"
                r"responses)\s+(?:short|brief|concise)\b|\b(?:too|so|less)\s+(?:verbose|wordy|"
                r"long-winded)\b|\bto the point\b|简洁|简短|简明|精简|啰嗦|长篇大论|废话", re.I),
     "Answer length", PREFERENCE),
    (re.compile(r"\bemojis?\b|\bemoticons?\b|表情", re.I), "Emoji use", PREFERENCE),
    (re.compile(r"\b(?:be|sound|stay|keep it)\s+(?:more\s+|less\s+)?(?:formal|informal|casual|"
                r"polite|friendly)\b|\btone\b|语气|正式|客气", re.I), "Tone", PREFERENCE),
    (re.compile(r"\bapologi[sz]\w*|\bapology|\bapologies|\bsorry\b|道歉|对不起|抱歉", re.I),
     "Apologies", CORRECTION),
    (re.compile(r"\bask(?:ing)?\s+(?:me\s+)?(?:for\s+)?(?:confirmation|permission|before)\b|"
                r"\bcheck with me\b|\bconfirm with me\b|\bwait for my (?:ok|approval|"
                r"confirmation)\b|先问我|先确认|征求我的?同意|经过我的?同意|等我确认", re.I),
     "Asking for confirmation", CORRECTION),
    (re.compile(r"great question|\bflatter\w*|\bsycophan\w*|\bpraise\b|\bcompliment\w*|拍马屁|"
                r"奉承|夸我|好问题", re.I), "Flattery", CORRECTION),
    (re.compile(r"\b(?:summari[sz]\w*|recap\w*)\b|\bsummar(?:y|ies)\s+(?:at the end|after|"
                r"of (?:what|your|the changes))|总结", re.I), "Summaries", CORRECTION),
)
_INDENT_RE = re.compile(r"\bindent\w*|\btabs?\b|\b\d+[- ]spaces?\b|缩进|制表符", re.I)


def _style_topic(text: str) -> tuple[str, str] | None:
    """A topic about how the agent talks or behaves, which follows the person (user level)."""
    if _ARTEFACT_RE.search(text):
        return None  # "no emojis in commit messages" is a rule of the codebase
    for pattern, title, note_type in _STYLE_TOPICS:
        if pattern.search(text):
            return title, note_type
    return None


_CATEGORIES: dict[str, tuple[str, ...]] = {
    "Package manager": ("npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv", "poetry", "pipenv",
                        "conda", "mamba", "pdm", "hatch", "rye", "composer", "bundler"),
    "Test runner": ("pytest", "unittest", "nose", "nose2", "jest", "vitest", "mocha", "jasmine",
                    "ava", "tox", "nox"),
    "Linter": ("ruff", "flake8", "pylint", "eslint", "biome", "pyflakes", "golangci-lint",
               "clippy", "rubocop", "shellcheck"),
    "Formatter": ("black", "prettier", "yapf", "autopep8", "gofmt", "rustfmt", "ruff", "isort",
                  "biome"),
    "Type checker": ("mypy", "pyright", "basedpyright", "pytype", "pyre"),
    "HTTP client": ("requests", "httpx", "aiohttp", "urllib", "urllib3", "axios", "fetch", "got"),
    "Build tool": ("make", "cmake", "ninja", "bazel", "just", "gradle", "maven", "meson",
                   "scons", "webpack", "vite", "esbuild", "rollup", "tsup"),
    "Container runtime": ("docker", "podman"),
    "Database": ("postgres", "postgresql", "mysql", "sqlite", "mariadb", "mongodb"),
    "Logging": ("logging", "loguru", "structlog", "print"),
    "Date library": ("datetime", "arrow", "pendulum", "moment", "dayjs", "date-fns"),
    "Indentation": ("tabs", "tab", "spaces"),
}
_TOOL_RE = re.compile(
    r"^(?:using\s+|to use\s+|use\s+|(?:always\s+)?use\s+)?(?P<tool>[A-Za-z0-9_.+-]+)"
    r"(?:\s+v?\d[\w.]*)?"
    r"(?:\s+(?:for|to|when|in|with|on|as|instead|rather|over|and|than|not|into|everywhere|"
    r"always|only|please)\b.*|\s*[,;，；].*|\s*(?:来|做|跑|管理|安装|进行).*)?$", re.I)
_USE_LEAD_RE = re.compile(
    r"^(?:always\s+|never\s+)?(?:use|using|to use)\s+|^(?:都|总是)?(?:用|使用)\s*", re.I)


def _categories(tool: str) -> tuple[str, ...]:
    return tuple(name for name, tools in _CATEGORIES.items() if tool in tools)


def _tool_category(text: str) -> str | None:
    """The category when the text names one tool on its own ("uv", "`uv` for installs")."""
    match = _TOOL_RE.match(text.replace("`", "").strip().rstrip(".。"))
    if match is None:
        return None
    found = _categories(match.group("tool").lower())
    return found[0] if found else None


def _pair_category(x: str | None, y: str | None) -> str | None:
    """ "Use ruff, not black": the category the two tools share, else the one named."""
    cx = _categories(_first_tool(x)) if x else ()
    cy = _categories(_first_tool(y)) if y else ()
    shared = [c for c in cx if c in cy]
    found = shared or list(cx) or list(cy)
    return found[0] if found else None


def _first_tool(text: str) -> str:
    match = _TOOL_RE.match(text.replace("`", "").strip().rstrip(".。"))
    return match.group("tool").lower() if match else ""


def _use_category(rest: str) -> str | None:
    """ "always use uv", "I prefer pnpm over npm": a tool choice, titled by its category."""
    text = rest.replace("`", "").strip()
    lead = _USE_LEAD_RE.match(text)
    if lead is None and not re.match(r"^[\w.+-]+(?:\s+(?:over|to|instead of|rather than)\s|$)",
                                     text):
        return None
    return _tool_category(text[lead.end():] if lead else text)


# --------------------------------------------------------------------------- routing

_PROJECT_MARK_RE = re.compile(
    r"\b(?:this|our|the current)\s+(?:project|repo|repository|codebase|code base|monorepo|"
    r"package|service|app|workspace)\b|\bin here\b|\bin this (?:code|folder)\b|这个项目|本项目|"
    r"该项目|这个仓库|本仓库|这个代码库|我们的项目|这个repo", re.I)
_USER_MARK_RE = re.compile(
    r"\b(?:all (?:of )?my|any of my|every one of my)\s+(?:projects|repos|repositories|code|"
    r"work)\b|\b(?:every|any|all|each)\s+(?:project|repo|repository|codebase)s?\b|"
    r"\beverywhere\b|\bin general\b|\bacross (?:all )?(?:projects|repos)\b|\bglobally\b|"
    r"所有项目|所有的项目|每个项目|任何项目|所有仓库|全局", re.I)


def _route(hit: _Hit, state: _State, plain: str) -> tuple[str, str, str | None]:
    """(level, type, topic title or None) for a hit; plain is its restored text."""
    topic = _style_topic(plain) if hit.kind not in ("reference", "command") else None
    if topic is not None:
        return _level(plain, USER), topic[1], topic[0]
    title = hit.title or ("Indentation" if _INDENT_RE.search(plain) else None)
    if hit.kind == "reference":
        return _level(plain, PROJECT), REFERENCE, title
    if hit.kind == "correction" or (state.corrective and hit.kind == "rule"):
        return _level(plain, PROJECT), CORRECTION, title
    if hit.kind == "prefer":
        return _level(plain, USER), PREFERENCE, title
    return _level(plain, PROJECT), KNOWLEDGE, title


def _level(text: str, default: str) -> str:
    if _PROJECT_MARK_RE.search(text):
        return PROJECT
    if _USER_MARK_RE.search(text):
        return USER
    return default


# --------------------------------------------------------------------------- finishing

_EPHEMERAL_RE = re.compile(
    r"\b(?:right now|for now|this time|just this once|for this (?:task|session|pr|change|one|"
    r"run|ticket|commit)|later today|in this session|at the moment|temporarily|"
    r"for the moment)\b|这次|这一次|这回|暂时|目前先|先这样|本次|今天先", re.I)
_DEICTIC_RE = re.compile(
    r"\b(?:this|that|these|those)\s+(?:bugs?|issues?|errors?|files?|functions?|methods?|"
    r"class(?:es)?|tests?|prs?|branch(?:es)?|commits?|lines?|changes?|tickets?|todos?|typos?|"
    r"warnings?|failures?|snippets?|loops?|variables?|one|code|approach|idea|answer|output)\b"
    r"|\bhere\b|这个(?:bug|问题|错误|报错|文件|函数|方法|类|测试|分支|提交|改动|PR|pr)|这里|这段代码",
    re.I)
_TIME_RE = re.compile(
    r"\b(?:today|tonight|tomorrow|later|now|soon|asap|this (?:morning|afternoon|evening|week|"
    r"weekend)|next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|eod|the end of the day)|"
    r"in (?:a|an|\d+) (?:minute|hour|moment|day)s?|after lunch|before lunch|when you're done|"
    r"once you're done)\b|今天|今晚|明天|后天|待会|等会|一会|稍后|马上|现在|下周|"
    r"周[一二三四五六日天]|星期[一二三四五六日天]|晚点|回头", re.I)
_HABITUAL_RE = re.compile(
    r"\b(?:before|after|whenever|every|each|always|when|while)\b|每次|每当|之前|之后|以前|前|后|时|"
    r"总是|都要|都得", re.I)
_VAGUE_RE = re.compile(
    r"^(?:(?:do|doing|keep|keep doing|say|use)\s+)?(?:that|this|it|so|these|those|the same|"
    r"them)(?:\s+(?:too|again|please|instead|as well|always|one))?$"
    r"|^(?:这样|那样|这个|那个|这么做|那么做|照这样|按这个|就这样)(?:做|办|来)?(?:吧|啊)?$", re.I)


_POINTING_RE = re.compile(r"\b(?:it|them|that|this|these|those)\b", re.I)


def _finish(
    hit: _Hit, state: _State, slots: list[str], today: datetime.date, quote: str
) -> _Finding | None:
    plain = _restore(hit.body, slots)
    if _is_ephemeral(hit, state, plain):
        return None
    content = _content(hit.body, slots, today)
    if content is None:
        return None
    level, note_type, title = _route(hit, state, plain)
    if title is None and _POINTING_RE.search(content) and len(content.split()) <= 4:
        return None  # "Always pin it": what "it" is was said before, out of reach here
    title = _cut_title(title or content.rstrip(".。"))
    return _Finding(level, note_type, title, content, quote, hit.terms)


def _is_ephemeral(hit: _Hit, state: _State, plain: str) -> bool:
    if _EPHEMERAL_RE.search(plain):
        return True
    if _DEICTIC_RE.search(plain) and hit.kind != "reference":
        return True
    # "Remember to fix this later" is a task; "remember to run ruff before committing" a rule.
    if state.todo and hit.kind in ("rule", "fact"):
        return bool(_TIME_RE.search(plain)) or not _HABITUAL_RE.search(plain)
    return False


def _content(body: str, slots: list[str], today: datetime.date) -> str | None:
    text = _restore(_absolute_dates(body, today), slots).strip()
    if len(text) >= 2 and text[0] + text[-1] in ('""', "“”", "「」", "『』"):
        text = text[1:-1].strip()  # remember: "…" quotes the note itself
    text = " ".join(text.split()).rstrip(" .,;:!?。，；：！？")
    if not text or _VAGUE_RE.match(text) or _too_short(text):
        return None
    return _capitalise(text) + ("。" if any(_is_cjk(ch) for ch in text) else ".")


def _too_short(text: str) -> bool:
    if any(_is_cjk(ch) for ch in text):
        return len(text) < 2
    return len(text.split()) < 2


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def _cut_title(text: str, words: int = TITLE_WORDS) -> str:
    # An aside in brackets is detail, and cutting inside one leaves a dangling "(see".
    text = " ".join(_ASIDE_RE.sub("", text).split()) or text
    if any(_is_cjk(ch) for ch in text) and len(text.split()) < 3:
        cut = text[:TITLE_CJK_CHARS]
    else:
        cut = " ".join(text.split()[:words])
    return _capitalise(cut.rstrip(" ,;:，；：、")[:MAX_TITLE_CHARS].rstrip())


_ASIDE_RE = re.compile(r"\s*[(（][^)）]*(?:[)）]|$)")


def _shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    if " " in cut[limit // 2:]:
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip(" ,;:") + "…"


# --------------------------------------------------------------------------- dates

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS = "一二三四五六日"
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_DATE_EN_RE = re.compile(
    r"\b(?:(?:the\s+)?day after tomorrow|tomorrow|today|yesterday|next week|"
    r"(?P<which>next|this)\s+(?P<day>" + "|".join(_WEEKDAYS) + r")|"
    r"in\s+(?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?P<unit>days?|weeks?))\b", re.I)
_DATE_ZH_RE = re.compile(
    r"大后天|后天|明天|今天|昨天|(?P<which>下|这|本)(?:周|星期|礼拜)(?P<day>[一二三四五六日天])"
    r"|下(?:周|星期|礼拜)(?![一二三四五六日天])")


def _absolute_dates(text: str, today: datetime.date) -> str:
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
