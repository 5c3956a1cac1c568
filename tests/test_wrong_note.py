"""An unattended `extract --apply` never rewrites the wrong note: a sentence worded like a
change that is a one-off, a question, a hypothetical, someone else's words or a status
changes no stored note, and a change and a note share a subject, not one everyday word nor
a few characters of Chinese or Japanese, before the change replaces the note.

The phrasings are not rows of the corpus (benchmarks/data/extraction/); each test goes
through `memcli extract --apply` against a store.
"""

from __future__ import annotations

import pytest

from tests.conftest import MemEnv
from tests.extract_turns import assert_replaces, notes_in, say


@pytest.mark.parametrize(("first", "then"), [
    # a one-off, in English, German and Japanese
    ("the team wiki lives on Confluence", "this week only we use Notion, Confluence is off"),
    ("Wir deployen mit Heroku", "nur diese Woche deployen wir mit Render statt Heroku"),
    ("CI は Jenkins です", "今回だけ GitHub Actions に切り替えます"),
    ("деплоим на Heroku", "только сегодня деплоим на Render вместо Heroku"),
    # one meeting moved, not the habit
    ("the demo is every Thursday", "this week the demo moved to Friday"),
    # a hypothetical, in Spanish, French, Japanese and Russian
    ("the team wiki lives on Confluence", "si pasamos a Notion, Confluence ya no se usa"),
    ("on déploie sur Heroku", "si on passe à Fly.io, Heroku n'est plus utilisé"),
    ("デプロイは Heroku です", "もし Fly.io に移行したら Heroku はやめます"),
    ("деплоим на Heroku", "если перейдём на Fly.io, Heroku больше не нужен"),
    # someone else's words; a question without its question mark
    ("desplegamos en Heroku", "según Juan ya no usamos Heroku, pasamos a Fly.io"),
    ("on déploie sur Heroku", "d'après Paul, on a quitté Heroku pour Fly.io"),
    ("배포는 Heroku로 해요", "Heroku 말고 Fly.io로 바꿀까"),
    # a word opening a sentence before its object is a verb, not the tool of that name
    ("Deploys go through Render", "Render the docs with mkdocs now, not sphinx"),
    # one everyday word in common is no subject ("rama": branch; "commit"; "release")
    ("la rama main está protegida", "el código va en la rama develop; main ya no se usa"),
    ("Never commit secrets to the repo", "update: each commit now needs a ticket id"),
    ("Release notes are written in Markdown", "Release cadence moved to monthly"),
    # katakana words that share characters are two words
    ("テストセットは tests/fixtures にあります", "変更セットは廃止です"),
    ("テストデータは fixtures/ にあります", "ログデータは S3 に移りました"),
], ids=["en-one-off", "de-one-off", "ja-one-off", "ru-one-off", "en-one-meeting",
        "es-hypothetical", "fr-hypothetical", "ja-hypothetical", "ru-hypothetical",
        "es-reported", "fr-reported", "ko-question", "en-verb", "es-rama", "en-commit",
        "en-release", "ja-kana-set", "ja-kana-data"])
def test_a_turn_about_something_else_leaves_the_stored_note_as_it_was(
        memenv: MemEnv, first: str, then: str) -> None:
    assert [op["action"] for op in say(memenv, first, "--apply")["operations"]] == ["create"]
    before = notes_in(memenv.project)
    (name,) = before
    ops = say(memenv, then, "--apply")["operations"]
    assert all(op.get("filename") != name for op in ops), ops
    assert notes_in(memenv.project)[name] == before[name]


def test_someone_elses_words_leave_the_setting_alone(memenv: MemEnv) -> None:
    say(memenv, "we deploy with Heroku", "--apply")
    before = notes_in(memenv.project)
    say(memenv, "Alice says we moved to Fly.io, Heroku is gone", "--apply")
    after = notes_in(memenv.project)
    assert {name: after[name] for name in before} == before


@pytest.mark.parametrize(("first", "then", "new"), [
    # a move that happened this week is a move
    ("We deploy with Heroku.", "this week we moved everything to Fly.io, Heroku is gone",
     "Fly.io"),
    ("배포는 Render 로 해요.", "이번 주에 Render 에서 Fly.io 로 옮겼어요", "Fly.io"),
    ("On déploie sur Gigalixir.",
     "cette semaine on a migré vers Clever Cloud, Gigalixir c'est fini", "Clever Cloud"),
    # from then on is the habit
    ("The demo is every Thursday.", "from next week on the demo moved to Fridays", "Fridays"),
    # Chinese words in common, read as words
    ("短信通道走阿里云。", "短信通道换成腾讯云了，阿里云不用了", "腾讯云"),
    # a name in common that is no everyday word, in lower case
    ("The sync jobs are orchestrated by airflow.",
     "forget airflow, we migrated the sync jobs to dagster", "dagster"),
    ("Don't add lodash, we write the helpers ourselves.", "lodash is allowed again",
     "allowed again"),
], ids=["en-this-week", "ko-this-week", "fr-this-week", "en-from-next-week", "zh-words",
        "en-lower-case-name", "en-reversal"])
def test_a_real_correction_still_replaces_the_note(
        memenv: MemEnv, first: str, then: str, new: str) -> None:
    assert_replaces(memenv, first, then, new)


@pytest.mark.parametrize("text", [
    "this week only we use Notion, Confluence is off",
    "nur diese Woche deployen wir mit Render statt Heroku",
    "solo por hoy usamos Vitest en vez de Jest",
], ids=["en", "de", "es"])
def test_a_one_off_gives_no_note(memenv: MemEnv, text: str) -> None:
    assert say(memenv, text, "--apply")["operations"] == []
    assert notes_in(memenv.project) == {}
