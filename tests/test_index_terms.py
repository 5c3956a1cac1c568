"""An index build's per-token analysis gives exactly the columns `analyze` gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memcli.search.analyze import analyze
from memcli.search.index_terms import note_columns, token

DATA = Path(__file__).resolve().parents[1] / "benchmarks" / "data"

TEXTS = [
    "Run `make test` before you push; the docs site is built with mkdocs serve.",
    "Caroline's dog ran to the park. The dogs' toys were everywhere!",
    "tests/unit and --force-with-lease, v1.2.3, c++ and c# and snake_case_names",
    "运行测试之前先 make test，然后 deploy 到 staging。文档站点用 mkdocs。",
    "ドキュメントを確認してから テスト を実行します。 docs site",
    "Развёртывание и тестирование: запустите тесты перед деплоем.",
    "Le déploiement se fait avec kubectl apply; les tests d'intégration d'abord.",
    "the of and a an it is",  # stop words only: no word terms, no pairs
    "ＦＵＬＬ　ＷＩＤＴＨ ｔｅｘｔ and ﬁ ligatures",
    "Cache bust the CDN, then cache invalidation: continuous integration runs pytest.",
    "",
    "東",
    "a 東京 b c 東京",
]


def _expected(text: str) -> tuple[str, str, str]:
    analyzed = analyze(text)
    return (" ".join(map(token, [*analyzed.words, *analyzed.pairs])),
            " ".join(map(token, analyzed.grams)), " ".join(analyzed.concepts))


def _notes(name: str) -> list[str]:
    notes = json.loads((DATA / name).read_text("utf-8"))["notes"]
    return [f"{n['title']}\n{n['summary']}\n{n['body']}" for n in notes]


@pytest.mark.parametrize("text", TEXTS)
def test_the_columns_are_those_analyze_gives(text: str) -> None:
    assert note_columns(text) == _expected(text)


def test_the_columns_of_every_development_note_are_those_analyze_gives() -> None:
    texts = _notes("recall-dev.json") + _notes("recall-coding.json")
    assert len(texts) > 80
    for text in texts * 2:  # the second time from the per-token records
        assert note_columns(text) == _expected(text), text[:60]


def test_concepts_of_longer_terms_are_found_where_they_start() -> None:
    # `make test` is a two-word term of the vocabulary: found in either order of texts.
    words, _, concepts = note_columns("First make test, then make coffee.")
    assert "make_test" in words.split()
    assert concepts == _expected("First make test, then make coffee.")[2]
    assert concepts  # the coding vocabulary knows `make test`


def test_numbers_are_their_own_stems() -> None:
    import snowballstemmer

    from memcli.search.analyze import stem

    stemmer = snowballstemmer.stemmer("english")
    for number in ["0", "7", "42", "2026", "8080", "0007", "123456789012"]:
        assert stem(number) == stemmer.stemWord(number) == number
