"""Topic slots: the settings of a project that hold one value at a time.

"We deploy with Heroku" and, days later, "heads up, we moved everything to Fly.io" are two
values of one slot (the deploy target): the later statement replaces the earlier note,
whatever words either used. A text is in a slot when it names one of the slot's tools or
one of its names in a language the extractor reads. A qualifier splits a slot ("unit",
"e2e": two test commands). The extractor and ``consolidate`` share this understanding.
"""

from __future__ import annotations

import functools
import re
from typing import Any

# Each slot: the tools that fill it (lower case, as written), then its names.
_TOOLS: dict[str, tuple[str, ...]] = {
    "package manager": ("npm", "pnpm", "yarn", "bun", "uv", "pip", "pipenv", "poetry",
                        "pdm", "conda", "composer", "bundler"),
    "formatter": ("black", "prettier", "ruff format", "gofmt", "rustfmt", "biome",
                  "clang-format", "yapf", "dprint", "autopep8"),
    "linter": ("eslint", "flake8", "golangci-lint", "clippy", "pylint", "oxlint", "rubocop",
               "stylelint"),
    "database": ("postgres", "postgresql", "mysql", "sqlite", "mongodb", "mongo",
                 "cockroachdb", "mariadb", "dynamodb", "clickhouse", "supabase",
                 "sql server", "planetscale", "redis"),
    "deploy target": ("heroku", "fly.io", "vercel", "netlify", "aws ecs",
                      "cloud run", "railway", "kubernetes", "k8s", "digitalocean",
                      "azure app service", "app engine", "aws lambda", "cloudflare pages"),
    "ci": ("github actions", "circleci", "gitlab ci", "jenkins", "buildkite", "travis"),
    "test command": ("make test", "pytest", "npm test", "go test", "cargo test", "vitest",
                     "jest", "just test", "tox", "rails test", "gradlew test", "mix test",
                     "yarn test", "pnpm test", "make check"),
    "issue tracker": ("jira", "youtrack", "trello", "asana", "github issues"),
}
_NAMES: dict[str, tuple[str, ...]] = {
    "package manager": ("package manager", "包管理", "gestor de paquetes",
                        "gerenciador de pacotes", "paketmanager", "gestionnaire de paquets",
                        "パッケージマネージャ", "패키지 매니저", "менеджер пакетов",
                        "gestore di pacchetti"),
    "formatter": ("formatter", "formatting", "格式化", "formateador", "formatador",
                  "formatierer", "formateur", "フォーマッタ", "포매터", "форматтер",
                  "formattatore"),
    "linter": ("linter", "代码检查"),
    "database": ("database", "数据库", "base de datos", "banco de dados", "datenbank",
                 "base de données", "データベース", "데이터베이스", "база данных"),
    "deploy target": ("deploy target", "we deploy", "deployed on", "deploys to", "hosted on",
                      "部署", "desplegamos", "despliegue", "deploy é", "deployen",
                      "on déploie", "デプロイ", "배포", "деплоим", "facciamo il deploy"),
    "test command": ("test command", "running the tests", "run the tests", "测试命令",
                     "跑测试", "comando de tests", "comando de testes", "testbefehl",
                     "commande de test", "テストコマンド", "테스트 명령어",
                     "команда для тестов", "comando dei test"),
    "issue tracker": ("issue tracker", "bug tracker"),
}
# Words that are tools only when capitalised ("Render", not "render the page").
_CAPITALISED = {"Render": "deploy target", "Drone": "ci", "Linear": "issue tracker",
                "Shortcut": "issue tracker", "Neon": "database"}
_QUALIFIERS = {
    "unit": ("unit", "单元", "unitario", "unitário", "unitaire", "ユニット", "단위", "юнит"),
    "e2e": ("e2e", "end-to-end", "end to end", "端到端"),
    "integration": ("integration", "集成", "integración", "integração", "integrations",
                    "インテグレーション", "통합", "интеграцион", "integrazione"),
}


@functools.cache
def _words() -> tuple[Any, list[tuple[str, str, bool]]]:
    """All the slots' words in one automaton (ahocorasick_rs: one pass over a text, about a
    microsecond a title; a regular expression per slot cost a millisecond), and for each
    word its slot and whether it is a tool."""
    import ahocorasick_rs

    entries: list[tuple[str, str, bool]] = []
    for slot, tools in _TOOLS.items():
        entries += [(w, slot, True) for w in tools]
        entries += [(w, slot, False) for w in _NAMES.get(slot, ())]
    entries += [(w.casefold(), slot, True) for w, slot in _CAPITALISED.items()]
    automaton = ahocorasick_rs.AhoCorasick(
        [w for w, _, _ in entries], matchkind=ahocorasick_rs.MatchKind.LeftmostLongest)
    return automaton, entries


