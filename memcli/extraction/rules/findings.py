"""A message read sentence by sentence and clause by clause into findings."""

from __future__ import annotations

import datetime
import functools
import re
from dataclasses import dataclass
from typing import Any

from memcli.extraction.rules.chat import about_life, has_subject
from memcli.extraction.rules.cues import is_question, not_kept_because, prepare
from memcli.extraction.rules.dates import absolute_dates
from memcli.extraction.rules.labels import find_label, label_value
from memcli.extraction.rules.lead_words import LIST_MARK_RE, only_corrects
from memcli.extraction.rules.model import Finding, Hit, Skip, State
from memcli.extraction.rules.patterns import (
    INSTRUCTION_VERBS,
    LEAD_SPACE,
    POINTER_WORDS,
    any_word,
    lazy,
)
from memcli.extraction.rules.sentences import (
    capitalise,
    cut_title,
    is_cjk,
    mask,
    restore,
    split_sentences,
)
from memcli.extraction.rules.standing import find_fact, find_standing
from memcli.extraction.rules.statements import detect, find_correction, statement_why
from memcli.extraction.rules.topics import route


def findings_in_text(text: str, today: datetime.date, message: int = 0,
                     skips: list[Skip] | None = None) -> list[Finding]:
    slots: list[str] = []
    # The placeholder marks must not come from the text itself; typographic apostrophes
    # ("don’t") must match the same cues as typed ones.
    text = text.replace("\ue000", "").replace("\ue001", "").replace("\u2019", "'")
    sentences = split_sentences(_with_apostrophes(mask(text, slots)))
    findings: list[Finding] = []
    corrective = False
    in_task = _task_description(sentences)
    i = 0
    while i < len(sentences):
        sentence = quote = sentences[i]
        merged = _merge_dont_use(sentence, sentences[i + 1] if i + 1 < len(sentences) else "")
        if merged is not None:
            sentence, quote, i = merged, quote + " " + sentences[i + 1], i + 1
        if _BARE_NO_RE.match(sentence) or only_corrects(sentence):
            corrective = True
        else:
            quote = " ".join(restore(_without_list_mark(quote), slots).split())
            read = _Reading(slots, today, quote, message, skips if skips is not None else [])
            found = _sentence_findings(sentence, read, corrective)
            if in_task and not LIST_MARK_RE.match(sentence):
                found = _without_generic(found, read)
            findings.extend(found)
            corrective = False
        i += 1
    return findings


# Typed without the apostrophe ("dont use moment"): read, and written in the note, as the
# cue words are spelled. Code and links are masked already, so they stay as typed.
_SPELLED_RE = lazy(r"\b(?:do|does|did|is|are|was|should|would|could|have|has)nt\b", re.I)
_SPELLED = ("dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "shouldnt", "wouldnt",
            "couldnt", "havent", "hasnt")


@functools.cache
def _spelled_words() -> Any:
    import ahocorasick_rs

    return ahocorasick_rs.AhoCorasick(list(_SPELLED))


def _with_apostrophes(text: str) -> str:
    # The words looked for first, all at once: the pattern alone, tried at every word of
    # every message, cost 3 % of the extractor's time on a chat session.
    if not _spelled_words().find_matches_as_indexes(text.lower()):
        return text
    return _SPELLED_RE.sub(_spelled, text)


def _spelled(match: re.Match[str]) -> str:
    word = match.group(0)
    return word[:-2] + ("N'T" if word.isupper() else "n't")


# A turn of more than three sentences of prose is a task described, and its imperatives
# with no cue word are its steps ("Use app tools to open the tabs…"), not standing rules;
# so is a turn that asks something ("can you check if #11903 is fixed? use subagents to
# investigate"). The lines of a pasted list are read one by one, as rules files are written.
_TASK_SENTENCES = 3


def _task_description(sentences: list[str]) -> bool:
    prose = [s for s in sentences if not LIST_MARK_RE.match(s)]
    return len(prose) > _TASK_SENTENCES or any(is_question(s) for s in prose)


