"""Near-duplicate notes: whether a new statement is about a note a level already holds.

Two titles (or two summaries) say the same when they hold the same words after case,
Unicode form, invisible characters, punctuation, word order and plurals are set aside, or
one word more or less among four or more. An English and a Chinese title name one topic
when both are spellings of a known topic ("Test command", 测试命令), and an English and a
Chinese statement say the same when they hold the same concepts ("Never commit directly to
main", 永远不要直接提交到 main: see :mod:`memcli.extraction.concepts`). Two short titles that name
tools of one kind ("Use pnpm", "Use npm instead of pnpm") are one choice, so the later
statement replaces the earlier: that is how a contradiction ends with one note, not two.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memcli import compiled_regex as rx

# The words of a title live in memcli.text, so that lint (M303) and the instruction check
# use them without loading this module's topic tables and types.
from memcli.text import MAX_NEAR_TOKENS, normalised, title_tokens
from memcli.text import TITLE_WORD as _WORD

if TYPE_CHECKING:  # the protocol only; importing the rules package costs start-up time
    from memcli.extraction.key_index import KeyIndex
    from memcli.extraction.rules.model import KnownNote

__all__ = ["MAX_NEAR_TOKENS", "Near", "NoteIndex", "choice_categories", "find_near", "same_words",
           "title_tokens", "topic_of"]

# A "choice" title is short: "Use pnpm", "Package manager", "Use npm instead of pnpm".
_MAX_CHOICE_TOKENS = 6
# Fewer concept keys than this say too little to call two statements one ("不要" ~ "no").
_MIN_CONCEPTS = 2
_MIN_CONCEPTS_UNSAID = 3
_UNSAID = frozenset({"branch", "file", "code", "use", "direct"})

# One topic, two languages. The English side is what the rules extractor titles its topics.
_TOPIC_ALIASES = {
    "test command": ("测试命令", "跑测试的命令"), "unit test command": ("单元测试命令",),
    "e2e test command": ("端到端测试命令", "e2e测试命令"),
    "integration test command": ("集成测试命令",), "build command": ("构建命令", "编译命令"),
    "lint command": ("lint命令", "检查命令"), "format command": ("格式化命令",),
    "type check command": ("类型检查命令",), "deployment": ("部署", "部署方式", "部署命令"),
    "release command": ("发布命令", "发版命令"), "package manager": ("包管理器", "包管理工具"),
    "answer language": ("回答语言", "回复语言", "语言"), "answer length": ("回答长度", "回复长度"),
    "emoji use": ("表情", "表情符号", "emoji"), "tone": ("语气",), "apologies": ("道歉",),
    "asking for confirmation": ("确认", "先问我", "征求同意"), "summaries": ("总结",),
    "flattery": ("奉承", "拍马屁"), "indentation": ("缩进",), "test runner": ("测试框架",),
    "linter": ("代码检查工具",), "formatter": ("格式化工具",), "type checker": ("类型检查器",),
    "http client": ("http客户端",), "database": ("数据库",), "logging": ("日志",),
    "documentation": ("文档",),
}
_CHOICE_WORD = rx.compile(r"\b(?:use|using|prefer|instead|not|over|switch(?:ed)?|stick|"
                          r"rather)\b|用|代替|替代|而不是|改用")
_ALIAS_KEY = {_: english for english, names in _TOPIC_ALIASES.items() for _ in names}


@dataclass(frozen=True)
class Near:
    """The stored note a statement nearly repeats, and how it was recognised."""

    filename: str
    title: str
    why: str


def topic_of(title: str) -> str | None:
    words = _WORD.findall(normalised(title))
    english = " ".join(words)
    if english in _TOPIC_ALIASES:
        return english
    return _ALIAS_KEY.get("".join(words))


def same_words(a: Sequence[str], b: Sequence[str]) -> bool:
    if not a or not b:
        return False
    sa, sb = frozenset(a), frozenset(b)
    if sa == sb or "".join(a) == "".join(b):
        return True
    small, large = sorted((sa, sb), key=len)
    return (4 <= len(large) <= MAX_NEAR_TOKENS and len(large) - len(small) == 1
            and small < large)


def _same_concepts(mine: str, theirs: str) -> bool:
    """One statement in English and in Chinese (or in two Chinese wordings): the same
    concept keys. Within English the title words above already decide."""
    from memcli.extraction.concepts import concept_keys, has_cjk

    if not mine or not theirs or not (has_cjk(mine) or has_cjk(theirs)):
        return False
    keys, other = concept_keys(mine), concept_keys(theirs)
    if keys is None or other is None or len(keys) < _MIN_CONCEPTS:
        return False
    if keys == other:
        return True
    # "main" and "main 分支", "提交 .env" and "commit .env files": the kind of thing named, or
    # "用" and "直接", is often left unsaid in one language; the rest must still agree.
    keys, other = keys - _UNSAID, other - _UNSAID
    return len(keys) >= _MIN_CONCEPTS_UNSAID and keys == other


def choice_categories(title: str) -> frozenset[str]:
    from memcli.extraction.rules.topics import categories, category_names

    tokens = _WORD.findall(normalised(title).replace("-", "_"))
    if not tokens or len(tokens) > _MAX_CHOICE_TOKENS:
        return frozenset()
    named = " ".join(_WORD.findall(normalised(title)))
    found = {c for c in category_names() if c.lower() == named}
    if found:
        return frozenset(found)
    if not _CHOICE_WORD.search(normalised(title)):
        return frozenset()  # "pip install needs --user" names a tool but chooses none
    for word in re.findall(r"[\w.+-]+", normalised(title)):
        found.update(categories(word))
    return frozenset(found)


def find_near(level: str, title: str, summary: str, notes: Iterable[KnownNote]
              ) -> Near | None:
    """The first note of ``level`` that ``title``/``summary`` nearly repeat, else None."""
    mine = title_tokens(title)
    my_summary = title_tokens(summary) if summary else []
    topic = topic_of(title)
    choice = choice_categories(title)
    fallback: Near | None = None
    for note in notes:
        if note.level != level:
            continue
        if same_words(mine, title_tokens(note.title)):
            return Near(note.filename, note.title, "the same title words")
        if topic is not None and topic == topic_of(note.title):
            return Near(note.filename, note.title, f"the same topic ({topic})")
        if my_summary and same_words(my_summary, title_tokens(note.summary)):
            return Near(note.filename, note.title, "the same statement")
        if _same_concepts(title, note.title) or _same_concepts(summary, note.summary):
            return Near(note.filename, note.title, "the same statement in another language")
        if fallback is None and choice and choice & choice_categories(note.title):
            shared = sorted(choice & choice_categories(note.title))[0]
            fallback = Near(note.filename, note.title, f"the same choice ({shared})")
    return fallback


class NoteIndex:
    """The stored notes a statement could nearly repeat, found without reading every note
    whole: a store of 10,000 notes per level tokenised every title and summary for each
    operation (1.5 s an operation), where one regular-expression scan of the raw text,
    in C, finds the few that share a word start with the statement.

    ``candidates`` gives, in stored order: every note for a statement with CJK text (its
    concepts may be any note's words); else the notes with CJK text, those sharing the start
    of a word with its title or summary (see _prefixes), and, for a title naming a topic or
    a choice of tool, those titled by the topic's names and those naming a tool of that
    kind. A title joined into one word ("precommit" for "pre-commit") is not found."""

    def __init__(self, notes: Iterable[KnownNote]) -> None:
        from memcli.extraction.key_index import key_index_of

        self.notes = notes if isinstance(notes, Sequence) else list(notes)
        self.keys = key_index_of(self.notes)

    def candidates(self, level: str, title: str, summary: str) -> list[KnownNote]:
        return self._candidates(level, title, summary, None)

    def answering(self, level: str, title: str, summary: str) -> list[KnownNote]:
        """:meth:`candidates`, without the notes that cannot answer :func:`find_near` for
        TITLE and SUMMARY (when the notes' keys are known): the same answer, of a few
        notes. A note answers only with a key of :meth:`_may_answer`."""
        if self.keys is None or _has_cjk(title + " " + summary):
            return self.candidates(level, title, summary)
        return self._candidates(level, title, summary, sorted(self._may_answer(title, summary)))

    def _may_answer(self, title: str, summary: str) -> set[int]:
        """The positions of every note that can answer find_near: the same title words or
        summary words (see _same_words_keys), topic, choice of tool, or concepts (see
        _same_concepts_keys)."""
        keys = self.keys
        assert keys is not None
        found = _same_words_keys(keys, "w", "J", title_tokens(title))
        if summary:
            found |= _same_words_keys(keys, "v", "U", title_tokens(summary))
        topic = topic_of(title)
        if topic is not None:
            found |= keys.holding("o", [topic])
        found |= _same_concepts_keys(keys, "C", title) | _same_concepts_keys(keys, "D", summary)
        found |= keys.holding("h", choice_categories(title))
        return found

    def _candidates(self, level: str, title: str, summary: str, only: list[int] | None
                    ) -> list[KnownNote]:
        notes = self.notes
        if _has_cjk(title + " " + summary):
            return [note for note in notes if note.level == level]
        starts = _prefixes(title + " " + summary)
        tools: set[str] = set()
        names: set[str] = set()
        topic = topic_of(title)
        if topic is not None:
            names |= {topic, *_TOPIC_ALIASES[topic]}
        for category in choice_categories(title):
            names.add(category.lower())
            tools.update(_category_tools(category))
        parts = [re.escape(k) for k in sorted(starts)]
        parts += [re.escape(t) + r"(?![^\W_])" for t in sorted(tools)]
        pattern = rx.compile(r"(?<![^\W_])(?:" + "|".join(parts) + ")", re.I) if parts else None
        words = _pool_words([*starts, *tools], names)
        if only is None:
            pool: Iterable[int] = _pool(notes, words)
        else:
            from memcli.extraction.haystack import holds

            pool = [i for i in only
                    if words is None or holds(notes[i], words, or_beyond_ascii=True)]
        found = []
        for i in pool:
            note = notes[i]
            if note.level == level and (
                    (pattern is not None and (pattern.search(note.title)
                                              or pattern.search(note.summary)))
                    or _has_cjk(note.title) or _has_cjk(note.summary)
                    or (names and " ".join(note.title.casefold().split()) in names)):
                found.append(note)
        return found


def _same_words_keys(keys: KeyIndex, word: str, joined: str, tokens: list[str]) -> set[int]:
    """Every note whose title (summary) words same_words can call the same as TOKENS: the
    same words joined into one, or the same set (holding every one of TOKENS), or one word
    more or less among four or more (holding all of TOKENS but one at most). Each of these
    holds at least one of any two of TOKENS' words (the one word when there is one: a set
    of one word cannot be one word more or less among four)."""
    if not tokens:
        return set()
    two = sorted(set(tokens), key=lambda t: (keys.rarity(word, t), t))[:2]  # the rarest
    return keys.holding(joined, ["".join(tokens)]) | keys.holding(word, two)


def _same_concepts_keys(keys: KeyIndex, kind: str, mine: str) -> set[int]:
    """Every note whose title (KIND C) or summary (D) _same_concepts can call the same
    statement as MINE, a text without CJK (as :meth:`NoteIndex.answering` asks): a text of
    CJK (the only kind holding concept keys) whose concepts hold MINE's beyond _UNSAID
    (all of MINE's when none is beyond), so the first of them."""
    from memcli.extraction.concepts import concept_keys, has_cjk

    if not mine:
        return set()
    if has_cjk(mine):
        return set(range(keys.size))
    concepts = concept_keys(mine)
    if concepts is None or len(concepts) < _MIN_CONCEPTS:
        return set()
    return keys.holding(kind, sorted(concepts - _UNSAID or concepts)[:1])


def _pool(notes: Sequence[KnownNote], words: list[str] | None) -> Iterable[int]:
    """The positions of the notes a candidate is among (see _pool_words)."""
    from memcli.extraction.haystack import haystack_of

    return range(len(notes)) if words is None else haystack_of(notes).holding_or_beyond_ascii(
        words)


def _pool_words(keys: Iterable[str], names: Iterable[str]) -> list[str] | None:
    """What a candidate holds: a key's letters (the pattern matches without regard to case:
    an ASCII note holds the key case-folded) or a name's longest word, or it is not ASCII;
    None when every note is one (a key that cannot be told)."""
    words = []
    for key in keys:
        word = _as_ascii(key.casefold())
        if word is None:
            return None
        if word:
            words.append(word)
    words += [max(name.split(), key=len) for name in names if name.isascii() and name.split()]
    return words


# The letters beyond ASCII that `re.I` matches with an ASCII letter (Kelvin sign, dotless
# and dotted i, long s): a key holding one may match an ASCII note.
_FOLDS_TO_ASCII = str.maketrans({"\u212a": "k", "\u0131": "i", "\u0130": "i", "\u017f": "s"})


def _as_ascii(key: str) -> str | None:
    """KEY as an ASCII note that matches it holds it case-folded; "" when no ASCII note can
    match it, None when a key cannot be told (empty)."""
    if not key:
        return None
    if key.isascii():
        return key
    key = key.translate(_FOLDS_TO_ASCII)
    return key if key.isascii() else ""


_PREFIX_WORD = rx.compile(r"[^\W_]+")
@functools.cache
def _cjk() -> re.Pattern[str]:
    return rx.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _has_cjk(text: str) -> bool:
    """Whether ``text`` holds kana, a CJK ideograph or hangul. The class reaches beyond
    Latin-1, so compiling it builds a 65,536-entry table (about 2 ms, docs/performance.md):
    it is compiled for the first text that is not ASCII, the only kind it can match."""
    return not text.isascii() and _cjk().search(text) is not None


def _prefixes(text: str) -> set[str]:
    """Each word's first four letters, a plural's "s"/"es" taken off first ("tests" and
    "test", "classes" and "class" share a start; "config" and "conda" do not)."""
    keys = set()
    for word in _PREFIX_WORD.findall(text.casefold()):
        if len(word) > 4 and word.endswith("es"):
            word = word[:-2]
        elif len(word) > 3 and word.endswith("s"):
            word = word[:-1]
        keys.add(word[:4])
    return keys


def _category_tools(category: str) -> tuple[str, ...]:
    from memcli.extraction.rules.topics import category_tools

    return category_tools(category)
