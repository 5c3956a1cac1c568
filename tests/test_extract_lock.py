"""`extract --provider rules` locks the stores only to read them and to apply its plan, not
while the rules match the turn (issue 26 item 6; docs/performance.md, "Extraction on a big
store"): a reader is not kept waiting meanwhile, and a note that changes between the read
and the apply is seen (the turn is matched again) instead of being written over.
"""

from __future__ import annotations

import datetime
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import MemEnv
from tests.test_extract_big_store import FACT, UPDATES_A_FACT, _big_store, _heroku_note

TODAY = datetime.date(2026, 12, 7)


def _settings(memenv: MemEnv, **env: str) -> object:
    from memcli.settings.resolve import Flags, resolve

    return resolve(Flags(provider="rules"), {**memenv.env, **env}, memenv.repo)


def test_a_reader_is_not_kept_waiting_while_extract_matches(memenv: MemEnv) -> None:
    """A real second memcli process reads the stores (a lock timeout of 0: it fails at once
    if a lock is held) while the rules are asking the stored notes, the first time the
    matching asks for one; the matching then goes on to the plan it always gave."""
    from memcli.commands.extract_stores import KnownNotes, StoreView
    from memcli.extraction.rules import extract_rules
    from memcli.messages import Message
    from memcli.settings.config import Settings
    from memcli.store.index import IndexEntry

    _big_store(memenv, 30)
    readers: list[tuple[int, str]] = []

    class Probed(KnownNotes):
        def _entry(self, index: int) -> IndexEntry:
            entry = super()._entry(index)  # the notes are read by now
            if not readers:
                done = memenv.run("search", "heroku", "--json",
                                  env={"MEMCLI_LOCK_TIMEOUT": "0"})
                readers.append((done.returncode, done.stderr))
            return entry

    settings = _settings(memenv)
    assert isinstance(settings, Settings)
    view = StoreView(settings)
    ops = extract_rules([Message("user", FACT)], Probed(view), today=TODAY)
    assert readers and readers[0][0] == 0, readers  # it did not wait for a lock: none held
    assert [(op["action"], op["level"], op.get("filename", "")) for op in ops] == [
        UPDATES_A_FACT[0][:3]]


def _run(memenv: MemEnv, on_matched: Callable[[], None], *,
         apply: bool = True) -> object:
    from memcli.commands.extract import ExtractOptions, run_extract
    from memcli.settings.config import Settings

    settings = _settings(memenv)
    assert isinstance(settings, Settings)
    line = json.dumps({"role": "user", "content": FACT}) + "\n"
    return run_extract(settings, line, ExtractOptions(apply=apply), on_matched=on_matched)


def test_a_note_renamed_between_the_match_and_the_apply_is_matched_again(
        memenv: MemEnv) -> None:
    """The note the turn updates is renamed by another process after the rules matched the
    turn and before the apply: the apply sees the notes changed, the turn is matched again
    and updates the note under its new name (before, the update named the old file)."""
    from memcli.commands.extract import ExtractResult

    _big_store(memenv, 30)
    old = _heroku_note(memenv)
    new = old.with_name("project_knowledge_hosting.md")
    matched: list[str] = []

    def rename_once() -> None:
        matched.append("matched")
        if len(matched) == 1:
            old.rename(new)

    result = _run(memenv, rename_once)
    assert isinstance(result, ExtractResult)
    assert matched == ["matched", "matched"]
    assert result.report is not None and result.report.written
    assert [(o.action, o.filename, o.status) for o in result.report.outcomes] == [
        ("update", new.name, "applied")]
    assert not old.exists()
    assert "Fly.io" in new.read_text("utf-8")


