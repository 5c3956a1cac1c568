"""search and recall: ranking, CJK, code tokens, the threshold, the cache, context --budget."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from note_sets import write_project_notes

from memcli.search.analyze import analyze, entity_terms, query_terms
from memcli.search.cues import asks_name, tells_name
from memcli.search.dates import asks_when, named_dates, nearness, tells_when
from memcli.search.fts import StoreIndex
from memcli.store.folder import StoreState, head_of
from memcli.store.note_bytes import render_new_note
from memcli.store.notes import parse_note
from memcli.tokens import count_tokens

NOTES: dict[str, tuple[str, str, str]] = {
    # file name: (title, summary, body)
    "project_knowledge_test-command.md": (
        "Test command", "Run the unit tests with make test.",
        "Run the unit tests with `make test`; it wraps `pytest -q tests/unit`."),
    "correction_feedback_force-push.md": (
        "Never force-push to main", "Use --force-with-lease on feature branches.",
        "Never force-push to main; on feature branches use `git push --force-with-lease`."),
    "project_knowledge_database-migrations.md": (
        "Database migrations", "Alembic migrations live in db/migrations.",
        "Schema changes go through Alembic; review the generated file before committing."),
    "project_knowledge_环境变量.md": (
        "环境变量配置", "本地开发使用 .env 文件。",
        "本地开发时把密钥放在 .env 文件里，不要提交到仓库。"),
    "project_knowledge_テスト.md": (
        "テストの実行", "テストは make test で実行する。",
        "データベースが必要なテストは Docker を起動してから実行してください。"),
    "user_preference_hiking.md": (
        "Weekend hiking", "Caroline went hiking in the mountains.",
        "Caroline went hiking with her family in the mountains last week."),
}


@pytest.fixture
def store(memenv: Any) -> Any:
    return write_project_notes(memenv, NOTES)


def search_json(env: Any, *args: str) -> list[dict[str, Any]]:
    result = env.invoke("search", "--json", *args)
    assert result.exit_code == 0, result.output
    hits: list[dict[str, Any]] = json.loads(result.stdout)["results"]
    return hits


def files(hits: list[dict[str, Any]]) -> list[str]:
    return [h["file"] for h in hits]


# ---------------------------------------------------------------------- analysis


def test_stemming_and_irregular_forms_meet() -> None:
    assert query_terms("she goes hiking").words == ["go", "hike"]
    assert analyze("She went hiking").words == ["go", "hike"]
    assert analyze("children").words == analyze("child").words
    assert analyze("running").words == analyze("runs").words


def test_code_tokens_are_kept_whole_and_split() -> None:
    words = analyze("git push --force-with-lease; pytest tests/unit").words
    assert "force-with-lease" in words and "leas" in words
    assert "tests/unit" in words and "unit" in words and "pytest" in words
    assert "make+test" in analyze("make test").pairs


def test_cjk_runs_become_bigrams() -> None:
    assert analyze("环境变量").words == ["环境", "境变", "变量"]
    assert analyze("東京").words == ["東京"]
    assert analyze("字").words == ["字"]


def test_names_are_capitalised_words_inside_a_sentence() -> None:
    assert entity_terms("What did Caroline do? Melanie went") == ["carolin"]
    assert entity_terms("Run it. Then fix parseConfig in src/Main.py") == []
    # A name is the whole word: `GitHub` is not `git` (which the note on `git push` holds),
    # and a note about GitHub Actions failed the names test of a prompt about them.
    assert entity_terms("Did the GitHub Actions run on PostgreSQL and Python3?") == [
        "github", "action", "postgresql", "python3"]


def test_months_and_weekdays_are_not_names() -> None:
    assert entity_terms("What did Maria start in December, and on Monday with Jean?") == [
        "maria", "jean"]


def test_question_words_leave_the_prompt_but_never_all_of_it() -> None:
    assert query_terms("what kind of food did she mention?").words == ["food"]
    assert "food" not in " ".join(query_terms("what kind of food did she mention?").pairs)
    assert query_terms("what did I say?").words == ["say"]  # nothing else to search for
    assert query_terms("what type hints do we use?").words == ["type", "hint", "use"]


def test_the_words_around_a_request_leave_the_prompt() -> None:
    assert query_terms("ok, now please just run the tests").words == ["run", "test"]
    assert query_terms("I always mix them up").words == ["mix"]


def test_dates_a_prompt_names() -> None:
    named = named_dates("what changed on 3 June, 2023, or June 5th 2023, or 2026-11-20?")
    assert [d.isoformat() for d in named.days] == ["2023-06-03", "2023-06-05", "2026-11-20"]
    assert named.months == ()
    assert named_dates("the deploy change in March 2026").months == ((2026, 3),)
    assert named_dates("on 31 February, 2023").days == ()  # no such day: the month stays
    assert not named_dates("we met in May, on the 3rd")
    assert not named_dates("run the tests")
    pasted = " ".join(f"2026-01-{d:02} ok 2026-01-{d:02}" for d in range(1, 32)) + " 2026-02-01"
    assert len(named_dates(pasted).days) == 31  # each once, and a pasted log's tail ignored


def test_relative_dates_need_the_day_the_prompt_is_asked() -> None:
    sunday = date(2026, 11, 29)

    def days(text: str) -> list[str]:
        return [d.isoformat() for d in named_dates(text, sunday).days]

    assert days("what broke yesterday?") == ["2026-11-28"]
    assert days("what did we do today") == ["2026-11-29"]
    assert days("the fix from 3 days ago") == ["2026-11-26"]
    assert days("a week ago") == [f"2026-11-{d}" for d in range(16, 23)]  # that day's week
    assert days("what did we decide last Monday?") == ["2026-11-23"]
    assert days("this week") == [f"2026-11-{d}" for d in range(23, 30)]
    assert days("last week") == [f"2026-11-{d}" for d in range(16, 23)]
    assert named_dates("what changed last month?", sunday).months == ((2026, 10),)
    assert not named_dates("what broke yesterday?")  # no day given: nothing to count from


def test_date_nearness_of_a_note() -> None:
    named = named_dates("what did we decide on 2026-11-20?")
    assert nearness(named, ("2026-11-20T09:00:00Z", "")) == 1.0
    assert nearness(named, ("2026-11-01T09:00:00Z", "2026-11-22T10:00:00Z")) == 0.5
    assert nearness(named, ("2026-10-20T09:00:00Z", "not a date")) == 0.0
    assert nearness(named_dates("in November 2026"), ("2026-11-30",)) == 1.0


def test_a_prompt_that_asks_when_and_a_note_that_says_when() -> None:
    assert asks_when("When did we move to Postgres?")
    assert asks_when("ok. how long has the flag been on?")
    assert asks_when("What year did we ship v2")
    assert not asks_when("run the tests when CI fails")  # `when` inside a sentence
    assert not asks_when("what is the test command?")
    for text in ("We moved to Postgres in March.", "on since 2024", "3 years ago",
                 "fixed last week", "in two weeks", "cut on Friday", "released in May"):
        assert tells_when(text), text
    for text in ("make test runs pytest", "you may skip it", "a weekly job", "mayday"):
        assert not tells_when(text), text


def test_a_prompt_that_asks_for_a_name_and_a_note_that_holds_one() -> None:
    for text in ("What book did Melanie read?", "which bands has she seen?",
                 "what's the name of the staging bucket?", "the film called what?"):
        assert asks_name(text), text
    for text in ("What did Melanie read?", "how do I rename the branch?", "notebooks",
                 "show me how to deploy"):
        assert not asks_name(text), text
    given = entity_terms("What book did Melanie read?")
    for text in ('Melanie read "Charlotte\'s Web".', "She read “Nothing is Impossible”.",
                 "The bucket is `stg-assets`.", "Melanie read a book by Ann Patchett."):
        assert tells_name(text, given), text
    for text in ("Melanie read a book.", "Melanie reads every night. She loves it.",
                 "Reading calms her in May."):
        assert not tells_name(text, given), text  # only the names the prompt gives


@pytest.mark.parametrize(("text", "query", "shown"), [
    ("The release checklist is at https://wiki.example.com/shop/release. Read it first.",
     "release checklist", "The release checklist is at https://wiki.example.com/shop/release."),
    ("Run go test ./... before tagging v1.4 of the CLI.", "go test",
     "Run go test ./... before tagging v1.4 of the CLI."),
])
def test_a_snippet_keeps_links_paths_and_versions_whole(text: str, query: str,
                                                        shown: str) -> None:
    from memcli.search.engine import snippet

    assert snippet(text, query_terms(query)) == shown


def test_token_estimate_counts_cjk_per_character() -> None:
    assert count_tokens("abcd" * 10) == 10
    assert count_tokens("环境变量") == 4
    assert count_tokens("") == 0


# ---------------------------------------------------------------------- search


def test_search_ranks_the_note_that_matches_best_first(store: Any) -> None:
    hits = search_json(store, "how do I run the unit tests?")
    assert files(hits)[0] == "project_knowledge_test-command.md"
    assert hits[0]["score"] >= hits[-1]["score"]
    assert "make test" in hits[0]["snippet"]


def test_search_ranks_a_note_written_on_the_day_asked_about_first(store: Any) -> None:
    for day in ("2026-11-18", "2026-11-20", "2026-11-24"):
        store.write_note("project", f"project_knowledge_deploy-{day}.md", {
            "type": "project_knowledge", "title": "Deploy decision",
            "summary": "We decided how deploys run.", "created": f"{day}T10:00:00Z",
            "updated": f"{day}T10:00:00Z"}, "We decided how deploys run.\n")
    ranked = files(search_json(store, "what did we decide about deploys on 20 November 2026?"))
    assert ranked[0] == "project_knowledge_deploy-2026-11-20.md"
    undated = files(search_json(store, "what did we decide about deploys?"))
    assert undated[0] != "project_knowledge_deploy-2026-11-20.md"  # the date alone decided
    # The fixed clock says Sunday 2026-11-29: "last Friday" is the 27th, within 3 days of
    # the 24th only.
    recent = files(search_json(store, "what did we decide about deploys last Friday?"))
    assert recent[0] == "project_knowledge_deploy-2026-11-24.md"


def _dated_note(env: Any, name: str, day: str, body: str) -> None:
    env.write_note("project", f"project_knowledge_{name}.md", {
        "type": "project_knowledge", "title": body.rstrip("."), "summary": body,
        "created": f"{day}T10:00:00Z", "updated": f"{day}T10:00:00Z"}, body + "\n")


def test_search_finds_a_note_of_the_day_asked_about_without_a_shared_word(store: Any) -> None:
    _dated_note(store, "disk", "2026-11-20", "The staging database moved to a larger disk.")
    _dated_note(store, "cache", "2026-11-12", "The build cache lives on the runner.")
    asked = files(search_json(store, "What changed on 20 November 2026?"))
    assert "project_knowledge_disk.md" in asked
    assert "project_knowledge_cache.md" not in asked  # another day: nothing brings it in
    month = files(search_json(store, "What changed in November 2026?"))
    assert {"project_knowledge_disk.md", "project_knowledge_cache.md"} <= set(month)
    assert "project_knowledge_disk.md" not in files(search_json(store, "What changed?"))
    # "yesterday" counts from the fixed clock (Sunday 2026-11-29).
    _dated_note(store, "flag", "2026-11-28", "Feature flag rollout paused.")
    assert files(search_json(store, "what happened yesterday?"))[0] == "project_knowledge_flag.md"


def test_the_notes_of_a_named_day_holding_the_prompts_terms_come_first(tmp_path: Path) -> None:
    state = StoreState("project", tmp_path, exists=True)
    bodies = ["The staging disk was resized."] + [f"Routine check {i}." for i in range(59)]
    for number, body in enumerate(bodies):
        name = f"project_knowledge_n{number:02d}.md"
        data = render_new_note({"type": "project_knowledge", "title": body, "summary": body,
                                "created": "2026-11-20T10:00:00Z"}, body)
        state.heads[name] = head_of("project", parse_note(name, data))
        state.raw[name] = data
    index = StoreIndex.open(None, state)
    try:
        picked = index.dated(query_terms("what about the disk?"), named_dates("2026-11-20"), 5)
        assert picked[0].filename == "project_knowledge_n00.md"  # the oldest row, but on topic
        assert len(picked) == 5 and all(h.score == 0.0 for h in picked)
        assert index.dated(query_terms("disk"), named_dates("2026-11-21"), 5) == []
    finally:
        index.close()


def test_the_days_of_a_note_follow_its_edits(store: Any) -> None:
    _dated_note(store, "disk", "2026-11-20", "The staging database moved to a larger disk.")
    assert "project_knowledge_disk.md" in files(search_json(store, "What changed on 2026-11-20?"))
    _dated_note(store, "disk", "2026-11-21", "The staging database moved to a larger disk.")
    assert "project_knowledge_disk.md" not in files(
        search_json(store, "What changed on 2026-11-20?"))
    assert "project_knowledge_disk.md" in files(search_json(store, "What changed on 2026-11-21?"))


def test_a_note_that_says_when_answers_a_prompt_that_asks_when(store: Any) -> None:
    for name, body in (("undated", "We moved the queue to Postgres."),
                       ("dated", "The queue moved to Postgres in March 2026.")):
        store.write_note("project", f"project_knowledge_postgres-{name}.md", {
            "type": "project_knowledge", "title": "Queue database", "summary": "Postgres.",
            "updated": "2026-11-29T10:00:00Z"}, body + "\n")
    asked = files(search_json(store, "When did we move the queue to Postgres?"))
    assert asked[0] == "project_knowledge_postgres-dated.md"
    # Asked otherwise, the note holding the prompt's phrase wins: the `when` decided.
    plain = files(search_json(store, "Did we move the queue to Postgres?"))
    assert plain[0] == "project_knowledge_postgres-undated.md"


def test_a_note_that_holds_a_title_answers_a_prompt_that_asks_for_one(store: Any) -> None:
    for name, body in (("plain", "Melanie read every evening."),
                       ("titled", 'Melanie read "Charlotte\'s Web" to her kids.')):
        store.write_note("project", f"project_knowledge_reading-{name}.md", {
            "type": "project_knowledge", "title": "Reading", "summary": "Melanie reads.",
            "updated": "2026-11-29T10:00:00Z"}, body + "\n")
    asked = search_json(store, "What book did Melanie read?")
    assert files(asked)[0] == "project_knowledge_reading-titled.md"
    # Asked otherwise, the shorter note wins (BM25): the cue decided.
    plain = search_json(store, "Did Melanie read every evening?")
    assert files(plain)[0] == "project_knowledge_reading-plain.md"


def test_search_stems_english(store: Any) -> None:
    assert files(search_json(store, "migrating the schema"))[0] == (
        "project_knowledge_database-migrations.md")


def test_search_finds_code_tokens(store: Any) -> None:
    assert files(search_json(store, "--", "--force-with-lease"))[0] == (
        "correction_feedback_force-push.md")
    assert files(search_json(store, "tests/unit"))[0] == "project_knowledge_test-command.md"


def test_search_finds_chinese_and_japanese(store: Any) -> None:
    assert files(search_json(store, "密钥放在哪里"))[0] == "project_knowledge_环境变量.md"
    assert files(search_json(store, "テストを実行"))[0] == "project_knowledge_テスト.md"


def test_search_covers_both_levels_and_filters_by_level(store: Any) -> None:
    store.write_note("user", "user_preference_tests.md", {
        "type": "user_preference", "title": "Unit tests", "summary": "Run unit tests often."})
    both = search_json(store, "unit tests")
    assert {h["level"] for h in both} == {"project", "user"}
    assert {h["level"] for h in search_json(store, "unit tests", "--level", "user")} == {"user"}


def test_search_limit(store: Any) -> None:
    assert len(search_json(store, "test", "--limit", "1")) == 1


def test_search_follows_changes_to_notes(store: Any) -> None:
    assert files(search_json(store, "kubernetes")) == []
    store.write_note("project", "project_knowledge_deploy.md", {
        "type": "project_knowledge", "title": "Deploy", "summary": "Kubernetes deploys."})
    assert files(search_json(store, "kubernetes")) == ["project_knowledge_deploy.md"]
    (store.project / "project_knowledge_deploy.md").unlink()
    assert files(search_json(store, "kubernetes")) == []


def test_search_keeps_its_index_out_of_the_store(store: Any, tmp_path: Path) -> None:
    before = store.snapshot(store.project)
    search_json(store, "tests")
    assert store.snapshot(store.project) == before
    cache = Path(store.env["MEMCLI_HOME"]) / "cache" / "search"
    assert list(cache.glob("*.db"))


def test_search_survives_a_corrupt_cache(store: Any) -> None:
    search_json(store, "tests")
    cache = Path(store.env["MEMCLI_HOME"]) / "cache" / "search"
    for db in cache.glob("*.db"):
        db.write_bytes(b"not a database at all" * 100)
    assert files(search_json(store, "make test"))[0] == "project_knowledge_test-command.md"


def test_search_text_output_and_no_match(store: Any) -> None:
    result = store.invoke("search", "alembic")
    assert result.exit_code == 0
    assert "project/project_knowledge_database-migrations.md" in result.stdout
    empty = store.invoke("search", "zzzz")
    assert empty.exit_code == 0 and empty.stdout == ""


# ---------------------------------------------------------------------- recall


def recall_json(env: Any, *args: str, input: str | None = None) -> dict[str, Any]:
    result = env.invoke("recall", *args, "--json", input=input)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_recall_returns_the_relevant_bodies(store: Any) -> None:
    data = recall_json(store, "run pytest on tests/unit")
    assert data["notes"][0]["file"] == "project_knowledge_test-command.md"
    assert "pytest -q tests/unit" in data["text"]
    assert data["tokens"] == count_tokens(data["text"]) and data["tokens"] <= data["budget"]
    assert data["tokenizer"].startswith("estimate")


def test_recall_returns_nothing_below_the_threshold(store: Any) -> None:
    # "write" and "haiku" barely touch the store: nothing is relevant enough.
    assert recall_json(store, "write a haiku about the autumn sea")["notes"] == []
    result = store.invoke("recall", "explain the difference between a list and a tuple")
    assert result.exit_code == 0 and result.stdout == ""


def test_recall_drops_notes_that_do_not_name_who_is_asked_about(store: Any) -> None:
    store.write_note("project", "user_preference_melanie.md", {
        "type": "user_preference", "title": "Melanie", "summary": "Melanie paints."})
    assert recall_json(store, "Where did Caroline go hiking?")["notes"]
    assert recall_json(store, "Where did Melanie go hiking?")["notes"] == []


def test_recall_abstains_when_the_prompt_is_about_someone_else(store: Any) -> None:
    # "Where did Melanie go hiking with her family…" is about what Caroline did: the note
    # about Melanie in the mountains covers enough of it, the one about Caroline much more.
    store.write_note("project", "user_preference_melanie.md", {
        "type": "user_preference", "title": "Melanie's retreat",
        "summary": "Melanie went to the mountains to paint."})
    assert recall_json(store, "Where did Melanie go in the mountains?")["notes"]
    assert recall_json(store, "Where did Melanie go hiking with her family in the "
                              "mountains?")["notes"] == []


def test_recall_a_prompt_of_several_sentences_by_the_one_a_note_answers(store: Any) -> None:
    prompt = ("The tests are failing after my last change. Can you run them and figure out "
              "what broke? I think it has something to do with the parser.")
    assert [n["file"] for n in recall_json(store, prompt)["notes"]][:1] == [
        "project_knowledge_test-command.md"]
    # A short sentence says too little to recall a note by itself.
    assert recall_json(store, "Thanks, that works. Now rename the helper to something "
                              "clearer and update the callers.")["notes"] == []


def test_recall_a_name_no_note_holds_says_the_prompt_is_about_something_else(
        store: Any) -> None:
    store.write_note("project", "correction_feedback_dates.md", {
        "type": "correction_feedback", "title": "Dates in UTC",
        "summary": "Store timestamps in UTC."},
        "Always store timestamps in UTC and convert to local time only in the UI.\n")
    assert recall_json(store, "which time zone do we store timestamps in?")["notes"]
    assert recall_json(store, "what time zone is Tokyo in?")["notes"] == []


def test_recall_respects_the_budget(store: Any) -> None:
    big = "Deployment notes. " + "The deploy runs kubectl apply on the cluster. " * 200
    store.write_note("project", "project_knowledge_deploy.md", {
        "type": "project_knowledge", "title": "Deploy", "summary": "How deploys run."}, big)
    small = recall_json(store, "how does the deploy run", "--budget", "100")
    assert small["notes"] == [] and small["text"] == ""
    large = recall_json(store, "how does the deploy run", "--budget", "5000")
    assert [n["file"] for n in large["notes"]] == ["project_knowledge_deploy.md"]
    assert large["tokens"] <= 5000


def test_recall_and_search_never_print_a_secret_typed_into_a_note(store: Any) -> None:
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    store.write_note("project", "project_knowledge_deploy-token.md", {
        "type": "project_knowledge", "title": "Deploy token", "summary": "The deploy token."},
        f"The deploy token for the staging cluster is {key}.\n")
    data = recall_json(store, "what is the deploy token for staging?")
    assert data["notes"] and key not in data["text"] and "[REDACTED]" in data["text"]
    hits = search_json(store, "deploy token staging")
    assert hits and all(key not in h["snippet"] for h in hits)


def test_recall_reads_the_prompt_from_stdin(store: Any) -> None:
    data = recall_json(store, "-", input="git push --force-with-lease ok?")
    assert data["notes"][0]["file"] == "correction_feedback_force-push.md"


def test_recall_default_budget_matches_the_engine() -> None:
    from memcli.cli import recall_commands
    from memcli.search import recall

    assert recall_commands.DEFAULT_BUDGET == recall.DEFAULT_BUDGET


def test_recall_bad_budget_is_a_usage_error(store: Any) -> None:
    result = store.call("recall", "--budget", "0", "tests")
    assert result.returncode == 2


# ---------------------------------------------------------------------- context


def test_context_budget_caps_the_tokens(store: Any) -> None:
    full = json.loads(store.invoke("context", "--json").stdout)
    assert full["tokens"] == count_tokens(full["text"])
    capped = json.loads(store.invoke("context", "--budget", "120", "--json").stdout)
    assert capped["tokens"] <= 120
    assert capped["shown"] < full["shown"] and capped["left_out"] > 0
    assert "more memory entries not shown" in capped["text"]


def test_a_chinese_question_is_not_diluted_by_its_asking_words(store: Any) -> None:
    # "我的编辑器是什么？" gave 的编 / 器是 / 是什 / 什么 beside 编辑 / 辑器: the note covered a
    # quarter of the prompt and recall returned nothing.
    store.write_note("user", "user_preference_编辑器.md", {
        "type": "user_preference", "title": "编辑器", "summary": "我用 vim 作为编辑器。"},
        "我用 vim 作为编辑器，快捷键按 vim 的习惯来。\n")
    for asked in ("我的编辑器是什么？", "我用什么编辑器？"):
        assert [n["file"] for n in recall_json(store, asked)["notes"]] == [
            "user_preference_编辑器.md"], asked
    # Asking words alone are still searched for (nothing else is left), and a question about
    # something else recalls nothing.
    assert recall_json(store, "今天天气怎么样？")["notes"] == []
    assert query_terms("什么？").words == ["什么"]


def test_an_empty_query_is_a_usage_error(store: Any) -> None:
    # `memcli search "$QUERY"` with an unset variable said "no note matches", exit 0.
    for query, stdin in (("", None), ("  ", None), ("-", "\n")):
        proc = store.call("search", query, input=stdin)
        assert proc.returncode == 2, (query, proc.stdout, proc.stderr)
        assert proc.stderr == ("memcli: error: the search query is empty: give the words to "
                               "look for\n")
        assert proc.stdout == ""
