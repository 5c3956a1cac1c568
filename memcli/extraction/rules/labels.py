"""A rules file's "Label: value" lines: "Test: `make test`", "Package manager: pnpm",
"Line length: 100 characters", 包管理器：pnpm, 提交规范：Conventional Commits.

Most lines of a CLAUDE.md or AGENTS.md are written so, under a heading. What makes one worth
keeping is its label: a task of the project (test, build, lint …), whose value is its
command, or a setting of the project (package manager, encoding, naming …). Any other label
("Status:", "Problem:", "Update:", "Error:") is news of the moment and gives nothing, and so
does a template's placeholder ("Build: N/A", "Test: to be determined").

A setting with one value (the package manager, the encoding) is titled by its label, so that
a new value updates the note; a label that holds many rules (naming, error handling, style)
gives each line its own title.
"""

from __future__ import annotations

import re

from memcli.extraction.rules.command_lines import command_title
from memcli.extraction.rules.model import Hit, State
from memcli.extraction.rules.patterns import lazy
from memcli.extraction.rules.sentences import restore
from memcli.extraction.rules.topics import tool_category

_LABEL_RE = lazy(
    r"(?:\*\*|__)?(?P<label>[A-Za-z][A-Za-z /+().-]{0,30}?|[\u4e00-\u9fff][\u4e00-\u9fffA-Za-z ]"
    r"{0,9}?)(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?(?P<value>\S.*)")
_LABEL_RE.needs = (":", "：")
_COMMAND_LABEL = lazy(
    r"(?:run\s+)?(?:(?:all|a|the)\s+)?(?:(?:unit|integration|e2e|end-to-end|single)\s+)?"
    r"(?:tests?|testing)(?:\s*\((?:all|single|one)\))?|(?:run\s+)?(?:a\s+)?single\s+test|build|"
    r"lint(?:ing)?|format(?:ting)?|type ?check(?:ing)?|deploy(?:ment)?|release|dev(?: server)?|"
    r"start|install|coverage|benchmarks?|migrate|migrations|"
    r"(?:单元|集成|端到端)?测试(?:命令)?|构建(?:命令)?|编译|部署|发布|格式化|类型检查|启动|安装",
    re.I)
_COMMAND_VALUE = lazy(
    "\ue000" + r"|^(?:make|npm|pnpm|yarn|bun|npx|uv|uvx|pytest|python3?|poetry|tox|nox|cargo|go|"
    r"gradle|\./gradlew|mvn|dotnet|just|bazel|docker|node|deno|bundle|rake|mix|composer|php|"
    r"ruby|rails|hatch|pdm|ruff|mypy|eslint|vitest|jest|tsc|swift|flutter|dart|cmake|ninja|"
    r"\./)\b", re.I)
# A setting with one value: a new value replaces the old one.
_SETTINGS = {
    "package manager": "Package manager", "build tool": "Build tool", "language": "Language",
    "languages": "Language", "framework": "Framework", "runtime": "Runtime",
    "encoding": "Encoding", "line length": "Line length", "max line length": "Line length",
    "maximum line length": "Line length", "indentation": "Indentation", "indent": "Indentation",
    "node version": "Node.js version", "python version": "Python version",
    "java version": "Java version", "go version": "Go version", "database": "Database",
    "db": "Database", "orm": "ORM", "test framework": "Test runner",
    "testing framework": "Test runner", "test runner": "Test runner", "linter": "Linter",
    "formatter": "Formatter", "type checker": "Type checker", "css": "Styling",
    "styling": "Styling", "state management": "State management", "ui library": "UI library",
    "component library": "UI library", "bundler": "Build tool", "ci": "CI", "hosting": "Hosting",
    "commit messages": "Commit messages", "commit message format": "Commit messages",
    "commits": "Commit messages", "branch naming": "Branch names", "branch names": "Branch names",
    "versioning": "Versioning", "license": "License", "timezone": "Timezone",
    "time zone": "Timezone", "tech stack": "Tech stack", "stack": "Tech stack",
    "包管理器": "Package manager", "包管理": "Package manager", "构建工具": "Build tool",
    "语言": "Language", "开发语言": "Language", "编程语言": "Language", "框架": "Framework",
    "运行环境": "Runtime", "编码": "Encoding", "文件编码": "Encoding", "缩进": "Indentation",
    "数据库": "Database", "测试框架": "Test runner", "提交规范": "Commit messages",
    "提交信息": "Commit messages", "分支命名": "Branch names", "技术栈": "Tech stack",
    "行宽": "Line length", "最大行宽": "Line length", "时区": "Timezone",
}
# A label that holds many rules: each line is its own note.
_RULE_LABELS = lazy(
    r"naming(?: conventions?)?|(?:code )?style|formatting|error handling|errors|imports?|"
    r"import order|types|typing|type hints|comments|documentation|docs|docstrings|logging|"
    r"tests|testing|functions|methods|classes|variables|constants|files|file names|"
    r"components|security|git|git workflow|workflow|structure|project structure|"
    r"architecture|api|apis|dependencies|performance|accessibility|i18n|"
    r"命名(?:规范)?|注释|日志|错误处理|异常处理|代码风格|代码规范|测试|文档|安全|目录结构|常量|变量|"
    r"函数|类名|组件|依赖|接口|样式|性能|提交", re.I)
