"""Commands and references: statements that say how a task of the project is run ("the test
command is make test", 跑测试用 pytest) or where to look things up ("the runbook lives at
<link>", 参考 <link>)."""

from __future__ import annotations

import re

from memcli.extraction.rules.model import Hit, State
from memcli.extraction.rules.patterns import SHORTEST_TEXT, PatternGroup, lazy
from memcli.extraction.rules.sentences import PH, capitalise, cut_title, restore, url_slot

# The words the command patterns share: the tasks a command is for, how a command is given
# ("with", "using", "via" …), and what a task runs on ("the project", "the app" …).
_TASK = r"(?:tests?|build|lint|deploy|format|release|publish|type[- ]?check)"
_VIA = r"\s+(?:with|using|via|by running|through)\s*:?\s*"
_ON_WHAT = r"(?:\s+(?:the\s+)?(?:project|app|code|package|repo|site))?"
_TESTS = (r"(?:(?:unit|integration|e2e|end-to-end)\s+)?(?:tests?|test suite)|linters?|"
          r"type ?checks?|type-checks?|benchmarks?|formatters?")
# The white space after a lead word is taken whole (possessive) where a lazy part follows: a
# long run of spaces was otherwise tried as the start of that part from each of its spaces
# (cubic; a part that is only white space is no command or name anyway). SHORTEST_TEXT: see
# memcli.extraction.rules.patterns.
_CMD_EN_RES = (
    lazy(r"(?:the\s+|our\s+)?(?!(?:my|your|his|her|their|a|an|this|that|which|what)\s)"
         r"(?P<what>[\w-]+(?:\s+[\w-]+)?)\s+(?P<noun>command|cmd|script|process|"
         r"procedure|workflow)\s+is\s*:?\s*(?P<cmd>.+)", re.I),
    lazy(r"(?:you can\s+|we\s+|always\s+)?(?:run|execute)\s+(?:all\s+)?(?:the\s+)?"
         r"(?P<what>" + _TESTS + ")" + _VIA + r"(?P<cmd>.+)", re.I),
    # "we build with bazel" is a fact; a bare "build with bazel" is usually today's request.
    lazy(r"(?:you can|we|always)\s+(?P<what>test|build|lint|deploy|format|release|publish|"
         r"type[- ]?check)" + _VIA + r"(?P<cmd>.+)", re.I),
    lazy(r"(?:the\s+)?(?P<what>tests?|builds?|deploys?|deployments?|releases?)\s+(?:are|is)"
         r"\s+(?:run|done|triggered|made|built|deployed)\s+(?:with|using|via|by|through)"
         r"\s*:?\s*(?P<cmd>.+)", re.I),
    lazy(r"to\s+(?:run\s+)?(?:the\s+)?(?P<what>" + _TASK + ")" + _ON_WHAT +
         r"\s*,\s*(?:use|run|type)\s*:?\s*(?P<cmd>.+)", re.I),
    lazy(r"use\s++(?P<cmd>" + SHORTEST_TEXT + r")\s++to\s++(?:run\s++)?(?:the\s++)?(?P<what>"
         + _TASK + ")" + _ON_WHAT, re.I),
    # "`pnpm build` is the build command, not npm run build": the command first.
    lazy(r"(?!(?:this|that|it|which|what|here|there|mine|yours)\b)(?P<cmd>\S.{0,80}?)\s+is\s+"
         r"(?:the|our)\s+(?P<what>(?:[\w-]+\s+)?" + _TASK + r")\s+(?P<noun>command|cmd|script)"
         r"(?:\s+now)?(?:\s*,?\s*(?:not|instead of|rather than)\s+.+)?", re.I),
    lazy(r"(?:we\s+)?(?P<what>deploy)s?\s+(?:to|on)\s+(?P<cmd>.+)", re.I),
    # "Deploys are `railway up` from the repo root": the task, then its command as code.
    lazy(r"(?:the\s+|our\s+)?(?P<what>tests?|builds?|deploys?|deployments?|releases?|lint|"
         r"linting|formatting|type[- ]?checks?)\s+(?:are|is)\s+(?P<cmd>" + PH + r")(?:\s.*)?",
         re.I),
    lazy(r"the\s+(?P<what>deploy(?:ment)?(?:\s+[\w-]+){1,2}?)(?P<noun>)\s+(?:is|are|lives?|"
         r"runs?)\s+(?P<cmd>.+)", re.I),
)
# The kind of tests a command runs is part of its topic: the unit tests and the end-to-end
# tests are run by two commands, not one.
_TEST_KIND_ZH = r"(?:单元|集成|端到端|e2e\s*|E2E\s*)?"
_CMD_ZH_RES = (
    lazy(r"(?P<what>" + _TEST_KIND_ZH + r"测试|构建|编译|部署|发布|格式化|lint|检查|"
         r"类型检查)\s*(?:的)?\s*(?:命令|指令|脚本)(?:是|为|用)\s*[:：]?\s*(?P<cmd>.+)", re.I,
         needs=("命令", "指令", "脚本")),
    lazy(r"(?:跑|运行|执行)(?:全部|所有的?)?(?P<what>" + _TEST_KIND_ZH + r"测试|lint|类型检查)"
               r"(?:要|请|就|都)?"
               r"(?:用|使用|用的是|是)\s*[:：]?\s*(?P<cmd>.+)", re.I),
    lazy(r"(?:用|使用)\s*+(?P<cmd>" + SHORTEST_TEXT + r")\s*+(?:来)?(?:跑|运行|执行)(?P<what>"
         + _TEST_KIND_ZH + r"测试|lint|构建)", re.I),
    lazy(r"(?P<what>部署|构建|发布)(?:要|请|都)?(?:用|使用|通过)\s*(?P<cmd>.+)"),
)
_COMMAND_TITLES = (
    (lazy(r"\bunit\b|单元", re.I), "Unit test command"),
    (lazy(r"\b(?:e2e|end-to-end)\b|端到端|e2e", re.I), "E2E test command"),
    (lazy(r"\bintegration\b|集成", re.I), "Integration test command"),
    (lazy(r"test|测试", re.I), "Test command"),
    (lazy(r"^(?:build|构建|编译)", re.I), "Build command"),
    (lazy(r"^(?:lint|检查)", re.I), "Lint command"),
    (lazy(r"^(?:format|格式化)", re.I), "Format command"),
    (lazy(r"^(?:type[ -]?check|类型检查)", re.I), "Type check command"),
    (lazy(r"^(?:deploy(?:s|ment)?|部署)$", re.I), "Deployment"),
    (lazy(r"^(?:release|publish|发布)", re.I), "Release command"),
    (lazy(r"^benchmark", re.I), "Benchmark command"),
)


