"""The search cache: updated incrementally, a changed note never found by its old terms (its
old row left dead), and built again past a share of dead rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memcli.search.analyze import analyze, grams_of, query_terms
from memcli.search.fts import StoreIndex, cache_path, token
from memcli.store.folder import StoreState, head_of
from memcli.store.note_bytes import render_new_note
from memcli.store.notes import parse_note


def _state(folder: Path, bodies: dict[str, str]) -> StoreState:
    state = StoreState("project", folder, exists=True)
    for name, body in bodies.items():
        data = render_new_note({"type": "project_knowledge", "title": name, "summary": body,
                                "created": "2026-11-20T10:00:00Z"}, body)
        state.heads[name] = head_of("project", parse_note(name, data))
        state.raw[name] = data
    return state


def _open(cache: Path, state: StoreState) -> tuple[int, int, list[str]]:
    """(notes analysed, notes removed, the notes found for "kubernetes manifests")."""
    index = StoreIndex.open(cache, state)
    try:
        assert not index.stats.in_memory
        hits = index.ranked(query_terms("kubernetes manifests"), 10)
        return index.stats.indexed, index.stats.removed, [h.filename for h in hits]
    finally:
        index.close()


def test_an_update_analyses_only_the_notes_that_changed(tmp_path: Path) -> None:
    # 300 notes: two changed leave two dead rows, below the share that rebuilds the index.
    bodies = {f"project_knowledge_n{i:03d}.md": f"Routine check number {i}." for i in range(300)}
    cache = tmp_path / "cache"
    assert _open(cache, _state(tmp_path / "s", bodies))[:2] == (300, 0)
    assert _open(cache, _state(tmp_path / "s", bodies))[:2] == (0, 0)
    bodies["project_knowledge_n003.md"] = "The kubernetes manifests live in deploy/k8s."
    del bodies["project_knowledge_n004.md"]
    indexed, removed, found = _open(cache, _state(tmp_path / "s", bodies))
    assert (indexed, removed) == (1, 1)
    assert found == ["project_knowledge_n003.md"]


def _held(cache: Path, store: Path) -> tuple[set[str], int]:
    """The terms the cache's FTS rows hold (dead rows' included), and its count of dead rows."""
    db = sqlite3.connect(cache_path(cache, store))
    try:
        left = {term for (term,) in db.execute("SELECT term FROM vocab WHERE doc > 0")}
        (dead,) = db.execute("SELECT value FROM meta WHERE key = 'dead'").fetchone()
        return left, int(dead)
    finally:
        db.close()


def test_a_changed_note_is_never_found_by_its_old_words(tmp_path: Path) -> None:
    # The old FTS row of a changed note stays in the index, dead: no search may find the
    # note by it, and the hit's terms are the new text's.
    bodies = {f"project_knowledge_n{i:02d}.md": f"Routine check number {i}." for i in range(100)}
    name = "project_knowledge_zz.md"
    bodies[name] = "The kubernetes manifests were reviewed by Zyxwvut in the staging cluster."
    cache = tmp_path / "cache"
    assert _open(cache, _state(tmp_path / "s", bodies))[2] == [name]
    bodies[name] = "Nothing about it now, routine."
    indexed, _, found = _open(cache, _state(tmp_path / "s", bodies))
    assert indexed == 1 and found == []
    left, dead = _held(cache, tmp_path / "s")
    assert dead == 1 and token("zyxwvut") in left  # the dead row holds them still
    index = StoreIndex.open(cache, _state(tmp_path / "s", bodies))
    try:
        assert index.ranked(query_terms("Zyxwvut"), 10) == []  # words and 4-grams
        hits = index.ranked(query_terms("nothing about it"), 10)
        assert [h.filename for h in hits] == [name]
        assert "noth" in hits[0].words and "zyxwvut" not in hits[0].words
        assert index.documents == 102  # what the document frequencies are counted in
    finally:
        index.close()


def test_past_a_share_of_dead_rows_the_index_is_built_again(tmp_path: Path) -> None:
    # 100 notes, 16 edited: 16 dead rows, at the floor (above 1 %) and kept; one more edit
    # passes it: every note indexed again, and the old rows gone from the index.
    from memcli.search._fts_sync import REBUILD_FLOOR, REBUILD_SHARE

    bodies = {f"project_knowledge_n{i:02d}.md": f"Routine check number {i}." for i in range(100)}
    names = list(bodies)
    cache, store = tmp_path / "cache", tmp_path / "s"
    _open(cache, _state(store, bodies))
    bodies[names[0]] = "Kubernetes manifests reviewed by Zyxwvut."
    for name in names[50:65]:
        bodies[name] = "Routine check, edited."
    assert REBUILD_SHARE * 100 < REBUILD_FLOOR == 16
    assert _open(cache, _state(store, bodies))[:2] == (16, 0)
    assert _held(cache, store)[1] == 16
    bodies[names[0]] = "Nothing about it now, routine."
    bodies[names[1]] = "Kubernetes manifests reviewed by Zyxwvut."
    indexed, _, found = _open(cache, _state(store, bodies))
    assert indexed == 100 and found == [names[1]]
    left, dead = _held(cache, store)
    assert dead == 0 and token("noth") in left
    assert grams_of(analyze(bodies[names[1]]).latin) == analyze(bodies[names[1]]).grams
    db = sqlite3.connect(cache_path(cache, store))
    try:
        docs = dict(db.execute("SELECT term, doc FROM vocab WHERE col = 'words'"))
    finally:
        db.close()
    assert docs["zyxwvut"] == 1  # the first note's old row went with the rebuild


def _rows(cache: Path, store: Path) -> dict[str, int]:
    db = sqlite3.connect(cache_path(cache, store))
    try:
        return {name: row_id for row_id, name in db.execute("SELECT id, filename FROM notes")}
    finally:
        db.close()


def test_an_update_rewrites_only_the_rows_of_changed_notes(tmp_path: Path) -> None:
    # 100 notes: one edit leaves one dead row, below the share that rebuilds the index.
    bodies = {f"project_knowledge_n{i:02d}.md": f"Routine check number {i}." for i in range(100)}
    cache = tmp_path / "cache"
    _open(cache, _state(tmp_path / "s", bodies))
    before = _rows(cache, tmp_path / "s")
    bodies["project_knowledge_n05.md"] = "The kubernetes manifests moved."
    bodies["project_knowledge_new.md"] = "A new routine."
    _open(cache, _state(tmp_path / "s", bodies))
    after = _rows(cache, tmp_path / "s")
    unchanged = set(before) - {"project_knowledge_n05.md"}
    assert {n: after[n] for n in unchanged} == {n: before[n] for n in unchanged}
    assert after["project_knowledge_n05.md"] not in before.values()
    assert set(after) == set(bodies)


def test_a_hit_carries_the_terms_of_the_note_as_it_is_now(tmp_path: Path) -> None:
    # The terms coverage reads are analysed from the note's file: after an edit they are
    # the new text's, never the old one's.
    cache = tmp_path / "cache"
    name = "project_knowledge_k8s.md"
    _open(cache, _state(tmp_path / "s", {name: "Kubernetes manifests in deploy/k8s, by Qwertz."}))
    _open(cache, _state(tmp_path / "s", {name: "Kubernetes manifests now in infra/helm."}))
    index = StoreIndex.open(cache, _state(tmp_path / "s", {
        name: "Kubernetes manifests now in infra/helm."}))
    try:
        (hit,) = index.ranked(query_terms("kubernetes manifests"), 10)
    finally:
        index.close()
    assert {"helm", token("infra/helm")} <= hit.words
    assert not {"qwertz", token("deploy/k8s"), "deploy"} & hit.words
    assert hit.concepts  # the vocabulary's concepts of the new text (kubernetes, helm)


def test_a_small_store_edited_twice_analyses_only_the_edited_notes(tmp_path: Path) -> None:
    # 150 notes: 1 % is 1.5 dead rows, so without a floor the second edit rebuilt all 150.
    bodies = {f"project_knowledge_n{i:03d}.md": f"Routine check number {i}." for i in range(150)}
    cache, store = tmp_path / "cache", tmp_path / "s"
    assert _open(cache, _state(store, bodies))[:2] == (150, 0)
    bodies["project_knowledge_n001.md"] = "Routine check, edited once."
    assert _open(cache, _state(store, bodies))[:2] == (1, 0)
    bodies["project_knowledge_n002.md"] = "The kubernetes manifests live in deploy/k8s."
    indexed, _, found = _open(cache, _state(store, bodies))
    assert indexed == 1 and found == ["project_knowledge_n002.md"]
    assert _held(cache, store)[1] == 2


def test_a_cache_whose_count_of_dead_rows_is_no_number_is_built_again(
        tmp_path: Path) -> None:
    bodies = {f"project_knowledge_n{i:02d}.md": f"Routine check number {i}." for i in range(5)}
    bodies["project_knowledge_k8s.md"] = "The kubernetes manifests live in deploy/k8s."
    cache, store = tmp_path / "cache", tmp_path / "s"
    _open(cache, _state(store, bodies))
    for bad in ("x", "-3", ""):
        db = sqlite3.connect(cache_path(cache, store))
        try:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('dead', ?)", (bad,))
            db.commit()
        finally:
            db.close()
        index = StoreIndex.open(cache, _state(store, bodies))
        try:
            assert not index.stats.in_memory and index.stats.indexed == 6
            assert index.documents == 6
        finally:
            index.close()
        assert _held(cache, store)[1] == 0


def test_a_corrupt_cache_is_rebuilt_where_it_lives(tmp_path: Path) -> None:
    bodies = {f"project_knowledge_n{i:02d}.md": f"Routine check number {i}." for i in range(5)}
    bodies["project_knowledge_k8s.md"] = "The kubernetes manifests live in deploy/k8s."
    cache = tmp_path / "cache"
    _open(cache, _state(tmp_path / "s", bodies))
    path = cache_path(cache, tmp_path / "s")
    path.write_bytes(b"not a database at all" * 200)
    # Not an index of this command only (in memory), every time: rebuilt in the cache.
    assert _open(cache, _state(tmp_path / "s", bodies)) == (6, 0, ["project_knowledge_k8s.md"])
    assert _open(cache, _state(tmp_path / "s", bodies))[:2] == (0, 0)


def _on_disk(folder: Path, bodies: dict[str, str]) -> StoreState:
    """A store written to FOLDER and read as search reads it: without the notes' bodies."""
    from memcli.store.folder import load_store

    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.md"):
        if old.name not in bodies:
            old.unlink()
    for name, body in bodies.items():
        data = render_new_note({"type": "project_knowledge", "title": name, "summary": body,
                                "created": "2026-11-20T10:00:00Z"}, body)
        if not (folder / name).exists() or (folder / name).read_bytes() != data:
            (folder / name).write_bytes(data)
    state = load_store("project", folder, bodies=False)
    assert not state.raw
    return state


