"""Topics and routing: the style topics, tool categories, and the level and type of a note."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memcli.extraction.rules.model import (
    CORRECTION,
    KNOWLEDGE,
    PREFERENCE,
    PROJECT,
    REFERENCE,
    USER,
    Hit,
    State,
)
from memcli.extraction.rules.patterns import LazyPattern, lazy
from memcli.extraction.rules.sentences import is_cjk

# --------------------------------------------------------------------------- topics

_ARTEFACT_RE = lazy(
    r"\b(?:commits?|commit messages?|docstrings?|comments?|logs?|logging|variables?|functions?|"
    r"tests?|prs?|pull requests?|changelog|readme|code|identifiers?|file ?names?|branch(?:es)?|"
    r"docs|documentation|strings?|ui|error messages?|api|fields?)\b"
    r"|提交|注释|变量|函数|日志|代码|测试|文档", re.I)
_ASKING = "Asking for confirmation"
_UNSURE = "Asking when unsure"
_LANGS = (r"(?:english|chinese|mandarin|cantonese|french|german|spanish|japanese|korean|"
          r"italian|portuguese|russian|dutch|simplified chinese|traditional chinese)")
_ANSWERS = r"(?:answers?|replies|reply|responses?|explanations?)"
_STYLE_TOPICS: tuple[tuple[LazyPattern, str, str], ...] = (
    (lazy(r"\b(?:answer|reply|respond|write|talk|speak|communicate|explain|chat)\b.*"
                r"\bin\s+" + _LANGS + r"\b|\b" + _LANGS + r"\s+(?:" + _ANSWERS + r"|only)\b"
                r"|\b" + _ANSWERS + r"\s+in\s+" + _LANGS + r"\b|\bspeak\s+" + _LANGS + r"\b"
                # "in neutral Spanish", "in plain English": one word may qualify the language
                r"|\b" + _ANSWERS + r"\s+in\s+[a-z]+\s+" + _LANGS + r"\b"
                r"|\b" + _ANSWERS + r"\s+(?:must|should|have to|need to)\s+be\s+"
                r"(?:written\s+)?in\s+" + _LANGS + r"\b"
                r"|\b(?:answer|reply|respond|write|talk|speak)\s+in\s+[a-z]+\s+" + _LANGS + r"\b"
                r"|(?:用|使用|说|讲)(?:简体)?(?:中文|汉语|英文|英语|日语|日文|韩语)"
                r"|(?:中文|英文|英语)(?:回答|回复|交流|沟通)"
                r"|(?:对话|回答|回复|交流|沟通|输出)(?:的)?语言(?:为|是|用|使用|设为|设置为|保持为)?"
                r"(?:简体)?(?:中文|汉语|英文|英语)", re.I),
     "Answer language", PREFERENCE),
    (lazy(r"\bbe\s+(?:more\s+|very\s+|less\s+)?(?:concise|brief|terse|succinct|verbose|"
                r"wordy)\b|\b(?:concise|brief|short|shorter|terse|succinct|long|longer|verbose|"
                r"detailed)\s+" + _ANSWERS + r"\b|\bkeep\s+(?:it|them|(?:your\s+|all\s+|the\s+)?"
                r"(?:answers|replies|responses))\s+(?:short|brief|concise)\b|\b(?:too|so|less)\s+(?:verbose|wordy|"
                r"long-winded)\b|\bto the point\b|简洁|简短|简明|精简|啰嗦|长篇大论|废话", re.I),
     "Answer length", PREFERENCE),
    (lazy(r"\bbullet(?:ed)?\s+(?:points?|lists?)|\bbullets\b|\bnumbered\s+lists?\b|"
          r"分点(?:回答|列出)|用列表|列表形式", re.I), "Answer format", PREFERENCE),
    (lazy(r"\bbottom line first\b|\b(?:conclusion|answer|tl;?dr) first\b|"
          r"\blead with the (?:answer|conclusion)\b|先给结论|结论先行|先说结论", re.I),
     "Answer order", PREFERENCE),
    (lazy(r"\bcall me\b|\baddress me as\b|叫我(?!去|来|做|帮|把|给)|称呼我", re.I),
     "Form of address", PREFERENCE),
    (lazy(r"\bemojis?\b|\bemoticons?\b|表情", re.I), "Emoji use", PREFERENCE),
    (lazy(r"\b(?:be|sound|stay|keep it)\s+(?:more\s+|less\s+)?(?:formal|informal|casual|"
                r"polite|friendly)\b|\btone\b|语气|正式|客气", re.I), "Tone", PREFERENCE),
    (lazy(r"\bapologi[sz]\w*|\bapology|\bapologies|\bsorry\b|道歉|对不起|抱歉", re.I),
     "Apologies", CORRECTION),
    # Its own topic: "if in doubt, ask" must not replace "ask before deleting files".
    (lazy(r"\b(?:in doubt|unsure|not sure|uncertain)\b.{0,80}?\bask\b|"
          r"\bask\b.{0,40}?\b(?:unclear|ambiguous)\b|\bstop and ask\b|"
          r"\b(?:don't|do not|never)\s+(?:assume|guess)\b|"
          r"(?:不确定|不清楚|不明白|拿不准|有疑问)(?:的地方|的时候|时)?[，,]?\s*(?:请|要|就)?(?:主动|先)?"
          r"(?:问我|询问|问一下我|问问我)", re.I), _UNSURE, CORRECTION),
    (lazy(r"\bask(?:ing)?\s+(?:me\s+)?(?:for\s+)?(?:confirmation|permission|before)\b|"
                r"\bcheck with me\b|\bconfirm with me\b|\bwait for my (?:ok|approval|"
                r"confirmation)\b|\bask me first\b|"
                r"\bwithout my\s+(?:explicit\s+)?(?:approval|permission|ok|go-ahead)\b|"
                r"\bkeep\s+asking\s+(?:me\s+)?(?:whether|if|for|to|before)\b|"
                r"先问我|先确认|征求我的?同意|经过我的?同意|等我确认|(?:每次都|总是|老是|一直|反复)问我|"
                r"(?:没有|没|未经|不经过?)我的?(?:许可|允许|同意|批准)|"
                r"(?:未|没有|没)(?:经)?(?:明确)?(?:要求|允许|同意|许可)(?:之?前|以前)", re.I),
     _ASKING, CORRECTION),
    (lazy(r"\b(?:beyond|more than|other than)\s+what\s+(?:i|you were|was)\s+(?:ask|asked|request|"
          r"requested|told|instructed)|\bwhen\s+i'?m\s+(?:only\s+|just\s+)?asking\b|"
          r"\bin response to (?:a )?questions?\b|只做我要求的|不要做多余|不得做多余|"
          r"多余的(?:动作|事)", re.I), "Doing only what was asked", CORRECTION),
    (lazy(r"great question|\bflatter\w*|\bsycophan\w*|\bpraise\b|\bcompliment\w*|拍马屁|"
                r"奉承|夸我|好问题", re.I), "Flattery", CORRECTION),
    (lazy(r"\b(?:summari[sz]\w*|recap\w*)\b|\bsummar(?:y|ies)\s+(?:at the end|after|"
                r"of (?:what|your|the changes))|总结", re.I), "Summaries", CORRECTION),
)
# Each style topic needs one of its words; most sentences name none, so most patterns are
# never compiled.
_STYLE_TOPICS[0][0].needs = (
    "english", "chinese", "mandarin", "cantonese", "french", "german", "spanish", "japanese",
    "korean", "italian", "portuguese", "russian", "dutch", "中文", "汉语", "英文", "英语", "日语",
    "日文", "韩语")
_STYLE_TOPICS[1][0].needs = (
    "concise", "brief", "terse", "succinct", "verbose", "wordy", "short", "long", "detailed",
    "to the point", "简洁", "简短", "简明", "精简", "啰嗦", "长篇大论", "废话")
_INDENT_RE = lazy(r"\bindent\w*|\btabs?\b|\b\d+[- ]spaces?\b|缩进|制表符", re.I)


# "Ask before deleting files" and "ask me before running migrations" are two rules: each
# moment is its own topic. Only asking first, with no moment named, is the one setting.
_ASK_MOMENTS_EN = (
    lazy(r"\bbefore\s+(?P<moment>[^,.;:!?]+?)\s*(?:[,.;:!?]|$)", re.I),
    # "don't push without my approval": the moment is what is not done without it
    lazy(r"^(?:please\s+)?(?:don't|do not|never)\s+(?P<you>)(?P<moment>[^,.;:!?]+?)\s+"
         r"(?:without|unless)\b", re.I),
)
_ASK_MOMENTS_ZH = (
    lazy(r"^(?:在)?(?P<moment>[^，,。]{1,15}?)(?:之前|以前|前)[，,]?\s*(?:要|请|都)?先"),
    lazy(r"(?:许可|允许|同意|批准|确认|要求)(?:之?前|以前|的情况下)?[，,]\s*(?:都)?"
         r"(?:不要|别|不许|不准|禁止|不能|不得)(?:随意|随便|擅自|自行)?(?P<moment>[^，,。]{2,20})"),
)
_ASK_MOMENTS_EN[0].needs = ("before",)
_ASK_MOMENTS_EN[1].needs = ("without", "unless")
_ASK_MOMENTS_ZH[0].needs = ("前",)
_SETTING_WORDS, _SETTING_CJK_CHARS = 5, 6


def _style_title(title: str, text: str) -> str | None:
    """The title of a style topic; ``None`` when the statement is its own topic."""
    if title != _ASKING:
        return title
    for pattern in _ASK_MOMENTS_EN:
        found = pattern.search(text)
        if found:
            you = "you " if found.groupdict().get("you") is not None else ""
            return "Asking before " + you + " ".join(found.group("moment").split())
    for pattern in _ASK_MOMENTS_ZH:
        found = pattern.search(text)
        if found:
            return found.group("moment").strip() + "前先问我"
    short = len(text) <= _SETTING_CJK_CHARS if any(is_cjk(ch) for ch in text) else (
        len(text.split()) <= _SETTING_WORDS)
    return title if short else None


def style_topic(text: str) -> tuple[str, str] | None:
    """A topic about how the agent talks or behaves, which follows the person (user level)."""
    artefact = _ARTEFACT_RE.search(text) is not None
    for pattern, title, note_type in _STYLE_TOPICS:
        # "no emojis in commit messages" is a rule of the codebase; asking first before a
        # commit is still how the assistant behaves.
        if (not artefact or title in (_ASKING, _UNSURE)) and pattern.search(text):
            return title, note_type
    return None


_CATEGORIES: dict[str, tuple[str, ...]] = {
    "Package manager": ("npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv", "poetry", "pipenv",
                        "conda", "mamba", "pdm", "hatch", "rye", "composer", "bundler"),
    "Test runner": ("pytest", "unittest", "nose", "nose2", "jest", "vitest", "mocha", "jasmine",
                    "ava", "tox", "nox"),
    "Linter": ("ruff", "flake8", "pylint", "eslint", "biome", "pyflakes", "golangci-lint",
               "clippy", "rubocop", "shellcheck"),
    "Formatter": ("black", "prettier", "yapf", "autopep8", "gofmt", "rustfmt", "ruff", "isort",
                  "biome"),
    "Type checker": ("mypy", "pyright", "basedpyright", "pytype", "pyre"),
    "HTTP client": ("requests", "httpx", "aiohttp", "urllib", "urllib3", "axios", "fetch", "got"),
    "Build tool": ("make", "cmake", "ninja", "bazel", "just", "gradle", "maven", "meson",
                   "scons", "webpack", "vite", "esbuild", "rollup", "tsup"),
    "Container runtime": ("docker", "podman"),
    "Database": ("postgres", "postgresql", "mysql", "sqlite", "mariadb", "mongodb"),
    "Logging": ("logging", "loguru", "structlog", "print"),
    "Date library": ("datetime", "arrow", "pendulum", "moment", "dayjs", "date-fns"),
    "Indentation": ("tabs", "tab", "spaces"),
}
_TOOL_RE = lazy(
    r"^(?:using\s+|to use\s+|use\s+|(?:always\s+)?use\s+)?(?P<tool>[A-Za-z0-9_.+-]+)"
    r"(?:\s+v?\d[\w.]*)?"
    r"(?:\s+(?:for|to|when|in|with|on|as|instead|rather|over|and|than|not|into|everywhere|"
    r"always|only|please)\b.*|\s*[,;，；].*|\s*(?:来|做|跑|管理|安装|进行).*)?$", re.I)
_USE_LEAD_RE = lazy(
    r"^(?:always\s+|never\s+)?(?:use|using|to use)\s+|^(?:都|总是)?(?:用|使用)\s*", re.I)


def categories(tool: str) -> tuple[str, ...]:
    return tuple(name for name, tools in _CATEGORIES.items() if tool in tools)


def category_tools(name: str) -> tuple[str, ...]:
    return _CATEGORIES.get(name, ())


def category_names() -> tuple[str, ...]:
    return tuple(_CATEGORIES)


def tool_category(text: str) -> str | None:
    """The category when the text names one tool on its own ("uv", "`uv` for installs")."""
    match = _TOOL_RE.match(text.replace("`", "").strip().rstrip(".。"))
    if match is None:
        return None
    found = categories(match.group("tool").lower())
    return found[0] if found else None


def pair_category(x: str | None, y: str | None) -> str | None:
    """ "Use ruff, not black": the category the two tools share, else the one named."""
    if x and y and _first_tool(x) == _first_tool(y):
        return None  # "npm ci, not npm install": two ways of one tool, not a choice of tool
    cx = categories(_first_tool(x)) if x else ()
    cy = categories(_first_tool(y)) if y else ()
    shared = [c for c in cx if c in cy]
    found = shared or list(cx) or list(cy)
    return found[0] if found else None


def _first_tool(text: str) -> str:
    match = _TOOL_RE.match(text.replace("`", "").strip().rstrip(".。"))
    return match.group("tool").lower() if match else ""


def use_category(rest: str) -> str | None:
    """ "always use uv", "I prefer pnpm over npm": a tool choice, titled by its category."""
    text = rest.replace("`", "").strip()
    lead = _USE_LEAD_RE.match(text)
    if lead is None and not re.match(r"^[\w.+-]+(?:\s+(?:over|to|instead of|rather than)\s|$)",
                                     text):
        return None
    return tool_category(text[lead.end():] if lead else text)


# --------------------------------------------------------------------------- routing

_PROJECT_MARK_RE = lazy(
    r"\b(?:this|our|the current)\s+(?:project|repo|repository|codebase|code base|monorepo|"
    r"package|service|app|workspace)\b|\bin here\b|\bin this (?:code|folder)\b|这个项目|本项目|"
    r"该项目|这个仓库|本仓库|这个代码库|我们的项目|这个repo", re.I)
_USER_MARK_RE = lazy(
    r"\b(?:all (?:of )?my|any of my|every one of my)\s+(?:projects|repos|repositories|code|"
    r"work)\b|\b(?:every|any|all|each)\s+(?:project|repo|repository|codebase)s?\b|"
    # "everywhere" alone is said of the code ("quit putting console.log everywhere"); it is
    # the person's when it is where they work ("everywhere I code").
    r"\beverywhere\s+(?:i|we)\s+(?:work|code|go|program|develop)\b|"
    r"\b(?:whatever|regardless\s+of|no\s+matter)\s+(?:(?:the|what|which)\s+)?"
    r"(?:project|repo|repository|codebase)\b|"
    r"\bin general\b|\bacross (?:all )?(?:projects|repos)\b|\bglobally\b|"
    r"\bglobal\s+(?:memory|memories|preferences?|rules?|settings?)\b|"
    r"所有项目|所有的项目|每个项目|任何项目|所有仓库|全局", re.I)
_PROJECT_MARK_RE.needs = ("this", "our", "the current", "in here", "项目", "仓库", "代码库", "repo")
_USER_MARK_RE.needs = ("my", "every", "any", "all", "each", "whatever", "regardless", "no matter",
                       "in general", "across", "global", "所有", "每个", "任何", "全局")


# "播报结果的时候不要念路径", "when you explain, skip the history": a habit of the assistant's own
# answers, which follows the person whatever it says.
_ANSWERING_RE = lazy(
    r"^(?:(?:回答|回复|答复|播报|汇报|解释|说明)(?:我|结果|问题)?(?:的)?时(?:候)?)"
    r"|^(?:when|whenever)\s+(?:you\s+)?(?:answer|reply|respond|explain|report)\b", re.I)
_ANSWERING_RE.needs = ("回", "答", "播报", "汇报", "解释", "说明", "when")


@dataclass(frozen=True)
class Routed:
    level: str
    type: str
    title: str | None  # the topic's title, when the statement has a known topic
    why: str


def route(hit: Hit, state: State, plain: str, sentence: str = "") -> Routed:
    """Level, type and topic title of a hit; plain is its restored text, sentence the whole
    sentence it is a clause of ("no matter which repo, never force-push": the level words
    may sit in another clause)."""
    topic = style_topic(plain) if hit.kind not in ("reference", "command") else None
    if topic is not None:
        return _routed(plain, USER, topic[1], _style_title(topic[0], plain),
                       f"about how the assistant talks or behaves ({topic[0]})", sentence)
    title = hit.title or ("Indentation" if _INDENT_RE.search(plain) else None)
    if hit.kind == "reference":
        return _routed(plain, PROJECT, REFERENCE, title, "a link to look things up", sentence)
    if hit.kind == "correction" or (state.corrective and hit.kind in ("rule", "fact")):
        return _routed(plain, PROJECT, CORRECTION, title, "a correction", sentence)
    if hit.kind == "prefer":
        return _routed(plain, USER, PREFERENCE, title, "a personal preference", sentence)
    if hit.kind == "rule" and _ANSWERING_RE.search(plain):
        return _routed(plain, USER, PREFERENCE, title, "about how the assistant answers", sentence)
    if state.personal:
        return _routed(plain, USER, PREFERENCE, title, "said to be kept as a preference", sentence)
    return _routed(plain, PROJECT, KNOWLEDGE, title, "a rule or fact about the work here", sentence)


def _routed(plain: str, default: str, note_type: str, title: str | None, why: str,
            sentence: str = "") -> Routed:
    level = _level(plain, default)
    if level == default and sentence and sentence != plain:
        level = _level(sentence, default)
    if level != default:
        why += f"; the words name the {level} level"
    if level == USER and note_type == KNOWLEDGE:
        note_type = PREFERENCE  # a rule for all of the person's projects is their preference
    return Routed(level, note_type, title, why)


def _level(text: str, default: str) -> str:
    if _PROJECT_MARK_RE.search(text):
        return PROJECT
    if _USER_MARK_RE.search(text):
        return USER
    return default
