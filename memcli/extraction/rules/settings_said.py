"""A setting said in passing: "DB는 오라클 19c예요", "l'autenticazione passa da keycloak",
"RabbitMQ는 레거시고 지금은 Kafka로 다 넘어갔어". A sentence that names a setting by its
name and one of its tools, or says that a setting's tool changed, states which value the
project holds; the cue rules and the learned detector may both pass over it when nothing
else in it sounds like a rule. The store keeps one note per setting (:mod:`.duplicates`),
so the statement that changes it later finds it.

A question, a request of the person's ("switch the database to Postgres", "…してください"),
a statement for now only or about what is on the screen, and a turn that describes a task
(more than three sentences, or one that asks something) give nothing here. It reads in
the combined mode (what ships); the cue rules alone stay as they were.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import replace

from memcli import compiled_regex as rx
from memcli.extraction.rules.dates import absolute_dates
from memcli.extraction.rules.model import KNOWLEDGE, PROJECT, Finding
from memcli.extraction.rules.revisions import says_change
from memcli.extraction.rules.sentences import capitalise, cut_title, is_cjk, split_sentences
from memcli.extraction.rules.slots import slots_said

_TASK_SENTENCES = 3
_LONGEST = 240  # a longer sentence is a description of work, not a setting said
_WORD_RE = rx.compile(r"[^\W_]+")
# Requests of the person's, in the ten languages: the sentence asks for work to be done.
_REQUEST_RE = rx.compile(
    r"^(?:please\s+|pls\s+|can you\s+|could you\s+)?(?:run|use|deploy|add|fix|make|check|"
    r"install|switch|migrate|replace|move|change|update|set|write|create|try|remove|"
    r"delete|rename|convert|upgrade|bump|configure|look|show|tell|help|let's|lets)\b|"
    r"(?:ください|下さい|してね|して$|してくれ|해\s*줘|해\s*주세요|해주세요|해봐|하세요)[。.!！]?$|"
    r"^(?:请|帮我|麻烦|把)|"
    r"^(?:bitte\s|kannst du|könntest du)|^(?:peux-tu|pourrais-tu|merci de|ajoute|mets|"
    r"fais|change|remplace)\b|^(?:por favor|puedes|podrías|cambia|agrega|añade|pon)\b|"
    r"^(?:você pode|voce pode|pode|troca|adiciona|coloca|muda)\b|"
    r"^(?:puoi|potresti|cambia|aggiungi|metti|fai)\b|"
    r"^(?:сделай|поменяй|добавь|замени|переведи|можешь|пожалуйста)|"
    r"^(?:regenera|genera|corre|ejecuta|pega|roda|rode|gera|executa|lance|lancez)\b|"
    r"줘요?$|(?:してみて|見て|みて)$", re.I)
# Not the person's own statement of how things are: an example, a hedge or hypothetical,
# someone else's words (the assistant's, a colleague's), a pasted log line.
_NOT_SAID_RE = rx.compile(
    r"\b(?:e\.g\.|i\.e\.|assistant:|claude:)|"
    r"\b(?:for example|for instance|such as|kind of thing|perhaps|maybe|might|probably|"
    r"not sure|if we|what if|should we|would|could|"
    r"i will|i'll|he said|she said|they said|said that|warn|warning|deprecated|"
    r"traceback|quizás|quizá|tal vez|talvez|vielleicht|peut-être|peut-etre|forse|"
    r"может быть|возможно)\b|也许|可能|如果|例如|比如|たぶん|かも|もし|例えば|아마|만약|"
    r"예를 들어|@\d|^\s*[>$#]|[\"“”「」«»]|"
    r"\b(?:если|wenn wir|si on|se a gente|si tuviéramos)\b|"
    r"\b(?:passed|passes|passing|compiles|compila|no errors|sin errores|sem erros|is green|"
    r"froze|crashed|broke)\b|통과|詰まり", re.I)
_SCREEN_RE = rx.compile(
    r"\b(?:this (?:file|function|test|line|error|pr)|right now|for now|this time|"
    r"just this once|temporarily)\b|这次|暂时|今回|だけは|이번|이 파일", re.I)


def _key(text: str) -> str:
    return "".join(_WORD_RE.findall(text.casefold()))


def _covered(sentence: str, quotes: Sequence[str]) -> bool:
    mine = _key(sentence)
    return any(theirs and mine and (theirs in mine or mine in theirs)
               for theirs in map(_key, quotes))


def says_setting(sentence: str) -> bool:
    """The sentence names a setting by its name and a tool of it, or says that a setting's
    tool changed."""
    named, tooled = slots_said(sentence)
    if any(slot in named for slot in tooled):
        return True
    return bool(tooled) and says_change(sentence)


def statements(text: str, found: Sequence[Finding]) -> list[tuple[str, str]]:
    """Each sentence of TEXT that is the person's own statement of how things are and no
    finding of ``found`` holds already, as (the sentence, its words trimmed): not in a
    question, a request, a hedge, someone else's words or a task's description."""
    from memcli.extraction.rules.cues import is_question
    from memcli.extraction.rules.findings import DEICTIC_RE
    from memcli.extraction.rules.not_changes import not_a_change

    sentences = split_sentences(text)
    if len(sentences) > _TASK_SENTENCES or any(is_question(s) for s in sentences):
        return []
    quotes = [f.quote for f in found] + [f.content for f in found]
    out = []
    for sentence in sentences:
        words = " ".join(sentence.split()).rstrip(" .,;:!?。，；：！？")
        if not (len(words) > _LONGEST or len(words) < 4 or _covered(words, quotes)
                or _REQUEST_RE.search(words) or _SCREEN_RE.search(words)
                or _NOT_SAID_RE.search(words) or DEICTIC_RE.search(words)
                or not_a_change(words) is not None):
            out.append((sentence, words))
    return out


def settings_said(text: str, today: datetime.date, message: int,
                  found: Sequence[Finding]) -> list[Finding]:
    """A project fact for each sentence of TEXT that says a setting and no finding of
    ``found`` already holds."""
    from memcli.extraction.rules.changed_values import (
        forbids_a_moment,
        same_value,
        says_value,
        subject_words,
    )

    out: list[Finding] = []
    for sentence, words in statements(text, found):
        if not says_setting(words) and not forbids_a_moment(words) and not (
                says_value(words)  # and not the value a finding of the turn holds
                and not any(same_value(words, f.quote + " " + f.content) for f in found)):
            continue
        words = absolute_dates(words, today)
        finding = Finding(PROJECT, KNOWLEDGE, cut_title(words), sentence_of(words),
                          sentence, frozenset(), message,
                          "a setting said: its name and a tool of it, or a change of it",
                          "a setting of the project: project/project_knowledge",
                          changes=says_change(words))
        # "nein, hg38. die ganze pipeline ist hg38": one value said twice is one note, the
        # sentence that says what it is the value of.
        twice = [i for i, f in enumerate(out) if same_value(words, f.quote)]
        if not twice:
            out.append(finding)
        elif len(subject_words(words)) > len(subject_words(out[twice[0]].quote)):
            out[twice[0]] = replace(finding, changes=finding.changes or out[twice[0]].changes)
    return out


def sentence_of(words: str) -> str:
    """WORDS as a sentence: a capital, and the full stop of its script."""
    stop = "。" if is_cjk(words[-1]) and not "\uac00" <= words[-1] <= "\ud7af" else "."
    return capitalise(words) + stop
