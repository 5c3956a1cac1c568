"""Whether a sentence is worded as the person's own preference about how the agent works with
them: "explain it to me with numbers", "answer me in Korean", "I prefer…", "ich mag es wenn
du…", "parle-moi en français", "dammi sempre…", "объясняй мне…", 我喜欢…, 私は…が好き, 저는…
좋아해요, "in any project of mine…".

The route head sends many of these to project knowledge (a preference and a convention of
the repository read alike word by word). A first-person word alone ("I", "my", 我) is in as
many facts of the project ("my repo uses pnpm"): measured in round 3, routing on it moved
facts in passing to the person's preferences. Only what is specific to a preference is
read here: the agent asked to talk, explain or answer *to me*, a verb of liking or
preferring said by the person, the person's own projects in general. Not a correction of
the agent (that is correction feedback, :mod:`memcli.extraction.rules.correction_shape`).
"""

from __future__ import annotations

import re

from memcli.extraction.rules.patterns import lazy

_TO_ME = lazy(
    # English: the agent asked to speak, explain, answer to me; what I like or prefer.
    r"\b(?:explain|answer|reply|respond|talk|speak|write|walk)(?: it| things)?"
    r" (?:to )?me\b"
    r"|\bi(?:'d| would)? (?:prefer|like|love|hate|want you to)\b|\bi(?:'d| would) rather\b"
    r"|\bi'm (?:a|an) \w+ (?:person|learner)\b|\b(?:any|every|all) (?:of )?(?:my|mine)\b"
    r"|\bprojects? of mine\b"
    # German, French, Spanish, Portuguese, Italian, Russian.
    r"|\b(?:erkl\w*r|schreib|antworte)\w* (?:\w+ )?mir\b|\bich mag\b"
    r"|\bich (?:h\w*tte|will) (?:lieber|gern)\b|\bmir ist lieber\b"
    r"|\b(?:parle|r\w*ponds|explique|\w*cris)[- ]moi\b|\bj'(?:aime|pr\w*f\w*re|ad\w*re|d\w*teste)\b"
    r"|\bje (?:pr\w*f\w*re|veux que tu)\b|\btutoi|\bvouvoi|\btutoy|\bvouvoy|\bduzen\b|\bsiezen\b"
    r"|\b(?:expl\w*came|h\w*blame|resp\w*ndeme|contestame|escr\w*beme)\b"
    r"|\b(?:me (?:explica|responde|fala)|prefiro|prefiero|me gusta|gosto de|"
    r"odeio|odio|no me gusta|n\w*o gosto)\b|\bde usted\b|\bde voc\w\b"
    r"|\b(?:spiegami|rispondimi|parlami|scrivimi|preferisco|mi piace|"
    r"dammi del (?:tu|lei))\b"
    r"|(?<!\w)(?:объясняй|объясни|отвечай|пиши|говори|рассказывай)(?: \w+)? мне(?!\w)"
    r"|(?<!\w)(?:я предпочитаю|я люблю|мне нравится|мне удобнее|на ты|на вы|ко мне)(?!\w)"
    # Chinese, Japanese, Korean.
    r"|我(?:喜欢|更喜欢|偏好|习惯|讨厌|不喜欢)|给我(?:解释|讲)|用中文(?:回答|回复)"
    r"|私(?:は|が)?.{0,12}(?:好き|苦手|派)"
    r"|저는.{0,20}(?:좋아|싫어|선호)|(?:설명해|대답해|답해|말해)\s?(?:줘|주세요)"
    # The person's likes and dislikes without a pronoun ("mag ich", "ненавижу серый фон",
    # 灰色の背景嫌い, 회색 배경 싫어), "with me", how the agent's answers should be.
    r"|\bi (?:hate|can'?t stand|dislike|prefer)\b|\b(?:with|for|back to) me\b"
    r"|\bmag ich\b|\bich hasse\b"
    r"|\bje (?:d\w*teste|n'aime pas|pr\w*f\w*re)\b|\bmi piacciono\b|\bme gustan\b|\bodio\b"
    r"|\b(?:avec moi|mit mir|conmigo|comigo|con me)\b"
    r"|(?<!\w)(?:ненавижу|терпеть не могу|люблю|(?:мне )?больше нравится|со мной)(?!\w)"
    r"|好き|好み|嫌い|(?:가|이|는|게|을|를)\s?좋아(?!하)|싫어(?!하)"
    r"|\b(?:your|the) (?:answers|replies)\b|\b(?:less words|be (?:brief|concise))\b"
    r"|\b(?:deine|eure) antworten\b|\btes r\w*ponses\b|\btus respuestas\b"
    r"|\b(?:suas|tuas) respostas\b|\ble tue risposte\b|(?<!\w)твои ответы(?!\w)"
    r"|^(?:以后|今后)?(?:回答|回复)|返答|답변|(?<!\w)ответ(?:ы|ах)(?!\w)", re.I)


# The agent asked to hand something over ("give me the open ports", "dis-moi ce que tu
# trouves", "dammi le porte aperte"): as often a step of this task as a standing wish, so a
# route (the sentence is lasting on its own evidence) and not a reason to keep it.
_ASK_ME = lazy(
    r"\b(?:show|tell|give|send) me\b|\b(?:sag|zeig|gib|schick)\w* (?:\w+ )?mir\b"
    r"|\b(?:donne|montre|dis|envoie)[- ]moi\b|\b(?:dame|dime|mu\w*strame|p\w*same)\b"
    r"|\bme (?:mostra|manda|d\w|passa)\b|\b(?:dammi|dimmi|mostrami|mandami)\b"
    r"|(?<!\w)(?:покажи|скажи|дай|пришли)(?: \w+)? мне(?!\w)|给我|跟我说", re.I)


def prefers(sentence: str) -> bool:
    """Whether SENTENCE states how the person wants the agent to work with them."""
    return bool(_TO_ME.search(sentence) or _ASK_ME.search(sentence))


def wishes(sentence: str) -> bool:
    """Whether SENTENCE says how the person wants to be talked to, or what they like or
    prefer, in words that are not a request for this task's result ("give me…")."""
    return bool(_TO_ME.search(sentence))
