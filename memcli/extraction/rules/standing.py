"""Statements worth keeping that carry no memory cue: standing instructions about how to work
here ("leave third_party/ alone, it's vendored") and facts about the repository ("we're stuck
on Node 18").

Without a cue word, the shape of the statement has to say that it lasts. Each pattern below
needs one of: a version pinned to a named part of the project, a path with what it is
(vendored, generated, build output), a prohibition with its reason or its condition ("…, ops
owns it", "unless I ask", "by hand"), an "only … unless I say" rule, a habit bound to a
recurring activity (修 bug 时一定要…), or a topic with 一律/务必/千万不要. A bare request
("fix the failing test", "just use a dict here") has none of them and stays a task.
"""

from __future__ import annotations

import re

from memcli.extraction.rules.model import Hit, State
from memcli.extraction.rules.patterns import (
    DIGITS,
    POINTER_WORDS,
    SHORTEST_TEXT,
    LazyPattern,
    PatternGroup,
    any_word,
    lazy,
)

# --------------------------------------------------------------------------- facts

_SUBJECT_EN = (r"(?:we|we're|we are|this\s+(?:repo|repository|project|codebase|app|service|"
               r"monorepo|package)|(?:the|our)\s+(?:[\w-]+\s+){0,2}?(?:repo|repository|project|"
               r"codebase|app|apps|api|backend|frontend|service|services|server|client|sdk|cli|"
               r"site|lambda|lambdas|runtime|build|ci|stack|infra|workers?|database|db|toolchain|"
               r"monorepo|package|library|plugin|extension)|our\s+[\w-]+)")
_TECH = r"[A-Za-z][\w.+#-]*(?:\s+[A-Za-z][\w.+#-]*)?"
_VERSION = r"v?\d+(?:\.(?:\d+|x))*\+?"
_NOT_TECH = lazy(r"^(?:(?:on|at|in)\s+)?(?:page|step|line|version|issue|pr|item|chapter|day|week|"
                 r"attempt|round|phase|port|"
                 r"stage|level|try|number|no|top|task|ticket|part|slide|row|column)\b", re.I)
_VERSION_FACT_EN = lazy(
    _SUBJECT_EN + r"\s+(?:'re\s+|is\s+|are\s+)?(?:still\s+|currently\s+|only\s+|all\s+)?"
    r"(?:on|stuck on|pinned to|locked to|locked on|running|runs on|run on|targets?|targeting|"
    r"requires?|needs?|uses?|using|supports?|built (?:with|on)|written in|based on|"
    r"(?:still\s+)?uses?)\s+(?:an?\s+|the\s+)?(?P<tech>" + _TECH + r")\s*" + _VERSION +
    r"(?:\b|(?=\W)).*", re.I)
_RUNTIME_IS_EN = lazy(
    r"(?:the|our)\s+(?:[\w-]+\s+)?(?:runtime|version|language|database|db|stack|toolchain|"
    r"node|python|java|go|ruby)\s+(?:is|are)\s+(?:still\s+)?(?P<tech>" + _TECH + r")\s*"
    + _VERSION + r"(?:\b|(?=\W)).*", re.I)
_KIND_OF_APP_EN = lazy(
    r"(?:the|our|this)\s+(?:[\w-]+\s+)?(?:api|backend|frontend|app|service|repo|project|site|"
    r"server|client|cli)\s+is\s+an?\s+(?P<what>[\w.+#-]+(?:\s+[\w.+#-]+){0,2})\s+(?:app|"
    r"application|monorepo|project|service|library|package|cli|site|spa|workspace)\b.*", re.I)
_PATH = r"(?:everything\s+(?:under|in)\s+)?(?:[\w.-]*/[\w./-]*|\w[\w-]*\.\w{1,5}|\ue000\d+\ue001)"
_PATH_FACT_EN = lazy(
    r"(?:the\s+)?(?P<path>" + _PATH + r"|[\w-]+\s+(?:directory|folder|dir))\s+(?:is|are)\s+"
    r"(?:all\s+)?(?:vendored|generated|auto-?generated|build output|deprecated|read-only|"
    r"third[- ]party|owned by|managed by|synced from|copied from|checked in by)\b.*", re.I)