def test_a_note_edited_by_hand_before_the_apply_is_not_written_over_unseen(
        memenv: MemEnv) -> None:
    """A note edited in place (its size and modification time kept: only its change time
    tells) after every match: after three matches the extract stops with a clear error and
    writes nothing; the hand edit stands."""
    from memcli.store.stamps import StoreChanged

    _big_store(memenv, 30)
    note = _heroku_note(memenv)
    matched: list[int] = []

    def edit_by_hand() -> None:
        matched.append(1)
        before = note.stat()
        text = note.read_text("utf-8").replace("Heroku.", "Herok0.")
        note.write_text(text, "utf-8")
        os.utime(note, ns=(before.st_atime_ns, before.st_mtime_ns))

    before = memenv.stores_snapshot()
    said = r"project store's notes changed .* 3 times in a row; nothing was written"
    with pytest.raises(StoreChanged, match=said):
        _run(memenv, edit_by_hand)
    assert len(matched) == 3
    after = memenv.stores_snapshot()
    changed = [name for name in after["project"] if after["project"][name]
               != before["project"].get(name)]
    assert changed == [note.name]  # the hand edit alone
    assert "Herok0." in note.read_text("utf-8")


def test_a_note_added_since_the_read_is_seen_and_named_in_one_line(memenv: MemEnv) -> None:
    """The check the apply runs under the stores' locks: nothing when the notes read are
    those there now; a note another store gained since, one line naming that store."""
    from memcli.commands.extract_stores import KnownNotes, StoreView
    from memcli.extraction.rules import extract_rules
    from memcli.messages import Message
    from memcli.settings.config import Settings
    from memcli.store.stamps import StoreChanged

    _big_store(memenv, 30)
    settings = _settings(memenv)
    assert isinstance(settings, Settings)
    view = StoreView(settings)
    extract_rules([Message("user", FACT)], KnownNotes(view), today=TODAY)
    view.check()  # nothing changed: no error
    memenv.write_note("user", "user_preference_new-one.md",
                      {"type": "user_preference", "title": "Tabs", "summary": "Tabs.",
                       "updated": "2026-10-01"})
    with pytest.raises(StoreChanged) as raised:
        view.check()
    assert "\n" not in str(raised.value) and "user store" in str(raised.value)


def test_the_stamps_of_a_read_are_those_taken_again_when_nothing_changed(
        memenv: MemEnv, tmp_path: Path) -> None:
    """Read from the cache (every note cached) and read afresh (a note changed since), the
    stamps are those the apply's check takes of the same notes: no match is repeated for
    nothing."""
    from memcli.store.known import known_entries
    from memcli.store.stamps import note_stamps

    _big_store(memenv, 20)
    store = memenv.store("project")
    cache = tmp_path / "cache"
    settled = os.stat(store).st_ctime_ns + 10**12  # (every note older: each one cached)
    first = known_entries("project", store, cache, settled)
    second = known_entries("project", store, cache, settled)  # from the cache
    assert first[4] == second[4] == note_stamps("project", store)
    assert len(first[4][0]) == sum(1 for name in os.listdir(store)
                                   if name.endswith(".md") and name != "MEMORY.md")
    _heroku_note(memenv).touch()
    third = known_entries("project", store, cache, settled)
    assert third[4] == note_stamps("project", store) != first[4]


def test_reading_notes_the_cache_does_not_hold_tells_its_progress(
        memenv: MemEnv, tmp_path: Path) -> None:
    """The first read of a store (or the first after an upgrade: every note's keys derived
    anew) tells how many of the notes not cached are read; a read from the cache tells
    nothing. On a terminal, `extract` shows it as search's build does."""
    import io

    from memcli.extraction.note_keys import derived_by, note_keys
    from memcli.render.output import IndexProgress, Output
    from memcli.store.known import known_entries

    _big_store(memenv, 1200)
    store = memenv.store("project")
    cache = tmp_path / "cache"
    settled = os.stat(store).st_ctime_ns + 10**12
    heard: list[tuple[int, int]] = []
    derive = (note_keys, derived_by())
    known_entries("project", store, cache, settled, derive,
                  progress=lambda done, total: heard.append((done, total)))
    notes = len(_note_names(store))
    assert heard[-1] == (notes, notes) and len(heard) == notes // 500 + 1
    assert [done for done, _ in heard] == sorted(done for done, _ in heard)
    heard.clear()
    known_entries("project", store, cache, settled, derive,
                  progress=lambda done, total: heard.append((done, total)))
    assert heard == []  # every note from the cache
    err = io.StringIO()
    output = Output(out=io.StringIO(), err=err, err_color=True, err_is_terminal=True)
    with IndexProgress(output, "reading the {level} notes anew") as shown:
        shown.update("project", 1000, 2400)
    assert "memcli: reading the project notes anew: 1,000/2,400" in err.getvalue()


