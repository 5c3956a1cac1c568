"""Whether a sentence is worded as the person putting the agent right: "no, we use
manifold", "you ran pulumi up against prod", "stop writing completion handlers", "don't
add kapt back", 别再加了, もう書かないで, 그만 써, hör auf mit…, arrête…, хватит…

The route head sends more than half of the corrections it keeps to project knowledge,
while every author labels them correction feedback. Only what is specific to putting
someone right is read here: a "no" or "wrong" the sentence opens with, what the agent did
("you added…"), "stop", "not again / not back". A contrast alone ("X じゃなくて Y",
"X 말고 Y", "instead of", "statt", "rather than") is how people state plain facts as
often as corrections: measured on authors' files left out of training, routing those as
corrections lost more facts and updates than it gained (docs/extractor-model.md, round
3b). A fact that moved on ("we moved to Fly.io", "no longer"), a memory cue ("remember")
or an aside ("btw") is not putting the agent right either.
"""

from __future__ import annotations

import re

from memcli.extraction.rules.patterns import lazy

_OPENS = lazy(r"^\W*(?:(?:mais |ma |que |da )?no+|nope|nah|wrong|not|nein|nee|non|não|nao|нет|не|"
              r"неверно|faux|falsch|sbagliato|incorrect|"
              r"不对|不是|错了|違う|ちがう|ちがく|いや|아니|아뇨|guarda che)(?!\w)"
              r"|^\W*不对(?=[\sA-Za-z0-9,，])|^\W*そうじゃな"
              # Japanese runs its words together: "違うよー", "いやいや", "ちがくて".
              r"|^\W*(?:違う|ちがう|いやいや|ちがくて)", re.I)
# A word that says what was done is wrong, anywhere in the sentence ("mauvais logger, on
# utilise structlog", "ta errado o fuso", "that's the wrong file").
_WRONG = lazy(
    r"\b(?:that'?s|this is|it'?s) (?:wrong|not right)\b|\bwrong (?:\w+ )?(?:file|folder|"
    r"logger|version|branch|port|name|package|library|tool|command|one|place|db|database)\b"
    r"|^\W*wrong \w+|\bgot (?:\w+ ){0,3}wrong\b|^\W*mauvais\b|\bc'est faux\b"
    r"|\b(?:ist|das ist) falsch\b"
    r"|\b(?:t[aá]|est[aá]) errad[oa]\b"
    r"|\bè sbagliat[oa]\b|\bestá mal\b|(?<!\w)(?:неверно|неправильно|не то)(?!\w)"
    r"|搞错了|弄错了|間違って|틀렸|잘못 (?:했|됐|쓰)", re.I)
_AGENT_DID = lazy(
    r"\byou(?:'ve| have|'re| are)? (?:just |again |still |already )?(?:used|using|added|adding|"
    r"ran|put|putting|edited|changed|wrote|writing|made|created|removed|deleted|imported|"
    r"installed|called|set|switched|picked|did|pushed|committed|renamed|moved|gave|left|"
    r"updating|named|queried|returned|copied|forgot|hardcoded|hard-coded|broke|mocked|"
    r"pointed|skipped|dropped|converted|ignored|generated|declared|defined|opened|stored|"
    r"saved|chose|went|got|(?!(?:ask|need|want|mention|expect|like|seem|suppos|request)ed)"
    r"\w{3,}ed)\b"
    # Asked to put right what was just done ("por favor corrígelo", "arruma isso").
    r"|\b(?:corr[ií]gelo|arr[eé]glalo|correggilo|sistemalo|corrige-(?:le|la)|arruma isso)\b"
    r"|\b(?:stop (?:using|doing|adding|putting|writing)|that'?s wrong|"
    r"(?:swap|put|change) it back|revert (?:it|that))\b"
    r"|\b(?:don'?t|do not|never)\b.{0,40}\b(?:again|back)\b"
    r"|\bdu hast\b|\bhör auf\b|\bnicht wieder\b|\bschon wieder\b|\btu as\b|\bt'as\b"
    r"|\btu (?:mets|viens de|utilises|as mis)\b|\barrête\b|\bremets pas\b"
    r"|\bvuelvas a\b|\bdeja de\b|\bpara de\b|\bchega de\b|\bde volta\b|\bbasta\b"
    r"|\b(?:usaste|pusiste|metiste|(?:você )?(?:usou|colocou|botou))\b"
    r"|\bnon rimett\w*|\bhai (?:usato|messo|aggiunto)\b"
    r"|(?<!\w)(?:ты (?:опять |снова |же )?(?:использовал|добавил|поставил|написал|сделал|взял|"
    r"подключил|сохранил|положил|записал|назвал|удалил|запустил)|опять (?:положил|записал|"
    r"добавил|написал|поставил)|хватит|не возвращай)(?!\w)"
    r"|你(?:又|咋|怎么又|怎么)?(?:用了|加了|改了|写了|把|用的|装的)|刚才你|你咋|你又(?:用|加|改|写|把)|别再|不要再|又在"
    r"|もう\S{0,12}ないで|でしょ[、。]|ますけど[、。]|그만|다시 넣지|셨는데|썼네", re.I)
