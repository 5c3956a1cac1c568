"""Whether a statement says that a fact changed: a correction ("correction: it's slurm"), an
update ("we moved to Fly.io", "Consul 已经下线了") or a reversal ("moment is allowed again",
"Storybook 解禁します"), in the ten languages the extractor reads.

The learned detector gives its own probability that a sentence changes a fact; this is the
store side's reading of the person's words, used when a finding meets a stored note it
shares a setting or a name with (:mod:`.duplicates`): such a statement replaces that note
instead of standing beside it. Alone it creates nothing.
"""

from __future__ import annotations

import functools
import re

from memcli import compiled_regex as rx

# Lower case. ASCII markers match as whole words; the others as written (no spaces in
# Chinese and Japanese, particles glued to Korean words).
_MARKERS = {
    "en": """allowed again|fine again|ok again|okay again|moved to|moved everything|
        moved off|moved from|moving to|switched|switching to|
        migrated|migrating to|no longer|not anymore|anymore|is gone|are gone|was removed|
        replaced|replacing|instead of|instead|correction|actually|update:|changed to|
        changed from|we now|is now|are now|now we|now uses|now use|
        lifted|dropped|retired|deprecated|ditched|swapped|sunset|archived|
        decommissioned|is dead|went away|no more|upgraded to|bumped to|is fine now|
        allowed now|is allowed|are allowed|ok to use|okay to use|fine to use|can use|
        not .* but|scratch that|i was wrong|my bad|turns out|no wait|wait no|
        that was wrong|was wrong|wrong, it|sorry, it|sorry, wrong""",
    "zh": """换成|换了|改成|改用|改为|迁到|迁移到|迁移|已经不用|不用了|不再|下线|现在|
        更新一下|不对|其实|可以了|解禁|取消|又可以|也可以|可以用|废弃|作废|升到|升级到|
        切到|切换|弃用|淘汰|撤了|去掉了|不是.*而是|纠正|更正|说错了|搞错了|记错了|可以.{0,6}了""",
    "ja": """移った|移って|移行|変わ|変更|やめ|消した|廃止|解禁|今は|違っ|じゃなくて|
        ではなく|代わりに|大丈夫|使ってもいい|いいことに|okになりました|ok になりました|
        切り替え|乗り換え|上げました|置き換え|訂正|撤廃|間違|も.{0,12}ok|もオッケー|もいい""",
    "ko": """다시 허용|바꿨|바뀌|바꿔|바꾸|옮겼|옮김|갈아탔|이제|안 써|안써|더 이상|빠지고|허용|
        틀렸|아니라|대신|넘어갔|레거시|전환|교체|정정|폐기|중단|잘못 말|도 돼|도 괜찮""",
    "es": """pasamos a|nos pasamos|cambiamos|cambió|cambio a|ya no|migramos|
        reemplaz|en lugar de|actualización|actualizacion|queda fuera|
        dejamos de|me equivoqué|me equivoque|corrección|correccion|se acabó|se acabo|
        ya se puede|vuelve a|volvemos a|me equivoqué, es|perdón, es|error mío""",
    "pt": """troquei|trocamos|trocou|mudou|mudamos|mudámos|agora|não usamos mais|
        nao usamos mais|já não|ja nao|não é mais|nao e mais|migramos|aposentad|
        substitu|saiu|em vez de|voltou a|pode usar|liberad|correção|correcao|
        me enganei|atualização|atualizacao|foi mal|errei""",
    "de": """wieder erlaubt|umgestellt|gewechselt|jetzt|nicht mehr|stattdessen|ersetzt|migriert|
        umgezogen|korrektur|abgeschafft|neuerdings|ab sofort|inzwischen|statt|
        doch erlaubt|ist erlaubt|darf wieder|falsch|ich habe mich vertan|vertan""",
    "fr": """on a quitté|on a quitte|quitté|passé à|passe a|passés à|maintenant|plus de|
        remplacé|remplace|de nouveau|à nouveau|a nouveau|migré|migre vers|abandonné|
        abandonne|au lieu de|correction|désormais|desormais|n'est plus|ne .* plus|
        autorisé|autorise|on peut|je me suis trompé|je me suis trompe|trompé""",
    "ru": """снова можно|переехали|перешли|теперь|больше не|уже нет|уже не|вместо|
        заменили|поправлю|поправка|на самом деле|обновили|отказались|ошибся|ошиблась|
        не .* а|можно|ошибка, |неправильно""",
    "it": """ora|adesso|non più|non piu|niente più|niente piu|siamo passati|passati a|
        passato a|migrato|sostituit|aggiornamento|invece|al posto di|
        correzione|mi sono sbagliato|dismess|si può|si puo|di nuovo consentit|sbagliato|
        sbagliata|mi sono sbagliata""",
}


def _longest(marker: str) -> tuple[int, str]:
    return -len(marker), marker


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    ascii_words: list[str] = []
    others: list[str] = []
    for text in _MARKERS.values():
        for marker in (m.strip() for m in text.split("|")):
            if marker:
                (ascii_words if marker.isascii() else others).append(marker)
    # Longest first, then in order: one pattern text on every start (a set's order is not),
    # which is what lets its compiled program be kept (memcli/compiled_regex.py).
    spaced = "|".join(m.replace(" ", r"\s+") for m in sorted(set(ascii_words), key=_longest))
    words = rx.compile(rf"(?<![\w-])(?:{spaced})(?![\w-])")
    glued = rx.compile("|".join(m.replace(" ", r"\s*") for m in sorted(set(others),
                                                                      key=_longest)))
    return words, glued


def says_change(text: str) -> bool:
    """The text says that something it names is not, or no longer, what it was."""
    folded = text.casefold()
    words, glued = _patterns()
    return bool(words.search(folded) or glued.search(folded))