def _note_names(store: Path) -> tuple[str, ...]:
    from memcli.store.stamps import note_stamps

    return note_stamps("project", store)[0]


def test_a_store_written_on_every_match_still_takes_the_turn(memenv: MemEnv) -> None:
    """Another memcli process (a hook's `memcli apply`) writes an unrelated note into the
    user store after every match. The first matches see the store changed and match again;
    the last holds the stores' locks from its read to its apply, as every match once did, so
    the writer cannot get in (with a lock timeout of 0 it is refused at once) and the turn is
    applied. Nothing is lost: the writer's notes stand, its refused one is written after.
    Before, the third change ended the extract with exit 3 and nothing applied."""
    from memcli.commands.extract import ExtractResult

    _big_store(memenv, 30)
    written: list[int] = []

    def write(number: int, timeout: str) -> int:
        note = {"action": "create", "level": "user", "type": "user_preference",
                "title": f"Unrelated preference {number}",
                "summary": f"An unrelated preference, number {number}.",
                "content": f"Unrelated preference {number}."}
        done = memenv.run("apply", "-", input=json.dumps([note]),
                          env={"MEMCLI_LOCK_TIMEOUT": timeout})
        return done.returncode

    def busy() -> None:
        written.append(write(len(written) + 1, "0"))

    result = _run(memenv, busy)
    assert isinstance(result, ExtractResult)
    assert written[:2] == [0, 0] and written[2] != 0 and len(written) == 3
    assert result.report is not None and result.report.written
    assert [(o.action, o.filename, o.status) for o in result.report.outcomes] == [
        ("update", _heroku_note(memenv).name, "applied")]
    assert "Fly.io" in _heroku_note(memenv).read_text("utf-8")
    assert write(3, "10") == 0  # the one refused while the turn held the stores
    titles = "\n".join(path.read_text("utf-8") for path in memenv.store("user").glob("*.md"))
    assert all(f"Unrelated preference {n}" in titles for n in (1, 2, 3))


def test_the_progress_counts_only_the_notes_read(memenv: MemEnv, tmp_path: Path) -> None:
    """A link and a special file named like notes are skipped, not read: the progress of
    the first read ends at the notes read, each of them counted (before, it stopped at
    1,000/1,002: the skipped names stayed in its total)."""
    from memcli.store.known import known_entries

    _big_store(memenv, 1000)
    store = memenv.store("project")
    regular = len(_note_names(store))
    (store / "project_knowledge_a-link.md").symlink_to(_heroku_note(memenv))
    os.mkfifo(store / "project_knowledge_a-fifo.md")
    heard: list[tuple[int, int]] = []
    known_entries("project", store, tmp_path / "cache", None,
                  progress=lambda done, total: heard.append((done, total)))
    assert heard[-1] == (regular, regular), heard


def test_a_note_changed_within_a_tick_of_the_read_has_its_head_checked_again(
        memenv: MemEnv, tmp_path: Path) -> None:
    """A note whose change time is not older than the read's lock (changed within a tick of
    the read: a second change in that tick of a coarse clock keeps every stamp) is kept with
    the head read; the check reads it again and compares the heads. The notes older than
    the lock are not (their stamps tell). The same-tick edit itself cannot be made on
    demand: the head check is asked directly."""
    from memcli.store.known import known_entries
    from memcli.store.stamps import head_changed

    _big_store(memenv, 20)
    store = memenv.store("project")
    note = _heroku_note(memenv)
    lock = tmp_path / "lock"
    lock.touch()  # the moment the read's lock was made, on the same clock
    settled = lock.stat().st_ctime_ns
    note.write_text(note.read_text("utf-8"), "utf-8")  # changed after it
    unsettled = known_entries("project", store, tmp_path / "cache", settled)[5]
    assert list(unsettled) == [note.name]
    head = unsettled[note.name]
    assert head is not None and head.title == "Deploy with Heroku"
    assert head_changed("project", store, unsettled) is None  # nothing changed
    text = note.read_text("utf-8")
    note.write_text(text.replace("Deploy with Heroku", "Deploy with Herok0"), "utf-8")
    assert head_changed("project", store, unsettled) == note.name
    note.unlink()
    assert head_changed("project", store, unsettled) == note.name
