"""Text to search terms: English words stemmed, CJK as character bigrams, code tokens whole.

Two kinds of terms come out of a text:

- *word terms*: content words, stemmed (Snowball English, after mapping irregular forms to
  their base); compound code tokens kept whole as well as split (`tests/unit` gives
  `tests/unit`, `test` and `unit`; `--force-with-lease` gives `force-with-lease` and its
  parts); adjacent content words as a pair (`make test` gives `make+test`), which ranks a
  note holding the phrase above one holding the words apart; and Chinese, Japanese and
  Korean text as overlapping character bigrams (a run of one character is kept as it is),
  the standard way to search text written without spaces;
- *gram terms*: character 4-grams of each Latin word, unstemmed, which match what stemming
  cannot: typos (`educaton`), compounds (`roadtrip`) and related forms (`grandma`).

Everything is NFKC-normalised and case-folded first, so full-width letters and
compatibility forms match their plain forms.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from memcli.search.english import (
    ASKING_BIGRAMS,
    ASKING_CHARACTERS,
    CALENDAR_WORDS,
    GERMAN_WORDS,
    IRREGULAR,
    QUESTION_WORDS,
    STOP_WORDS,
)
from memcli.search.vocabulary import Match, Vocabulary

# Bump when the terms a text yields change: cached indexes built by an older analyzer are
# rebuilt rather than silently matching against different terms.
# The vocabulary's digest is added to it (:func:`analyzer_version`).
ANALYZER_VERSION = "2"

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u31f0-\u31ff"  # katakana extensions
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uac00-\ud7af"  # hangul syllables
)
# A CJK run, or a token of letters and digits that may be joined by code punctuation
# (`tests/unit`, `force-with-lease`, `v1.2`, `c++`, `snake_case`).
_TOKEN = re.compile(
    rf"[{_CJK}]+"
    rf"|(?:(?![{_CJK}])[^\W_])+(?:[./_+#:-]+(?:(?![{_CJK}])[^\W_])+)*[+#]*"
)
_CJK_RUN = re.compile(rf"[{_CJK}]")
_JOINERS = re.compile(r"[./_+#:-]+")
GRAM = 4


@dataclass(frozen=True)
class Analyzed:
    words: list[str]  # word terms in text order: stems, compounds, CJK bigrams
    pairs: list[str]  # adjacent content words, `make+test`
    grams: list[str]  # character 4-grams of the Latin words
    # The concepts of the coding vocabulary the text holds (memcli.search.vocabulary), and
    # where each was found (a prompt's coverage credits the words a concept stands for).
    concepts: list[str] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    # The Latin tokens that gave 4-grams, in text order: `grams` is `grams_of(latin)`, so an
    # index keeps these (a fifth of the size) rather than the 4-grams themselves.
    latin: list[str] = field(default_factory=list)


def _stemmer() -> Callable[[str], str]:
    import snowballstemmer

    stem_word: Callable[[str], str] = snowballstemmer.stemmer("english").stemWord
    return functools.lru_cache(maxsize=65536)(stem_word)


_stem: Callable[[str], str] | None = None
# Snowball's stems kept by an earlier command (memcli.search.stems), and those this one
# worked out (a bounded number): stemming the vocabulary's terms alone took 0.1 s of every
# search.
_kept_stems: dict[str, str] = {}
_new_stems: dict[str, str] = {}
MAX_NEW_STEMS = 1 << 16


def stem(word: str) -> str:
    """The stem of one lower-case word (irregular forms mapped to their base first)."""
    if word.isdigit() and word.isascii():
        return word  # Snowball leaves numbers as they are: an index's many, unstemmed, faster
    base = IRREGULAR.get(word, word)
    found = _kept_stems.get(base)
    if found is not None:
        return found
    global _stem
    if _stem is None:
        _stem = _stemmer()
    found = _stem(base)
    if len(_new_stems) < MAX_NEW_STEMS:
        _new_stems[base] = found
    return found


def keep_stems(stems: dict[str, str]) -> None:
    """Take STEMS (words to Snowball's stems, as an earlier command found them) as known."""
    _kept_stems.update(stems)


def new_stems() -> dict[str, str]:
    """The stems this command worked out that were not kept before."""
    return {word: found for word, found in _new_stems.items() if word not in _kept_stems}


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


def analyze(text: str, *, where: bool = False) -> Analyzed:
    """TEXT's terms; WHERE: with the words each concept was found in (a prompt's
    coverage needs them, an index does not)."""
    words: list[str] = []
    pairs: list[str] = []
    grams: list[str] = []
    latin: list[str] = []
    sequence: list[tuple[str, str]] = []  # content words as (stem, token), for the vocabulary
    runs: list[str] = []
    spaced: list[str] = []  # the CJK runs, with what parted each from the one before
    previous: str | None = None
    normalised = _without_possessives(normalise(text))
    end = 0
    for found in _TOKEN.finditer(normalised):
        token = found.group()
        if _CJK_RUN.match(token):
            words.extend(_bigrams(token))
            if runs:  # parted from the run before by spaces alone, or by anything else
                spaced.append("\n" if normalised[end:found.start()].strip() else " ")
            spaced.append(token)
            runs.append(token)
            end = found.end()
            previous = None
            continue
        terms, token_grams = _latin(token)
        for term, content in terms:
            words.append(term)
            if content:
                sequence.append((term, token))
                if previous is not None:
                    pairs.append(f"{previous}+{term}")
            previous = term if content else previous
        if token_grams:
            grams.extend(token_grams)
            latin.append(token)
    if not where:
        return Analyzed(words, pairs, grams, vocabulary().concepts(sequence, runs),
                        latin=latin)
    matches = vocabulary().match(sequence, runs, "".join(spaced))
    return Analyzed(words, pairs, grams, _unique([m.concept for m in matches]), matches,
                    latin)


def grams_of(latin: Iterable[str]) -> list[str]:
    """The 4-grams of LATIN, Latin tokens as :attr:`Analyzed.latin` lists them."""
    return [gram for token in latin for gram in _latin(token)[1]]


@functools.lru_cache(maxsize=1 << 14)  # bounded: 100,000-note stores hold millions of tokens
def _latin(token: str) -> tuple[tuple[tuple[str, bool], ...], tuple[str, ...]]:
    """A Latin token's word terms and 4-grams: the same few thousand tokens make up most
    of a store, so each is analysed once per command (building an index: 2x faster)."""
    return tuple(_word_terms(token)), tuple(_grams(token))


def _content_words(term: str) -> list[tuple[str, str]]:
    """A vocabulary term's content words as (stem, token), as :func:`analyze` sees them."""
    out: list[tuple[str, str]] = []
    for token in _TOKEN.findall(normalise(term)):
        if not _CJK_RUN.match(token):
            out.extend((t, token) for t, content in _word_terms(token) if content)
    return out


@functools.cache
def vocabulary() -> Vocabulary:
    from memcli.search import vocabulary as vocab

    return vocab.parse(vocab.text(), _content_words, lambda t: bool(_CJK_RUN.search(t)))


def analyzer_version() -> str:
    """The analyser's version and its vocabulary's: a cache built by another is rebuilt."""
    return f"{ANALYZER_VERSION}-{vocabulary().digest}"


def query_terms(text: str) -> Analyzed:
    """A prompt's terms: the same analysis, each term once (a repeated word is not a weight),
    without the words that only say how a question is asked (unless nothing else is left)."""
    analyzed = analyze(text, where=True)
    words, pairs, grams = (_unique(terms) for terms in
                           (analyzed.words, analyzed.pairs, analyzed.grams))
    kept = [w for w in words if w not in _question_stems() and not _asks(w)]
    if not kept:
        return Analyzed(words, pairs, grams, analyzed.concepts, analyzed.matches)
    pairs = [p for p in pairs if not _question_stems().intersection(p.split("+"))]
    return Analyzed(kept, pairs, grams, analyzed.concepts, analyzed.matches)


def is_cjk(term: str) -> bool:
    """Whether TERM is a CJK bigram or character (not a Latin word term)."""
    return bool(_CJK_RUN.match(term))


def asks_term(term: str) -> bool:
    """Whether a query term is one :func:`query_terms` drops as only asking."""
    return term in _question_stems() or _asks(term)


def _asks(term: str) -> bool:
    """A CJK bigram (or lone character) that holds an asking word (see ASKING_CHARACTERS
    and ASKING_BIGRAMS), or hiragana: Japanese grammar (`には`, `で見`, `ますか`); a
    Japanese prompt's topic is in its kanji and katakana (`実行`, `テスト`)."""
    if len(term) > 2 or not _CJK_RUN.match(term):
        return False
    return (not ASKING_CHARACTERS.isdisjoint(term) or term in ASKING_BIGRAMS
            or any("\u3040" <= c <= "\u309f" for c in term))


@functools.cache
def _question_stems() -> frozenset[str]:
    return frozenset(stem(word) for word in QUESTION_WORDS)


def _without_possessives(text: str) -> str:
    return re.sub(r"(?<=\w)'s\b", "", text)


def _word_terms(token: str) -> Iterable[tuple[str, bool]]:
    """(term, is a content word) for one Latin token; compounds give themselves and parts."""
    parts = [p for p in _JOINERS.split(token) if p]
    if len(parts) > 1 or token != parts[0]:
        yield token.strip("+#") if len(parts) > 1 else token, False
    for part in parts:
        if part not in STOP_WORDS:
            yield stem(part), True


def _bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _grams(token: str) -> list[str]:
    out: list[str] = []
    for part in _JOINERS.split(token):
        if not part or part in STOP_WORDS:
            continue
        padded = f"_{part}_"
        if len(padded) <= GRAM:
            out.append(padded)
        else:
            out.extend(padded[i : i + GRAM] for i in range(len(padded) - GRAM + 1))
    return out


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


# A capitalised word, whole: `Caroline`, `GitHub`, `PostgreSQL` (a name that reads `git` for
# `GitHub` is a name the note does not hold), `Python3`.
_NAME = re.compile(r"[A-Z][a-z][A-Za-z0-9]*(?:'s)?")


def entity_terms(text: str) -> list[str]:
    """Stems of capitalised words that do not start a sentence: names in a prompt.

    A note that never names the person or thing a prompt asks about is not about it; the
    recall step uses these to drop such notes (adversarial questions swap a name).
    """
    if german(text):
        return []  # every noun is capitalised: a capital names nothing
    found: list[str] = []
    for match in _NAME.finditer(text):
        start = match.start()
        before = text[:start].rstrip()
        if not before or before[-1] in ".?!:;\"'(\n":
            continue
        if start and (text[start - 1].isalnum() or text[start - 1] in "_-/."):
            continue  # inside a token: camelCase or a path
        word = normalise(match.group().removesuffix("'s"))
        if word not in STOP_WORDS and word not in CALENDAR_WORDS:
            found.append(stem(word))
    return _unique(found)


def german(text: str) -> bool:
    """Whether TEXT is German: it holds one of German's common words, in lower case (`MIT`
    is a university) or capitalised as its first word."""
    words = re.findall(r"[A-Za-zÄÖÜäöüß]+", text)
    return bool(words) and (words[0].lower() in GERMAN_WORDS
                            or any(w in GERMAN_WORDS for w in words))


# A sentence ends at . ! ? ; before a space or the end (`v2.1.0`, `notes.txt` stay whole), at
# a line break, and at CJK sentence punctuation.
_CLAUSE_END = re.compile(r"[.!?;]+(?=\s|$)|\n+|[。！？；]+")


def clauses(text: str) -> list[str]:
    """The sentences of TEXT (one, for a text that is one sentence)."""
    return [part for part in (p.strip() for p in _CLAUSE_END.split(text)) if part]