def _age(folder: Path, seconds: int) -> None:
    """Every note last changed SECONDS ago (what a store untouched for a while looks like)."""
    import os
    import time

    for path in folder.glob("*.md"):
        past = time.time() - seconds
        os.utime(path, (past, past))


def test_a_store_read_without_bodies_is_indexed_from_its_files(tmp_path: Path) -> None:
    # 400 notes: three changed leave three dead rows, below the share that rebuilds.
    bodies = {f"project_knowledge_n{i:02d}.md": f"Routine check number {i}." for i in range(400)}
    bodies["project_knowledge_k8s.md"] = "The kubernetes manifests live in deploy/k8s."
    cache, folder = tmp_path / "cache", tmp_path / "s"
    assert _open(cache, _on_disk(folder, bodies)) == (401, 0, ["project_knowledge_k8s.md"])
    _age(folder, 3600)
    assert _open(cache, _on_disk(folder, bodies))[:2] == (0, 0)
    # Stamps of files this old are trusted: only the two files written again are read.
    bodies["project_knowledge_k8s.md"] = "The kubernetes manifests live in infra/k8s."
    bodies["project_knowledge_n03.md"] = "The kubernetes manifests were in infra/old."
    assert _open(cache, _on_disk(folder, bodies))[:2] == (2, 0)
    del bodies["project_knowledge_n04.md"]
    assert _open(cache, _on_disk(folder, bodies))[:2] == (0, 1)


