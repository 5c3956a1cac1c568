"""The way rules files are written, said in a chat: conventions stated with no cue word.

People paste the lines of their CLAUDE.md, AGENTS.md or copilot-instructions.md into a
conversation, or talk the way those files are written: "Files must have CRLF line endings",
"Prefer file-scoped namespaces", "We don't use any mocking framework", "For unit tests use
xUnit", 默认用 DESeq2 做差异分析, 处理 Bug 时必须找到根本原因. Each shape here needs a mark
that the statement is general: a modal ("must", 必须) on a subject that names a kind of
thing rather than one thing, "prefer" as an instruction, "by default" (默认), a task of the
project the choice is for, a folder and what it is for. The person's own setup ("my editor
is Sublime Text", 我的时区是…) is theirs, not the project's.
"""

from __future__ import annotations

import re

from memcli.extraction.rules.chat import GUESSED_FEELING
from memcli.extraction.rules.model import Hit, State
from memcli.extraction.rules.patterns import (
    DIGITS,
    MOMENT_WORDS,
    POINTER_WORDS,
    PatternGroup,
    any_word,
    lazy,
)
from memcli.extraction.rules.sentences import capitalise, restore
from memcli.extraction.rules.topics import style_topic, tool_category

# After a modal, "that" is mostly a relative ("a folder that mirrors the app").
_MODAL_POINTER_RE = lazy(
    any_word(tuple(w for w in POINTER_WORDS if w != "that") + MOMENT_WORDS), re.I)
# "…in the file I sent": what the person did names one thing of the work at hand.
_POINTER_RE = lazy(
    any_word(POINTER_WORDS + MOMENT_WORDS) + r"|一下|一遍|这个|那个"
    r"|\b(?:i|you)\s+(?:just\s+)?(?:sent|gave|pasted|wrote|showed|made|[a-z]+ed)\b", re.I)

# "Files must have CRLF line endings", "all responses must be in Chinese", "commits must use
# Conventional Commits": a modal on a kind of thing (a plural, a quantifier, or a bare noun).
# "The login page must be fixed today" names one thing and its moment.
_MUST_EN = lazy(
    r"(?!(?:it|this|that|these|those|you|i|we|they|he|she|there|which|what)\b)"
    r"(?P<quant>(?:all|every|each|any|no)\s+(?:the\s+|our\s+)?)?"
    r"(?P<the>(?:the|our|your|my)\s+)?(?P<subj>[\w.`-]+(?:\s+[\w.`-]+){0,3}?)\s+"
    r"(?:must(?:\s+not|n't)?|should(?:\s+(?:always|never|not))?|shall(?:\s+not)?|may\s+never)\s+"
    r"(?!be\s+(?:more|less|\w+er)\b)(?!" + GUESSED_FEELING + r")(?P<rest>\S.*)", re.I)
_MUST_EN.needs = ("must", "should", "shall", "may never")
# "Lines are at most 120 characters", "functions have no more than 50 lines", 每行最多 120 字符.
_LIMIT_EN = lazy(
    r"(?!(?:it|this|that|these|those|you|i|we|they|he|she|there)\b)"
    r"(?P<quant>(?:all|every|each|any)\s+)?(?P<the>(?:the|our)\s+)?(?P<subj>[\w.-]+(?:\s+[\w.-]+){0,3}?)\s+"
    r"(?:are|is|have|has|stay|stays|must be|should be|must have|should have)\s+(?:kept\s+)?"
    r"(?:at most|no more than|no longer than|under|below|at least|fewer than|less than|up to)\s+"
    r"\d+\b.*", re.I)
_LIMIT_EN.needs = DIGITS
_LIMIT_ZH = lazy(
    r"[^，,。]{1,15}?(?:最多|至多|不超过|不能超过|不得超过|不要超过|不可超过|至少|最少)\s*\d+.*")
