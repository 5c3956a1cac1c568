"""English word lists for the search analyzer: stop words, irregular forms, question words.

The stemmer maps `running` and `runs` to `run` but cannot know that `went` is `go` or that
`children` is `child`; people ask "what did she do?" about notes that say "she went". The
irregular forms below are the common English verbs and plurals, mapped to their base form
before stemming (measured on LoCoMo's development questions: recall@5 +1.3 points).
"""

from __future__ import annotations

# The classic IR stop list (function words only: no content word a prompt may hinge on).
_STOP_TEXT = """
a about above after again against all am an and any are as at be because been before being
below between both but by can cannot could did do does doing down during each few for from
further had has have having he her here hers herself him himself his how i if in into is it
its itself let me more most my myself no nor not of off on once only or other ought our ours
ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were
what when where which while who whom why will with would you your yours yourself yourselves
s t don didn doesn isn wasn aren weren won wouldn shouldn couldn hasn haven hadn ll ve re d m
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())

# Words that say how a question is asked, not what it is about ("what kind of food did she
# mention?"): a note rarely holds them, and when it does ("she mentioned...") it is by
# chance. Dropped from a prompt's terms (never from a note's), unless nothing else is left.
# Measured on the tuning part of LoCoMo's development half: recall@5 +0.3 to +0.6 points.
# `type`, `sort` and `name` stay: they are code words.
_QUESTION_TEXT = """
kind thing things something anything way ways mention mentioned say said share shared talk
talked tell told think thought might likely describe
"""
# And the words a person types to an agent around the request: "ok, now please just fix
# it", "I always mix them up". No gain or loss on LoCoMo (whose questions hold none); in a
# prompt of several sentences they matched notes by chance.
_FILLER_TEXT = """
please thanks thank ok okay hey hi hello just also now really actually basically maybe perhaps
sure anyway quite always
"""
# And the function words of the other languages a prompt may be typed in (Spanish,
# Portuguese, German, French, Italian, Russian): "¿cómo ejecuto las pruebas?" is about
# `pruebas`, not `cómo` or `las`. Only those that are not also English content words
# (`die`, `war`, `son` and the like stay).
_FOREIGN_TEXT = """
cómo como qué que dónde donde cuál cuándo las los el la del en un una unos por para con se mi
mis es está están lo al y o debo puedo hago tengo
onde ficam fica um uma do da dos das no na em meu minha é são faço posso
wie ich den der das ein eine einen und ist wo was mit bitte auf zu von für mein meine kann
soll muss richte ein
comment le les une des du de et est où ce cette je mon ma mes pour avec dans sur qu quoi
il lo gli di della è che mio mia
как где что мне мой моя это и в на с по для не ли я
"""
QUESTION_WORDS = frozenset(_QUESTION_TEXT.split() + _FILLER_TEXT.split()
                           + _FOREIGN_TEXT.split())
# German writes every noun with a capital: in "Wie formatiere ich den Code?" `Code` is no
# name. A text holding one of these words (German's, and none an English word: not `den`,
# `die`, `hat`, `was`) is German.
_GERMAN_TEXT = """
ich wie der das ein eine einen einem ist und mit für kann soll muss nicht wir mein meine
wo welche welcher warum wann bitte sich oder auch noch dem wird werden habe sind
"""
GERMAN_WORDS = frozenset(_GERMAN_TEXT.split())

# The same for Chinese, where a prompt's CJK run becomes bigrams that straddle the asking
# words: "我的编辑器是什么" gives 的编, 器是, 是什, 什么 besides 编辑, 辑器, and the note "我用 vim
# 作为编辑器" then covers only a quarter of the prompt. A query bigram holding one of these
# characters (question words, the possessive 的, the copula 是, the particles) is dropped.
# 这 那 个 我 你 as well: "这个项目" is about 项目 (no bigram of a coding word holds them).
ASKING_CHARACTERS = frozenset("什么哪怎吗呢谁吧的是了这那个我你")
# Korean asks with whole words, glued to nothing: "배포는 어떻게 해?" is about 배포.
ASKING_BIGRAMS = frozenset(("어떻", "떻게", "어디", "디에", "무엇", "뭐야", "뭐지", "하나", "나요",
                           "해요", "해", "할까", "려면", "인가", "가요"))

# The verbs and nouns of any coding task ("add a German label", "write a haiku", "a good
# name for a cat"): a note that shares only these with a prompt is not about it. They count
# at a share of their weight in coverage (memcli.search.coverage.GENERIC_SHARE), still enough
# to rank two notes that hold the rest.
_GENERIC_TEXT = """
add adding new write writing put make use using get set setting update change create
start stop run running good time code file files need want help look find see try keep
let go come take give call check open close move way best right wrong one two half first
last next old long big small little lot lots bit work working fix thing stuff someone
everything anything something good bad nice better name names
"""
GENERIC_WORDS = frozenset(_GENERIC_TEXT.split())

# What a prompt that names a time asks besides the time, when it asks about nothing in
# particular: "what did we do yesterday?", "what changed last week?", "notes from March",
# "what did I decide on Monday?". These words (and the question words above) are dropped
# from such a prompt to see whether a topic is left (memcli.search.topic); any other word is
# one ("what did we decide about the deploy queue yesterday?").
_ACTIVITY_TEXT = """
do does did done doing work worked working happen happened happening change changed changes
changing decide decided decision decisions agree agreed plan planned note notes noted learn
learned learnt discuss discussed write wrote written add added go went going get got new us
everything stuff progress update updated updates record recorded remember remembered memory
memories recap summary summarise summarize accomplish accomplished make made touch touched
list show give remind recall please find look day days week weeks weekend month months year
years time times morning afternoon evening night earlier later ago recent recently far last
past previous session sessions since until
"""
ACTIVITY_WORDS = frozenset(_ACTIVITY_TEXT.split())
# The same for Chinese and Japanese: a bigram of these characters alone (or of kana alone:
# Japanese grammar) says nothing about a topic: 我们 们做 做了 (昨天我们做了什么), 改了
# (上周改了什么), 笔记 (三天前的笔记), 决定 (周一决定了什么), 何を しま (昨日何をしましたか).
ACTIVITY_CHARACTERS = frozenset(
    "我们你您他她咱大家做干弄搞改变动发生决定笔记录工作学到讨论写加新有过都些内容事情下完成处理"
    "进展更点哪什么呢吗的是了吧谁怎时候天周月年那这上本前后次个关于和跟与在把给还又也就所"
    "何決変記録作業話週今先日")

# Capitalised, but never a name a note must hold: months and days of the week.
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
CALENDAR_WORDS = frozenset((*MONTHS, *WEEKDAYS))

_VERBS = (
    "arise arose arisen|awake awoke awoken|be was were been|bear bore borne born|beat beaten|"
    "become became|begin began begun|bend bent|bind bound|bite bit bitten|bleed bled|"
    "blow blew blown|break broke broken|breed bred|bring brought|build built|burn burnt|"
    "buy bought|catch caught|choose chose chosen|cling clung|come came|creep crept|deal dealt|"
    "dig dug|do did done does|draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|"
    "eat ate eaten|fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|"
    "fling flung|fly flew flown|forbid forbade forbidden|forget forgot forgotten|"
    "forgive forgave forgiven|freeze froze frozen|get got gotten|give gave given|go went gone goes|"
    "grow grew grown|hang hung|have had has|hear heard|hide hid hidden|hold held|keep kept|"
    "kneel knelt|know knew known|lay laid|lead led|leap leapt|learn learnt|leave left|lend lent|"
    "lie lain|light lit|lose lost|make made|mean meant|meet met|pay paid|ride rode ridden|"
    "ring rang rung|rise rose risen|run ran|say said|see saw seen|seek sought|sell sold|"
    "send sent|sew sewn|shake shook shaken|shine shone|shoot shot|show shown|"
    "shrink shrank shrunk|sing sang sung|sink sank sunk|sit sat|sleep slept|slide slid|"
    "speak spoke spoken|speed sped|spend spent|spill spilt|spin spun|spit spat|"
    "spring sprang sprung|stand stood|steal stole stolen|stick stuck|sting stung|"
    "stink stank stunk|strike struck|string strung|strive strove striven|swear swore sworn|"
    "sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|"
    "tell told|think thought|throw threw thrown|tread trod trodden|understand understood|"
    "undertake undertook undertaken|wake woke woken|wear wore worn|weave wove woven|weep wept|"
    "win won|wind wound|withdraw withdrew withdrawn|write wrote written|overcome overcame|"
    "undergo underwent undergone|rebuild rebuilt|rethink rethought|mislead misled|"
    "misunderstand misunderstood|oversee oversaw overseen|foresee foresaw foreseen|"
    "withstand withstood|rewrite rewrote rewritten|override overrode overridden"
)
_NOUNS = (
    "child children|man men|woman women|person people|mouse mice|foot feet|tooth teeth|"
    "goose geese|wife wives|life lives|knife knives|leaf leaves|wolf wolves|half halves|"
    "shelf shelves|grandchild grandchildren"
)


def _irregular() -> dict[str, str]:
    table: dict[str, str] = {}
    for group in (_VERBS + "|" + _NOUNS).split("|"):
        base, *forms = group.split()
        for form in forms:
            table.setdefault(form, base)
    return table


IRREGULAR: dict[str, str] = _irregular()