def find_command(text: str, slots: list[str], state: State) -> Hit | None:
    for pattern in _COMMANDS.candidates(text):
        match = pattern.fullmatch(text)
        if match and restore(match.group("cmd"), slots).strip():
            noun = match.groupdict().get("noun")
            return Hit("command", text, command_title(match.group("what"), noun))
    return None


_PURPOSE_RE = lazy(r"(?:run\s+)?(?:the\s+)?(?P<what>" + _TASK + r")\b", re.I)


def command_for(purpose: str) -> str | None:
    """ "we use make for the tests": the command's title when the purpose is a task."""
    match = _PURPOSE_RE.match(purpose.strip())
    return command_title(match.group("what"), "command") if match else None


def command_title(what: str, noun: str | None) -> str:
    what = " ".join(what.split())
    for pattern, title in _COMMAND_TITLES:
        if pattern.search(what):
            return title
    if noun == "":
        return capitalise(what)  # "the deploy key is …": the key is the topic
    noun = "command" if noun is None or noun.lower() == "cmd" else noun.lower()
    return capitalise(f"{what} {noun}")


_REF_NOUNS_ZH = r"设计文档|接口文档|API文档|文档|手册|wiki|Wiki|维基|仪表盘|看板|面板|监控|runbook"
_REF_RES = (
    lazy(r"(?:(?:the|our|my)\s++)?(?P<what>[^,:;]{1,60}?)\s++(?:is|are|lives?|"
         r"can be found|is hosted|are hosted|is available|are available|shows? up|go(?:es)?|"
         r"(?:is|are|get|gets) (?:logged|reported|tracked|collected))\s+"
         r"(?:(?:in|on)\s+[\w.-]+(?:\s+[\w.-]+)?\s+)?"
         r"(?:at|on|in|under|here)?\s*:?\s*(?P<url>" + PH + r")(?:[\s,;(].*)?", re.I),
    lazy(r"(?P<what>" + SHORTEST_TEXT + r")\s++(?:is|are)\s+(?P<documented>documented)\s+"
         r"(?:at|in|on)\s+"
               r"(?P<url>" + PH + r")", re.I),
    lazy(r"(?:(?P<what>[^，,。]{1,12}?)的?)?(?P<kind>" + _REF_NOUNS_ZH + r")(?:地址|链接)?"
               r"(?:在|是|位于|见)\s*[:：]?\s*(?P<url>" + PH + r").*"),
)
# "See <link> for …" points somewhere to look whatever the link is.
_POINTER_RES = (
    lazy(r"see\s+(?P<url>" + PH + r")\s+for\s+(?P<what>.+)", re.I),
    lazy(r"for\s++(?P<what>" + SHORTEST_TEXT + r")\s*+,\s*+see\s++(?P<url>" + PH + r")", re.I),
    lazy(r"(?:[^，,。]{1,12}?(?:时|的时候|前|后)[，,]?\s*(?:请)?)?"
         r"(?:参考|参见|请看|详见|见)\s*[:：]?\s*(?P<url>" + PH + r").*"),
)
_REF_NOUN_RE = lazy(
    r"\b(?:docs?|documentation|wiki|dashboards?|runbooks?|playbooks?|specs?|specification|"
    r"design doc|board|tracker|guides?|handbook|readme|api|reference|manual|status page|"
    r"grafana|kibana|sentry|jira|confluence|notion|repo|repository|staging|production|ci|"
    r"pipeline|portal|console|registry|changelog|roadmap|calendar|mirror|site|website|"
    r"homepage|storybook|figma|schema|documented)\b|" + _REF_NOUNS_ZH, re.I)