_LIMIT_ZH.needs = DIGITS
# "Python uses snake_case", Python 用 snake_case: a way of writing a kind of code.
_CASES = (r"(?:camel ?case|pascal ?case|snake_case|snake case|kebab-case|kebab case|"
          r"screaming_snake_case)")
# ("Use camelCase for variables" is an imperative about a kind of thing: the generic reader's.)
# A subject comes first: "use snake_case" alone is an imperative, not a statement of this shape.
_STYLE_FOR_EN = lazy(
    r"\S.{0,59}?\s(?:uses?|is|are|written in|named in)\s+" + _CASES + r"\b.*"
    r"|\S.{0,59}?\s(?:uses?|is|are)\s+\d\s*[- ]?space(?:s|d)?\b.*", re.I)
_STYLE_FOR_EN.needs = ("case", "space")
_STYLE_ZH = lazy(
    r".{0,30}?(?:用|使用|采用|统一)\s*" + _CASES + r".*"
    r"|.{0,20}?\d\s*(?:个)?空格缩进.*"
    r"|(?:代码注释|注释|提交信息|commit 信息|日志|文档|变量名|函数名|类名|文件名|分支名)"
    r"(?:都|统一|一律)?(?:用|使用|采用)\S.*", re.I)
_STYLE_ZH.needs = ("case", "空格", "注释", "提交", "commit", "日志", "文档", "名")


def _general_subject(match: re.Match[str]) -> bool:
    if match.group("quant"):
        return True
    last = match.group("subj").split()[-1].strip("`").lower()
    return (last.endswith("s") and not last.endswith("ss")) or not match.group("the")


# "Prefer file-scoped namespaces", "always prefer composition over inheritance".
_PREFER_EN = lazy(
    r"(?:always\s+)?prefer\s+(?!(?:the|this|that|it|these|those|option|one|yours?|mine)\b)"
    r"\S.+", re.I)
_PREFER_EN.needs = ("prefer",)
# "We don't use any mocking framework": what the project does without. No tool-category
# title: "we don't use npm" must not take over the note that says which manager to use.
_WE_DONT_USE_EN = lazy(
    r"(?:we|our team|the team|this (?:project|repo|codebase))\s+(?:don't|do not|never|doesn't|"
    r"does not)\s+use\s+(?!(?:it|this|that|them)\b)\S.*", re.I)
_WE_DONT_USE_EN.needs = ("use",)
# "By default use DESeq2", "default to UTC", 默认用 DESeq2 做差异分析.
_DEFAULT_RES = (
    lazy(r"(?:by default\s*,?\s+(?:always\s+)?(?:use|run|pick|choose)|default\s+to)\s+(?P<x>\S.*)",
         re.I),
    lazy(r"默认(?:都|情况下)?(?:用|使用|采用|走)\s*(?P<x>.+)"),
)
_DEFAULT_RES[0].needs = ("default",)
_DEFAULT_RES[1].needs = ("默认",)
# "For unit tests use xUnit and FluentAssertions": the task a choice is for.
_TASKS = (r"(?:(?:unit|integration|e2e|end-to-end|api|ui)\s+)?(?:tests?|testing)|builds?|"
          r"linting|formatting|logging|http(?: calls| requests)?|dates?|migrations?|deploys?|"
          r"deployments?|packaging|dependencies|installs?|type[- ]?checking")
_FOR_TASK_USE_EN = lazy(
    r"for\s+(?:the\s+|our\s+|all\s+)?(?:" + _TASKS + r")\s*,?\s+(?:always\s+|we\s+)?use\s+"
    r"(?P<x>\S.*)", re.I)
_FOR_TASK_USE_EN.needs = ("for",)
# 使用 uv run 来运行 python 程序: a tool, named in Latin letters, for a kind of work.
_USE_TO_ZH = lazy(
    r"(?:统一|一律|都)?(?:使用|用)\s*(?P<x>[A-Za-z`][\w .+`-]{0,30}?)\s*(?:来|去)?"
    r"(?:运行|跑|执行|管理|安装|构建|打包|格式化|检查|部署|启动)(?P<what>.+)")
