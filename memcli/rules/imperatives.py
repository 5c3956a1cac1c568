"""Generic imperatives: a standing rule said with no cue word, the way rules files say it.

"Prefix branches with feat/", "Indent with 4 spaces", "Keep functions under 50 lines",
包管理器用 yarn, 所有接口都要写单元测试: an imperative, or a kind of thing and its way,
with nothing that says "always" or "from now on". What makes it standing is its object: a
kind of thing (a bare plural, "all"/"every"/每个/所有, a kind noun like 包管理器) or a measure
("4 spaces", "100 characters"), never one thing of the work at hand. The same verbs make most
one-off requests ("fix the login bug", "put it in utils.py", "run the tests", 帮我跑一下测试),
so anything that points at the moment or the screen (this, it, here, now, the …, you just
…, 这个, 刚才, 帮我, 一下, 吧), a past tense, a question or a determiner before the object
keeps the sentence out.
"""

from __future__ import annotations

import re

from memcli.rules.model import Hit, State
from memcli.rules.patterns import lazy

# Verbs a rules file starts its lines with. Not "fix", "run", "make", "create", "delete",
# "implement", "try": those are almost always a task for now.
_VERBS = (r"(?:use|prefix|suffix|indent|keep|name|write|wrap|sort|limit|cap|format|end|start|"
          r"begin|separate|group|mark|tag|document|annotate|avoid|declare|store|log|validate|"
          r"pin|quote|capitali[sz]e|lowercase|uppercase|put|place|add|include|return|raise|"
          r"handle|squash|sign|order|align|type|sanitize|sanitise|escape|comment)")
# A determiner before the object names one thing ("the tests", "a dict", "my file").
_DETERMINER = r"(?:the|a|an|this|that|these|those|my|its|his|her|their|some|one|it|them|me)\b"
# "Prefix branches with feat/", "Use type hints on all public functions": a bare plural, or
# "all/every/each" and a kind, right after the verb ("your" is how rules files address you).
_PLURAL_OBJECT_EN = lazy(
    r"(?:always\s+)?" + _VERBS + r"\s+(?:all\s+(?!the\b)|every\s+|each\s+|your\s+)?"
    r"(?!" + _DETERMINER + r")(?:[a-z][\w-]*\s+){0,2}?(?P<last>[a-z][\w-]*[^s\W]s)\b"
    r"(?P<rest>(?:\s+\S.*)?)", re.I)
# "Use camelCase for variables", "Use tabs in Makefiles", "use async/await for asynchronous
# code": a way for a kind of thing (a plural, or code).
_FOR_KIND_EN = lazy(
    r"(?:always\s+)?" + _VERBS + r"\s+(?!" + _DETERMINER + r")[^\s,]+(?:\s+[^\s,]+)?\s+"
    r"(?:for|in|on|to)\s+(?:all\s+(?!the\b)|every\s+|each\s+)?(?!" + _DETERMINER + r")"
    r"(?:[a-z][\w-]*\s+){0,2}?(?:[a-z][\w-]*[^s\W]s|code)\b(?:\s+\S.*)?", re.I)
_FOR_KIND_EN.needs = (" for ", " in ", " on ", " to ")
# "Indent with 4 spaces", "Wrap at 100 characters": a measure right after the verb.
_UNITS = (r"(?:spaces?|tabs?|characters?|chars?|columns?|cols?|lines?|words?|levels?|"
          r"arguments?|parameters?|params?|items?|seconds?|ms|%|percent)")
_MEASURE_EN = lazy(
    r"(?:always\s+)?" + _VERBS + r"\s++(?:(?:with|at|to|using|by|under|below|within)\s++)?"
    r"(?:(?:at most|no more than|under)\s++)?\d++(?:\s*+-)?\s*+" + _UNITS
    + r"\b(?:\s+\S.*)?",
    re.I)
_MEASURE_EN.needs = tuple("0123456789")

# What points at the work at hand, a past tense or a person's own action.
_ONE_OFF_EN = lazy(
    r"\b(?:this|that|these|those|it|its|them|here|there|now|above|below|yet|just|again|"
    r"today|tonight|tomorrow|yesterday|first|next|then|already|anymore|instead|currently|"
    r"the (?:bug|error|issue|failure|problem|file|files|function|test|tests|branch|pr|demo|"
    r"output|code|diff|change|changes|repo|project)|i (?:sent|gave|wrote|pasted|showed)|"
    r"(?:i|you|we)\s+(?:just\s+|already\s+)?(?:[a-z]+ed|sent|wrote|made|did|gave|ran|built)|"
    r"so (?:it|that|we|i)|for now|please|can you|could you|let's|me|for the)\b"
    r"|\?|\b[a-z]+ed\s+(?:yesterday|earlier|before)\b", re.I)