_TESTS_NEED_EN = lazy(
    r"(?:the\s+)?(?:[\w-]+\s+)?(?:tests?|test suite|suite|e2e|ci)\s+(?:need|needs|require|"
    r"requires)\s+"
    r"(?!to\b|be\b|more\b|work\b|some\b|attention\b|(?:a|an|another|the)?\s*(?:re-?run|"
    r"fix|fixes|fixing|cleanup|clean-up|refactor|review|look|pass|update|updating|bump|tweak|"
    r"change|rewrite|retry|restart)\b)\w.+"
    r"|(?:the\s+)?(?:[\w-]+\s+)?(?:tests?|test suite|suite|e2e|ci)\s+(?:can't|cannot|can not|"
    r"must not|mustn't|never)\s+(?:touch|access|use|reach|hit|call|talk to|depend on|"
    r"run in parallel|see|write to|open)\b.+",
    re.I)
_CONFIG_EN = lazy(
    r"our\s+(?:[\w.-]+\s+)?(?:config|configuration|setup|settings|ci|pipeline)\s+(?:uses|sets|has|"
    r"is set to|runs with|runs)\s+.+", re.I)
_SUITE_RUNS_EN = lazy(
    r"(?:the\s+)?(?:test\s+)?suite\s+runs\s+(?:with|under|via|using|on)\s+.+", re.I)
_IN_THIS_PROJECT_EN = lazy(
    r"(?!(?:fix|add|make|change|update|remove|delete|rename|move|check|find|look|try|run|write|"
    r"create|open|show|tell|get|put|set|let)\b)(?P<subj>[\w.-]+(?:\s+[\w.-]+){0,3})\s+"
    r"(?:all\s+)?(?:use|uses|default to|defaults to|stay|stays|must be|are always|is always|"
    r"are written in|is written in|are in|is in)\s+.+?\s+in\s+this\s+(?:project|repo|repository|"
    r"codebase|code base)\b.*", re.I)
_DOCS_LANGUAGE_EN = lazy(
    r"(?:the\s+)?(?P<what>[\w./-]+(?:\s+[\w-]+)?)\s+(?:is|are|stays?|must be|should be)\s+"
    r"(?:written\s+)?in\s+(?:english|chinese|german|french|japanese|spanish)(?:\s+only)?\b.*", re.I)

# "the dashboard runs on port 3000", "the dev server port is 5710 now": where a part listens.
_PORT_FACT_EN = lazy(
    r"(?:(?:locally|in dev(?:elopment)?)\s*,?\s+)?(?:the\s+|our\s+)?"
    r"(?!(?:it|this|that|make|let|get|have|set|change|move|try|run|start)\b)"
    r"(?P<what>[\w.-]+(?:\s+[\w.-]+){0,2}?)\s+(?:runs?|listens?|is served|is|are)\s+"
    r"(?:locally\s+)?on\s+(?:port\s+|localhost:|:)\d{2,5}\b.*"
    r"|(?:the\s+|our\s+)?(?P<part>(?:[\w.-]+\s+){0,3}?)port\s+(?:is|=)\s+:?\d{2,5}\b.*", re.I)
# "all money values are integer cents, never floats": what a thing always is, and is not.
_NEVER_CONTRAST_EN = lazy(
    r"(?!(?:it|it's|this|that|that's|you|you're|he|she|they|i|i'm|there|we|we're)\b)"
    r"(?:all\s+)?(?:the\s+|our\s+)?[\w.-]+(?:\s+[\w.-]+){0,3}?\s+(?:are(?:\s+always)?|"
    r"(?:is|are)\s+(?:always\s+)?(?:stored|kept|written|sent|passed|returned|given|counted)\s+"
    r"(?:as|in)|is\s+always|must be|should be)\s+(?P<x>[^,;]{1,60}?)\s*+,\s*+never\s+\S.*",
    re.I)
