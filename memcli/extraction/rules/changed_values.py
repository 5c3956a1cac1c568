"""What a change statement and a stored note share when no setting word names them both.

"The demo is on Thursdays" and, later, "demo moved to Fridays"; "a referência é hg19" and
"foi mal, é hg38"; "资源都在ap-southeast-1" and "纠正一下 是ap-east-1"; "генерики в сервисе
не используем" and "снова можно генерики": none of these names a setting of
:mod:`.slot_words`, yet the later statement changes the earlier note. Two readings find
them, both independent of any vocabulary of settings:

- a *changed value*: both texts hold a value of one kind (a day of the week, a cloud
  region, a name with a number: ``hg19``, ``port 8080``, ``lua 5.4``), the later a
  different one;
- *shared content words*: the words both hold, after a light normalisation that reads
  any script (Latin and Cyrillic words cut to a stem, Chinese and Japanese in pairs of
  characters, Korean words without their particle).

They are asked only of a statement worded as a change (:func:`.revisions.says_change`);
:mod:`.duplicates` weighs them below a shared setting.
"""

from __future__ import annotations

import functools
import re

from memcli import compiled_regex as rx
from memcli.extraction.rules.slot_words import COMMON_WORDS

_STEM = 5  # "deployed" / "deploys", "генерики" / "генериков": one stem
# Days of the week, Monday first, in the ten languages (lower case; the Chinese and
# Japanese forms match inside a run of characters).
_DAYS = (
    "monday|mondays|lunes|segunda|montag|montags|lundi|lunedì|lunedi|понедельник|"
    "понедельникам|周一|星期一|礼拜一|月曜|월요일",
    "tuesday|tuesdays|martes|terça|terca|dienstag|dienstags|mardi|martedì|martedi|"
    "вторник|вторникам|周二|星期二|礼拜二|火曜|화요일",
    "wednesday|wednesdays|miércoles|miercoles|quarta|mittwoch|mittwochs|mercredi|"
    "mercoledì|mercoledi|среда|среду|средам|周三|星期三|礼拜三|水曜|수요일",
    "thursday|thursdays|jueves|quinta|donnerstag|donnerstags|jeudi|giovedì|giovedi|"
    "четверг|четвергам|周四|星期四|礼拜四|木曜|목요일",
    "friday|fridays|viernes|sexta|freitag|freitags|vendredi|venerdì|venerdi|пятница|"
    "пятницу|пятницам|周五|星期五|礼拜五|金曜|금요일",
    "saturday|saturdays|sábado|sabado|samstag|samstags|samedi|sabato|суббота|субботу|"
    "周六|星期六|礼拜六|土曜|토요일",
    "sunday|sundays|domingo|sonntag|sonntags|dimanche|domenica|воскресенье|周日|星期日|"
    "星期天|礼拜天|日曜|일요일",
)
# A cloud region: us-east-1, ap-southeast-1, europe-west3, cn-hangzhou.
_REGION_RE = rx.compile(
    r"(?<![a-z0-9-])(?:(?:[a-z]{2}|europe|asia|australia|northamerica|southamerica|africa)-"
    r"(?:north|south|east|west|central|northeast|northwest|southeast|southwest)(?:-\d{1,2}|\d{1,2})"
    r"|cn-(?:hangzhou|shanghai|beijing|shenzhen|hongkong|qingdao|zhangjiakou|chengdu))"
    r"(?![a-z0-9-])")
# A name with a number: hg19, node 22, lua 5.4, port 8080, python3.12, v2 of an api.
_REGION_PREFIXES = ("us-", "eu-", "ap-", "sa-", "ca-", "me-", "af-", "il-", "mx-", "cn-",
                    "europe-", "asia-", "australia-", "northamerica-", "southamerica-")
_NUMBERED_RE = rx.compile(r"(?<![a-z0-9.-])([a-z][a-z]{1,11})[ _-]?v?(\d+(?:\.\d+){0,2})"
                          r"(?![a-z0-9-])")
_WORD_RE = rx.compile(r"[^\W\d_]+")
_CJK_RUN_RE = rx.compile(r"[\u3040-\u30ff\u3400-\u9fff]+")
_HANGUL_RE = rx.compile(r"[\uac00-\ud7af]+")
# The Cyrillic words of no content (the Latin ones are slot_words.COMMON_WORDS).
_CYRILLIC_COMMON = """
в на не и а но с со по за из от до для что это как так уже еще ещё все всё мы вы они
теперь больше снова можно нельзя нужно надо через сейчас тоже только было были будет
есть нет да вот там тут его её их наш наши наша свой
"""
# The words that say a correction and nothing of what it corrects.
_CORRECTING_RE = rx.compile(
    r"(?<![^\W\d_])(?:wait|sorry|wrong|actually|correction|scratch|nope|oops|my bad|"
    r"falsch|sorry|nein|sbagliato|sbagliata|scusa|perdón|perdon|pardon|desculpa|trompé|"
    r"ошибся|ошиблась|неправильно|извини)(?![^\W\d_])|"
    r"不对|纠正一下|纠正|更正|说错了|搞错了|記錯了|记错了|違う|ちがう|ごめん|間違えた|間違い|訂正|"
    r"아니|정정|틀렸", re.I)
