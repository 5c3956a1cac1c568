"""What the project uses, said of the team or the project: "we use pnpm", "the tests use
sqlite", 这个项目用 Vue 3."""

from __future__ import annotations

import re

from memcli.extraction.rules.command_lines import command_for
from memcli.extraction.rules.model import Hit, State
from memcli.extraction.rules.patterns import PatternGroup, lazy
from memcli.extraction.rules.sentences import cut_title, restore
from memcli.extraction.rules.topics import tool_category

_USES_RES = (
    lazy(r"(?:we|our team|the team)\s+(?:uses?|are using|is using|standardi[sz]es? on|"
               r"rel(?:y|ies) on)\s+(?P<x>.+?)\s+(?:for|to)\s+(?P<y>.+)", re.I),
    lazy(r"(?:we|our team|the team)\s+(?:uses?|are using|is using|standardi[sz]es? on)\s+"
               r"(?P<x>.+)", re.I),
    lazy(r"(?:this|the|our)\s+(?:project|repo|repository|codebase|code base|monorepo|app|api|"
         r"backend|frontend|cli|server|client|sdk|service|package|library|"
         # "the test suite uses Jest", "the tests use sqlite", "our CI runs on GitHub Actions"
         r"test suite|(?:unit |integration |e2e |end-to-end )?tests|ci|build|docs|site|"
         r"web app|mobile app|workers?)\s+(?:uses?|is using|are using|(?:is|are) built (?:with|on)|"
         r"runs? on|targets?|requires?|depends on|is written in|are written in)\s+(?P<x>.+)",
         re.I),
    lazy(r"(?:这个|本|我们的?)(?:项目|仓库|代码库|repo)(?:里|中)?(?:用|使用|用的是|采用|基于)"
               r"\s*(?P<x>.+)", re.I),
    lazy(r"我们(?:都|一般|统一)?(?:用|使用|采用)\s*(?P<x>.+?)\s*(?:来|做|进行)(?P<y>.+)"),
    lazy(r"我们(?:都|一般|统一)?(?:用|使用|采用)\s*(?P<x>.+)"),
)
_LANG_VERSION_RE = lazy(
    r"^(python|node(?:\.?js)?|go|golang|rust|java|ruby|typescript|php)\s*v?\d+(?:\.\d+)*\b",
    re.I)
_LANG_NAMES = {"python": "Python", "node": "Node.js", "nodejs": "Node.js", "node.js": "Node.js",
               "go": "Go", "golang": "Go", "rust": "Rust", "java": "Java", "ruby": "Ruby",
               "typescript": "TypeScript", "php": "PHP"}


def find_uses(text: str, slots: list[str], state: State) -> Hit | None:
    for pattern in _USES.candidates(text):
        match = pattern.fullmatch(text)
        if not match:
            continue
        x = restore(match.group("x"), slots)
        y = match.groupdict().get("y")
        # "we use a lot of memory", "we use it twice": an amount or a pointer, not a choice.
        vague = _VAGUE_USE_RE if y else _VAGUE_USE_ALONE_RE
        if vague.match(x):
            return None
        return Hit("fact", text, _uses_title(x, restore(y, slots) if y else None))
    return None


_VAGUE_USE_RE = lazy(
    r"^(?:it|this|that|them|these|those|up|lots|a lot|a bit|too|way|much|more|less|so|"
    r"这个|那个|它)(?:\b|(?<=[^\x00-\x7f]))", re.I)
_VAGUE_USE_ALONE_RE = lazy(_VAGUE_USE_RE.pattern + r"|^(?:a|an|the|some|any)\b", re.I)


def _uses_title(x: str, y: str | None) -> str | None:
    category = tool_category(x)
    if category is not None:
        return category
    version = _LANG_VERSION_RE.match(x.replace("`", "").strip())
    if version:
        return _LANG_NAMES[version.group(1).lower()] + " version"
    if y and not _ANY_PURPOSE_RE.match(y):
        command = command_for(y)
        return command or cut_title(re.sub(r"^(?:the|our)\s+", "", y, flags=re.I), words=6)
    return None


_ANY_PURPOSE_RE = lazy(r"^(?:everything|anything|all|most things|all of it|所有|一切)\b",
                             re.I)


# Words one of which each pattern needs (see LazyPattern.needs).
_USES_RES[0].needs = _USES_RES[1].needs = ("we", "team")
_USES_RES[2].needs = ("use", "using", "built", "run", "target", "require", "depends on",
                      "written in")
_USES_RES[3].needs = ("用", "基于")
_USES_RES[4].needs = _USES_RES[5].needs = ("用",)
_USES = PatternGroup(*_USES_RES)
