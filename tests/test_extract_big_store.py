"""`extract --provider rules` on a big store: the plan it always gave, read no further than
needed (issue 26 item 6; docs/extractor-model.md, "Start-up").

The rules read a store's notes only for a turn that proposes something, each note's head
from a cache in <memcli home>/cache/known/ unless the note changed; matching asks only the
notes that can answer. None of that may change a plan: the expected plans below are what
memcli gave before any of it (reading and asking every note), on the same store.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from tiers import share

from tests.conftest import FIXED_NOW, MemEnv, note_text

FACT = "heads up, we moved everything from Heroku to Fly.io last month"
REPEAT = "Always run the linter before you push."
NOTHING = "can you look at why the login test fails on CI? here is the log"
WORDS = ("build", "cache", "deploy", "schema", "retry", "queue", "worker", "parser", "token",
         "branch", "release", "lint", "format", "config", "secret", "backup", "proxy",
         "pytest", "ruff", "docker", "postgres", "redis", "kafka", "yarn", "heroku-cli",
         "webhook", "cron", "logging", "metrics", "linter", "push", "pnpm", "tests", "café",
         "größe", "東京")
TYPES = ("project_knowledge", "correction_feedback", "reference_material")


def _big_store(memenv: MemEnv, per_level: int) -> None:
    """PER_LEVEL generated notes a level (seeded), and the notes the turns are about."""
    rng = random.Random(26)
    for level in ("project", "user"):
        store = memenv.store(level)
        store.mkdir(parents=True, exist_ok=True)
        types = TYPES if level == "project" else ("user_preference",)
        for number in range(per_level):
            words = [rng.choice(WORDS) for _ in range(rng.randint(2, 4))]
            title = " ".join(words).capitalize() + f" {number}"
            summary = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 8))).capitalize()
            note_type = rng.choice(types)
            slug = "-".join(f"{level} {number}".split())
            meta = {"type": note_type, "title": title, "summary": summary + ".",
                    "updated": "2026-11-01T09:00:00Z"}
            (store / f"{note_type}_{slug}.md").write_text(note_text(meta), "utf-8")
    memenv.write_note("project", "project_knowledge_deploy-with-heroku.md",
                      {"type": "project_knowledge", "title": "Deploy with Heroku",
                       "summary": "We deploy the app to Heroku.", "updated": "2026-10-01"})
    memenv.write_note("project", "correction_feedback_run-the-linter-before-you-push.md",
                      {"type": "correction_feedback", "title": "Run the linter before you push",
                       "summary": "Lint first, push after.", "updated": "2026-10-02"})
    # Broken: the index line MEMORY.md holds for it is what the rules know of it.
    memenv.write_note("project", "project_knowledge_broken-note.md", raw=b"---\ntitle: [\n---\n")
    assert memenv.invoke("index").exit_code == 0


def _extract(memenv: MemEnv, text: str, *flags: str, refused: bool = False) -> dict[str, Any]:
    line = json.dumps({"role": "user", "content": text}) + "\n"
    result = memenv.invoke("extract", "--provider", "rules", "--json", *flags, input=line)
    assert (result.exit_code != 0) == refused, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def _plan(document: dict[str, Any]) -> list[tuple[str, ...]]:
    return [(op["action"], op["level"], op.get("filename", ""), op["title"],
             op.get("reason", "")) for op in document["operations"]]


# What memcli gave before the store was read lazily and matched by candidates (recorded
# with the code of main at 5d36133, reading and asking every note).
UPDATES_A_FACT = [
    ("update", "project", "project_knowledge_deploy-with-heroku.md",
     "We moved everything from Heroku to Fly.io last", "user said: 'heads up, we moved "
     "everything from Heroku to Fly.io last month'")]
REPEATS_A_NOTE = [
    ("update", "project", "correction_feedback_run-the-linter-before-you-push.md",
     "Run the linter before you push", "user said: 'Always run the linter before you "
     "push.'; updates 'Run the linter before you push' (the same title words)")]


@pytest.fixture(scope="module")
def big_template(tmp_path_factory: pytest.TempPathFactory) -> MemEnv:
    """The 1,500-notes-a-level store, made and indexed once for the module's tests."""
    root = tmp_path_factory.mktemp("big-store")
    home = root / "home"
    project = root / "repo" / ".memcli" / "memory"
    env = {"HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"),
           "MEMCLI_PROJECT_STORE": str(project), "MEMCLI_NOW": FIXED_NOW, "NO_COLOR": "1"}
    template = MemEnv(root, root / "repo", project, home / ".memcli" / "memory", env)
    _big_store(template, 1500)
    return template