def test_a_note_rewritten_in_place_with_its_old_time_is_read_again(tmp_path: Path) -> None:
    # The same inode, size and modification time (put back, as `touch -r` or a copy
    # keeping times does): the change time still moved, and the stamp holds it. (Two writes
    # within one tick of the file system's clock leave even that: a file changed in the
    # last RACY_NS is digested at every sync, which no test here can make happen.)
    import os

    name = "project_knowledge_k8s.md"
    cache, folder = tmp_path / "cache", tmp_path / "s"
    bodies = {name: "The kubernetes manifests live in deploy/aaaa."}
    _open(cache, _on_disk(folder, bodies))
    before = (folder / name).stat()
    data = (folder / name).read_bytes().replace(b"deploy/aaaa", b"deploy/bbbb")
    with open(folder / name, "r+b") as handle:  # in place: the same inode and size
        handle.write(data)
    os.utime(folder / name, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the same time
    bodies[name] = "The kubernetes manifests live in deploy/bbbb."  # what the file holds now
    index = StoreIndex.open(cache, _on_disk(folder, bodies))
    try:
        assert index.stats.indexed == 1
        (hit,) = index.ranked(query_terms("kubernetes manifests"), 10)
        assert token("deploy/bbbb") in hit.words and token("deploy/aaaa") not in hit.words
    finally:
        index.close()


def test_the_cache_of_a_generated_store_stays_small(tmp_path: Path) -> None:
    # 1,000 notes of random coding words (seeded). The cache held 4.0x the notes' bytes when
    # it kept each note's terms, 3.2x with the analysed text kept instead, 2.84x with the
    # 4-grams' column first, FTS5's segments written 8 MiB at a time and the texts
    # compressed against a dictionary (FTS5's postings are most of it; docs/recall.md has
    # the figures of 10,000-note stores).
    import random

    from memcli.store.folder import load_store

    words = ["build", "cache", "deploy", "schema", "migration", "retry", "timeout", "queue",
             "worker", "parser", "index", "token", "session", "branch", "release", "lint",
             "format", "config", "secret", "rotation", "backup", "restore", "proxy",
             "endpoint", "payload", "header"]
    rng = random.Random(7)
    store = tmp_path / "s"
    store.mkdir()
    for i in range(1000):
        body = " ".join(" ".join(rng.choice(words) for _ in range(rng.randint(6, 14)))
                        .capitalize() + "." for _ in range(rng.randint(2, 8)))
        data = render_new_note({"type": "project_knowledge", "title": f"Note {i}",
                                "summary": body[:80], "created": "2026-11-20T10:00:00Z"}, body)
        (store / f"project_knowledge_note-{i}.md").write_bytes(data)
    StoreIndex.open(tmp_path / "cache", load_store("project", store)).close()
    cache = sum(p.stat().st_size for p in (tmp_path / "cache").iterdir()
                if p.name.endswith((".db", ".db-wal")))
    notes = sum(p.stat().st_size for p in store.iterdir())
    assert cache < 3.0 * notes


def _generated(folder: Path, notes: int, seed: int) -> dict[str, str]:
    import random

    words = ["build", "cache", "deploy", "schema", "migration", "retry", "timeout", "queue",
             "worker", "parser", "index", "token", "session", "branch", "release", "lint"]
    rng = random.Random(seed)
    return {f"project_knowledge_note-{i}.md": " ".join(rng.choice(words) for _ in range(12))
            + "." for i in range(notes)}


def _answers(cache: Path, state: StoreState) -> tuple[list[list[tuple[str, float]]],
                                                      list[tuple[str, str]]]:
    """The notes (and their scores) a few queries find, and every note's days."""
    index = StoreIndex.open(cache, state)
    try:
        found = [[(h.filename, h.score) for h in index.ranked(query_terms(q), 30)]
                 for q in ["deploy the cache", "retry timeout", "kubernetes manifests",
                           "parser tokens session", "rollback"]]
        days = sorted(index.db.execute("SELECT n.filename, d.day FROM days d "
                                       "JOIN notes n ON n.id = d.note"))
        return found, days
    finally:
        index.close()


def test_an_updated_cache_answers_as_one_built_again(tmp_path: Path) -> None:
    # 600 notes indexed, then 520 of them edited with a new date and 30 removed: past the
    # share of dead rows, the cache is emptied and built again in place, and must rank,
    # score for score, and date the notes as a cache built from nothing does.
    bodies = _generated(tmp_path, 600, 3)
    _answers(tmp_path / "cache", _state(tmp_path / "s", bodies))
    for name in list(bodies)[:520]:
        bodies[name] = bodies[name].replace("deploy", "kubernetes manifests rollback")
    for name in list(bodies)[520:550]:
        del bodies[name]
    state = _state(tmp_path / "s", bodies)
    for name in list(bodies)[:520]:
        data = render_new_note({"type": "project_knowledge", "title": name,
                                "summary": bodies[name], "created": "2026-12-01T09:00:00Z"},
                               bodies[name])
        state.heads[name] = head_of("project", parse_note(name, data))
        state.raw[name] = data
    updated = _answers(tmp_path / "cache", state)
    rebuilt = _answers(tmp_path / "fresh", state)
    assert updated == rebuilt
    assert updated[0][2]  # the new words are found
    assert ("project_knowledge_note-0.md", "2026-12-01T09:00:00Z") in updated[1]
    assert ("project_knowledge_note-0.md", "2026-11-20T10:00:00Z") not in updated[1]


def test_a_cache_of_an_older_format_is_built_again(tmp_path: Path) -> None:
    bodies = {"project_knowledge_k8s.md": "The kubernetes manifests live in deploy/k8s."}
    state = _state(tmp_path / "s", bodies)
    path = cache_path(tmp_path / "cache", state.path)
    path.parent.mkdir(parents=True)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    db.execute("INSERT INTO meta VALUES ('schema', '6')")
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, filename TEXT, digest TEXT, "
               "stamp INTEGER, text BLOB)")
    db.execute("INSERT INTO notes VALUES (1, 'project_knowledge_k8s.md', 'x', NULL, x'00')")
    db.commit()
    db.close()
    assert _open(tmp_path / "cache", state) == (1, 0, ["project_knowledge_k8s.md"])
    db = sqlite3.connect(path)
    try:  # the file rebuilt can give back the pages FTS5's merges leave free (reclaim)
        assert db.execute("PRAGMA auto_vacuum").fetchone() == (2,)
    finally:
        db.close()


