"""Where a kind of thing lives in the repository, and what every one of a kind follows.

Rules files describe the layout of a repository and its conventions as plain statements:
"Tests live in tests/", "Migrations are in db/migrations", 测试放在 tests 目录下, "Commit
messages follow Conventional Commits", "Every public function needs a docstring". What
makes them last is their subject, a kind of thing (a plural, a part of the project, 源码,
配置) rather than one thing of the moment, and for a place, a path. "The bug is in
src/auth.py" names one bug: a subject that is news (a bug, an error, 报错) keeps the
sentence out, and so does anything that points at the moment.
"""

from __future__ import annotations

import re

from memcli.extraction.rules.model import Hit, State
from memcli.extraction.rules.patterns import lazy
from memcli.extraction.rules.topics import tool_category

# Parts of a project that "the" may name and still mean a kind of thing of the repository.
_PARTS_EN = (r"(?:api|app|web app|frontend|backend|cli|server|client|docs|documentation|"
             r"config|configuration|schema|models|tests|test suite|migrations|fixtures|"
             r"source|source code|code|sdk|worker|workers|scripts|assets|templates|styles|"
             r"infrastructure|infra|database schema|ui|core|library|plugin|plugins)")
# A plural without a determiner ("Tests", "Database migrations"), a mass noun of the code,
# or "the/our" and a part of the project.
_KIND_SUBJECT_EN = (
    r"(?P<subj>(?:(?:the|our|all)\s+)?" + _PARTS_EN + r"|(?!(?:the|a|an|this|that|these|those|"
    r"my|your|his|her|its|their|some)\b)(?:[\w.-]+\s+){0,2}?(?:[a-z][\w-]*[^s\W]s|code|"
    r"source|config|configuration|documentation|infrastructure))")
# News, not layout: what has just gone wrong, or moved.
_NEWS_EN = lazy(r"\b(?:bugs?|errors?|issues?|problems?|fix(?:es)?|changes?|crash(?:es)?|"
                r"failures?|typos?|regressions?|warnings?|exceptions?|logs?|results?|"
                r"outputs?|diffs?|patch(?:es)?|edits?)\b", re.I)
_PATH = r"(?:[\w.-]*/[\w./<>*-]*|\.?[\w-]+\.\w{1,6}|\.\w[\w.-]*|\ue000\d+\ue001)"
_PLACE_EN = (r"(?:" + _PATH + r"|(?:the\s+|a\s+)?[\w.-]+\s+(?:folder|directory|dir|package|"
             r"module)|" + _PATH + r"\s+(?:folder|directory|dir))")
_WHERE_EN = lazy(
    _KIND_SUBJECT_EN + r"\s+(?:all\s+)?(?:live|lives|go|goes|belong|belongs|sit|sits|reside|"
    r"resides|are kept|is kept|are stored|is stored|are|is)\s+(?:in|under|inside|at|into)\s+"
    + _PLACE_EN + r"(?:[\s,;].*)?", re.I)
_WHERE_EN.needs = ("/", ".", "\ue000", "folder", "directory", "dir", "package", "module")
# "Commit messages follow Conventional Commits", "components use the composition API".
_ARTEFACTS_EN = (r"(?:commits|commit messages|branch(?:es| names)|tests|test files|test names|"
                 r"components|functions|methods|variables|classes|files|file names|modules|"
                 r"endpoints|routes|migrations|docs|prs|pull requests|pr titles|imports|"
                 r"error messages|responses|api responses|timestamps|dates|ids|keys|tables|"
                 r"columns|props|hooks|services|handlers|models|schemas|constants|types|"
                 r"interfaces|releases|tags|versions|docstrings|comments|changelog entries)")
_KIND_FOLLOWS_EN = lazy(
    r"(?:(?:our|all|all our)\s+)?(?:[\w-]+\s+)?" + _ARTEFACTS_EN + r"\s+(?:always\s+)?"
    r"(?:follow|use|are named|are written in|are formatted with|start with|end with)\s+\S.*",
    re.I)
_KIND_FOLLOWS_EN.needs = ("follow", "use", "named", "written", "formatted", "start", "end")
# "Every public function needs a docstring", "each PR gets a review".
_EVERY_NEEDS_EN = lazy(
    r"(?:every|each|all|any)\s+(?:[\w-]+\s+){0,3}?[\w-]+\s+(?:needs?|requires?|gets?|must have|"
    r"should have|has to have|have to have)\s+\S.*", re.I)
