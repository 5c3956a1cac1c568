"""Sentences worded like a change that change no stored note: a one-off, a question, a
hypothetical, someone else's words, a status report.

"this week only we use Notion, Confluence is off", "si pasamos a Notion, Confluence ya no
se usa", "does the api still run on heroku?", "Alice says we moved to Fly.io", "staging is
down, deploys are paused": each holds the words of a change ("is off", "ya no", "moved
to") and the name of a stored note's subject, and an unattended `extract --apply` took
each for a correction of that note and rewrote it. None of them says that a lasting fact
changed: the note stays as it is. Read in the ten languages the extractor reads, on the
correcting sentence only (a stored note is never asked).

Bare time words are not one-offs: "이번 주에 Render 에서 Fly.io 로 옮겼어요" and "on a migré
vers Clever Cloud cette semaine" are moves that happened this week and last; "only",
"just", "for this PR" make a moment the whole of what is said.
"""

from __future__ import annotations

import functools
import re

from memcli import compiled_regex as rx
from memcli.extraction.rules.changed_values import values

# Lower case; ASCII words match as whole words, the others as written.
_ONE_OFF = (
    # en
    r"\b(?:just|only) (?:this|for this|for today|today|tonight|for now|for the demo)\b|"
    r"\b(?:this|today|tonight|tomorrow) (?:week |sprint |month |time |run )?only\b|"
    r"\bjust (?:for )?(?:this|today|tonight|tomorrow|now)\b|\bjust this once\b|"
    r"\bthis (?:one )?time\b|\bfor now\b|\bright now\b|\bfor the moment\b|\bfor today\b|"
    r"\btemporar(?:y|ily)\b|\bin the meantime\b|\bmeanwhile\b|\buntil (?:tomorrow|tonight|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|the (?:demo|release|fix|"
    r"end of the (?:day|week|sprint)))\b|"
    r"\bfor (?:this|the current|today's) (?:pr|mr|task|session|branch|ticket|issue|demo|"
    r"sprint|release|commit|run|experiment|one|change|migration|week)\b|"
    # es
    r"\bsolo (?:por )?(?:hoy|esta (?:vez|semana)|este (?:sprint|pr)|para (?:este|esta|hoy))|"
    r"\b(?:por ahora|de momento|por el momento|por esta vez|esta vez|temporalmente|"
    r"provisionalmente|mientras tanto|para este (?:pr|ticket|sprint))\b|"
    r"\b(?:hoy|esta semana) (?:solo|nada más|nada mas)\b|"
    # pt
    r"\b(?:só|so|apenas) (?:hoje|desta vez|esta semana|essa semana|nesse pr|neste pr|"
    r"por hoje|para este|para esse)|\b(?:por enquanto|por agora|desta vez|dessa vez|"
    r"temporariamente|provisoriamente|enquanto isso)\b|"
    # de
    r"\bnur (?:heute|diese woche|dieses mal|diesmal|für (?:heute|diesen pr|dieses ticket|"
    r"jetzt)|vorübergehend)|\b(?:vorerst|vorübergehend|fürs erste|fuers erste|diesmal|"
    r"dieses mal|einmalig|ausnahmsweise|übergangsweise)\b|"
    # fr
    r"\b(?:seulement|juste|uniquement) (?:aujourd'hui|cette (?:fois|semaine)|pour (?:ce|cette|"
    r"aujourd'hui|l'instant))|\b(?:pour l'instant|pour le moment|temporairement|"
    r"provisoirement|cette fois|exceptionnellement|en attendant)\b|"
    # it
    r"\bsolo (?:oggi|questa (?:volta|settimana)|per (?:oggi|questa|questo|ora))|"
    r"\b(?:per ora|per adesso|per il momento|temporaneamente|provvisoriamente|questa volta|"
    r"per questa volta|eccezionalmente|nel frattempo)\b|"
    # ru
    r"только (?:сегодня|на этой неделе|в этот раз|на этот раз|для этого)|"
    r"пока что|временно|в этот раз|на этот раз|на время|в порядке исключения|"
    # zh
    r"这次|这一次|本次|暂时|临时(?:用|改|换|先|切)|先凑合|今天先|这周先|本周先|只有?(?:今天|这周|本周|这次)|"
    r"(?:今天|这周|本周)(?:就|只)|仅限|"
    # ja
    r"今回(?:だけ|は|限り)|今日だけ|今週だけ|一時的|とりあえず|当面|暫定|しばらく|"
    r"(?:今日|今週|今回)(?:のみ|限り)|"
    # ko
    r"이번만|이번에만|이번 주만|이번주만|오늘만|임시로|일시적|당분간|일단"
)
# "if" said of the change: what would follow, not what is.
_HYPOTHETICAL = (
    r"\b(?:if|what if|suppose|supposing|imagine|assuming|hypothetically|in case|let's say|"
    r"lets say|were we to)\b|"
    r"\b(?:supongamos|imaginemos|en caso de|en el caso de|digamos que|"
    r"caso (?:a gente|você|voce|seja)|supondo|imagina se|"
    r"se (?:a gente|nós|eu|você|voce)|se \w+(?:rmos|ssemos|iamo|ssimo|ssimi|ssero)|"
    r"nel caso|qualora|supponiamo|mettiamo che|"
    r"falls|angenommen|gesetzt den fall|"
    r"au cas où|au cas ou|supposons|imaginons|"
    r"допустим|предположим|в случае)\b|"
    r"如果|假如|要是|假设|万一|もし|とすれば|만약|만일"
)
# Words that say "if" and also "when(ever)": "wenn wir deployen, dann ab jetzt mit Fly.io",
# 以后部署的话用 Fly.io, デプロイするなら、今後は..., 앞으로 배포하면...: with a word that says
# the change lasts (_LASTING) they say when the habit applies, not a hypothetical.
_IF_OR_WHEN = (
    # es/fr "si" before a subject or a verb of "we" ("sí" is yes; Italian "si usa" is no "if")
    r"\bs'ils?\b|\bsi (?:on|nous|vous|je|tu|le|la|les|l'|un|une|el|los|las|alguien|no|"
    r"usted|se|ya|algún|algun|\w+(?:amos|emos|imos|ons))\b|"
    r"\b(?:wenn wir|wenn man|если)\b|的话|なら(?:ば)?(?:[、,。]|$|\s)|場合は|"
    # Korean "-면": not 화면 (screen) and the like, nor "-면 (안) 돼" (may / must not)
    r"(?<![화측반표정전])면(?=[\s,.?]|$)(?!\s*(?:안\s*)?(?:돼|되|된))"
)
# The change lasts: a one-off word, an "if" that means "when" or a status beside it does not
# make the sentence a moment ("今回は npm をやめて pnpm に統一", "the old server is down for
# good", "ab heute gilt: vorerst und dauerhaft pnpm").
_LASTING = (
    r"\b(?:for good|from now on|going forward|from here on|henceforth|permanently|"
    r"en adelante|a partir de ahora|desde ahora|para siempre|y siempre|definitivamente|"
    r"daqui (?:pra|para) frente|de agora em diante|a partir de agora|para sempre|"
    r"ab jetzt|ab sofort|ab heute|von nun an|künftig|kuenftig|zukünftig|fortan|dauerhaft|"
    r"endgültig|désormais|dorénavant|à partir de maintenant|pour de bon|définitivement|"
    r"d'ora in poi|da ora in poi|d'ora in avanti|da adesso in poi|per sempre|"
    r"отныне|теперь|впредь|с этого момента|навсегда)\b|"
    r"以后|今后|往后|从此|从今|统一|統一|一律|今後|これから|以後|以降|앞으로|이제부터|통일"
)
# Said aside, not a condition of the change: "falls du fragst", "if you ask".
_ASIDE = (
    r",?\s*\b(?:falls (?:du|ihr) (?:fragst|fragt)|if you (?:ask|wonder|are wondering|"
    r"'re wondering)|si (?:te|le|les) (?:preguntas|interesa)|si tu demandes)\b,?"
)
# Asked, not said.
_QUESTION = (
    r"[?？¿]|^(?:do|does|did|is|are|was|were|can|could|should|shall|will|would|has|have|"
    r"what about|how about|why|how come|whether|deberíamos|deberiamos|podemos|debemos|"
    r"devemos|sollen wir|können wir|koennen wir|est-ce que|faut-il|dovremmo|possiamo)\b|"
    r"\b(?:será que|sera que|acaso|per caso)\b|(?:^|\s)(?:ли|разве)(?:\s|$)|"
    r"吗\W*$|呢\W*$|是不是|要不要|能不能|可不可以|会不会|对不对|有没有|"
    r"(?:かな|かね|でしょうか|ますか|ませんか|ですか|のか|んですか)\W*$|(?:까|나요|어때)\W*$"
)
# Someone else's words: what they said is theirs until the person says it.
_REPORTED = (
    r"\b(?:he|she|they|someone|somebody|people|the (?:docs?|readme|wiki|assistant|model|"
    r"agent|bot|vendor|ticket|client|customer)|my (?:colleague|boss|manager|lead|teammate)|"
    r"(?!(?:i|we|you|the|a|an|as|like|what|that)\b)[a-z]+) (?:just |already |earlier |also )?"
    r"(?:said|says|told (?:me|us)|thinks|suggested|suggests|claims?|claimed|mentioned)\b|"
    r"\baccording to\b|\b(?:apparently|supposedly|rumou?r)\b|"
    r"\b(?:dice que|dijo que|dicen que|según|segun|diz que|disse que|dizem que|"
    r"sagt,? dass|meint,? dass|angeblich|dit que|a dit que|disent que|selon|d'après|"
    r"d'apres|dice che|ha detto che|dicono che|говорит,? что|сказал,? что|сказала,? что|"
    r"говорят|по словам|якобы)\b|"
    # "segundo passo", "secondo posto": second; "laut Beschluss": a decision, not a person
    r"(?:^|,\s*)(?:secondo|segundo) (?!(?:passo|lugar|dia|ponto|item|tempo|turno|ano|vez|"
    r"caso|giorno|punto|posto|anno|livello|piano|step)\b)|(?:^|,\s*)laut (?!(?:beschluss|"
    r"plan|vereinbarung|absprache|entscheidung|vorgabe|richtlinie|konvention|protokoll)\b)|"
    r"(?:他|她|他们|同事|老板|领导|别人|有人|客户|文档)(?:也|还|都)?(?:说|觉得|认为|提到|建议)|"
    r"据说|听说|によると|らしい|래요|대요|에 따르면|(?:다|라)고 (?:했|하더|들었)"
)
# A state of the moment, not a setting: it is down, off, broken, under maintenance.
_STATUS = (
    r"\b(?:is|are|went|was) (?:down|offline|broken|flaky|unreachable)\b|"
    r"\bunder maintenance\b|\bbeing (?:restarted|rebuilt|redeployed)\b|"
    # "during an outage we page with PagerDuty": when the habit applies, not a state
    r"(?<!during an )(?<!during the )(?<!in an )(?<!in case of an )\boutage\b|"
    r"\b(?:está|esta|están|estan) caíd[oa]s?\b|\ben mantenimiento\b|\bse cayó\b|\bse cayo\b|"
    r"\bfora do ar\b|\bcaiu\b|\bem manutenção\b|\bem manutencao\b|"
    r"\b(?:ist|sind) (?:down|kaputt|offline|ausgefallen)\b|\bin wartung\b|"
    r"\ben panne\b|\ben maintenance\b|\best tombée?\b|\best hs\b|"
    r"\bè (?:spento|spenta|giù|giu|down|offline)\b|\bin manutenzione\b|"
    r"упал|упала|не работает|на обслуживании|"
    r"挂了|宕机|维护中|在维护|崩了|落ちて|メンテ中|止まって|点検中|점검 ?중|다운됐|죽었"
)
# A day of this week or the next: with a day of the week, one meeting moved, not the habit
# ("this week the demo moved to Friday"); not from then on ("from next week on, Fridays").
_THIS_WEEK = (
    r"\b(?:this|next) week\b|\b(?:today|tomorrow|tonight)\b|\b(?:esta|la próxima|la proxima) "
    r"semana\b|\bsemana que vem\b|\bessa semana\b|\b(?:diese|nächste|naechste) woche\b|"
    r"\b(?:cette semaine|la semaine prochaine)\b|\b(?:questa settimana|la prossima settimana)"
    r"\b|\b(?:hoy|mañana|hoje|amanhã|heute|morgen|aujourd'hui|demain|oggi|domani)\b|"
    r"на этой неделе|на следующей неделе|сегодня|завтра|这周|本周|下周|今天|明天|今週|来週|"
    r"今日|明日|이번 ?주|다음 ?주|오늘|내일"
)
_ONWARDS = (
    r"\b(?:from|starting|since|as of|beginning|desde|a partir d|ab|seit|dès|à partir|"
    r"da (?:oggi|domani|questa|la prossima)|dalla prossima)\b|"
    r"начиная|с этой|从|起|开始|以后|から|以降|부터|앞으로"
)
# Where a sentence says two things: "Bob said pnpm is faster, so we switched to pnpm", "we
# now deploy with Fly.io (temporary Heroku apps are deleted)", "...; if a deploy fails, roll
# back". A guard word in a clause that says no change leaves the clause that does alone.
_CLAUSE_BREAK = (
    r"[;；()（）]|,\s*(?=(?:so|but|and|then|therefore|hence|así que|asi que|pero|entonces|"
    r"por eso|also|aber|daher|deshalb|donc|mais|alors|quindi|ma|allora|поэтому|но|так что|"
    r"所以|但是|因此)\s)"
)
_SHORT_CLAUSE = 3  # words: "(just for today)" still says what its sentence is about
ONE_OFF = "a one-off, for now only"
_HYPOTHETICAL_WHY = "a hypothetical"
_KINDS = ((ONE_OFF, _ONE_OFF), (_HYPOTHETICAL_WHY, _HYPOTHETICAL),
          (_HYPOTHETICAL_WHY, _IF_OR_WHEN), ("a question", _QUESTION),
          ("someone else's words", _REPORTED), ("a status of the moment", _STATUS))