_COMMON = frozenset(COMMON_WORDS.split()) | frozenset(_CYRILLIC_COMMON.split())


@functools.cache
def _day_re() -> tuple[re.Pattern[str], dict[str, int]]:
    index = {word: day for day, words in enumerate(_DAYS) for word in words.split("|")}
    ascii_words = sorted((w for w in index if w.isascii()), key=len, reverse=True)
    glued = sorted((w for w in index if not w.isascii()), key=len, reverse=True)
    pattern = (rf"(?<![^\W\d_])(?:{'|'.join(ascii_words)})(?![^\W\d_])|"
               + "|".join(map(re.escape, glued)))
    return rx.compile(pattern), index


def values(text: str) -> dict[str, frozenset[str]]:
    """The values TEXT holds, by kind: ``day``, ``region``, and for a name with a number the
    name (``hg`` -> ``19``, ``port`` -> ``8080``)."""
    folded = text.casefold()
    out: dict[str, set[str]] = {}
    pattern, index = _day_re()
    for match in pattern.finditer(folded):
        out.setdefault("day", set()).add(str(index[match.group()]))
    for match in _REGION_RE.finditer(folded):
        out.setdefault("region", set()).add(match.group())
    for match in _NUMBERED_RE.finditer(folded):
        name, number = match.groups()
        if name not in _COMMON:
            out.setdefault(name, set()).add(number)
    return {kind: frozenset(found) for kind, found in out.items()}


def value_kinds(text: str) -> frozenset[str]:
    """The kinds of value TEXT holds (a stored note's keys, see note_keys)."""
    return frozenset(values(text))


def changed_value(new: str, old: str) -> str | None:
    """The kind of value NEW says differently from OLD: both hold one of it and NEW names
    one OLD does not ("demo moved to Fridays" / "the demo is on Thursdays": ``day``)."""
    mine, theirs = values(new), values(old)
    for kind in sorted(mine.keys() & theirs.keys()):
        if not mine[kind] - theirs[kind]:
            continue
        # A day alone is no subject ("deploys are on Fridays", "the demo is on Thursdays"):
        # the two must also share a word besides it, unless NEW says nothing but the day.
        mine_subject = subject_words(new)
        if kind != "day" or not mine_subject or mine_subject & subject_words(old):
            return kind
    return None


def subject_words(text: str) -> frozenset[str]:
    """The content words of TEXT but its values' ("hg19", "Fridays") and the words of a
    correction ("no wait", "ごめん間違えた"): what it is about."""
    text = _CORRECTING_RE.sub(" ", text.casefold())
    for _, _, written in _spans(text):
        text = text.replace(written, " ")
    return content_words(text)


def same_value(a: str, b: str) -> bool:
    """A and B name one value ("nein, hg38" and "die ganze pipeline ist hg38")."""
    mine, theirs = values(a), values(b)
    return any(mine[kind] & theirs[kind] for kind in mine.keys() & theirs.keys())


def content_words(text: str) -> frozenset[str]:
    """The words of TEXT that carry its content, normalised so that two inflections, or a
    word glued to its neighbours, meet: Latin and Cyrillic words of four letters or more
    cut to five, Chinese and Japanese runs in pairs of characters, Korean words to their
    first two syllables (the particle follows)."""
    folded = text.casefold()
    out: set[str] = set()
    for word in _WORD_RE.findall(folded):
        latin_or_cyrillic = word[0].isascii() or "\u00c0" <= word[0] <= "\u04ff"
        if latin_or_cyrillic and len(word) >= 4 and word not in _COMMON:
            out.add(word[:_STEM])
    for run in _CJK_RUN_RE.findall(folded):
        out.update(run[i:i + 2] for i in range(len(run) - 1))
    for word in _HANGUL_RE.findall(folded):
        if len(word) >= 2:
            out.add(word[:2])
    return frozenset(out)


def shared_words(a: str, b: str) -> int:
    """How many content words A and B share when they are about one thing, else 0: at
    least two, and at least a third of the shorter text's."""
    return shared_between(content_words(a), content_words(b))


def shared_between(mine: frozenset[str], theirs: frozenset[str]) -> int:
    """How many words MINE and THEIRS share when that makes them about one thing, else 0:
    at least two, and at least a third of the smaller set."""
    shared = len(mine & theirs)
    if shared >= 2 and 3 * shared >= min(len(mine), len(theirs)):
        return shared
    return 0


def search_words(text: str) -> frozenset[str]:
    """Substrings a stored note must hold to share a value kind or a content word with
    TEXT (for :meth:`memcli.extraction.haystack.Haystack.holding`)."""
    words = set(content_words(text))
    for kind in values(text):
        if kind == "day":  # any day: the note may name another one
            words.update(w for day in _DAYS for w in day.split("|"))
        elif kind == "region":  # any region: the note may name another one
            words.update(_REGION_PREFIXES)
        else:
            words.add(kind)
    return frozenset(words)