_EVERY_NEEDS_EN.needs = ("every", "each", "all", "any")
_MOMENT_EN = lazy(
    r"\b(?:this|that|these|those|it|them|now|yet|today|tomorrow|yesterday|again|currently|"
    r"anymore|just|i|i'm|you|we)\b|\?|\b(?:was|were|got|broke|failed|moved|went|did)\b", re.I)

# 测试放在 tests 目录下, 源码在 src 目录, 组件统一放在 components 文件夹.
_WHERE_ZH = lazy(
    r"(?P<subj>[^，,。\s]{1,12}?)(?:都|统一|一律|全部|要|应该|必须)?\s*"
    r"(?:放在|放到|放进|写在|写到|存放在|存放于|存在|保存在|位于|在)\s*(?P<path>[A-Za-z_.`/][\w./`-]*)"
    r"\s*(?:目录|文件夹|文件|包|模块)?(?:下面|下|里面|里|中|内)?(?:[，,].*)?")
_WHERE_ZH.needs = tuple("abcdefghijklmnopqrstuvwxyz_./`")
# ... and 把…放在… is a request to move something now.
_NEWS_ZH = lazy(
    r"bug|报错|错误|问题|异常|日志|输出|结果|改动|修改|我|你|他|这|那|把|了$|吗|呢|？|\?|哪")


# "Our database is Postgres", "Postgres is our database", "our CI is GitHub Actions": what the
# project is built on, by the role it plays.
_ROLES = (r"(?:main\s+|primary\s+)?(?:database|db|ci|ci/cd|cd|package manager|test runner|linter|"
          r"formatter|orm|(?:frontend |backend |web |css |test )?framework|cloud(?: provider)?|"
          r"host|hosting|registry|(?:message )?queue|cache|auth provider|issue tracker|tracker|"
          r"build tool|bundler|ui library|component library|state management|monitoring|"
          r"error tracking|analytics|cdn|search engine|runtime|language|stack|tech stack|"
          r"deploy(?:ment)? target|secrets manager|feature flag service)")
_ROLE_FACT_EN = lazy(
    r"our\s+(?P<role>" + _ROLES + r")\s+is\s+(?P<x>[\w.+#`\ue000\ue001-]+(?:\s+[\w.+#-]+){0,2})"
    r"(?:\s*[,;(].*)?"
    r"|(?P<x2>[\w.+#`\ue000\ue001-]+(?:\s+[\w.+#-]+){0,2})\s+is\s+our\s+(?P<role2>" + _ROLES
    + r")(?:\s*[,;(].*)?", re.I)
_ROLE_FACT_EN.needs = ("our",)
_ACRONYMS = ("ci", "cd", "ci/cd", "cdn", "orm", "db")


def _role_fact(text: str) -> Hit | None:
    found = _ROLE_FACT_EN.fullmatch(text)
    if found is None or _MOMENT_EN.search(text):
        return None
    role = found.group("role") or found.group("role2")
    tool = (found.group("x") or found.group("x2") or "").replace("`", "")
    role = " ".join(role.split())
    shown = role.upper() if role.lower() in _ACRONYMS else role.capitalize()
    title = tool_category(tool) or shown
    return Hit("fact", text, title, rule="what the project is built on")


def find_layout(text: str, slots: list[str], state: State) -> Hit | None:
    """A kind of thing and where it lives, or what every one of its kind follows."""
    where = _WHERE_EN.fullmatch(text)
    if where is not None and not _NEWS_EN.search(where.group("subj")) and not (
            _MOMENT_EN.search(text[:where.end("subj")])):
        return Hit("fact", text, rule="where a kind of thing lives in the repository")
    where = _WHERE_ZH.fullmatch(text)
    if where is not None and not _NEWS_ZH.search(text):
        return Hit("fact", text, rule="where a kind of thing lives in the repository")
    for pattern in (_KIND_FOLLOWS_EN, _EVERY_NEEDS_EN):
        if pattern.fullmatch(text) and not _MOMENT_EN.search(text):
            return Hit("rule", text, rule="what every one of a kind follows")
    return _role_fact(text)