@pytest.fixture
def big(memenv: MemEnv, big_template: MemEnv) -> MemEnv:
    """A copy of the template's two stores (times kept) in this test's own stores."""
    for level in ("project", "user"):
        shutil.copytree(big_template.store(level), memenv.store(level))
    return memenv


def test_a_big_store_gives_the_plans_it_always_gave(big: MemEnv) -> None:
    for _ in range(2):  # the second time, every note's head comes from the cache
        assert _plan(_extract(big, FACT)) == UPDATES_A_FACT
        assert _plan(_extract(big, REPEAT)) == REPEATS_A_NOTE
        refused = _extract(big, REPEAT, "--on-conflict", "fail", refused=True)
        assert refused["operations"] == []
        assert "nearly repeats project/correction_feedback_run-the-linter-before-you" \
            in refused["rejected"][0]["reason"]
        assert _extract(big, NOTHING)["operations"] == []


def test_the_base_is_that_of_the_notes_read(big: MemEnv) -> None:
    """Whether the turn read the notes or only MEMORY.md, the base is MEMORY.md's."""
    import hashlib

    wanted = {level: "sha256:" + hashlib.sha256(
        (big.store(level) / "MEMORY.md").read_bytes()).hexdigest() for level in ("project", "user")}
    assert _extract(big, NOTHING)["base"] == wanted
    assert _extract(big, FACT)["base"] == wanted


def _cache_files(memenv: MemEnv) -> list[Path]:
    folder = Path(memenv.env["MEMCLI_HOME"]) / "cache" / "known"
    return sorted(folder.glob("*.marshal")) if folder.is_dir() else []


def test_a_turn_that_proposes_nothing_reads_no_note(big: MemEnv) -> None:
    _extract(big, NOTHING)
    assert _cache_files(big) == []
    _extract(big, FACT)
    files = _cache_files(big)
    assert len(files) == 2
    assert all(f.stat().st_mode & 0o077 == 0 for f in files)  # the user store's titles


def _heroku_note(memenv: MemEnv) -> Path:
    return memenv.store("project") / "project_knowledge_deploy-with-heroku.md"


def test_a_note_edited_by_hand_is_read_again(memenv: MemEnv) -> None:
    """Same size, the modification time set back: the change time still tells."""
    _big_store(memenv, 50)
    assert _plan(_extract(memenv, FACT)) == UPDATES_A_FACT
    note = _heroku_note(memenv)
    before = note.stat()
    text = note.read_text("utf-8")
    # Nothing about deploying is left: the statement no longer updates this note.
    edited = text.replace("Deploy with Heroku", "Dinner with friend").replace(
        "We deploy the app to Heroku.", "We dine with friends at six.")
    assert len(edited.encode()) == before.st_size
    note.write_text(edited, "utf-8")
    os.utime(note, ns=(before.st_atime_ns, before.st_mtime_ns))
    plan = _plan(_extract(memenv, FACT))
    assert plan and plan[0][0] == "create"