_PAST_START_RE = lazy(r"(?:i|we|you)\s", re.I)


def _standing_en(text: str) -> bool:
    if _ONE_OFF_EN.search(text) or _PAST_START_RE.match(text):
        return False
    if _PLURAL_OBJECT_EN.fullmatch(text):
        return True
    return bool(_FOR_KIND_EN.fullmatch(text) or _MEASURE_EN.fullmatch(text))


# Kinds of thing a project settles once: 包管理器用 yarn, 缩进统一 2 个空格, 分支名以 feat/ 开头.
_KIND_ZH = (r"(?:包管理器?|包管理工具|依赖管理|缩进|命名|变量名?|函数名?|方法名?|类名|常量|"
            r"文件名|目录名|分支名?|分支命名|提交信息|提交说明|commit ?信息|commit ?message|"
            r"日志|注释|文档|"
            r"接口|测试框架|测试|单元测试|数据库|前端|后端|样式|代码风格|格式化工具|格式化|"
            r"换行符|行尾|文件编码|编码|引号|字符串|时间|日期|时区|金额|主键|版本号|组件|"
            r"路由|错误处理|异常|配置|环境变量|依赖|脚本|镜像|端口|字段|数据库字段|表名|列名)"
            r"(?:命名|名称|名)?")
_KIND_USE_ZH = lazy(
    r"(?:所有的?|全部的?)?" + _KIND_ZH + r"(?:都|统一|一律|全部|一般)?"
    r"(?:用|使用|采用|统一为|统一成|统一用|一律用|都用|为|是)\s*[^\s，,。].*")
_KIND_USE_ZH.needs = ("用", "为", "是")
_KIND_UNIFORM_ZH = lazy(r"(?:所有的?)?" + _KIND_ZH + r"(?:统一|一律)\s*\S.*")
_KIND_UNIFORM_ZH.needs = ("统一", "一律")
_KIND_AFFIX_ZH = lazy(
    _KIND_ZH + r"(?:都|统一|一律|必须|要)?(?:以|用)\s*\S+\s*"
    r"(?:开头|结尾|为前缀|为后缀|作为前缀|作为后缀)"
    r"|" + _KIND_ZH + r"(?:都|统一|一律|必须|要)?(?:加上?|带上?)\s*\S+\s*(?:前缀|后缀)")
_KIND_AFFIX_ZH.needs = ("开头", "结尾", "前缀", "后缀")
# 所有接口都要写单元测试, 每个函数不超过 50 行: every one of a kind.
# 提交信息要简短, 数据库字段要用下划线命名: a kind of thing and what it must be.
_KIND_MODAL_ZH = lazy(
    _KIND_ZH + r"(?:都|一律|统一)?(?:要|必须|需要|应该|应当|不能|不得|禁止)\s*[^\s，,。].*")
_KIND_MODAL_ZH.needs = ("要", "必须", "应该", "应当", "不能", "不得", "禁止")
_EVERY_ZH = lazy(
    r"(?:所有的?|每个|每一个|每条|每次提交|全部的?)[^，,。]{1,10}?(?:都要|都必须|都得|都应该|必须|需要|"
    r"都需要|一律|统一|不超过|不能超过|最多|至少)\S.*")
_EVERY_ZH.needs = ("所有", "每", "全部")
_ONE_OFF_ZH = lazy(
    r"这|那个|那些|那段|那里|现在|刚才|刚刚|帮我|帮忙|一下|试试|看看|吧|吗|呢|？|\?|给我|把|先|"
    r"今天|明天|昨天|待会|马上|暂时|这次|本次|以前|之前|了$|如果|要是|假如|你觉得|是不是")


def _standing_zh(text: str) -> bool:
    if _ONE_OFF_ZH.search(text):
        return False
    return any(p.fullmatch(text) for p in (_KIND_USE_ZH, _KIND_UNIFORM_ZH, _KIND_AFFIX_ZH,
                                           _KIND_MODAL_ZH, _EVERY_ZH))


_GENERIC_RULE = "an imperative about a kind of thing (no cue word)"


def find_generic_imperative(text: str, slots: list[str], state: State) -> Hit | None:
    """A standing rule with no cue word: an imperative or a way about a kind of thing."""
    body = text.strip().rstrip(".!。！")
    # A rules file's line is short; a long sentence is a task described step by step.
    if not body or len(body) > 160 or len(body.split()) > 20:
        return None
    if _standing_en(body) or _standing_zh(body):
        return Hit("rule", text, rule=_GENERIC_RULE, generic=True)
    return None
