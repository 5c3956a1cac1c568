"""Lead words before what a clause says: list marks, fillers ("ok so", 另外), asides
("fyi", 备注：), and the "no,"s and said-agains ("like I said", 我说过) that make it a correction.
"""

from __future__ import annotations

import re

from memcli.extraction.rules.model import State
from memcli.extraction.rules.patterns import lazy

# The lead-word patterns have no "^": they are matched with ``match_at`` at the position
# where the words before them end (see peel_fillers).

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
EARLIER = (r"(?:\s+(?:before|already|earlier|above|yesterday|last\s+time|the\s+other\s+day|"
            r"(?:so\s+|too\s+)?many\s+times|a\s+(?:few|couple\s+of|dozen|hundred|million)\s+times|"
            r"(?:twice|three\s+times)(?:\s+already)?))*")
_SAID_AGAIN = (
    r"i(?:'ve|\s+have)\s+said\s+it\s+before,?\s+and\s+i(?:'ll|\s+will)\s+say\s+it\s+again"
    r"\s*[,.!:;—–-]*|"
    r"i(?:'ve|\s+have)?\s+(?:already\s+|clearly\s+|just\s+)?(?:said|told\s+you)"
    r"(?:\s+(?:this|that|it)(?=\s*[,.!:;—–-]|\s+(?:before|already|earlier)\b))?" + EARLIER
    + r"(?:\s+to\b)?[,.!:;—–-]*"
    r"|(?:like|as)\s+i(?:'ve|\s+have)?\s+(?:already\s+|just\s+)?(?:said|told\s+you|mentioned|"
    r"explained|wrote|noted)" + EARLIER + r"\s*[,.!:;—–-]*"
    r"|i(?:'ve|\s+have)?\s+already\s+(?:mentioned|explained)(?:\s+(?:this|that|it))?" + EARLIER
    + r"\s*[,.!:;—–-]+"
    r"|i\s+(?:keep|kept)\s+(?:telling\s+you|saying)(?:\s+(?:this|that|it))?\s*[,.!:;—–-]*"
    r"|i\s+repeat\s*[,.!:;—–-]*|(?:once|yet)\s+again\s*[,.!:;—–-]+"
    r"|we(?:'ve|\s+have)\s+(?:already\s+)?(?:been|gone)\s+over\s+(?:this|that|it)" + EARLIER
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


def strip_fillers(state: State) -> State:
    pos, corrective = peel_fillers(state.text, 0)
    if pos == 0:
        return state
    aside = state.aside or bool(_ASIDE_RE.search(state.text[:pos]))
    return state.but(text=state.text[pos:], corrective=state.corrective or corrective,
                     aside=aside)


def peel_fillers(text: str, pos: int) -> tuple[int, bool]:
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
    pos, corrective = peel_fillers(text, 0)
    return corrective and not text[pos:].strip(" \t.!?。！？,，")