def test_notes_added_removed_or_broken_since_the_cache_are_seen(memenv: MemEnv) -> None:
    _big_store(memenv, 50)
    assert _plan(_extract(memenv, FACT)) == UPDATES_A_FACT
    _heroku_note(memenv).unlink()
    assert _plan(_extract(memenv, FACT))[0][0] == "create"
    memenv.write_note("project", "project_knowledge_hosting.md",
                      {"type": "project_knowledge", "title": "Hosting",
                       "summary": "The app runs on Heroku.", "updated": "2026-10-03"})
    assert _plan(_extract(memenv, FACT))[0][:3] == (
        "update", "project", "project_knowledge_hosting.md")
    # A note that no longer parses is known by its index line only (here: none).
    memenv.write_note("project", "project_knowledge_hosting.md", raw=b"---\ntitle: [\n---\n")
    assert _plan(_extract(memenv, FACT))[0][0] == "create"


def test_a_cache_that_is_not_one_is_ignored(big: MemEnv) -> None:
    import marshal

    _extract(big, FACT)
    # Not marshal data; another format's record (as an older memcli wrote it); a length
    # past the end of the file.
    for data in (b"\x00not marshal data", marshal.dumps((2, None, [], [])),
                 (10**9).to_bytes(8, "little") + b"\x00"):
        for file in _cache_files(big):
            file.write_bytes(data)
        assert _plan(_extract(big, FACT)) == UPDATES_A_FACT


def test_a_cache_cut_short_is_set_aside_and_the_notes_read_again(big: MemEnv) -> None:
    """Its header read, the heads it promises missing: the run that finds out sets the file
    aside and matches the turn against the notes themselves (a derived file never fails a
    turn), answering as a run without any cache does."""
    _extract(big, FACT)
    for file in _cache_files(big):
        file.write_bytes(file.read_bytes()[:-4000])
    assert _plan(_extract(big, FACT)) == UPDATES_A_FACT  # exit 0, checked in _extract
    assert _plan(_extract(big, FACT)) == UPDATES_A_FACT


def test_a_cache_with_garbage_past_its_header_is_set_aside_too(big: MemEnv) -> None:
    """Bytes memcli did not write where heads or postings should be: never a traceback."""
    _extract(big, FACT)
    for file in _cache_files(big):
        data = file.read_bytes()
        file.write_bytes(data[:-4000] + b"\xff" * 4000)
    assert _plan(_extract(big, FACT)) == UPDATES_A_FACT
    assert _plan(_extract(big, FACT)) == UPDATES_A_FACT


# Notes as people and other tools spell them: the key index (memcli.extraction.note_keys)
# must find every note today's candidates answer with, whatever the spelling.
ODD_NOTES = [
    ("project", "project_knowledge", "Run the linter before you pu\u017fh", "Lint, then push."),
    ("project", "project_knowledge", "Deploy with \u212aubernetes", "We deploy to k8s."),
    ("project", "project_knowledge", "Test\u200b command", "The tests run with pytest."),
    ("project", "project_knowledge", "测试命令", "跑测试用 make test。"),
    ("project", "correction_feedback", "永远不要直接提交到 main", "不要直接提交到 main 分支。"),
    ("project", "project_knowledge", "PACKAGE MANAGER...", "We use pnpm."),
    ("project", "project_knowledge", "Use  pnpm。", "pnpm, not npm."),
    ("project", "project_knowledge", "Database", "Postgres 16 in production."),
    ("project", "project_knowledge", "Database", "The tests use sqlite."),
    ("user", "user_preference", "Answer language", "Answer in English."),
    ("user", "user_preference", "İndentation: four spaces", "Four spaces, never tabs."),
    ("user", "user_preference", "No emoji", "Never use emoji in replies."),
    ("project", "correction_feedback", "Use requests, not urllib", "requests only."),
    ("user", "correction_feedback", "Don't use moment", "Never moment.js."),
]