_MOVED_ON = lazy(
    r"\b(?:anymore|any more|no longer|switched|moved|migrated|after all|nicht mehr|"
    r"umgestellt|gewechselt|ya no|nuevamente|já não|não mais|mudamos|trocamos|voltamos|"
    r"non più|siamo passati)\b"
    r"|(?<!\w)(?:больше не|перешли|переехали)(?!\w)"
    r"|不再|迁移|换成了|改成了|移行|더 이상|옮겼", re.I)
_CUE_OR_ASIDE = lazy(
    r"\b(?:remember|note|important|fyi|btw|by the way|heads up|for the record|merk|wichtig|"
    r"übrigens|retiens|note bien|au fait|recuerda|ojo|por cierto|lembra|guarda isso|aliás|"
    r"ricorda|tra l'altro|запомни|кстати|к сведению)\b|记住|注意|顺便|覚えて|ちなみに|기억|참고로",
    re.I)


# A prohibition the sentence opens with ("don't mock the clock with sinon, we inject a
# Clock", "nada de AutoMapper", "nicht in Program.cs"): how people react to what the agent
# just did. In Latin and Cyrillic letters only: measured (round 4), the same openers in
# Chinese and Japanese (别…, 不要…, …ないで) are as often a standing rule of the project.
_DONT_OPENS = lazy(r"^\W*(?:please |pls |plz )?(?:don'?t|do not|stop|never again|no more|eso no|"
                   r"n'(?:utilise|ajoute|mets) pas|nicht|kein\w*|niente|nada de|nunca|não|nao|"
                   r"не (?:используй|добавляй|надо|ставь))(?!\w)", re.I)


# Agreeing with what the agent said ("right, the api is behind traefik", "sì, il monorepo usa
# turborepo", "isso, na frente tem traefik"): a fact confirmed, not the agent put right.
_AGREES = lazy(r"^\W*(?:right|yes|yeah|yep|yup|exactly|correct|sì|si|sí|isso|exato|exacto|"
               r"oui|ouais|exact|genau|ja|да|верно|对|对的|是的|没错|そう|うん|はい|네|응|맞아)(?!\w)",
               re.I)


def agrees(sentence: str) -> bool:
    """Whether SENTENCE opens by agreeing with the agent."""
    return bool(_AGREES.search(sentence))


def corrects(sentence: str) -> bool:
    """Whether SENTENCE puts the agent right (not a fact that moved on, not a memory cue)."""
    return shaped(sentence) and plain(sentence)


def shaped(sentence: str) -> bool:
    """Whether SENTENCE has the words of putting the agent right (a "no" it opens with, what
    the agent did, "wrong", a prohibition it opens with), whatever else it says."""
    return bool(_OPENS.search(sentence) or _AGENT_DID.search(sentence) or _WRONG.search(sentence)
                or _DONT_OPENS.search(sentence))


# "no," "nein," "нет," said as a word of its own: the person answers what the agent did.
_NO_WORD = lazy(r"^\W*(?:(?:mais |ma |que |da )?no+|nope|wrong|nein|non|não|nao|нет|неверно|"
                r"faux|falsch|sbagliato|不对|错了|違う|ちがう|いやいや|아니|아뇨)\s*[,.!，、。！]",
                re.I)


def insists(sentence: str) -> bool:
    """Whether SENTENCE puts the agent right in words no fact is said in: a "no," of its own,
    what the agent did, "wrong". Stronger than :func:`corrects` (a prohibition it opens
    with is as often a standing rule)."""
    return bool(_NO_WORD.search(sentence) or _AGENT_DID.search(sentence)
                or _WRONG.search(sentence)) and plain(sentence)


def agent_did(sentence: str) -> bool:
    """Whether SENTENCE says what the agent did wrong ("you added…", "du hast…", 你用了…):
    the part of :func:`corrects` that holds for the rules' findings too. A "no" or a "don't"
    the sentence opens with does not: the rules read standing prohibitions ("don't commit
    node_modules", "No magic numbers.") that every hand-labelled split files as the
    project's knowledge."""
    return bool(_AGENT_DID.search(sentence) or _WRONG.search(sentence)) and plain(sentence)


def plain(sentence: str) -> bool:
    """Neither a fact that moved on nor a memory cue or an aside: a sentence that, after
    one putting the agent right ("you wrote it with unittest. we use pytest fixtures"),
    says what is right."""
    return not _MOVED_ON.search(sentence) and not _CUE_OR_ASIDE.search(sentence)
