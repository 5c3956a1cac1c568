"""Corrections replace: a turn that says a setting changed updates the note of that setting
instead of adding a second one, in the person's words and whatever words they use; a turn
about another setting leaves it alone.

The phrasings are not rows of the corpus (benchmarks/data/extraction/): each test asserts
a behaviour of the store side (which stored note a statement changes), not a score.
"""

from __future__ import annotations

import datetime
import json

import pytest

from memcli.extraction.rules.revisions import says_change
from memcli.extraction.rules.settings_said import settings_said
from memcli.extraction.rules.slots import salient_names, shared_slot, slots_of, title_slot
from tests.conftest import MemEnv
from tests.extract_turns import naming, notes_in, say


@pytest.mark.parametrize(("first", "then", "old", "new", "words"), [
    ("サービスディスカバリは Consul を使っています",
     "Consul は廃止して、今は Nacos でサービスディスカバリしてます", "Consul", "Nacos", "廃止"),
    ("API は Cloudflare Workers で動いています",
     "Cloudflare Workers からは撤退して、全部 Deno Deploy に移りました", "Cloudflare Workers",
     "Deno Deploy", "撤退"),
    ("Die API läuft auf Cloudflare Workers",
     "Wir haben Cloudflare Workers verlassen, alles läuft jetzt auf Deno Deploy",
     "Cloudflare Workers", "Deno Deploy", "verlassen"),
    ("the api runs on cloudflare workers",
     "we left cloudflare workers, it all runs on deno deploy now", "cloudflare workers",
     "deno deploy", "we left"),
    ("배포는 hardhat-deploy로 하고 있어", "hardhat-deploy 이제 안 써, forge script로 옮겼어",
     "hardhat-deploy", "forge script", "옮겼어"),
    # the first statement names the setting; neither turn holds a cue word
    ("ORM は Prisma を使っています", "Prisma はやめて Drizzle に移行しました", "Prisma",
     "Drizzle", "移行"),
    ("Als ORM nutzen wir SQLAlchemy", "Wir haben SQLAlchemy durch Tortoise ersetzt",
     "SQLAlchemy", "Tortoise", "ersetzt"),
    ("the api runs in us-east-1", "heads up: we moved the api to eu-west-1", "us-east-1",
     "eu-west-1", "moved the api"),
], ids=["ja-discovery", "ja-hosting", "de-hosting", "en-hosting", "ko-particle", "ja-orm",
        "de-orm", "en-region"])
def test_a_later_turn_that_says_a_setting_changed_leaves_one_note(
        memenv: MemEnv, first: str, then: str, old: str, new: str, words: str) -> None:
    assert len(say(memenv, first, "--apply")["operations"]) == 1
    (before,) = naming(notes_in(memenv.project), old)
    ops = say(memenv, then, "--apply")["operations"]
    assert [op["action"] for op in ops] == ["update"]
    assert ops[0]["filename"] == before
    assert words in ops[0]["reason"]  # the person's words are the update's reason
    notes = notes_in(memenv.project)
    assert naming(notes, old, new) == [before]
    assert new in notes[before]


def test_a_change_to_one_setting_leaves_the_other_settings_alone(memenv: MemEnv) -> None:
    say(memenv, "Releases machen wir mit fastlane", "--apply")
    say(memenv, "Die API läuft auf Cloudflare Workers", "--apply")
    docs = notes_in(memenv.project)
    assert len(docs) == 2
    (op,) = say(memenv, "Wir haben Cloudflare Workers verlassen, alles läuft jetzt auf "
                        "Deno Deploy", "--apply")["operations"]
    assert op["action"] == "update"
    notes = notes_in(memenv.project)
    assert len(notes) == 2
    (releases,) = naming(notes, "fastlane")
    assert notes[releases] == docs[releases]  # not touched
    assert naming(notes, "deno deploy") != [releases]


@pytest.mark.parametrize(("a", "b"), [
    # two settings of the same store, said in the words of a change
    ("l'api est sur heroku", "on a quitté jenkins, la CI est sur github actions maintenant"),
    ("el front está en netlify", "ya no usamos jenkins, ahora la CI está en github actions"),
    ("errors go to Sentry", "we moved the logs to Loki"),
    ("the database is Postgres", "we switched the cache to Memcached"),
    ("we deploy to Fly.io", "CI moved to GitHub Actions"),
    ("the ORM is Prisma", "the message queue is now RabbitMQ"),
    # the settings added with mobile releases and dependency injection stay apart
    ("iOS releases go out through fastlane", "we moved DI to Hilt last sprint"),
    ("依赖注入用 Koin", "发布现在改用 Xcode Cloud 了"),
])
def test_two_different_settings_share_no_slot_and_no_name(a: str, b: str) -> None:
    assert shared_slot(a, b) is None
    assert not salient_names(a) & salient_names(b)