_USE_TO_ZH.needs = ("用",)
# "scripts/ is for one-off maintenance scripts", chat-histories 文件夹用来存对话记录.
_PATH_PURPOSE_EN = lazy(
    r"(?:the\s+)?(?:[\w.-]*/[\w./-]*|[\w.-]+\s+(?:directory|folder|dir))\s+(?:is for|is where|"
    r"holds|is used for|is used to|is only for)\s+\S.*", re.I)
_PATH_PURPOSE_EN.needs = ("is for", "is where", "holds", "is used", "is only")
_PATH_PURPOSE_ZH = lazy(
    r"[\w./-]+\s*(?:目录|文件夹)(?:是)?(?:专门)?(?:用来|用于|拿来)(?:存|放|存放|保存|装)?.+")
_PATH_PURPOSE_ZH.needs = ("目录", "文件夹")
_PLAIN_RULES = PatternGroup(_PREFER_EN, _WE_DONT_USE_EN, _PATH_PURPOSE_EN, _PATH_PURPOSE_ZH,
                            _LIMIT_ZH, _STYLE_FOR_EN, _STYLE_ZH)
_CHOSEN_FOR = PatternGroup(*_DEFAULT_RES, _FOR_TASK_USE_EN, _USE_TO_ZH)
# "Keep your answers short", 尽量使用中文进行对话, 保持回答简洁: how the assistant answers,
# said of all its answers ("be more concise" alone is about the one on screen).
_ALL_ANSWERS_RE = lazy(
    r"(?:always\s+)?keep\s+(?:your\s+|all\s+|the\s+)?(?:answers|replies|responses|explanations)\b"
    r"|^(?:尽量|尽可能|始终|保持|时刻保持|一直保持|所有的?(?:回答|回复|对话)(?:都)?)"
    r"|^(?:对话|回答|回复|交流|沟通)(?:的)?语言"
    # the register of a rules file: 使用中文进行解释和说明, 回复风格要简洁
    r"|^(?:请)?(?:使用|用)(?:简体)?(?:中文|英文|英语)进行|^(?:回答|回复|响应|输出)的?(?:风格|格式|语气)"
    # the language of every answer: "respond in English", 用中文回答我, 回复使用中文. Which
    # language it is comes from the "Answer language" topic; a text to translate is a task.
    r"|^(?:always\s+)?(?:respond|reply|answer|talk|speak|communicate|write)\s+"
    r"(?:to me\s+|with me\s+)?"
    r"(?:only\s+)?in\s+(?:simplified\s+|traditional\s+|plain\s+)?[a-z]+(?:\s+only)?$"
    r"|^(?:请)?(?:用|使用)(?:简体)?(?:中文|英文|英语)(?:回答|回复|交流|沟通|对话)(?:我)?$"
    r"|^(?:回答|回复|对话|交流|沟通)(?:都|请|统一|一律)?(?:用|使用)(?:简体)?(?:中文|英文|英语)$"
    # 回答要简洁, 回复尽量简短; 默认中文回复, 全程用中文交流
    r"|^(?:回答|回复)(?:都)?(?:要|请|尽量|保持|应该|必须)"
    r"|^(?:默认|统一|全部|一律|都|始终|全程|全局)?(?:用|使用)?(?:简体)?(?:中文|英文|英语)"
    r"(?:回答|回复|交流|沟通|对话)",
    re.I)
_ALL_ANSWERS_RE.needs = ("keep", "尽量", "尽可能", "始终", "保持", "所有", "进行", "风格", "格式",
                         "语气", " in ", "中文", "英文", "英语", "语言", "回答", "回复")


