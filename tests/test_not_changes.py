"""The words of a change that change no stored note, read in the ten languages: a one-off,
a hypothetical, a question, someone else's words, a status of the moment
(memcli.extraction.rules.not_changes); and changes said as they are, which stay changes.
tests/test_wrong_note.py has what they do to a store through `memcli extract --apply`.
"""

from __future__ import annotations

import pytest

from memcli.extraction.rules.not_changes import not_a_change


@pytest.mark.parametrize("text", [
    "for this PR use yarn, pnpm is broken on CI", "solo por hoy usamos Vitest en vez de Jest",
    "por enquanto o deploy vai pelo Render", "vorerst bleibt Jenkins",
    "pour l'instant on reste sur Heroku",
    "per ora usiamo Render", "пока что деплоим на Render", "这次先用 GitHub Actions",
    "今回だけ GitHub Actions に切り替えます", "이번만 GitHub Actions로 바꿔요",
    "what if we moved to Fly.io", "se a gente migrar pro Fly.io, o Heroku sai",
    "wenn wir zu Fly.io wechseln, ist Heroku weg", "nel caso passassimo a Fly.io",
    "如果换成 Fly.io",
    "만약 Fly.io로 옮기면 Heroku는 안 써", "did we move off Heroku already?",
    "¿ya no usamos Heroku?", "será que a gente já saiu do Heroku", "Heroku 还在用吗",
    "Heroku はもう使っていませんか", "my colleague said we moved to Fly.io",
    "팀장님이 Fly.io로 옮겼다고 했어요", "听说我们换成 Fly.io 了", "Fly.io に移ったらしい",
    "staging is down, deploys are paused", "il NAS è spento in manutenzione",
    "서버 점검 중입니다, 배포 중단",
], ids=lambda text: text[:24])
def test_the_words_of_a_change_that_changes_nothing_are_read_in_ten_languages(
        text: str) -> None:
    assert not_a_change(text) is not None


@pytest.mark.parametrize("text", [
    "heads up, we moved everything to Fly.io, Heroku is gone",
    "이번 주에 Render 에서 Fly.io 로 옮겼어요", "on a migré vers Clever Cloud cette semaine",
    "da oggi le password stanno nel vault, non più nel .env", "se levantó el veto, dbt vuelve",
    "si può usare di nuovo lombok", "like I said, we moved to pnpm",
    "you said yarn, but we use pnpm now", "Consul 已经下线了", "Storybook 解禁します",
    "hardhat-deploy 이제 안 써", "снова можно генерики", "webpack is out, we're on vite now",
    "이제 main에 푸시해도 돼", "theme は jquery 禁止って言ってたけど、解禁です",
], ids=lambda text: text[:24])
def test_a_change_said_as_it_is_is_a_change(text: str) -> None:
    assert not_a_change(text) is None
