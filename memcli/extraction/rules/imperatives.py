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

from memcli.extraction.rules.model import Hit, State
from memcli.extraction.rules.patterns import INSTRUCTION_VERBS, PatternGroup, lazy

# Verbs a rules file starts its lines with. Not "fix", "run", "make", "create", "delete",
# "implement", "try": those are almost always a task for now.
_VERBS = (r"(?:use|prefix|suffix|indent|keep|name|write|wrap|sort|limit|cap|format|end|start|"
          r"begin|separate|group|mark|tag|document|annotate|avoid|declare|store|log|validate|"
          r"pin|quote|capitali[sz]e|lowercase|uppercase|put|place|add|include|return|raise|"
          r"handle|squash|sign|order|align|type|sanitize|sanitise|escape|comment|prefer|leave|"
          r"optimi[sz]e|organi[sz]e|structure|reuse|mock|isolate|cache|memoi[sz]e|verify|cover|"
          r"split|inject|encapsulate|colocate|co-locate|define|update)"
          # "add or update tests", "create and export hooks": two verbs for one object
          r"(?:\s+(?:or|and|/)\s+[a-z]+)?")
# A determiner before the object names one thing ("the tests", "a dict", "my file").
_DETERMINER = r"(?:the|a|an|this|that|these|those|my|its|his|her|their|some|one|it|them|me)\b"
# "Prefix branches with feat/", "Use type hints on all public functions": a bare plural, or
# "all/every/each" and a kind, right after the verb ("your" is how rules files address you).
_PLURAL_OBJECT_EN = lazy(
    r"(?:always\s+)?" + _VERBS + r"\s+(?:all\s+(?!the\b)|every\s+|each\s+|your\s+)?"
    r"(?!" + _DETERMINER + r")(?:[a-z][\w-]*\s+){0,2}?(?P<last>[a-z][\w-]*[^s\W]s)\b"
    r"(?P<rest>(?:\s+\S.*)?)", re.I)
# "Document every environment variable in .env.example": every one of a kind, in the singular.
_EVERY_OBJECT_EN = lazy(
    r"(?:always\s+)?" + _VERBS + r"\s+(?:every|each)\s+[a-z][\w-]*(?:\s+\S.*)?", re.I)
_EVERY_OBJECT_EN.needs = ("every", "each")
# "Format code with Black", "avoid global state": a mass noun names a kind of thing too; a
# word more than the verb and the noun ("Write code" alone says nothing).
_MASS = (r"(?:code|state|data|logic|duplication|mutation|inheritance|recursion|nesting|"
         r"boilerplate|styling|configuration|config|output|markup|html|css|sql)")
_MASS_OBJECT_EN = lazy(
    r"(?:always\s+)?" + _VERBS + r"\s+(?!" + _DETERMINER + r")(?:[a-z][\w-]*\s+){0,2}?"
    + _MASS + r"\b(?:\s+\S.*)?", re.I)
# "Use camelCase for variables", "Use tabs in Makefiles", "use async/await for asynchronous
# code": a way for a kind of thing (a plural, or code).
_FOR_KIND_EN = lazy(
    r"(?:always\s+)?" + _VERBS + r"\s+(?!" + _DETERMINER + r")[^\s,]+(?:\s+[^\s,]+)?\s+"
    r"(?:for|in|on|to)\s+(?:all\s+(?!the\b)|every\s+|each\s+)?(?!" + _DETERMINER + r")"
    r"(?:[a-z][\w-]*\s+){0,2}?(?:[a-z][\w-]*[^s\W]s|code|everything|"
    # "Use Zod for validation", "use React Query for data fetching": a kind of work
    r"(?!(?:some|any|no)thing\b)[a-z]{3,}(?:ing|tion|ment))\b(?:\s+\S.*)?", re.I)
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


