"""Findings from the learned detector: the sentences it finds lasting that no cue rule read.

The rules keep what they do well (explicit cues, their titles, dates, what is only for now);
the model reads the rest: a preference or a fact said in the person's own words, in any
of the ten languages (see :mod:`memcli.extraction.rules.learned`). The note is the person's
sentence, its lead words ("btw", "heads up", 顺便说一句, übrigens) taken off, and when a fact is
mentioned in passing inside a request ("fix the test, btw we deploy to Fly.io") only what
follows the aside word.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence

from memcli import compiled_regex as rx
from memcli.extraction.rules.correction_shape import (
    agent_did,
    agrees,
    corrects,
    insists,
    plain,
    shaped,
)
from memcli.extraction.rules.dates import absolute_dates
from memcli.extraction.rules.learned import Reading
from memcli.extraction.rules.model import Finding, Skip
from memcli.extraction.rules.patterns import lazy
from memcli.extraction.rules.preference_shape import prefers, wishes
from memcli.extraction.rules.reference_shape import points_at_material
from memcli.extraction.rules.sentences import capitalise, cut_title, is_cjk

# Words that open a sentence without being part of what it says.
_LEADS = (
    "ok so", "okay", "ok", "so", "also", "oh and", "and", "btw", "by the way", "fyi",
    "heads up", "quick note", "wait", "no wait", "note for the future", "note", "for the record",
    "just so you know", "please remember that", "please remember", "remember that",
    "remember", "keep in mind that", "keep in mind", "please keep in mind that",
    "thanks", "thank you", "hmm", "well", "actually", "no no", "no", "nope", "wrong",
    "好", "嗯", "另外", "顺便说一句", "顺便说一下", "对了", "记住", "记一下", "说一下", "其实",
    "不对", "错了", "谢谢",
    "bueno", "oye", "por cierto", "ojo", "recuerda que", "ten en cuenta que", "en realidad",
    "gracias", "então", "olha", "aliás", "lembra que", "anota aí", "atenção",
    "na verdade", "não", "valeu", "übrigens", "merk dir", "kurze info", "zur info",
    "eigentlich", "nein", "danke", "hm", "bon", "alors", "au fait", "pour info",
    "retiens que", "note bien", "en fait", "non", "merci",
    "あと", "えっと", "ちなみに", "覚えておいて", "共有です", "実は", "違う", "ありがとう",
    "아 그리고", "음", "참고로", "기억해 둬", "공지", "사실", "아니", "고마워",
    "ок", "слушай", "кстати", "запомни", "к сведению", "на самом деле", "нет", "спасибо",
    "allora", "senti", "tra l'altro", "ricordati che", "avviso", "in realtà", "grazie",
)
# Longest first; tried with startswith, as a regular expression of them all cost 15 ms to
# compile on every extraction's start.
_LEADS_LONGEST = sorted(_LEADS, key=len, reverse=True)
_AFTER_LEAD_RE = rx.compile(r"\s*[,:：，、。.!！-]+\s*|\s+|$")


def _after_lead(text: str) -> int:
    """Where the text goes on after a lead word it opens with (0: none)."""
    folded = text.casefold()
    for lead in _LEADS_LONGEST:
        if folded.startswith(lead):
            after = _AFTER_LEAD_RE.match(text, len(lead))
            if after is not None:
                return after.end()
    return 0
# An aside inside a request: what follows is the fact.
_ASIDE_RE = rx.compile(
    r"(?:^|[\s,，;；(（-])(?:btw|by the way|fyi|顺便说一句|顺便说一下|对了|por cierto|"
    r"ojo que|aliás|lembrando que|übrigens|au fait|sachant que|ちなみに|참고로|кстати|"
    r"tra l'altro)[\s,，:：]*", re.I)
_WORD_RE = rx.compile(r"[^\W_]+")
# Compiled on first use (a class beyond Latin-1 costs a 65,536-entry table): only a
# sentence ending in a CJK character asks it.
_HANGUL = lazy("[\uac00-\ud7af]")
_MARK_RE = rx.compile(r"^(?:[-*+•>]|#{1,6}|\d{1,3}[.)])\s+")
# A turn of more than this many sentences, or one that asks something, describes a task:
# its sentences are steps of it unless the model is sure or an aside word marks a fact.
_TASK_SENTENCES = 3
_EPHEMERAL_RE = rx.compile(
    r"\b(?:right now|for now|this time|just this once|for this (?:task|session|pr|one)|"
    r"temporarily)\b|这次|这一次|暂时|本次", re.I)


def clean(sentence: str) -> str:
    """The person's words that hold the statement: lead words and a request before an
    aside taken off."""
    text = _MARK_RE.sub("", " ".join(sentence.split()))
    asides = list(_ASIDE_RE.finditer(text))
    aside = asides[-1] if asides else None
    if aside is not None and aside.start() > 0 and len(text) - aside.end() >= 8:
        text = text[aside.end():]
    for _ in range(3):
        end = _after_lead(text)
        if not end:
            break
        text = text[end:]  # nothing left: the sentence was lead words only
    text = text.strip()
    if text.endswith("..."):  # "go test ./...": a path, not an ellipsis to take off
        return text
    return text.rstrip(" .,;:!?。，；：！？")


def _not_lasting(sentence: str) -> bool:
    """What the rules know is not lasting, whatever the model says: a question, a
    hypothetical, someone else's words reported, a statement for now only, one that points
    at what is on the screen ("this file"), a word about someone's life."""
    from memcli.extraction.rules.chat import about_life
    from memcli.extraction.rules.cues import prepare
    from memcli.extraction.rules.findings import DEICTIC_RE
    from memcli.extraction.rules.model import State
    from memcli.extraction.rules.not_changes import ONE_OFF, not_a_change

    return (prepare(State(sentence)) is None or bool(_EPHEMERAL_RE.search(sentence))
            or bool(DEICTIC_RE.search(sentence)) or bool(about_life(sentence))
            or not_a_change(sentence) == ONE_OFF)