# 后端是 backend.example.cn, "the staging server is staging.example.com": where a part lives.
_HOST = r"(?:https?://)?[\w-]+(?:\.[\w-]+)+(?::\d{2,5})?(?:/\S*)?|" + "\ue000\\d+\ue001"
_HOST_FACT_EN = lazy(
    r"(?:the\s+|our\s+)?(?P<host>(?:(?:staging|prod|production|dev|test|qa|preview)\s+)?"
    r"(?:server|site|app|api|backend|frontend|db|database|host|box|environment|env))"
    r"(?:\s+(?:url|host|domain|address))?\s+(?:is|lives at|is at|runs at)\s+(?:" + _HOST + r")\s*",
    re.I)
_HOST_FACT_ZH = lazy(
    r"(?P<host_zh>前端|后端|接口|服务端|测试环境|预发布?环境?|生产环境|线上环境?|staging|prod|API|api)"
    r"(?:的)?(?:地址|域名|网址)?(?:是|在)\s*(?:" + _HOST + r")\s*")
_TECH_VERSION_ZH = r"(?P<tech>[A-Za-z][\w.+#-]*?(?:\s+[A-Za-z][\w.+#-]*?)?)\s*" + _VERSION
_VERSION_FACT_ZH = lazy(
    r"(?:这个|本|我们的?|整个)?(?:项目|仓库|代码库|repo|前端|后端|服务|数据库|SDK|sdk|接口|"
    r"线上|生产环境|测试环境|CI|ci)(?:里|中)?(?:都|也|目前|现在)?(?:还是|还停留在|停留在|固定用|固定在|"
    r"锁定在|锁在|用的是|还在用|在用|基于|依赖|要求|需要|跑在|是)\s*(?:用)?\s*"
    + _TECH_VERSION_ZH + r"(?:\b|(?=\W)|$).*")
_PATH_FACT_ZH = lazy(
    r"(?P<path>[\w./-]+)\s*(?:目录|文件夹)?(?:下|里)?(?:面)?的?(?:代码|文件|东西)?(?:都|全)?"
    r"是(?:自动|工具|脚本)?(?:生成的|第三方的?(?:代码)?|别人的代码|vendored|从.{1,20}同步的).*")
_PROJECT_ALL_ZH = lazy(
    r"(?:这个|本|我们的?)(?:项目|仓库|代码库|repo)(?:里|中)?的?(?P<what>.{1,20}?)"
    r"(?:默认)?(?:都|统一|一律|全部)(?:默认)?(?:是|用|使用|采用)\s*(?P<y>.+)")

# Words one of which each pattern needs: most clauses are turned away without compiling it.
_VERSION_FACT_EN.needs = _RUNTIME_IS_EN.needs = _VERSION_FACT_ZH.needs = DIGITS
_KIND_OF_APP_EN.needs = (" is a",)
_PATH_FACT_EN.needs = ("vendored", "generated", "build output", "deprecated", "read-only",
                       "third", "owned by", "managed by", "synced from", "copied from",
                       "checked in by")
_TESTS_NEED_EN.needs = ("test", "suite", "e2e", "ci")
_CONFIG_EN.needs = ("our",)
_SUITE_RUNS_EN.needs = ("suite",)
_IN_THIS_PROJECT_EN.needs = ("in this",)
_DOCS_LANGUAGE_EN.needs = ("english", "chinese", "german", "french", "japanese", "spanish")
_PATH_FACT_ZH.needs = ("是",)
_PORT_FACT_EN.needs = ("port", ":")
_NEVER_CONTRAST_EN.needs = ("never",)
_HOST_FACT_EN.needs = (".",)
_HOST_FACT_ZH.needs = (".",)
_PROJECT_ALL_ZH.needs = ("这个", "本", "我们")
_FACTS = PatternGroup(
    _VERSION_FACT_EN, _RUNTIME_IS_EN, _KIND_OF_APP_EN, _PATH_FACT_EN, _TESTS_NEED_EN,
    _CONFIG_EN, _SUITE_RUNS_EN, _IN_THIS_PROJECT_EN, _DOCS_LANGUAGE_EN, _VERSION_FACT_ZH,
    _PATH_FACT_ZH, _PROJECT_ALL_ZH, _PORT_FACT_EN, _NEVER_CONTRAST_EN, _HOST_FACT_EN,
    _HOST_FACT_ZH)