# "Do not edit generated protobuf files", "don't add comments that restate the code": a
# prohibition whose object is a kind of thing. A relative clause or a place may follow and
# say "the code" of the codebase, so only what points at the moment keeps it out.
_PROHIBIT_KIND_EN = lazy(
    r"(?:please\s+)?(?:don't|do not|never|avoid)\s+(?:ever\s+)?(?:directly\s+)?"
    r"(?:edit|modify|touch|run|add|write|use|commit|push|create|delete|remove|change|install|"
    r"import|introduce|leave|hard-?code|expose|log|print|call|mock|disable|skip|bypass|"
    r"ignore|generate|rename|reformat|store|upload|send|merge)\s+(?!" + _DETERMINER + r")"
    r"(?:[\w.`/-]+\s+){0,2}?(?:[a-z][\w-]*[^s\W]s|" + _MASS + r"|[\w-]*[./][\w./`-]+)\b"
    r"(?:\s+\S.*)?", re.I)
_PROHIBIT_KIND_EN.needs = ("don't", "do not", "never", "avoid")
_NOW_EN = lazy(
    # not "that": after the object it starts a relative clause ("comments that restate …")
    r"\b(?:this|these|those|it|its|them|here|there|now|yet|again|today|tonight|tomorrow|"
    r"anymore|currently|first|then|for now|please|just)\b|\?"
    r"|\bthe (?:bug|error|issue|failure|problem|file|function|demo|output|diff|change|changes|"
    r"pr|test|branch)\b|\b(?:i|you|we)\s+(?:just\s+)?[a-z]+ed\b", re.I)
# "Follow PEP 8", "stick to the standard library", "follow the existing code style": a
# standard, a style or a named convention to keep to; "follow the plan" is for now.
_FOLLOW_EN = lazy(
    r"(?:always\s+)?(?:follow|adhere to|stick to|stick with|keep to|respect|comply with|"
    r"conform to)\s+(?P<x>\S.*)", re.I)
_FOLLOW_EN.needs = ("follow", "adhere", "stick", "keep to", "respect", "comply", "conform")
_STANDARD_RE = lazy(
    r"\b(?:styles?|conventions?|guidelines?|guides?|standards?|patterns?|principles?|rules|"
    r"practices|spec|specification|standard library|stdlib|semver|semantic versioning|"
    r"conventional commits|pep\s?\d+|psr-?\d+)\b", re.I)
_ACRONYM_RE = lazy(r"\b[A-Z]{3,}(?:ful)?\b")
# "Keep the README up to date", "keep the build green": a thing kept in a state, always.
_KEEP_STATE_EN = lazy(
    r"(?:always\s+)?keep\s+(?:the\s+|our\s+|your\s+|all\s+)?[\w.`/-]+(?:\s+[\w.`/-]+){0,2}?\s+"
    r"(?:up to date|up-to-date|in sync|green|passing|consistent|tidy)\b(?:\s+\S.*)?", re.I)
_KEEP_STATE_EN.needs = ("keep",)


# "No trailing whitespace", "no magic numbers", "no default exports in components": what a
# rules file forbids, in two or three words. "No worries", "no errors" are talk or news.
_NO_KIND_EN = lazy(
    r"no\s+(?!(?:worries|thanks|problems?|ideas?|luck|way|rush|need|clue|errors?|issues?|"
    r"changes?|results?|warnings?|failures?|tests?|more|longer|one|doubt|matter)\b)"
    r"(?:[a-z][\w-]*\s+){0,2}?(?:[a-z][\w-]*[^s\W]s|" + _MASS + r"|whitespace|spaces?|"
    r"[\w.]+\.[a-z]+|[\w-]+\(\))\b(?:\s+(?:in|on|for|inside|outside|without)\s+\S.*)?", re.I)
_NO_KIND_EN.needs = ("no ",)


