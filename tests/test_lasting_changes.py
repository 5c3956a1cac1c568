"""A real correction worded around a word of the guards still replaces the note: "if" that
means "when" ("wenn wir deployen, dann ab jetzt ..."), a one-off word beside a word that
says the change lasts ("今回は ... に統一することにしました") or inside a clause about
something else ("(temporary Heroku apps are deleted)"), a status word about the old thing
("the old db server is down for good"), someone else's words before the person's own
("Bob said pnpm is faster, so we switched"), "segundo" and "laut" that are no "according
to" (review of issue 26 item 4).

The phrasings are not rows of the corpus (benchmarks/data/extraction/); each test goes
through `memcli extract` against a store, as tests/test_wrong_note.py does.
"""

from __future__ import annotations

import pytest

from tests.conftest import MemEnv
from tests.extract_turns import assert_replaces, notes_in, say

_CASES = [
    # 1. "if" that means "when": the change is said of every deploy
    ("Wir deployen mit Heroku.", "wenn wir deployen, dann ab jetzt mit Fly.io statt Heroku",
     "Fly.io"),
    ("部署用 Heroku。", "以后部署的话用 Fly.io，不再用 Heroku", "Fly.io"),
    ("デプロイは Heroku です。", "デプロイするなら、今後は Heroku ではなく Fly.io です",
     "Fly.io"),
    ("배포는 Heroku로 해요.", "앞으로 배포하면 Heroku 대신 Fly.io로 해요", "Fly.io"),
    ("деплоим на Heroku.", "если деплоим, то теперь на Fly.io вместо Heroku", "Fly.io"),
    ("desplegamos en Heroku.",
     "si desplegamos, a partir de ahora es en Fly.io en vez de Heroku", "Fly.io"),
    ("on déploie sur Heroku.", "si on déploie, c'est désormais sur Fly.io au lieu de Heroku",
     "Fly.io"),
    ("We deploy with Heroku.",
     "when we deploy, we use Fly.io now instead of Heroku; if a deploy fails, roll back",
     "Fly.io"),
    ("Wir deployen mit Heroku.",
     "wir deployen ab sofort mit Fly.io, falls du fragst, nicht mehr mit Heroku", "Fly.io"),
    # 2. a one-off word beside a word that says it lasts, or in a clause about something else
    ("パッケージ管理は npm です。", "今回は npm をやめて pnpm に統一することにしました",
     "pnpm"),
    ("パッケージ管理は npm です。", "とりあえず今後は npm をやめて pnpm にします", "pnpm"),
    ("패키지 매니저는 npm 이에요.", "일단 앞으로는 npm 대신 pnpm 써요", "pnpm"),
    ("CI runs on Jenkins.",
     "meanwhile we have moved CI to GitHub Actions for good, Jenkins is retired",
     "GitHub Actions"),
    ("la base de datos es MySQL.",
     "migramos de MySQL a Postgres; por ahora y en adelante usamos Postgres", "Postgres"),
    ("We deploy with Heroku.",
     "we now deploy with Fly.io, not Heroku (temporary Heroku apps are deleted)", "Fly.io"),
    # 3. a status word said of the old thing, or of when the habit applies
    ("The database is MySQL.",
     "We migrated from MySQL to Postgres; the old db server is down for good", "Postgres"),
    ("We page on-call with Opsgenie.",
     "during an outage we page on-call with PagerDuty now, not Opsgenie", "PagerDuty"),
    # 4. someone else's words, then the person's own
    ("We use npm.", "Bob said pnpm is faster, so we switched to pnpm instead of npm", "pnpm"),
    # 5. "segundo" (second) and "laut" (by) are no "according to"
    ("a wiki fica no Confluence.",
     "segundo passo feito: a wiki agora fica no Notion, não no Confluence", "Notion"),
    ("Das Wiki liegt in Confluence.",
     "laut Beschluss liegt das Wiki ab jetzt in Notion statt Confluence", "Notion"),
    # 6. a one-off word with a word that says it lasts
    ("Wir nutzen npm.", "ab heute gilt: wir nutzen vorerst und dauerhaft pnpm statt npm",
     "pnpm"),
]
_IDS = ["de-wenn", "zh-dehua", "ja-nara", "ko-myeon", "ru-esli", "es-si", "fr-si",
        "en-when-if", "de-falls", "ja-konkai", "ja-toriaezu", "ko-ildan", "en-meanwhile",
        "es-por-ahora", "en-parenthesis", "en-down-for-good", "en-outage", "en-bob-said",
        "pt-segundo", "de-laut", "de-vorerst"]


@pytest.mark.parametrize(("first", "then", "new"), _CASES, ids=_IDS)
def test_a_lasting_correction_replaces_the_note(
        memenv: MemEnv, first: str, then: str, new: str) -> None:
    assert_replaces(memenv, first, then, new)


@pytest.mark.parametrize(("text", "new"), [
    ("por ahora y siempre: los commits van en inglés", "inglés"),
    ("ab heute gilt: wir nutzen vorerst und dauerhaft pnpm statt npm", "pnpm"),
], ids=["es", "de"])
def test_a_one_off_word_beside_a_lasting_one_gives_a_note(
        memenv: MemEnv, text: str, new: str) -> None:
    ops = say(memenv, text, "--apply")["operations"]
    assert ops and all(op["action"] == "create" for op in ops), ops
    notes = {**notes_in(memenv.project), **notes_in(memenv.user)}
    assert any(new in note for note in notes.values()), notes