def _without_generic(found: list[Finding], read: _Reading) -> list[Finding]:
    kept = [f for f in found if not f.generic]
    if len(kept) < len(found):
        read.skip("an imperative with no cue word in a longer task description: a step of it")
    return kept


_BARE_NO_RE = lazy(
    r"^(?:no|nope|nah|wrong|incorrect|not quite|不对|不是|错了|不)\s*[.!。！,，]*$", re.I)
_DONT_USE_ALONE_RE = lazy(
    r"^(?:(?:no|nope)[,.!]?\s*)?(?:(?:don't|do not|never|stop)\s+(?:use|using)\s+\S+(?:\s+\S+){0,4}"
    r"|(?:不要|别|不)(?:再)?(?:用|使用)\S+)\s*[.!。！]?$", re.I)
_USE_INSTEAD_RE = lazy(
    r"^(?:(?:use|we use|switch to|go with)\s+\S+(?:\s+\S+)?(?:\s+instead)?"
    r"|(?:改|要|请)?(?:用|使用)\S+)\s*[.!。！]?$", re.I)


def _without_list_mark(text: str) -> str:
    mark = LIST_MARK_RE.match(text)
    return text[mark.end():] if mark else text


def _merge_dont_use(sentence: str, nxt: str) -> str | None:
    """ "Don't use npm. Use pnpm instead." is one correction, not two."""
    sentence = _without_list_mark(sentence)
    if not (_DONT_USE_ALONE_RE.match(sentence) and _USE_INSTEAD_RE.match(nxt)):
        return None
    return sentence.rstrip(".!。！ ") + "; " + nxt[:1].lower() + nxt[1:]


@dataclass(frozen=True)
class _Reading:
    """What every clause of one sentence shares while it is read."""

    slots: list[str]
    today: datetime.date
    quote: str
    message: int
    skips: list[Skip]

    def skip(self, why: str) -> None:
        self.skips.append(Skip(self.message, self.quote, why))


def _sentence_findings(sentence: str, read: _Reading, corrective: bool) -> list[Finding]:
    state = prepare(State(sentence, corrective=corrective))
    if state is None:
        read.skip(not_kept_because(State(sentence)))
        return []
    state = _after_label(state, read.slots)
    clauses = _CLAUSE_RE.split(state.text)
    whole = _whole_sentence(state, read.slots, len(clauses))
    if whole is not None:
        outcome = _finish(whole, state, read)
        if isinstance(outcome, str):
            read.skip(outcome)
            return []
        return [outcome]
    findings = []
    found: Finding | str | None = None
    described = False  # the clause before said what someone does ("they brighten our day")
    for n, clause in enumerate(clauses):
        clause_state = prepare(state.but(text=clause)) if n else state.but(text=clause)
        if clause_state is None:
            continue
        if described and _GOES_ON_RE.match(clause):
            found = ("goes on describing someone, not an instruction "
                     "('they … and always make us smile')")
            continue
        hit = detect(clause_state, read.slots)
        found = _finish(hit, clause_state, read) if hit else None
        if isinstance(found, Finding):
            findings.append(found)
        described = not isinstance(found, Finding) and has_subject(clause_state.text)
    if not findings:
        read.skip(found if isinstance(found, str) else
                  "no memory cue, standing instruction or fact about the project")
    return findings


def _after_label(state: State, slots: list[str]) -> State:
    """ "**Git**: never force-push to main": the rule after a topic's label, read with its
    own cues. A label that is a task or a setting ("Test: make test") is read whole."""
    value = label_value(state.text)
    if value is None:
        return state
    labelled = find_label(state.text, slots, state)
    if labelled is not None and labelled.title is not None:
        return state
    inner = prepare(state.but(text=value))
    if inner is None or detect(inner, slots) is None:
        return state  # "Naming: snake_case for functions": the line says it only with its label
    return inner