def _turns() -> list[str]:
    """Turns of the labelled dev split (English and Chinese), beside the ones above."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "extraction" / "dev.jsonl"
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    changes = ["heads up, we moved everything to Fly.io", "fyi we switched to yarn",
               "the db is mysql now", "we format with black now", "tests run with vitest now",
               "use httpx, not requests", "don't use moment", "you can use moment again"]
    return [FACT, REPEAT, NOTHING, *changes, *(row["text"] for row in rows[::6])]


# The tiers share the turns and the titles below, none asked twice (tests/tiers.py): the
# fast tier asks the last and every fourth before it, the slow tier the other three quarters.
def test_the_notes_keys_give_the_answers_asking_every_candidate_gives(memenv: MemEnv) -> None:
    """The plans of generated turns, matched through the notes' cached keys, against those
    matched by asking today's candidates (a list of the same notes carries no keys), in all
    three --on-conflict modes."""
    _keys_give_the_answers_asking_gives(memenv, fast_share=True)


@pytest.mark.slow  # the other three quarters of the turns, each against 600 notes twice
def test_the_notes_keys_give_the_answers_asking_every_candidate_gives_other_turns(
        memenv: MemEnv) -> None:
    _keys_give_the_answers_asking_gives(memenv, fast_share=False)


def _keys_give_the_answers_asking_gives(memenv: MemEnv, fast_share: bool) -> None:
    import datetime

    from memcli.commands.extract_stores import KnownNotes, StoreView
    from memcli.extraction.dedupe import merge_near_duplicates
    from memcli.extraction.rules import extract_rules
    from memcli.messages import Message
    from memcli.settings.resolve import Flags, resolve

    _big_store(memenv, 300)
    for number, (level, note_type, title, summary) in enumerate(ODD_NOTES):
        memenv.write_note(level, f"{note_type}_odd-{number}.md",
                          {"type": note_type, "title": title, "summary": summary,
                           "updated": "2026-10-05"})
    today = datetime.date(2026, 12, 7)
    for _ in range(2):  # the second time, every note's head and keys come from the cache
        with StoreView(resolve(Flags(), memenv.env, memenv.repo)) as view:
            keyed = KnownNotes(view)
            plain = list(keyed)
        assert keyed.key_index().size == len(plain) > 600
        for text in share(_turns(), fast_share):
            messages = [Message("user", text)]
            ops = extract_rules(messages, keyed, today=today)
            assert ops == extract_rules(messages, plain, today=today), text
            for mode in ("update", "fail", "rename"):
                mine, theirs = (merge_near_duplicates(ops, known, mode) for known in (keyed, plain))
                assert (mine.operations, mine.refused, mine.merged, mine.sources) == (
                    theirs.operations, theirs.refused, theirs.merged, theirs.sources), text


def test_a_renamed_or_hand_edited_note_is_not_matched_by_its_old_keys(memenv: MemEnv) -> None:
    """Every note cached (the fast path): a note renamed, then one edited in place with its
    size and modification time kept, is read again and matched by what it says now."""
    _big_store(memenv, 50)
    assert _plan(_extract(memenv, FACT)) == UPDATES_A_FACT
    assert _plan(_extract(memenv, FACT)) == UPDATES_A_FACT  # from the cache
    old = _heroku_note(memenv)
    new = old.with_name("project_knowledge_hosting.md")
    old.rename(new)
    assert _plan(_extract(memenv, FACT))[0][:3] == ("update", "project", new.name)
    before = new.stat()
    text = new.read_text("utf-8")
    edited = text.replace("Deploy with Heroku", "Dinner with friend").replace(
        "We deploy the app to Heroku.", "We dine with friends at six.")
    new.write_text(edited, "utf-8")
    os.utime(new, ns=(before.st_atime_ns, before.st_mtime_ns))
    plan = _plan(_extract(memenv, FACT))
    assert plan and plan[0][0] == "create"


def test_a_batch_a_killed_process_left_is_finished_before_the_notes_are_read(
        big: MemEnv) -> None:
    """The listing the lock takes is what the notes are read from only when nothing was
    left to finish: a batch folder is recovered (discarded here: it holds no commit mark)
    and the notes are read as they are."""
    _extract(big, FACT)
    batch = big.store("project") / ".memcli-txn-0123456789abcdef"
    batch.mkdir()
    assert _plan(_extract(big, FACT)) == UPDATES_A_FACT
    assert not batch.exists()


class _Keyed(list):  # type: ignore[type-arg]
    """Notes that carry their keys, as `extract`'s stored notes do."""

    def key_index(self) -> Any:
        from memcli.extraction.key_index import KeyIndex
        from memcli.extraction.note_keys import note_keys

        return KeyIndex([note_keys(n.title, n.summary) for n in self])