def find_convention(text: str, slots: list[str], state: State) -> Hit | None:
    """A convention of the project stated the way rules files state them."""
    if _ALL_ANSWERS_RE.match(text) and style_topic(restore(text, slots)) is not None:
        return Hit("behaviour", text, rule="how all the answers should be")
    for pattern in (_MUST_EN, _LIMIT_EN):
        must = pattern.fullmatch(text)
        if must is not None and _general_subject(must) and not _MODAL_POINTER_RE.search(
                text[must.end("subj"):]):
            return Hit("rule", text, rule="a rule with 'must' or a limit, about a kind of thing")
    for pattern in _CHOSEN_FOR.candidates(text):
        chosen = pattern.fullmatch(text)
        if chosen is not None and not _POINTER_RE.search(text):
            tool = restore(chosen.group("x"), slots).replace("`", "").strip()
            return Hit("rule", text, tool_category(tool), rule="a tool chosen for a kind of work")
    if (any(pattern.fullmatch(text) for pattern in _PLAIN_RULES.candidates(text))
            and not _POINTER_RE.search(text)):
        return Hit("rule", text, rule="a convention of the project")
    return None


# "My editor is Sublime Text", "my timezone is America/Chicago", 我的时区是…: the person's
# own setup, which goes with them from project to project.
_MY_SETUP_RES = (
    lazy(r"my\s+(?P<what>(?:preferred\s+|default\s+|usual\s+|main\s+)?(?:editor|ide|shell|"
         r"terminal|os|operating system|timezone|time zone|browser|keyboard layout|locale|"
         r"github (?:username|handle)|username|handle|pronouns|working hours))\s+(?:is|are)\s+"
         r"(?P<x>\S.*)", re.I),
    lazy(r"我的(?P<what>编辑器|时区|终端|操作系统|系统|用户名|GitHub ?用户名|工作时间|IDE|ide)"
         r"(?:是|用的是)\s*(?P<x>.+)"),
)
_MY_SETUP_RES[0].needs = ("my",)
_MY_SETUP_RES[1].needs = ("我的",)
# "I'm on Windows, so give me PowerShell commands", "I use Neovim": the person's machine.
_SYSTEMS = (r"windows|macos|mac|a mac|linux|ubuntu|debian|fedora|arch(?: linux)?|wsl2?|"
            r"chromeos|freebsd")
_TOOLS_OF_MINE = {
    "Editor": r"vim|neovim|nvim|emacs|vs ?code|vscode|cursor|zed|intellij(?: idea)?|pycharm|"
              r"webstorm|goland|sublime(?: text)?|helix|xcode|android studio",
    "Shell": r"zsh|fish|bash|powershell|pwsh|nushell",
    "Terminal": r"iterm2?|wezterm|kitty|alacritty|warp|ghostty|tmux",
}
_I_AM_ON_EN = lazy(r"(?:i'm|i am|i work|i develop|i'm working)\s+on\s+(?:a\s+)?(?P<x>" + _SYSTEMS
                   + r")\b(?:\s*[,;]?\s*(?:so|and)\b.*)?", re.I)
_I_AM_ON_EN.needs = ("on",)
_I_USE_EN = lazy(r"i\s+(?:use|work in|code in|live in)\s+(?P<x>"
                 + "|".join(_TOOLS_OF_MINE.values()) + r")\b(?:\s*[,;]?\s*(?:so|and)\b.*)?", re.I)
_I_USE_EN.needs = ("i ",)


def find_personal_setup(text: str, slots: list[str], state: State) -> Hit | None:
    if _I_AM_ON_EN.fullmatch(text):
        return Hit("prefer", text, "Operating system", rule="the person's own setup")
    mine = _I_USE_EN.fullmatch(text)
    if mine is not None:
        tool = mine.group("x").lower()
        what = next(k for k, v in _TOOLS_OF_MINE.items() if re.fullmatch(v, tool, re.I))
        return Hit("prefer", text, what, rule="the person's own setup")
    for pattern in _MY_SETUP_RES:
        found = pattern.fullmatch(text)
        if found is not None and not _POINTER_RE.search(found.group("x")):
            what = " ".join(found.group("what").split())
            return Hit("prefer", text, capitalise(what), rule="the person's own setup")
    return None