def _key(text: str) -> str:
    # "- dont use npm" and the rules' quote "Don't use npm. Use pnpm instead." are one
    # sentence: list marks, apostrophes and punctuation set aside.
    return "".join(_WORD_RE.findall(text.casefold()))


def _covered(sentence: str, quotes: Sequence[str]) -> bool:
    mine = _key(sentence)
    for quote in quotes:
        theirs = _key(quote)
        if theirs and mine and (theirs in mine or mine in theirs):
            return True
    return False


def combine(text: str, today: datetime.date, message: int, ruled: Sequence[Finding],
            skips: list[Skip]) -> list[Finding]:
    """The rules' findings of TEXT (``ruled``), then a finding for each sentence the model
    finds lasting and no rule finding already holds (their skips are dropped from
    ``skips``). Letting the model veto a rule finding it scores low was measured and
    gained nothing (docs/extractor-model.md)."""
    from memcli.extraction.rules.cues import is_question
    from memcli.extraction.rules.learned import read_text, setting, split_facts

    latin_cut, changing = setting("threshold", 0.7), setting("change_threshold", 0.5)
    cjk_cut = setting("cjk_threshold", latin_cut)
    sure_in_task = setting("task_threshold", 0.9)
    split_cut = setting("split_threshold", 0.9)
    two_cut, two_clause_cut = setting("two_threshold", 2.0), setting("two_clause_threshold", 1.0)
    cjk_two_cut = setting("cjk_two_threshold", two_cut)
    quotes = [f.quote for f in ruled]
    readings = read_text(text)
    task = len(readings) > _TASK_SENTENCES or any(is_question(r.sentence) for r in readings)
    # "you wrote the test with unittest. we use pytest fixtures": the sentence that holds the
    # fact does not say it puts the agent right, the one before it does.
    putting_right = any(corrects(r.sentence) for r in readings)
    # The rules' own findings after a sentence saying what the agent did wrong ("you wrote
    # the test with unittest. we use pytest fixtures"), or worded as the person's wish.
    agent_wrong = any(agent_did(r.sentence) for r in readings)
    out: list[Finding] = [_ruled(f, readings, agent_wrong, putting_right) for f in ruled]
    for reading in readings:
        # Chinese, Japanese and Korean sentences score lower on phrasing not seen in training
        # (fewer shapes to learn from): their own cut, chosen on another author's turns.
        cjk = _mostly_cjk(reading.sentence)
        cut = cjk_cut if cjk else latin_cut
        # A sentence worded as a change ("actually we switched to Postgres") is kept on
        # less evidence of lasting: what it replaces was worth keeping.
        kept = reading.lasting >= cut or (reading.changes >= 0.9 and reading.lasting >= changing)
        if task and reading.lasting < sure_in_task and not _ASIDE_RE.search(reading.sentence):
            kept = False
        if not kept or _covered(reading.sentence, quotes):
            continue
        if _not_lasting(reading.sentence):
            continue
        for part in split_facts(reading, split_cut, clean(reading.sentence),
                                cjk_two_cut if cjk else two_cut, two_clause_cut):
            out += _finding(part, today, message, putting_right)
        skips[:] = [s for s in skips
                    if not (s.message == message and _covered(s.sentence, [reading.sentence]))]
    return out