def _standing_en(text: str) -> bool:
    if _PAST_START_RE.match(text) or _NOW_EN.search(text):
        return False
    if (_PROHIBIT_KIND_EN.fullmatch(text) or _KEEP_STATE_EN.fullmatch(text)
            or _NO_KIND_EN.fullmatch(text)):
        return True
    follow = _FOLLOW_EN.fullmatch(text)
    if follow is not None:
        return bool(_STANDARD_RE.search(follow.group("x")) or _ACRONYM_RE.search(text))
    if _ONE_OFF_EN.search(text):
        return False
    if _PLURAL_OBJECT_EN.fullmatch(text) or _EVERY_OBJECT_EN.fullmatch(text):
        return True
    if _MASS_OBJECT_EN.fullmatch(text) and len(text.split()) >= 3:
        return True
    return bool(_FOR_KIND_EN.fullmatch(text) or _MEASURE_EN.fullmatch(text))


# Kinds of thing a project settles once: 包管理器用 yarn, 缩进统一 2 个空格, 分支名以 feat/ 开头.
_KIND_ZH = (r"(?:包管理器?|包管理工具|依赖管理|缩进|命名|变量名?|函数名?|方法名?|类名|常量|"
            r"文件名|目录名|分支名?|分支命名|提交信息|提交说明|commit ?信息|commit ?message|"
            r"日志|注释|文档|"
            r"接口|测试框架|测试|单元测试|数据库|前端|后端|样式|代码风格|格式化工具|格式化|"
            r"换行符|行尾|文件编码|编码|引号|字符串|时间|日期|时区|金额|主键|版本号|组件|"
            r"路由|错误处理|异常|配置|环境变量|依赖|脚本|镜像|端口|字段|数据库字段|表名|列名|"
            r"错误信息|报错信息|提示信息|异常信息|返回值|返回类型|类型定义|界面文本|用户界面|文案|"
            r"测试用例|函数签名)"
            r"(?:命名|名称|名)?")
# 变量和函数名使用英文: kinds named together share the rule.
_KINDS_ZH = _KIND_ZH + r"(?:(?:和|与|、|及|以及)" + _KIND_ZH + r")*"
_KIND_USE_ZH = lazy(
    r"(?:所有的?|全部的?)?" + _KINDS_ZH + r"(?:都|统一|一律|全部|一般)?"
    r"(?:用|使用|采用|统一为|统一成|统一用|一律用|都用|为|是)\s*[^\s，,。].*")
_KIND_USE_ZH.needs = ("用", "为", "是")
_KIND_UNIFORM_ZH = lazy(r"(?:所有的?)?" + _KINDS_ZH + r"(?:统一|一律)\s*\S.*")
_KIND_UNIFORM_ZH.needs = ("统一", "一律")
_KIND_AFFIX_ZH = lazy(
    _KIND_ZH + r"(?:都|统一|一律|必须|要)?(?:以|用)\s*\S+\s*"
    r"(?:开头|结尾|为前缀|为后缀|作为前缀|作为后缀)"
    r"|" + _KIND_ZH + r"(?:都|统一|一律|必须|要)?(?:加上?|带上?)\s*\S+\s*(?:前缀|后缀)")
_KIND_AFFIX_ZH.needs = ("开头", "结尾", "前缀", "后缀")
# 所有接口都要写单元测试, 每个函数不超过 50 行: every one of a kind.
# 提交信息要简短, 数据库字段要用下划线命名: a kind of thing and what it must be.
# 代码要简洁, 代码必须通过 lint: the code as a whole, with what it must be ("代码是…" would be
# a statement about one piece of it, so only with a modal).
_KIND_MODAL_ZH = lazy(
    r"(?:(?:代码|源码|所有代码)(?:的)?(?:" + _KINDS_ZH + r")?|" + _KINDS_ZH + r")"
    r"(?:都|一律|统一)?(?:要|必须|需要|应该|应当|不能|不得|禁止)\s*[^\s，,。].*")
_KIND_MODAL_ZH.needs = ("要", "必须", "应该", "应当", "不能", "不得", "禁止")
_EVERY_ZH = lazy(
    r"(?:所有的?|每个|每一个|每条|每次提交|全部的?)[^，,。]{1,10}?(?:都要|都必须|都得|都应该|必须|需要|"
    r"都需要|一律|统一|不超过|不能超过|最多|至少)\S.*")