def _whole_sentence(state: State, slots: list[str], clauses: int) -> Hit | None:
    """A correction, a standing rule or a fact that spans the sentence's commas: "gen/ 里的代码
    是生成的，不要手改" is one statement, not a fact and a stray "不要手改"."""
    hit = find_label(state.text, slots, state) or find_correction(state.text, slots, state)
    if hit is not None or clauses == 1:
        return hit  # one clause: the clause detectors see it whole, with their titles
    return find_standing(state.text, slots, state) or find_fact(state.text, slots, state)


# One sentence may hold several cues: "answer in Chinese and never use emojis". After a
# comma, "always"/"never" starts a new one only before a verb (see INSTRUCTION_VERBS). Each
# delimiter's leading white space is LEAD_SPACE: taken whole from the start of its run.
_CLAUSE_RE = lazy(
    LEAD_SPACE + r";\s*+|" + LEAD_SPACE + r"；\s*+"
    r"|(?:,|(?<!\s))\s++and\s++(?=(?:also\s+)?(?:always|never|don't|do not|please)\b)"
    r"|" + LEAD_SPACE + r",\s*+(?=(?:always|never)\s++" + INSTRUCTION_VERBS + r"\b)"
    r"|,\s*+and\s++(?=(?:the|our)\s)"
    r"|" + LEAD_SPACE + r"[，,]\s*+(?=总是|永远不要|不要|别|绝不|始终|也不要|一直)", re.I,
    # each delimiter: a semicolon, a comma, or "and" before one of the words after it
    needs=(";", "；", ",", "，", "always", "never", "don't", "do not", "please"))


_GOES_ON_RE = lazy(r"(?:also\s+)?(?:always|never)\b", re.I)

# --------------------------------------------------------------------------- finishing

_EPHEMERAL_RE = lazy(
    r"\b(?:right now|for now|this time|just this once|for this (?:task|session|pr|change|one|"
    r"run|ticket|commit)|later today|in this session|at the moment|temporarily|"
    r"for the moment)\b|这次|这一次|这回|暂时|目前先|先这样|本次|今天先", re.I)
_DEICTIC_RE = lazy(
    r"\b(?:this|that|these|those)\s+(?:bugs?|issues?|errors?|files?|functions?|methods?|"
    r"class(?:es)?|tests?|prs?|branch(?:es)?|commits?|lines?|changes?|tickets?|todos?|typos?|"
    r"warnings?|failures?|snippets?|loops?|variables?|one|code|approach|idea|answer|output)\b"
    r"|这个(?:bug|问题|错误|报错|文件|函数|方法|类|测试|分支|提交|改动|PR|pr|库|包|依赖|组件|接口|"
    r"页面|模块|写法|方案|工具|命令|脚本|变量|版本)|这里|这段代码",
    re.I)
_TIME_RE = lazy(
    r"\b(?:today|tonight|tomorrow|later|now|soon|asap|this (?:morning|afternoon|evening|week|"
    r"weekend)|next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|eod|the end of the day)|"
    r"in (?:a|an|\d+) (?:minute|hour|moment|day)s?|after lunch|before lunch|when you're done|"
    r"once you're done)\b|今天|今晚|明天|后天|待会|等会|一会|稍后|马上|现在|下周|"
    r"周[一二三四五六日天]|星期[一二三四五六日天]|晚点|回头", re.I)
_HABITUAL_RE = lazy(
    r"\b(?:before|after|whenever|every|each|always|when|while)\b|每次|每当|之前|之后|以前|前|后|时|"
    r"总是|都要|都得", re.I)
_VAGUE_RE = lazy(
    r"^(?:(?:do|doing|keep|keep doing|say|use)\s+)?(?:that|this|it|so|these|those|the same|"
    r"them)(?:\s+(?:too|again|please|instead|as well|always|one))?$"
    r"|^(?:这样|那样|这个|那个|这么做|那么做|照这样|按这个|就这样)(?:做|办|来)?(?:吧|啊)?$", re.I)
