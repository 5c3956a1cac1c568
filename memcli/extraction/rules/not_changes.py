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
    # es/fr "si" before a subject or a verb of "we" ("sí" is yes; Italian "si usa" is no "if")
    r"\bs'ils?\b|\bsi (?:on|nous|vous|je|tu|le|la|les|l'|un|une|el|los|las|alguien|no|"
    r"usted|se|ya|algún|algun|\w+(?:amos|emos|imos|ons))\b|"
    r"\b(?:supongamos|imaginemos|en caso de|en el caso de|digamos que|"
    r"caso (?:a gente|você|voce|seja)|supondo|imagina se|"
    r"se (?:a gente|nós|eu|você|voce)|se \w+(?:rmos|ssemos|iamo|ssimo|ssimi|ssero)|"
    r"nel caso|qualora|supponiamo|mettiamo che|"
    r"wenn wir|wenn man|falls|angenommen|gesetzt den fall|"
    r"au cas où|au cas ou|supposons|imaginons|"
    r"если|допустим|предположим|в случае)\b|"
    r"如果|假如|要是|假设|万一|的话|もし|なら(?:ば)?(?:[、,。]|$|\s)|場合は|とすれば|"
    # Korean "-면": not 화면 (screen) and the like, nor "-면 (안) 돼" (may / must not)
    r"만약|만일|(?<![화측반표정전])면(?=[\s,.?]|$)(?!\s*(?:안\s*)?(?:돼|되|된))"
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
    r"говорят|по словам|якобы)\b|(?:^|,\s*)(?:secondo|segundo|laut)\b|"
    r"(?:他|她|他们|同事|老板|领导|别人|有人|客户|文档)(?:也|还|都)?(?:说|觉得|认为|提到|建议)|"
    r"据说|听说|によると|らしい|래요|대요|에 따르면|(?:다|라)고 (?:했|하더|들었)"
)
# A state of the moment, not a setting: it is down, off, broken, under maintenance.
_STATUS = (
    r"\b(?:is|are|went|was) (?:down|offline|broken|flaky|unreachable)\b|"
    r"\bunder maintenance\b|\bbeing (?:restarted|rebuilt|redeployed)\b|\boutage\b|"
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
ONE_OFF = "a one-off, for now only"
_KINDS = ((ONE_OFF, _ONE_OFF), ("a hypothetical", _HYPOTHETICAL),
          ("a question", _QUESTION), ("someone else's words", _REPORTED),
          ("a status of the moment", _STATUS))


@functools.cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((why, rx.compile(pattern, re.I)) for why, pattern in _KINDS)


def not_a_change(sentence: str) -> str | None:
    """Why SENTENCE, though worded like a change, changes no stored note (a one-off, a
    hypothetical, a question, someone else's words, a status of the moment), else None."""
    folded = " ".join(sentence.casefold().split())
    for why, pattern in _patterns():
        if pattern.search(folded):
            return why
    this_week, onwards = _moment()
    if this_week.search(folded) and not onwards.search(folded) and "day" in values(folded):
        return "a one-off, one day moved"
    return None


@functools.cache
def _moment() -> tuple[re.Pattern[str], re.Pattern[str]]:
    return rx.compile(_THIS_WEEK, re.I), rx.compile(_ONWARDS, re.I)