def test_a_cache_gives_back_the_pages_left_free(tmp_path: Path) -> None:
    # A 100,000-note build merges FTS5's segments as it goes and leaves pages free (4 % of
    # the file at 50,000 notes): they are given back after the sync that freed them.
    from memcli.search._fts_schema import RECLAIM_PAGES, reclaim

    state = _state(tmp_path / "s", {"project_knowledge_k8s.md": "The kubernetes manifests."})
    StoreIndex.open(tmp_path / "cache", state).close()
    db = sqlite3.connect(cache_path(tmp_path / "cache", state.path), isolation_level=None)
    try:
        db.execute("CREATE TABLE scratch (data BLOB)")
        db.executemany("INSERT INTO scratch VALUES (randomblob(4000))", [()] * 2 * RECLAIM_PAGES)
        db.execute("DROP TABLE scratch")
        before = db.execute("PRAGMA page_count").fetchone()[0]
        assert db.execute("PRAGMA freelist_count").fetchone()[0] >= 2 * RECLAIM_PAGES
        reclaim(db)
        assert db.execute("PRAGMA freelist_count").fetchone() == (0,)
        assert db.execute("PRAGMA page_count").fetchone()[0] <= before - 2 * RECLAIM_PAGES
    finally:
        db.close()
    assert _open(tmp_path / "cache", state)[2] == ["project_knowledge_k8s.md"]