def find_fact(text: str, slots: list[str], state: State) -> Hit | None:
    for pattern in _FACTS.candidates(text):
        match = pattern.fullmatch(text)
        if match is None:
            continue
        tech = match.groupdict().get("tech")
        if tech is not None and _NOT_TECH.match(tech):
            continue
        title = _version_title(tech) if tech else _place_title(match.groupdict())
        return Hit("fact", text, title, rule="a fact about the repository")
    return None


def _place_title(groups: dict[str, str | None]) -> str | None:
    """ "Dashboard port", "Staging server address", 后端地址: the part that listens or lives
    somewhere is the topic, so that a new port or address updates the note."""
    part = groups.get("what") or groups.get("part")
    if part is not None and part.strip():
        return " ".join(part.split()).capitalize() + " port"
    if groups.get("host"):
        return " ".join(str(groups["host"]).split()).capitalize() + " address"
    return str(groups["host_zh"]) + "地址" if groups.get("host_zh") else None


_NAMES = {"node": "Node.js", "nodejs": "Node.js", "node.js": "Node.js", "python": "Python",
          "java": "Java", "go": "Go", "golang": "Go", "ruby": "Ruby", "rust": "Rust",
          "php": "PHP", "typescript": "TypeScript", "postgres": "PostgreSQL",
          "postgresql": "PostgreSQL", "mysql": "MySQL"}


def _version_title(tech: str) -> str:
    """ "we're on node 16" and "我们还停留在 Node 18" are one note: "Node.js version"."""
    name = " ".join(tech.split())
    shown = _NAMES.get(name.lower(), name[:1].upper() + name[1:])
    return f"{shown} version"


# --------------------------------------------------------------------------- standing rules

# A reason after the comma makes a prohibition last: "…, it's vendored", "…, ops owns it".
# "…, I just want the lint" is about this turn.
REASON = (r"\s*+[,;—–-]\s*+(?!(?:i\s+)?just\b|i\s+only\b|only\b|first\b|i'll\b|we'll\b|let's\b|"
           r"i\s+want\b|i\s+need\b|for now\b|then\b|and\s+(?:also\s+)?(?:always|never|don't)\b)"
           r"(?:it's|it is|they're|they are|that's|those are|these are|because|since|as|it|they|"
           r"we|ci|ops|prod|the|our|\w+\s+(?:is|are|owns?|handles?|manages?|depends?|generates?|"
           r"copies|copy|breaks?|mangles?|pins?|needs?|uses?|takes?))\b.+")
_CONDITION = (r"\s++(?:unless\s+(?:i|we)\b.+|without\s+.+|by hand\b.*|manually\b.*|yourself\b.*|"
              r"ever\b.*|directly\b.*|in this (?:repo|project|codebase)\b.*)")
_VERBS = (r"(?:edit|touch|modify|change|commit|bump|update|regenerate|reformat|rewrite|rename|"
          r"delete|remove|run|squash|upgrade|downgrade|add|push|merge|install|hand-edit|"
          r"check in|reorder|rewrap|format)")
# "Do NOT test on localhost, use the HTTPS dev domain": the right way after the comma.
_ALTERNATIVE = r"\s*+[,;]\s*+(?:always\s+)?(?P<alt>(?:use|go through|run|call|hit|point)\b.+)"
_PROHIBIT_EN = lazy(
    r"(?:don't|do not|never|please don't|please do not)\s+(?:" + _VERBS + r"|test|call|hit|"
    r"hard-?code|log|print|expose)\s+"
    r"(?!(?:it|this|that|them|these|those|anything yet|yet)\b(?:\s+(?:by hand|manually|"
    r"yourself|directly))?(?:[,;]|$))(?P<x>" + SHORTEST_TEXT + r")(?:"
    + REASON + "|" + _CONDITION + "|" + _ALTERNATIVE + r")", re.I)