def _ruled(finding: Finding, readings: Sequence[Reading], agent_wrong: bool,
           putting_right: bool) -> Finding:
    """A rule's finding, routed as the model's are (the route head, then the shapes) when
    that routes its sentence anything but project knowledge: "always show me the diff
    before you commit" is the person's preference, "don't add lodash, we write the helpers
    ourselves" puts the agent right. Else the rules' route stands (round 4's rerouting
    aside): the rules read standing rules the hand-labelled splits file as the project's,
    taking the head's word there broke their routing (tests/test_extraction_quality.py), and
    a move the rules call correction feedback ("we moved to vitest, don't use jest anymore")
    lost nothing on the folds by staying so (routing round 6, docs/extractor-model.md)."""
    import dataclasses

    mine = _key(finding.quote)
    reading = next((r for r in readings if mine and mine in _key(r.sentence)), None)
    if reading is None:  # a quote over more than one sentence: the first it holds
        reading = next((r for r in readings if _covered(r.sentence, [finding.quote])), None)
    if reading is None or (reading.level, reading.type) == ("project", "project_knowledge"):
        return _rerouted(finding, agent_wrong)
    level, kind = _route(reading, clean(reading.sentence), putting_right)
    if (level, kind) == ("project", "project_knowledge"):
        return _rerouted(finding, agent_wrong)
    if (level, kind) == (finding.level, finding.type):
        return finding
    return dataclasses.replace(finding, level=level, type=kind,
                               routing=f"the learned detector routed it {level}/{kind}")


def _rerouted(finding: Finding, agent_wrong: bool) -> Finding:
    """A rule's finding routed project knowledge, routed as correction feedback in a turn
    that says what the agent did wrong, as the person's preference when worded as their
    wish. Narrower than for the model's findings: the rules read standing rules ("don't
    commit node_modules", "show me the full traceback from now on") that the hand-labelled
    splits file as the project's (tests/test_extraction_quality.py)."""
    import dataclasses

    if (finding.level, finding.type) != ("project", "project_knowledge"):
        return finding
    if agent_wrong and plain(finding.quote):
        return dataclasses.replace(finding, type="correction_feedback")
    if wishes(clean(finding.quote)):
        return dataclasses.replace(finding, level="user", type="user_preference")
    return finding


def _mostly_cjk(text: str) -> bool:
    cjk = sum(1 for ch in text if is_cjk(ch))
    return cjk > 0 and cjk >= sum(1 for ch in text if ch.isascii() and ch.isalpha()) / 4


def _finding(reading: Reading, today: datetime.date, message: int,
             putting_right: bool = False) -> list[Finding]:
    """The note of a sentence (or clause) the model keeps; none when too little is left."""
    words = clean(absolute_dates(reading.sentence, today))
    if len(words) < 2 or (len(_WORD_RE.findall(words)) < 2
                          and not any(map(is_cjk, words))):
        return []
    # 。 after Chinese and Japanese; Korean ends its sentences with a full stop.
    content = capitalise(words) + ("。" if is_cjk(words[-1]) and not _HANGUL.match(
        words[-1]) else ".")
    level, kind = _route(reading, words, putting_right)
    why = f"the learned detector: lasting {reading.lasting:.2f}"
    if reading.changes >= 0.5:
        why += f", changes a fact {reading.changes:.2f}"
    return [Finding(level, kind, cut_title(words), content,
                    reading.sentence, frozenset(), message, why,
                    f"the learned detector routed it {level}/{kind}",
                    changes=reading.changes >= 0.5, learned=True)]


def _route(reading: Reading, words: str, putting_right: bool) -> tuple[str, str]:
    """The level and type of READING's sentence (WORDS: what holds its statement): the route
    head's choice, then the shapes, in the order measured on the folds."""
    level, kind = reading.level, reading.type
    # "нет, статус заявки closed, а не done": a sentence that can only be putting the agent
    # right is correction feedback whatever the head routed it (a reference, a preference),
    # unless it is worded as the person's wish.
    if (level, kind) != ("project", "correction_feedback") and insists(
            reading.sentence) and not prefers(words):
        level, kind = "project", "correction_feedback"
    # Not a change: "we moved error tracking from rollbar to sentry" says which tool is
    # used, not where to look something up.
    if level == "project" and reading.changes < 0.5 and points_at_material(reading.sentence):
        kind = "reference_material"
    # The person's own preferences ("erklaer mir Performance-Sachen immer mit Zahlen",
    # "parle-moi en français"): the route head reads them as the project's, or as putting
    # the agent right when they forbid something ("pas d'emoji avec moi").
    elif level == "project" and kind in ("project_knowledge", "correction_feedback") and (
            wishes(words) or (kind == "project_knowledge" and prefers(words))):
        level, kind = "user", "user_preference"
    # The route head sends most corrections ("no, we use manifold") to project knowledge;
    # a sentence worded as putting the agent right is correction feedback. Not gated on the
    # changes head: measured, the gate kept half of what the wording alone routes right
    # (docs/extractor-model.md, round 3b).
    elif (level, kind) == ("project", "project_knowledge") and (
            corrects(reading.sentence) or (putting_right and plain(reading.sentence))):
        kind = "correction_feedback"
    # The other way round: the head routes a fact the person states with a memory cue
    # ("per il futuro: la porta è 8081, non 8080"), one that moved on ("non usiamo più
    # Trello") or one that agrees with the agent ("right, the api is behind traefik") as
    # correction feedback; no shape in the turn says the agent was put right.
    elif (level, kind) == ("project", "correction_feedback") and not putting_right and (
            not shaped(reading.sentence)) and (
            not plain(reading.sentence) or agrees(reading.sentence)):
        kind = "project_knowledge"
    return level, kind