def test_a_notes_days_are_its_instants_in_utc_however_written() -> None:
    # A stamp written as memcli writes an instant is kept as it is; any other is parsed and
    # written again in UTC: the same day rows either way.
    from memcli.search._fts_schema import instant
    from memcli.search._fts_sync import note_days
    from memcli.search.dates import note_time

    stamps = ["2026-03-27T02:38:00Z", "2026-03-27T02:38:00+02:00", "2026-03-27T02:38:00",
              "2026-03-27 02:38:00Z", "2026-03-27T02:38Z", "2026-03-27T02:38:00.5Z",
              "2026-03-27", "2026-03-27 evening", "not a date", "0001-01-01T00:00:00Z"]
    for stamp in stamps:
        note = parse_note("project_knowledge_x.md", render_new_note(
            {"type": "project_knowledge", "title": "X", "summary": "x", "created": stamp,
             "updated": stamp}, "Body."))
        when = note_time(stamp)
        expected = set() if when is None else {
            instant(when) if hasattr(when, "hour") else when.isoformat()}
        assert note_days(note) == expected, stamp


def test_a_search_open_while_another_process_rebuilds_the_cache_sees_no_old_text(
        tmp_path: Path) -> None:
    # Two commands on one cache: the first has synced and is about to rank when the second
    # finds 20 of 100 notes changed (past the floor of dead rows) and empties and rebuilds
    # the index. The first then ranks from the rebuilt index, and a hit's terms are its
    # file's as it is now: no old text either way.
    bodies = {f"project_knowledge_n{i:02d}.md": f"Routine check number {i}." for i in range(100)}
    cache, store = tmp_path / "cache", tmp_path / "s"
    reader = StoreIndex.open(cache, _state(store, bodies))
    try:
        for name in list(bodies)[:20]:
            bodies[name] = "The kubernetes manifests moved to infra/helm."
        writer = StoreIndex.open(cache, _state(store, bodies))
        try:
            assert writer.stats.indexed == 100  # rebuilt
        finally:
            writer.close()
        reader.state = _state(store, bodies)  # the files as they are now
        hits = reader.ranked(query_terms("kubernetes manifests"), 20)
        assert sorted(h.filename for h in hits) == sorted(list(bodies)[:20])
        assert all("helm" in h.words and "routin" not in h.words for h in hits)
        assert reader.ranked(query_terms("routine check number 30"), 5)[0].filename == (
            "project_knowledge_n30.md")
    finally:
        reader.close()


def test_a_note_another_command_indexed_after_this_one_read_the_store_is_left_out(
        tmp_path: Path) -> None:
    # The reader read the store before a note was added; the writer, after, indexed it in
    # the shared cache. The reader ranks from the cache as it is now, and leaves out the
    # note its own reading of the store does not hold (it would fail to show it).
    bodies = {f"project_knowledge_n{i:02d}.md": f"Routine check number {i}." for i in range(100)}
    cache, store = tmp_path / "cache", tmp_path / "s"
    reader = StoreIndex.open(cache, _state(store, bodies))
    try:
        bodies["project_knowledge_k8s.md"] = "The kubernetes manifests live in deploy/k8s."
        StoreIndex.open(cache, _state(store, bodies)).close()
        assert reader.ranked(query_terms("kubernetes manifests"), 10) == []
    finally:
        reader.close()