_ARTEFACTS = (r"(?:node_modules|dist|build|vendor|secrets?|\.env\w*|the lockfile|lockfiles?|"
              r"generated (?:code|files)|" + _PATH + r")")
_PROHIBIT_PATH_EN = lazy(
    r"(?:don't|do not|never)\s+(?:commit|push|check in|edit|touch|modify|hand-edit)\s+"
    r"(?:anything\s+(?:in|under)\s+)?" + _ARTEFACTS + r"(?:\s+(?:to git|by hand|directly))?", re.I)
_LEAVE_ALONE_EN = lazy(
    r"(?:please\s+)?leave\s+(?!it\b|this\b|that\b|them\b|these\b|those\b)"
    r"(?P<x>" + SHORTEST_TEXT + r")\s++alone"
    r"(?:" + REASON + r"|" + _CONDITION + r")?", re.I)
_ONLY_UNLESS_EN = lazy(
    r"(?:only|just)\s+(?!(?:fix|add|implement|change|rename|write|refactor|delete|remove|do)\b)"
    r"(?P<rest>.+?)\s+unless\s+(?:i|we)\s+(?:say|ask|tell|request|explicitly|"
    r"want|need)\b.*", re.I)
_ASK_BEFORE_EN = lazy(
    r"(?:always\s+)?(?:ask|check with|confirm with)\s+(?:me\s+)?(?:first\s+)?before\s+.+", re.I)

_WHEN_ZH = (r"(?:修|改|提交|合并|合|发布|发版|部署|上线|写|跑|推送|push|commit|merge|release|"
            r"deploy|新建|新增|加|删|重构|升级|开|建|回答|回复|播报|汇报|输出|解释|完成)")
# What a habit asks: 要/得 (提交前要跑 lint), or 总是/一定/不要 (回答的时候总是先给结论).
_MUST_ZH = (r"(?:(?:一定|务必|必须|总是|始终)?(?:要|得)|一定|务必|必须|总是|始终|不要|别|不许|不准|"
            r"千万别|千万不要)")
_HABIT_ZH = lazy(
    r"(?:每次|每当)?(?P<when>[^，,。]{0,10}?" + _WHEN_ZH + r"[^，,。]{0,12}?)"
    # 改完代码都要…: what was finished may follow 完.
    r"(?:时|的时候|之前|以前|前|之后|以后|后|完(?:[^，,。都也要得]{1,8})?)[，,]?\s*(?:都|也)?"
    + _MUST_ZH + r"(?:先)?(?P<rest>.{2,})")
# 修改代码后运行测试, 提交前运行 npm test: a check bound to a moment of the work, with no modal.
_CHECK_AFTER_ZH = lazy(
    r"(?:每次)?(?P<when>[^，,。]{0,10}?" + _WHEN_ZH + r"[^，,。]{0,12}?)"
    r"(?:之前|以前|前|之后|以后|后|完)[，,]?\s*(?:都|也)?(?P<rest>(?:运行|跑|执行|检查|格式化|更新|同步|通知我)\s*\S.{1,30})")
_CHECK_AFTER_ZH.needs = ("运行", "跑", "执行", "检查", "格式化", "更新", "同步", "通知")
# 每次任务完成后，到 AGENTS 文件夹下加一条记录: with 每次 the moment recurs whatever it is.
_EVERY_TIME_ZH = lazy(
    r"(?:每次|每当)(?P<when>[^，,。]{1,15}?)(?:时|的时候|之前|以前|前|之后|以后|后)[，,]\s*"
    r"(?:都|也)?(?:要|请|得|先)?(?P<rest>.{2,})")
_ASK_BEFORE_ZH = lazy(
    r"(?P<when>.{1,20}?)(?:之前|以前|前)[，,]?\s*(?:要|请|都)?先(?:问(?:一下|问)?我|确认|"
    r"征求我的?同意|跟我确认|和我确认).*")