_EVERY_ZH.needs = ("所有", "每", "全部")
_ONE_OFF_ZH = lazy(
    # 先 is "first, for now" (先别提交); 优先 and 事先 are not
    r"这|那个|那些|那段|那里|现在|刚才|刚刚|帮我|帮忙|一下|试试|看看|吧|吗|呢|？|\?|给我|把|"
    r"(?<![优事预原])先|"
    r"今天|明天|昨天|待会|马上|暂时|这次|本次|以前|之前|了$|如果|要是|假如|你觉得|是不是")


# 禁止使用 any, 不要提交 .env 文件, 不要直接推送到 main 分支, 避免使用全局变量: a prohibition
# with what it is about; 不要改这个文件, 先别提交 point at the moment (see _ONE_OFF_ZH).
_PROHIBIT_ZH = lazy(
    r"(?:禁止|严禁|不要|不许|不准|别|切勿|请勿|不得|不可|避免|尽量避免|绝不|决不)(?:在[^，,。]{1,8}?)?"
    r"(?:直接|随意|随便|擅自|自行|手动)?(?:使用|用|提交|推送|推到|修改|改动|编辑|删除|引入|添加|"
    r"新增|加入|写|硬编码|暴露|打印|输出|存储|保存|上传|跳过|调用|安装|升级|手改|依赖|出现|新建|创建|"
    r"生成|重命名|移动|覆盖|回滚|重置|强制推送|合并|发布|执行|运行|过度|滥用)\s*"
    r"[^，,。\s][^，,。]{1,20}"
    # 避免过长的函数和过深的嵌套, 禁止 emoji: what to avoid, with no verb
    r"|(?:避免|尽量避免)[^，,。]{2,20}|(?:禁止|严禁)\s*[A-Za-z`][^，,。]{0,20}"
    # 代码中不使用 emoji: what never goes into the code, the commits, the docs
    r"|(?:在)?(?:代码|项目|仓库|提交|注释|日志|文档|测试)(?:信息)?(?:中|里|里面)(?:一律|都)?"
    r"(?:不|不要|禁止)(?:使用|用|写|加|引入|包含|出现|提交)\s*[^，,。\s][^，,。]{0,20}")
_PROHIBIT_ZH.needs = ("禁止", "严禁", "不要", "不许", "不准", "别", "切勿", "请勿", "不得", "不可",
                      "避免", "绝不", "决不", "不")
# 必须写单元测试, 必须使用 TypeScript: what is always required.
_REQUIRED_ZH = lazy(r"(?:必须|务必|一定要)[^，,。\s][^，,。]{1,30}")
_REQUIRED_ZH.needs = ("必须", "务必", "一定要")
# 遵循 PEP 8 规范, 遵循现有的代码风格: the standard kept to; 遵循你的方案 is about this one.
_FOLLOW_ZH = lazy(
    r"(?:遵循|遵守|遵照|按照|参照|符合)\s*[^，,。]{0,20}?(?:规范|风格|标准|原则|约定|规则|指南|格式|"
    r"惯例|最佳实践|规约|PEP ?\d+|pep ?\d+)[^，,。]{0,10}")
_FOLLOW_ZH.needs = ("遵循", "遵守", "遵照", "按照", "参照", "符合")
# 尽量使用函数式组件, 优先使用组合式 API, 统一使用 UTF-8 编码: the way preferred each time.
_PREFER_ZH = lazy(
    r"(?:尽量|尽可能|优先|统一|一律|默认)(?:都)?(?:使用|用|采用|选择|选用)\s*[^，,。\s][^，,。]{0,25}")