def test_near_duplicates_found_through_keys_are_those_asking_every_candidate_finds() -> None:
    """Titles one word longer or shorter among four or more, reordered, in the plural,
    joined into one word, of one topic or choice of tool, in Chinese: a create of each is
    merged as asking today's candidates merges it, in all three modes."""
    _near_duplicates_through_keys_are_those_asking_finds(fast_share=True)


@pytest.mark.slow  # the other three quarters of the titles, each among 162 notes six ways
def test_near_duplicates_found_through_keys_are_those_asking_every_candidate_finds_others(
        ) -> None:
    _near_duplicates_through_keys_are_those_asking_finds(fast_share=False)


def _near_duplicates_through_keys_are_those_asking_finds(fast_share: bool) -> None:
    from memcli.extraction.dedupe import merge_near_duplicates
    from memcli.store.index import IndexEntry

    bases = ["Run the linter before every push", "Deploy the api with fly on fridays",
             "Never commit directly to main", "Pre commit hooks run ruff and mypy",
             "Test command", "Use pnpm instead of npm", "Staging database lives in eu west"]
    titles: list[str] = []
    for base in bases:
        words = base.split()
        titles += [base, " ".join(words[1:]), base + " always", " ".join(reversed(words)),
                   base + "s", base.replace(" ", "", 1), base.upper() + "..."]
    titles += ["测试命令", "永远不要直接提交到 main", "Package manager", "Use yarn", "Deployment"]
    rng = random.Random(26)
    notes = _Keyed()
    for number, title in enumerate(titles * 3):
        level = ("project", "user")[number % 2]
        summary = " ".join(rng.sample([*title.split(), "notes", "team"], 2)) + "."
        notes.append(IndexEntry(level, "project_knowledge", title, summary,
                                f"project_knowledge_n{number}.md", "2026-10-01"))
    rng.shuffle(notes)
    # Each title's summary drawn in order for all of them, whichever the tier asks.
    summaries = [rng.choice([title, "", title + " for the team."]) for title in titles]
    for title, summary in share(zip(titles, summaries, strict=True), fast_share):
        ops = [{"action": "create", "level": level, "type": "project_knowledge",
                "title": title, "summary": summary, "content": summary or title}
               for level in ("project", "user")]
        # Among all the notes, and among those of other titles (the answer, then, is a note
        # of other words: a topic's other name, the same statement in Chinese, ...).
        others = _Keyed(note for note in notes if note.title != title)
        for known, mode in itertools.product((notes, others), ("update", "fail", "rename")):
            mine, theirs = (merge_near_duplicates(ops, sequence, mode) for sequence in
                            (known, list(known)))
            assert (mine.operations, mine.refused, mine.merged) == (
                theirs.operations, theirs.refused, theirs.merged), (title, mode)