_PROHIBIT_ZH = lazy(
    r"(?P<x>[^，,。]{1,20}?)(?:千万|绝对|永远)?(?:别|不要|不许|禁止|不准)(?:再)?"
    r"(?:手动?|直接|随便|自己)?(?:动|碰|改|修改|编辑|提交|删|删除|升级)(?:它|了)?"
    r"(?:[，,]\s*(?P<why>.+))?")
_TOPIC_ALWAYS_ZH = lazy(
    r"(?P<topic>[^，,。]{1,15}?)(?:一律|统一|遵循|遵守|务必|原则上|必须|不得|不允许|应当|千万(?:不要|别)|"
    r"永远不要|"
    r"绝对不要|绝不|决不)(?P<rest>.+)")
# 在修改代码前，先了解上下文: first one thing, then the work, each time.
_BEFORE_FIRST_ZH = lazy(
    r"(?:在)?(?P<when>[^，,。]{0,10}?" + _WHEN_ZH + r"[^，,。]{0,12}?)(?:之前|以前|前)[，,]?\s*"
    r"(?:都|也)?先(?P<rest>.{2,})")
# 没有我的许可，不许随意新建文件: the person's permission first.
_WITHOUT_LEAVE_ZH = lazy(
    r"(?:在)?(?:没有|没|未经|未|不经过?)我?的?(?:明确)?(?:许可|允许|同意|批准|确认|要求)(?:之前|以前|前|"
    r"的情况下)?[，,]?\s*(?:都)?(?:不要|别|不许|不准|禁止|不能|不得)(?P<rest>.{2,})")
# 不要在代码里加太多注释: what never goes into the code, the commits, the docs.
_PROHIBIT_ARTEFACT_ZH = lazy(
    r"(?:不要|别|不许|不准|禁止|千万不要|千万别)(?:在)?(?:代码|提交|commit|注释|日志|测试|文档|仓库|"
    r"PR|pr|README|readme)(?:信息|消息)?(?:里|中|里面)?(?:加|写|放|留|提交|用|出现|包含)(?P<rest>.+)")
_UNLESS_ZH = lazy(
    r"除非我(?:说|要求|同意|允许|让你|开口|明确)[^，,]{0,10}[，,]\s*(?:否则|不然)?(?P<rest>.{2,})")
_ONE_OFF_ZH = lazy(r"^(?:先|这次|暂时|今天|现在|马上|等下|待会)|这个|那个|这些|那些|这里|这段|一下")
# 你必须马上修好: "must" said to someone about now, not a rule about a kind of thing.
_SOMEONE_ZH = lazy(r"^(?:你|您|他|她|它)们?(?:现在|今天|马上|先)?$")

# "Run `pnpm run type-check` before committing", "after every code change run pnpm lint":
# a habit bound to a moment of the work that comes back.
_MOMENT_EN = (r"(?:(?:every|each|any)\s+)?(?:(?:you|we)\s+)?(?:commit\w*|push\w*|merg\w*|"
              r"deploy\w*|releas\w*|tagg\w*|ship\w*|submit\w*|"
              r"open\w*\s+(?:a\s+)?(?:pr|pull request)|(?:a\s+)?(?:code\s+)?change\w*|finish\w*|"
              r"(?:making|writing|doing|updating|changing|editing|adding)\s+(?:any\s+|a\s+|new\s+)?"
              r"(?:code\s+)?(?:change\w*|logic|code|features?)|"
              r"(?:modif|edit|chang|touch|creat|delet)\w*\s+(?:a|any)\s+files?)\b")
_DO_EN = (r"(?:run|use|check|update|rebase|squash|format|lint|test|bump|regenerate|review|sign|add|"
          r"write|read|re-?run|show|tell|explain|list|describe|mention|summari[sz]e)")