_PREFER_ZH.needs = ("尽量", "尽可能", "优先", "统一", "一律", "默认")
# 用 Zod 做校验, 使用 TypeScript 编写所有代码, 采用 Conventional Commits 格式: a named tool or
# standard, and the kind of work it is for.
_USE_FOR_ZH = lazy(
    r"(?:使用|采用|用)\s*[A-Za-z`\ue000][\w .+#`/\ue000\ue001-]{0,30}?\s*(?:来|去)?"
    r"(?:编写|写|开发|实现|定义|做|进行|管理|格式化|校验|验证|构建|打包|部署|检查|处理|存储|记录|"
    r"渲染|请求|格式|规范|风格|命名|组织|描述|生成)[^，,。]{0,20}")
_USE_FOR_ZH.needs = ("用",)
# 保持代码整洁, 保持函数短小: a kind of thing kept so.
_KEEP_ZH = lazy(
    r"(?:始终|尽量)?保持\s*(?:代码|函数|组件|提交|文件|模块|PR|pr|分支|README|readme|文档|测试|"
    r"接口|页面|目录结构)[^，,。]{1,15}")
_KEEP_ZH.needs = ("保持",)
_ZH_SHAPES = PatternGroup(_KIND_USE_ZH, _KIND_UNIFORM_ZH, _KIND_AFFIX_ZH, _KIND_MODAL_ZH,
                          _EVERY_ZH, _PROHIBIT_ZH, _REQUIRED_ZH, _FOLLOW_ZH, _PREFER_ZH,
                          _USE_FOR_ZH, _KEEP_ZH)


def _standing_zh(text: str) -> bool:
    shapes = _ZH_SHAPES.candidates(text)  # none, for nearly every English sentence
    if not shapes or _ONE_OFF_ZH.search(text):
        return False
    return any(p.fullmatch(text) for p in shapes)


_GENERIC_RULE = "an imperative about a kind of thing (no cue word)"


# "For error handling, prefer early returns", "when writing tests, use fixtures": the kind
# of work the rule is for, first. "For the login page, …" names one thing.
_PURPOSE_LEAD_EN = lazy(
    r"(?:for|in|when\s+(?:writing|adding|changing|editing|creating|working\s+on|using))\s+"
    r"(?!(?:the|this|that|these|those|now|a|an|my|it)\b)[^,]{1,40},\s*", re.I)
_PURPOSE_LEAD_EN.needs = ("for", "in", "when")


# "When fixing a bug, add a regression test", "before adding a dependency, ask": a moment of
# the work that comes back makes the imperative after it a habit, whatever its object.
_RECURRING_LEAD_EN = lazy(
    r"(?:when|whenever|before|after|while)\s+(?:you(?:'re|\s+are)?\s+)?(?:add|chang|writ|creat|"
    r"edit|fix|remov|updat|refactor|touch|modify|commit|push|merg|deploy|releas|review|debug|"
    r"test|build|implement|introduc|renam|mov|delet|install|upgrad|bump|open|start|finish|"
    r"work)ing\b[^,]{0,40},\s*"
    r"(?=(?:always\s+)?" + INSTRUCTION_VERBS + r"\b)", re.I)
_RECURRING_LEAD_EN.needs = ("when", "before", "after", "while")


def find_generic_imperative(text: str, slots: list[str], state: State) -> Hit | None:
    """A standing rule with no cue word: an imperative or a way about a kind of thing."""
    body = text.strip().rstrip(".!。！")
    # A rules file's line is short; a long sentence is a task described step by step.
    if not body or len(body) > 160 or len(body.split()) > 20:
        return None
    recurring = _RECURRING_LEAD_EN.match(body)
    if recurring is not None and not _NOW_EN.search(body) and not _PAST_START_RE.match(
            body[recurring.end():]):
        return Hit("rule", text, rule=_GENERIC_RULE, generic=True)
    lead = _PURPOSE_LEAD_EN.match(body)
    if lead is not None and not _NOW_EN.search(lead.group(0)):
        body = body[lead.end():]
    if _standing_en(body) or _standing_zh(body):
        return Hit("rule", text, rule=_GENERIC_RULE, generic=True)
    return None