def _spans(text: str) -> list[tuple[str, str, str]]:
    """Each value of TEXT as (kind, value, the words as written)."""
    folded = text.casefold()
    if len(folded) != len(text):
        text = folded
    pattern, index = _day_re()
    out = [("day", str(index[m.group()]), text[m.start():m.end()])
           for m in pattern.finditer(folded)]
    out += [("region", m.group(), text[m.start():m.end()]) for m in _REGION_RE.finditer(folded)]
    out += [(m.group(1), m.group(2), text[m.start():m.end()])
            for m in _NUMBERED_RE.finditer(folded) if m.group(1) not in _COMMON]
    return out


def with_new_value(old: str, new: str) -> str | None:
    """OLD with its value replaced by the one NEW says instead ("a referência é hg19",
    "foi mal, é hg38": "a referência é hg38"), else None."""
    theirs = _spans(old)
    for kind, value, written in _spans(new):
        for their_kind, their_value, their_written in theirs:
            if their_kind == kind and their_value != value:
                changed = old.replace(their_written, written, 1)
                # The value as written is not found when case folding changed the text's
                # length (ß, İ, ﬁ before it): an "update" that changes nothing is none.
                return changed if changed != old else None
    return None


# A value said as what something is: a copula before it, in the ten languages ("the
# reference is hg19", "参照ゲノムはhg19", "пайплайн на hg38"), the value ending the sentence
# (a particle may follow).
_COPULA_RE = rx.compile(
    r"(?<![^\W\d_])(?:is|are|'s|es|son|está|é|são|ist|sind|est|c'est|sont|è|sono|на|это)"
    r"(?![^\W\d_])|是|在|用|は|が|=|:", re.I)
_TAIL_RE = rx.compile(r"(?:だよ|です|だ|이야|야|예요|이에요|입니다|요|了|啦|的|now|ahora|agora|"
                      r"jetzt|maintenant|ora|теперь)?\W*$", re.I)
# A line pasted from a log or a stack trace.
_PASTED_RE = rx.compile(r"\b(?:error|exception|cannot|can't|failed|fatal|warn|warning)\b|^\[")
_PORT_NAMES = frozenset({"port", "puerto", "porta", "порт"})
# A day said as the habit of the project: every Thursday, on Thursdays, 每周四, 毎週木曜.
_HABIT_RE = rx.compile(
    r"\b(?:every|each|on \w+days|jeden|jede|chaque|cada|ogni|todas? as|todos los|los \w+es|"
    r"le \w+di|il \w+dì|il \w+di|по \w+ам|каждый|каждую|каждое)\b|每周|每个?星期|毎週|매주|"
    r"曜日は|요일마다|요일에는", re.I)


def says_value(sentence: str) -> bool:
    """The sentence says what something is, a value that lasts ending it: "the demo is on
    Thursdays", "参照ゲノムはhg19", "the api listens on port 8080", "референс hg19"; not "the
    team ordered 40 pizzas for the release" nor "use the subset of chr22 for this test"."""
    folded = " ".join(sentence.casefold().split())
    if _PASTED_RE.search(folded):
        return False
    end = len(_TAIL_RE.sub("", folded))
    last: tuple[int, int, str] | None = None
    pattern, _ = _day_re()
    for match in pattern.finditer(folded):
        if _HABIT_RE.search(folded):
            last = max(last or (0, 0, ""), (match.end(), match.start(), "day"))
    for match in _REGION_RE.finditer(folded):
        last = max(last or (0, 0, ""), (match.end(), match.start(), "region"))
    for match in _NUMBERED_RE.finditer(folded):
        name, glued = match.group(1), match.group()[len(match.group(1)):][:1].isdigit()
        if (glued and name not in _COMMON) or name in _PORT_NAMES:
            last = max(last or (0, 0, ""), (match.end(), match.start(), name))
    if last is None or last[0] < end:
        return False
    before = folded[:last[1]]
    words = before.split()
    return (bool(subject_words(before)) or last[2] in _PORT_NAMES) and (
        bool(_COPULA_RE.search(before)) or len(words) <= 2)


# A prohibition of a moment in Chinese, Japanese or Korean ("禁止在周五发布", "周末不许上线",
# "금요일 배포 금지"): a short sentence with a day (or the weekend) and a word that forbids.
_FORBID_CJK_RE = rx.compile(r"禁止|不准|不许|严禁|ダメ|だめ|しないこと|금지|하지 ?마|안 ?돼")
_WEEKEND_RE = rx.compile(r"周末|週末|주말|节假日|祝日|공휴일")
_MOMENT_RULE_CHARS = 24


def forbids_a_moment(sentence: str) -> bool:
    """A short sentence that forbids doing something on a day or at the weekend, in Chinese,
    Japanese or Korean (the cue rules read such rules in the other languages)."""
    text = "".join(sentence.split())
    if len(text) > _MOMENT_RULE_CHARS or not _FORBID_CJK_RE.search(text):
        return False
    return bool(_day_re()[0].search(text.casefold()) or _WEEKEND_RE.search(text))