_HABIT_AFTER_EN = lazy(
    r"(?:always\s+)?" + _DO_EN + r"\s++(?P<x>" + SHORTEST_TEXT + r")\s++(?:before|after|whenever|"
    r"every time)\s++" + _MOMENT_EN + r"(?P<tail>.*)", re.I)
_HABIT_FIRST_EN = lazy(
    r"(?:before|after|whenever|every time)\s++" + _MOMENT_EN + r"(?P<tail>[^,]{0,40}?),?\s++"
    r"(?:always\s+|please\s+)?(?:" + _DO_EN + r"|(?=[,]?)(?!(?:i|we|you|it|this|that|the|there|"
    r"they|he|she|my|your|our)\b)[a-z]+)\b.+", re.I)
_POINTER_EN = lazy(any_word(POINTER_WORDS), re.I)
# "Don't include PLAN.md in the git repo", "do not add co-authored-by lines to commits": what
# never goes into the code, the commits or the repository, whatever the task.
_PROHIBIT_ARTEFACT_EN = lazy(
    r"(?:please\s+)?(?:don't|do not|never)\s+(?:add|put|include|leave|write|use|commit|push|"
    r"check in|mention|hardcode|store|emit|generate|create|print|log)\s++"
    r"(?!(?:it|this|that|them|these|those)\b)"
    r"(?P<x>" + SHORTEST_TEXT + r")\s++(?:(?:to|in|into|inside|from|on)\s++(?:(?:any|our|your)\s+)?"
    r"(?:commits|commit messages|prs|pull requests|pr (?:titles|descriptions)|comments|docs|logs|"
    r"tests|test files|(?:the\s+)?code|(?:the|this|our)\s+(?:git\s+)?(?:repo|repository|codebase|"
    r"source(?:\s+code)?)|git)"
    # "… when you add new code": each time code is written
    r"|when(?:ever)?\s+(?:you\s+)?(?:add|write|change|edit|touch)\w*\s+(?:new\s+|any\s+)?code)"
    r"\b.*", re.I)

_PROHIBIT_EN.needs = _PROHIBIT_PATH_EN.needs = ("don't", "do not", "never")
_LEAVE_ALONE_EN.needs = ("leave",)
_ONLY_UNLESS_EN.needs = ("unless",)
_ASK_BEFORE_EN.needs = ("before",)
_HABIT_AFTER_EN.needs = _HABIT_FIRST_EN.needs = ("before", "after", "whenever", "every time")
_PROHIBIT_ARTEFACT_EN.needs = ("don't", "do not", "never")
_EVERY_TIME_ZH.needs = ("每次", "每当")
_WITHOUT_LEAVE_ZH.needs = ("许可", "允许", "同意", "批准", "确认", "要求")
_PROHIBIT_ARTEFACT_ZH.needs = ("不要", "别", "不许", "不准", "禁止")
# "When you're not sure about my preferences, stop and ask", "if in doubt, ask me".
_ASK_WHEN_UNSURE_EN = lazy(
    r"(?:when|if|whenever)\s+(?:in\s+doubt|unsure|uncertain|(?:you(?:'re|\s+are)\s+)?(?:not\s+sure|"
    r"unsure|uncertain|in\s+doubt))\b[^,]{0,80}?,\s*(?:(?:just|stop|always)\s+(?:and\s+)?)?"
    r"ask\b.*", re.I)
_ASK_WHEN_UNSURE_EN.needs = ("ask",)
# "Ask specific questions when something is unclear", 不确定的时候主动问我.
_ASK_WHEN_UNCLEAR = lazy(
    r"(?:always\s+)?ask\b.{0,40}?\b(?:when|if|whenever)\s+(?:something|anything|things|it|requirements?|"
    r"the (?:task|request))\s+(?:is|are|seems?|looks?)\s+(?:unclear|ambiguous|not clear|vague)\b.*"
    r"|(?:遇到)?(?:不确定|不清楚|不明白|拿不准|有疑问|不懂)(?:的地方|的时候|时)?[，,]?\s*(?:请|要|就)?(?:主动|先)?"
    r"(?:问我|询问|问一下我|问问我|和我确认|跟我确认).*", re.I)