_PLACEHOLDER = lazy(
    r"^(?:n/?a|tbd|todo|none|unknown|to be (?:determined|decided|added)|add\b|-+|—|\?|待定|"
    r"暂无|无)\b", re.I)
_MOMENT = lazy(
    r"\b(?:this|that|these|those|it|them|now|yet|today|tomorrow|again|just|i|i'm|we're|you)\b"
    r"|\?|？|这|那个|刚才|一下|吧|吗|了$", re.I)
_MOST_WORDS = 20
_RULE = "a rules file's 'label: value' line"


# Labels that introduce news or an example, not a topic of the rules.
_NEWS_LABEL = lazy(
    r"(?:status|note|notes|problem|question|error|errors|todo|update|step|steps|example|"
    r"examples|e\.g|result|results|issue|bug|fix|output|log|logs|reason|answer|summary|context|"
    r"background|goal|task|input|expected|actual|response|warning|edit|patch|diff|changes|"
    r"问题|结果|报错|错误|原因|例如|示例|比如|背景|目标|任务|输出|输入|状态|备注|现象|日志)", re.I)
_TOPIC_WORDS, _TOPIC_CJK_CHARS = 4, 8
_VERB_IN_LABEL = lazy(r"\b(?:is|are|was|were|be|means?|says?|do|does|did|has|have)\b|是", re.I)


def label_value(text: str) -> str | None:
    """The rule after a topic's label ("**No emoji**: never put emoji in code" → "never put
    emoji in code"), for lines whose label is no task or setting of its own."""
    found = _LABEL_RE.fullmatch(text)
    if found is None:
        return None
    label = " ".join(found.group("label").split()).strip(" *_")
    if _VERB_IN_LABEL.search(label):
        return None  # "The test command is: make test" is a sentence, not a label
    long = (len(label) > _TOPIC_CJK_CHARS if any("\u4e00" <= ch <= "\u9fff" for ch in label)
            else len(label.split()) > _TOPIC_WORDS)
    if long or _NEWS_LABEL.fullmatch(label.lower()):
        return None
    return found.group("value")


def find_label(text: str, slots: list[str], state: State) -> Hit | None:
    """A "Label: value" line whose label is a task or a setting of the project."""
    found = _LABEL_RE.fullmatch(text)
    if found is None:
        return None
    label = " ".join(found.group("label").split()).strip(" *_").lower()
    value = restore(found.group("value"), slots).strip()
    if (_PLACEHOLDER.match(value) or _MOMENT.search(value)
            or len(value.split()) > _MOST_WORDS):
        return None
    if _COMMAND_LABEL.fullmatch(label) and _COMMAND_VALUE.search(found.group("value")):
        if "single" in label or "one" in label.split():
            return Hit("command", text, "Single test command", rule=_RULE)
        return Hit("command", text, command_title(label, "command"), rule=_RULE)
    # "Formatting: Prettier with default settings": the tool it names is the topic
    tool = tool_category(re.split(r"[,;(]|\s+(?:with|and|for)\s+", value.replace("`", ""))[0])
    setting = _SETTINGS.get(label)
    if setting is not None or (tool and _COMMAND_LABEL.fullmatch(label)):
        return Hit("rule", text, tool or setting, rule=_RULE)
    if _RULE_LABELS.fullmatch(label):
        return Hit("rule", text, None, rule=_RULE)
    return None