@pytest.mark.parametrize(("a", "b", "slot"), [
    ("auth goes through Keycloak", "we moved login to Auth0", "auth provider"),
    ("ORM は Prisma です", "Drizzle に移行しました", "orm"),
    ("消息队列用 RabbitMQ", "现在全部换成 Kafka 了", "queue"),
    ("Wir loggen mit loguru", "structlog ersetzt loguru", "logging"),
    ("the api runs in us-east-1", "we moved to eu-west-1", "hosting region"),
    ("we're on node 18", "all services run node 22 now", "node version"),
    ("Les erreurs partent dans Rollbar", "on est passé à Sentry", "error tracker"),
    ("los flags están en LaunchDarkly", "cambiamos a Unleash", "feature flags"),
])
def test_settings_people_change_are_slots_in_any_language(a: str, b: str, slot: str) -> None:
    assert shared_slot(a, b) == slot


@pytest.mark.parametrize("text", [
    "switch the database to postgres",
    "why is the database on mysql so slow?",
    "e.g. the ORM could be Prisma",
    "Assistant: noted, the database is Postgres.",
    "perhaps the message queue becomes Kafka, not sure yet",
    "npm WARN deprecated request@2.88.2: the ORM request has been deprecated",
])
def test_a_setting_named_in_a_request_a_question_or_a_hedge_is_not_a_setting_said(
        text: str) -> None:
    assert settings_said(text, datetime.date(2026, 5, 12), 1, []) == []


@pytest.mark.parametrize("text", [
    "DB는 오라클 19c예요", "l'autenticazione passa da Keycloak", "消息队列用 RabbitMQ",
    "RabbitMQ는 레거시고 지금은 Kafka로 다 넘어갔어",
])
def test_a_setting_said_in_passing_is_a_project_fact(text: str) -> None:
    (finding,) = settings_said(text, datetime.date(2026, 5, 12), 1, [])
    assert (finding.level, finding.type) == ("project", "project_knowledge")
    assert finding.quote == text


def test_a_tool_that_is_an_english_word_counts_only_capitalised() -> None:
    assert slots_of("Express serves the api") == {"web framework": frozenset({"express"})}
    assert slots_of("express the idea in one sentence") == {}
    # opening a sentence before its object, it is the verb
    assert slots_of("Express the idea in one sentence") == {}
    assert slots_of("Render the docs with mkdocs") == {"docs site": frozenset({"mkdocs"})}
    assert slots_of("Render is where the api runs") == {
        "deploy target": frozenset({"render"})}


@pytest.mark.parametrize("text", [
    "heads up, we moved everything to Fly.io", "Consul 已经下线了", "Storybook 解禁します",
    "hardhat-deploy 이제 안 써", "pasamos a gz sim", "troquei o traefik pelo caddy",
    "wir sind auf Deno Deploy umgezogen", "on a quitté cloudflare workers",
    "снова можно генерики", "niente più keycloak", "lodash is allowed again",
])
def test_the_words_of_a_change_are_read_in_ten_languages(text: str) -> None:
    assert says_change(text)


@pytest.mark.parametrize("text", [
    "we deploy with Heroku", "服务发现用的是 Consul", "デプロイは Gigalixir です",
    "los tests se corren con jest", "la base de données est PostgreSQL",
])
def test_a_plain_statement_is_not_a_change(text: str) -> None:
    assert not says_change(text)


def test_consolidate_sees_two_titles_of_a_new_setting(memenv: MemEnv) -> None:
    assert title_slot("Error tracker") == title_slot("Use Sentry") == "error tracker"
    for name, title, content, updated in (
            ("project_knowledge_error-tracker.md", "Error tracker",
             "Errors are reported to Rollbar.", "2026-01-01T00:00:00Z"),
            ("project_knowledge_use-sentry.md", "Use Sentry",
             "Errors go to Sentry since March.", "2026-06-01T00:00:00Z")):
        memenv.write_note("project", name, {"type": "project_knowledge", "title": title,
                                            "summary": content, "updated": updated},
                          content + "\n")
    assert memenv.invoke("index").exit_code == 0
    ops = json.loads(memenv.invoke("consolidate", "--json").stdout)["operations"]
    assert [op["filename"] for op in ops if op["action"] == "delete"] == [
        "project_knowledge_error-tracker.md"]
    assert "the same setting (error tracker)" in memenv.invoke("status", "--json").stdout