_ASK_WHEN_UNCLEAR.needs = ("ask", "问", "确认")
# 不要硬编码密钥，用环境变量管理: a prohibition, then the right way.
_PROHIBIT_ALTERNATIVE_ZH = lazy(
    r"(?:不要|别|不许|禁止|不准)(?!用|使用)(?P<x>[^，,。]{2,20}?)[，,]\s*(?:要|请|改|统一|都)?(?:用|使用|通过|走)"
    r"(?P<alt>.{2,})")
_PROHIBIT_ALTERNATIVE_ZH.needs = ("不要", "别", "不许", "禁止", "不准")
_HABIT_ZH.needs = ("要", "得", "总是", "始终", "一定", "务必", "必须", "别", "不许", "不准")
_ASK_BEFORE_ZH.needs = ("先",)
_PROHIBIT_ZH.needs = ("别", "不要", "不许", "禁止", "不准")
_TOPIC_ALWAYS_ZH.needs = ("一律", "统一", "遵循", "遵守", "务必", "原则上", "必须", "不得",
                         "不允许", "应当", "千万", "永远不要", "绝对不要", "绝不", "决不")
_BEFORE_FIRST_ZH.needs = ("先",)
_UNLESS_ZH.needs = ("除非",)
_STANDING = PatternGroup(
    _PROHIBIT_EN, _PROHIBIT_PATH_EN, _PROHIBIT_ARTEFACT_EN, _LEAVE_ALONE_EN, _ONLY_UNLESS_EN,
    _HABIT_AFTER_EN, _HABIT_FIRST_EN, _HABIT_ZH, _CHECK_AFTER_ZH, _EVERY_TIME_ZH,
    _BEFORE_FIRST_ZH, _PROHIBIT_ZH, _PROHIBIT_ARTEFACT_ZH, _PROHIBIT_ALTERNATIVE_ZH,
    _TOPIC_ALWAYS_ZH, _UNLESS_ZH)
_ASKING = PatternGroup(_ASK_BEFORE_EN, _ASK_BEFORE_ZH, _ASK_WHEN_UNSURE_EN, _WITHOUT_LEAVE_ZH,
                       _ASK_WHEN_UNCLEAR)


def find_standing(text: str, slots: list[str], state: State) -> Hit | None:
    if any(pattern.fullmatch(text) for pattern in _ASKING.candidates(text)):
        return Hit("behaviour", text, rule="a standing instruction")
    for pattern in _STANDING.candidates(text):
        match = pattern.fullmatch(text)
        if match is None or _one_off(pattern, match):
            continue
        return Hit("rule", text, rule="a standing instruction")
    return None


def _one_off(pattern: LazyPattern, match: re.Match[str]) -> bool:
    groups = match.groupdict()
    # "run the tests before you push this", "don't test on localhost, use staging for now"
    said_of_now = groups.get("tail") or groups.get("alt") or ""
    if pattern in (_HABIT_AFTER_EN, _HABIT_FIRST_EN, _PROHIBIT_EN) and _POINTER_EN.search(
            said_of_now.split(",")[0] if pattern is _HABIT_AFTER_EN else said_of_now):
        return True
    head = groups.get("x") or groups.get("topic") or groups.get("when") or ""
    if pattern in (_PROHIBIT_ZH, _TOPIC_ALWAYS_ZH, _HABIT_ZH, _EVERY_TIME_ZH,
                   _BEFORE_FIRST_ZH, _PROHIBIT_ALTERNATIVE_ZH) and _ONE_OFF_ZH.search(head):
        return True
    if pattern is _CHECK_AFTER_ZH and _ONE_OFF_ZH.search(match.group(0)):
        return True  # 改完后跑一下测试: this change, this once
    if pattern is _TOPIC_ALWAYS_ZH and _SOMEONE_ZH.match(head.strip()):
        return True
    # 别改 on its own, with nothing said of what, is about the code on screen.
    return pattern is _PROHIBIT_ZH and not groups.get("why") and len(head.strip()) < 2