_DOCS_WORDS = frozenset({"docs", "documentation", "project docs", "project documentation",
                         "文档", "the docs"})
_GENERIC_WHAT = lazy(r"^(?:(?:more|the|further)\s+)*(?:details?|info|information|context|"
                           r"reference|background|more)$", re.I)


def find_reference(text: str, slots: list[str], state: State) -> Hit | None:
    for pattern in _REFERENCES.candidates(text):
        match = pattern.fullmatch(text)
        if not match:
            continue
        url = url_slot(match.group("url"), slots)
        # "The fix is in <PR link>" is news, "the runbook is at <link>" a reference; "see
        # <link>" always points somewhere to look.
        said = (state.remember or state.durable or pattern in _POINTER_RES
                or _REF_NOUN_RE.search(restore(text, slots)))
        if url is not None and said:
            return Hit("reference", text, _reference_title(match, slots, url))
    return None


def _reference_title(match: re.Match[str], slots: list[str], url: str) -> str:
    groups = match.groupdict()
    what = restore(groups.get("what") or "", slots).strip(" :：")
    kind = groups.get("kind")
    if kind is not None:
        what = what + kind if what else kind
    what = re.sub(r"^(?:the|our|my|your)\s+", "", what, flags=re.I)
    if groups.get("documented"):
        what = f"{what} docs"
    if what.lower() in _DOCS_WORDS:
        return "Documentation"
    if not what or _GENERIC_WHAT.match(what):
        return url.split("/")[2]
    return cut_title(what)


# Words one of which each pattern needs (see LazyPattern.needs).
for _pattern in (*_REF_RES, *_POINTER_RES):
    _pattern.needs = ("\ue000",)  # a link, masked
_CMD_EN_RES[0].needs = ("command", "cmd", "script", "process", "procedure", "workflow")
_CMD_EN_RES[1].needs = ("run", "execut")
_CMD_EN_RES[2].needs = ("test", "build", "lint", "deploy", "format", "release", "publish", "type")
_CMD_EN_RES[3].needs = ("test", "build", "deploy", "release")
_CMD_EN_RES[5].needs = ("use",)
_CMD_EN_RES[6].needs = ("command", "cmd", "script")
_CMD_EN_RES[7].needs = _CMD_EN_RES[8].needs = ("deploy",)
_COMMANDS = PatternGroup(*_CMD_EN_RES, *_CMD_ZH_RES)
_REFERENCES = PatternGroup(*_REF_RES, *_POINTER_RES)