# What a word that says the change lasts overrides (a question and a report it does not).
_OVERRIDDEN = frozenset({0, 2, 5})


@functools.cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((why, rx.compile(pattern, re.I)) for why, pattern in _KINDS)


@functools.cache
def _helpers() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    return (rx.compile(_LASTING, re.I), rx.compile(_ASIDE, re.I),
            rx.compile(_CLAUSE_BREAK, re.I))


def not_a_change(sentence: str) -> str | None:
    """Why SENTENCE, though worded like a change, changes no stored note (a one-off, a
    hypothetical, a question, someone else's words, a status of the moment), else None."""
    from memcli.extraction.rules.revisions import says_change

    lasting, aside, clause_break = _helpers()
    folded = aside.sub(" ", " ".join(sentence.casefold().split())).strip()
    clauses = [c.strip(" ,") for c in clause_break.split(folded) if c.strip(" ,")]
    saying = [says_change(c) for c in clauses] if len(clauses) > 1 else []
    checked = ([c for c, says in zip(clauses, saying, strict=True)
                if says or len(c.split()) <= _SHORT_CLAUSE] if any(saying) else [folded])
    for clause in checked:
        lasts = bool(lasting.search(clause))
        for kind, (why, pattern) in enumerate(_patterns()):
            if not (lasts and kind in _OVERRIDDEN) and pattern.search(clause):
                return why
    this_week, onwards = _moment()
    if this_week.search(folded) and not onwards.search(folded) and "day" in values(folded):
        return "a one-off, one day moved"
    return None


@functools.cache
def _moment() -> tuple[re.Pattern[str], re.Pattern[str]]:
    return rx.compile(_THIS_WEEK, re.I), rx.compile(_ONWARDS, re.I)