_DEICTIC_RE.needs = ("this", "that", "these", "those", "这个", "这里", "这段")
DEICTIC_RE = _DEICTIC_RE  # the learned detector's findings are held to it too


_POINTING_RE = lazy(any_word(POINTER_WORDS), re.I)


def _finish(hit: Hit, state: State, read: _Reading) -> Finding | str:
    """The finding, or why the statement is not kept."""
    plain = restore(hit.body, read.slots)
    transient = _is_ephemeral(hit, state, plain)
    if transient:
        return transient
    # the sentence's words too: "Pets make us happier and never let us down"
    life = (about_life(plain) or about_life(read.quote)
            if hit.kind not in ("reference", "command") else "")
    if life:
        return f"about someone's life, nothing of the work ('{life}')"
    content = _content(hit.body, read.slots, read.today)
    if content is None:
        return "too short or too vague to stand on its own"
    routed = route(hit, state, plain, read.quote)
    title = routed.title
    if title is None and _POINTING_RE.search(content) and len(content.split()) <= 4:
        # "Always pin it": what "it" is was said before, out of reach here
        return "points at something said before ('it', 'that')"
    title = cut_title(title or content.rstrip(".。"))
    return Finding(routed.level, routed.type, title, content, read.quote, hit.terms,
                   read.message, statement_why(hit, state), routed.why, hit.generic,
                   changes=hit.kind == "correction")


_HERE_RE = lazy(r"\bhere\b", re.I)
_STATEMENT_RE = lazy(r"^(?:we|we're|our|the|this|it's|everything|nothing|all)\b|\s(?:is|are)\s",
                     re.I)


# "…, mypy runs in strict mode here": a reason after the comma, with a subject and a verb of
# its own, says "here" of the repository, not of the screen.
_HERE_IN_REASON_RE = lazy(r",\s*(?!(?:it|this|that|you|i)\b)[\w.-]+(?:\s+[\w.-]+){0,2}\s+"
                          r"(?:is|are|runs?|builds?|checks?|needs?|requires?|expects?|"
                          r"generates?|[a-z]{2,}s)\s[^,]*\bhere\b", re.I)
_HERE_IN_REASON_RE.needs = ("here",)


def _on_screen_here(plain: str) -> bool:
    return (bool(_HERE_RE.search(plain)) and not _STATEMENT_RE.search(plain)
            and not _HERE_IN_REASON_RE.search(plain))


def _is_ephemeral(hit: Hit, state: State, plain: str) -> str:
    """Why the statement only holds for now ("" when it lasts)."""
    found = _EPHEMERAL_RE.search(plain)
    if found:
        return f"for this moment only ('{found.group(0)}')"
    if hit.kind != "reference":
        found = _DEICTIC_RE.search(plain) or (_HERE_RE.search(plain)
                                              if _on_screen_here(plain) else None)
        if found:
            return f"points at something not said in it ('{found.group(0)}')"
    # "Remember to fix this later" is a task; "remember to run ruff before committing" a rule.
    if state.todo and hit.kind in ("rule", "fact") and (
            _TIME_RE.search(plain) or not _HABITUAL_RE.search(plain)):
        return "a task to do, not a rule that lasts"
    return ""


def _content(body: str, slots: list[str], today: datetime.date) -> str | None:
    text = restore(absolute_dates(body, today), slots).strip()
    if len(text) >= 2 and text[0] + text[-1] in ('""', "“”", "「」", "『』"):
        text = text[1:-1].strip()  # remember: "…" quotes the note itself
    text = " ".join(text.split()).rstrip(" .,;:!?。，；：！？")
    if not text or _VAGUE_RE.match(text) or _too_short(text):
        return None
    return capitalise(text) + ("。" if any(is_cjk(ch) for ch in text) else ".")


def _too_short(text: str) -> bool:
    if any(is_cjk(ch) for ch in text):
        return len(text) < 2
    return len(text.split()) < 2