def test_a_note_that_answers_after_a_hand_edit_is_found_from_the_cache_too(
        memenv: MemEnv) -> None:
    """The keys' postings cached with the notes are made anew when a note changes: the run
    after the edit reads the note, and the one after that finds it through the cache."""
    _big_store(memenv, 50)
    assert _plan(_extract(memenv, FACT)) == UPDATES_A_FACT
    assert _plan(_extract(memenv, FACT)) == UPDATES_A_FACT  # from the cache
    _heroku_note(memenv).unlink()
    hosting = memenv.store("project") / "project_knowledge_hosting.md"
    memenv.write_note("project", hosting.name,
                      {"type": "project_knowledge", "title": "Hosting",
                       "summary": "The app runs on the old cluster.", "updated": "2026-10-03"})
    assert _plan(_extract(memenv, FACT))[0][0] == "create"
    assert _plan(_extract(memenv, FACT))[0][0] == "create"  # cached, without Heroku
    before = hosting.stat()
    text = hosting.read_text("utf-8")
    edited = text.replace("the old cluster.", "Heroku, dyno 30.")
    assert len(edited.encode()) == before.st_size
    hosting.write_text(edited, "utf-8")
    os.utime(hosting, ns=(before.st_atime_ns, before.st_mtime_ns))
    for _ in range(2):  # read again, then from the cache made of what it says now
        assert _plan(_extract(memenv, FACT))[0][:3] == ("update", "project", hosting.name)


def _closure(module: str) -> set[str]:
    """MODULE and every memcli module it imports, directly or through another."""
    from tests.test_architecture import _graph

    graph = _graph()
    closure: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        if name not in closure:
            closure.add(name)
            todo += graph.get(name, ())
    return closure


def test_the_keys_are_stamped_with_every_module_they_are_derived_with() -> None:
    """An edit to any module note_keys runs (directly or through another) starts the cached
    keys anew: the list the stamp is made of is the closure of note_keys' memcli imports."""
    from memcli.extraction.note_keys import _DERIVED_FROM

    closure = _closure("memcli.extraction.note_keys")
    assert sorted(closure - set(_DERIVED_FROM)) == [], "add these to note_keys._DERIVED_FROM"
    assert sorted(set(_DERIVED_FROM) - closure) == [], "note_keys no longer runs these"


def test_the_heads_are_stamped_with_every_module_that_reads_them() -> None:
    """The same for the cached heads: an edit to any module memcli.store.known runs
    (parsing a note, making its index line) starts the cache of heads anew."""
    from memcli.store.heads_cache import PARSERS

    closure = _closure("memcli.store.known")
    assert sorted(closure - set(PARSERS)) == [], "add these to heads_cache.PARSERS"
    assert sorted(set(PARSERS) - closure) == [], "memcli.store.known no longer runs these"


def test_the_postings_find_the_notes_the_keys_text_finds() -> None:
    """A level looked up in its cached postings gives the positions, in order, that
    searching its keys' text gives, for every key any note holds and for keys none holds."""
    import random

    from memcli.extraction.key_index import KeyIndex, postings_of
    from memcli.extraction.note_keys import note_keys

    rng = random.Random(7)
    words = ["deploy", "heroku", "pnpm", "test", "command", "测试命令", "Kubernetes", "db"]
    notes = [(title, summary) for _, _, title, summary in ODD_NOTES] + [
        (" ".join(rng.sample(words, 3)), " ".join(rng.sample(words, 4))) for _ in range(400)]
    keys: list[str | None] = [note_keys(title, summary) for title, summary in notes]
    project, user = keys[:150], keys[150:]
    plain = KeyIndex([*project, *user])
    posted = KeyIndex([""] * len(project) + [*user],
                      [(0, len(project), postings_of(project))])
    both = KeyIndex([""] * len(keys), [(0, len(project), postings_of(project)),
                                       (len(project), len(user), postings_of(user))])
    values = sorted({v for title, summary in notes
                     for v in [*title.casefold().split(), *summary.casefold().split(),
                               title.casefold(), "deploy target", "deploy target=heroku"]})
    found = 0
    for kind in "wvnJUohKmSFQTCD":
        for value in [*values, "nothing holds this"]:
            wanted = list(plain.iter_holding(kind, [value]))
            found += bool(wanted)
            assert list(posted.iter_holding(kind, [value])) == wanted, (kind, value)
            assert list(both.iter_holding(kind, [value])) == wanted, (kind, value)
            assert both.rarity(kind, value) == min(len(wanted), 256)
    assert found > 50