def _stands_alone(text: str, start: int, end: int) -> bool:
    """An ASCII word is a word of the text, not part of one ("uv", not "uvicorn"); a Korean
    or Japanese particle may follow it ("DynamoDB를")."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return (not ((before.isalnum() and before.isascii()) or before in "_.-")
            and not ((after.isalnum() and after.isascii()) or after in "_-"))


def slots_of(text: str) -> dict[str, frozenset[str]]:
    """The slots the text is about, each with the tools it names in it. A slot named by its
    name ("the test command is pnpm vitest") is the one it is about: the tools named in
    passing (pnpm) do not put it in another."""
    automaton, entries = _words()
    folded = text.casefold()
    if len(folded) != len(text):  # a letter that folds to two: match on the folded text
        text = folded
    named: dict[str, set[str]] = {}
    tooled: dict[str, set[str]] = {}
    for index, start, end in automaton.find_matches_as_indexes(folded):
        word, slot, tool = entries[index]
        if word.isascii() and not _stands_alone(folded, start, end):
            continue
        if word in _CAPITALISED_LOWER and not text[start:start + 1].isupper():
            continue  # "render the page" names no deploy target
        key = _qualified(slot, folded)
        if tool:
            tooled.setdefault(key, set()).add(word)
        else:
            named.setdefault(key, set()).update(tooled.get(key, ()))
    if named:
        return {k: frozenset(v | tooled.get(k, set())) for k, v in named.items()}
    return {k: frozenset(v) for k, v in tooled.items()}


_CAPITALISED_LOWER = frozenset(w.casefold() for w in _CAPITALISED)


def _qualified(slot: str, text: str) -> str:
    if slot != "test command":
        return slot
    folded = text.casefold()
    for name, words in _QUALIFIERS.items():
        if any(w in folded for w in words):
            return f"{slot}:{name}"
    return slot


def shared_slot(a: str, b: str) -> str | None:
    """The slot two texts both fill, else None. Both must name a value of it (a tool) or
    one its name: "we deploy on Fridays" and "we deploy with Heroku" are two statements."""
    mine, theirs = slots_of(a), slots_of(b)
    for slot in mine:
        if slot in theirs and mine[slot] and theirs[slot]:
            return slot
    return None


def slot_tools(slot: str) -> tuple[str, ...]:
    """Every word :func:`slots_of` takes for a tool of SLOT (qualified or not), case-folded:
    a text is in the slot with a tool only if it holds one of them."""
    base = slot.partition(":")[0]
    return (*_TOOLS.get(base, ()),
            *(word.casefold() for word, named in _CAPITALISED.items() if named == base))


def tools_named(text: str) -> frozenset[str]:
    return frozenset(t for tools in slots_of(text).values() for t in tools)


# Words too common to tie two statements together on their own.
_COMMON_WORDS = """
a an the and or but not no yes we you i it its it's our your my me us they this that these
those is are was were be been being do does did don't doesn't can can't could should would
will won't shall may might must have has had use used using uses again anymore any more now
from to in on at by for with without of as into onto over under about after before then than
when while where what which who how why all every each some none ever never always also too
very just only still please ok okay thanks fine allowed allow allows lifted ban banned okay
here there code file files project repo repository thing things stuff way back instead
rather via per new old one two make run runs running work works"""
_COMMON = frozenset(_COMMON_WORDS.split())
_NAME_RE = re.compile(r"[a-z][\w.+-]*[\w+]|[a-z]")


def salient_names(text: str) -> frozenset[str]:
    """The names in a text that are not common words (tools, branches, libraries)."""
    words = _NAME_RE.findall(text.casefold())
    return frozenset(w for w in words if len(w) >= 3 and w not in _COMMON and w.isascii())


def title_slot(title: str) -> str | None:
    """The slot a title names and says nothing else of ("Test command", "Running the tests",
    "Use pnpm", "We deploy with Heroku"; not "Database backups"): two notes so titled are
    one setting said twice."""
    found = slots_of(title)
    if len(found) != 1:
        return None
    automaton, _ = _words()
    rest = title.casefold()
    for _, start, end in reversed(automaton.find_matches_as_indexes(rest)):
        rest = rest[:start] + " " + rest[end:]
    if any(w not in _COMMON for w in re.findall(r"\w+", rest)):
        return None
    return next(iter(found))
