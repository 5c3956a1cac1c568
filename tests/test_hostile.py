"""Hostile names and planted files: rejected, and nothing outside a store is read or written
(issue 2)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-29T10:00:00Z"
SECRET = b"outside the store: must never change\n"


@pytest.fixture
def hostile(memenv):  # type: ignore[no-untyped-def]
    """Both stores with one note each, and decoys where an escaping write would land."""
    ops = [
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Build", "content": "Run make."},
        {"action": "create", "level": "user", "type": "user_preference",
         "title": "Tone", "content": "Be brief."},
    ]
    assert memenv.apply(ops).exit_code == 0
    outside = memenv.root / "outside"
    outside.mkdir()
    for path in (outside / "x.md", outside / "project_knowledge_x.md",
                 memenv.project.parent / "x.md", memenv.user.parent / "x.md",
                 memenv.root / "x.md"):
        path.write_bytes(SECRET)
    memenv.outside = outside
    return memenv


def hostile_names(env: Any) -> list[str]:
    outside = env.outside
    return [
        "../x.md",
        "../../x.md",
        "../../../x.md",
        "../../../outside/project_knowledge_x.md",
        str(outside / "x.md"),
        str(outside / "project_knowledge_x.md"),
        "a/b.md",
        "project_knowledge_build.md/../../x.md",
        "project_knowledge_a\\..\\..\\x.md",
        "MEMORY.md",
        "memory.MD",
        ".hidden.md",
        ".memcli.lock",
        ".project_knowledge_build.md",
        "project_knowledge_build.md\x00",
        "project_knowledge_a\x00../../x.md",
        "project_knowledge_a\nb.md",
        "project_knowledge_build.md\n",
        "..",
        ".",
        "",
        "project_knowledge_..md",
    ]


@pytest.mark.parametrize("action", ["update", "delete"])
@pytest.mark.parametrize("level", ["project", "user"])
def test_hostile_names_are_rejected_and_nothing_changes(hostile, action: str, level: str) -> None:
    names = hostile_names(hostile)
    ops = [{"action": action, "level": level, "filename": name, "content": "pwned"}
           for name in names]
    before = hostile.snapshot()
    code, report = hostile.apply_json(ops)
    assert code == 1
    assert len(report["rejected"]) == len(names)
    assert report["applied"] == [] and report["written"] is False
    for item in report["rejected"]:
        assert item["message"] and "no note" not in item["message"], item
    assert hostile.snapshot() == before


def test_etc_passwd_is_rejected(hostile) -> None:
    before = os.stat("/etc/passwd")
    ops = [{"action": "update", "level": "project", "filename": "/etc/passwd", "content": "x"},
           {"action": "delete", "level": "user", "filename": "/etc/passwd"}]
    # --dry-run: even a broken implementation would not get to write the real file here
    result = hostile.apply(ops, "--dry-run")
    assert result.exit_code == 1
    assert result.stderr.count("path separator") == 2
    after = os.stat("/etc/passwd")
    assert (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)


def test_hostile_slugs_and_titles_stay_inside_the_store(hostile) -> None:
    before_outside = hostile.snapshot(hostile.outside)
    ops = [
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Escape", "slug": "../../../outside/x", "content": "x"},
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Nul", "slug": "a\x00b", "content": "x"},
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Back", "slug": "a\\b", "content": "x"},
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "../../../outside/evil", "content": "x"},
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "/etc/passwd", "content": "x"},
        {"action": "create", "level": "user", "type": "user_preference",
         "title": ".hidden\nname\x00 MEMORY", "content": "x"},
        {"action": "create", "level": "user", "type": "user_preference",
         "title": "MEMORY", "slug": "MEMORY", "content": "x"},
    ]
    code, report = hostile.apply_json(ops)
    assert code == 1
    assert [r["position"] for r in report["rejected"]] == [1, 2, 3]
    assert {a["file"] for a in report["applied"]} == {
        "project_knowledge_outside-evil.md", "project_knowledge_etc-passwd.md",
        "user_preference_hidden-name-memory.md", "user_preference_memory.md"}
    assert hostile.snapshot(hostile.outside) == before_outside
    for store in (hostile.project, hostile.user):
        assert all(p.is_file() and not p.name.startswith(".") for p in store.iterdir()
                   if p.name != ".memcli-history")
    assert (hostile.project.parent / "x.md").read_bytes() == SECRET
    assert hostile.invoke("index", "--check").exit_code == 0


def test_a_note_that_is_a_symlink_out_of_the_store(hostile) -> None:
    target = hostile.outside / "secret.md"
    target.write_bytes(b"---\ntype: project_knowledge\ntitle: Secret\nsummary: s\n---\n"
                       + SECRET)
    link = hostile.project / "project_knowledge_link.md"
    link.symlink_to(target)
    before = hostile.snapshot()

    ops = [
        {"action": "update", "level": "project", "filename": "project_knowledge_link.md",
         "content": "pwned"},
        {"action": "delete", "level": "project", "filename": "project_knowledge_link.md"},
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Link", "content": "pwned"},
    ]
    code, report = hostile.apply_json(ops)
    assert code == 1
    messages = [r["message"] for r in report["rejected"]]
    assert "symlink" in messages[0] and "symlink" in messages[1]
    assert messages[2].startswith("duplicate: project_knowledge_link.md")
    code, report = hostile.apply_json(ops[2:], "--on-conflict", "update")
    assert code == 1 and "symlink" in report["rejected"][0]["message"]
    assert hostile.snapshot() == before

    # never followed: not listed, not indexed, not shown
    listing = json.loads(hostile.invoke("show", "--json").stdout)
    assert "project_knowledge_link.md" not in {e["file"] for e in listing}
    assert hostile.invoke("show", "project_knowledge_link.md").exit_code == 1
    assert hostile.invoke("index").exit_code == 0
    assert "link" not in hostile.index("project")
    assert link.is_symlink() and target.read_bytes().endswith(SECRET)

    # an unrelated write leaves the link alone
    code, _ = hostile.apply_json([{"action": "create", "level": "project",
                                   "type": "project_knowledge", "title": "Other",
                                   "content": "x"}])
    assert code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes().endswith(SECRET)


def test_a_symlinked_index_is_replaced_not_followed(hostile) -> None:
    target = hostile.outside / "index.md"
    target.write_bytes(SECRET)
    index = hostile.project / "MEMORY.md"
    index.unlink()
    index.symlink_to(target)
    code, _ = hostile.apply_json([{"action": "create", "level": "project",
                                   "type": "project_knowledge", "title": "New",
                                   "content": "x"}])
    assert code == 0
    assert target.read_bytes() == SECRET
    assert not index.is_symlink()
    assert "(project_knowledge_new.md)" in index.read_text()
    assert "(project_knowledge_build.md)" in index.read_text()


def test_a_folder_named_like_a_note(hostile) -> None:
    folder = hostile.project / "project_knowledge_folder.md"
    folder.mkdir()
    (folder / "inner.md").write_bytes(SECRET)
    code, report = hostile.apply_json([{"action": "delete", "level": "project",
                                        "filename": "project_knowledge_folder.md"}])
    assert code == 1 and "not a regular file" in report["rejected"][0]["message"]
    assert (folder / "inner.md").read_bytes() == SECRET


def test_a_case_twin_of_an_existing_note_is_not_created(hostile) -> None:
    before = hostile.snapshot()
    for slug in ("BUILD", "Build", "bUiLd"):
        code, report = hostile.apply_json([{"action": "create", "level": "project",
                                            "type": "project_knowledge", "title": "Twin " + slug,
                                            "slug": slug, "content": "x"}])
        assert code == 1
        assert report["rejected"][0]["message"].startswith(
            "duplicate: project_knowledge_build.md")
    assert hostile.snapshot() == before


def test_files_that_are_not_notes_are_left_alone(hostile) -> None:
    strays = {"README.md": b"# readme\n", "notes.txt": b"text\n", ".gitkeep": b"",
              "project_knowledge_x.md.bak": b"old\n"}
    for name, data in strays.items():
        (hostile.project / name).write_bytes(data)
    code, _ = hostile.apply_json([
        {"action": "create", "level": "project", "type": "project_knowledge", "title": "More",
         "content": "x"},
        {"action": "delete", "level": "project", "filename": "project_knowledge_build.md"}])
    assert code == 0
    for name, data in strays.items():
        assert (hostile.project / name).read_bytes() == data
    assert "README" not in hostile.index("project")


# --------------------------------------------------------------------------- planted txn folders


def _plant_txn(store: Path, manifest: dict[str, Any], *, committed: bool = True,
               name: str = ".memcli-txn-00000000deadbeef") -> Path:
    txn = store / name
    (txn / "files").mkdir(parents=True)
    (txn / "files" / "0").write_bytes(b"pwned\n")
    (txn / "manifest.json").write_text(json.dumps(manifest))
    if committed:
        (txn / "COMMITTED").write_bytes(b"")
    return txn


@pytest.mark.parametrize("cwd_relative", [False, True])
def test_a_planted_committed_txn_cannot_write_outside_its_store(
    hostile, cwd_relative: bool
) -> None:
    """A project store is committed to git: a txn folder in it may come from anyone."""
    store = hostile.project
    primary = os.path.relpath(store, hostile.repo) if cwd_relative else str(store)
    victim = hostile.outside / "x.md"
    manifest = {
        "id": "00000000deadbeef", "primary": primary,
        "stores": [primary, str(hostile.outside)],
        "writes": {"../../../outside/x.md": "0", str(victim): "0",
                   "project_knowledge_stolen.md": "../../../../outside/project_knowledge_x.md"},
        "deletes": ["../x.md", str(hostile.root / "x.md")],
    }
    txn = _plant_txn(store, manifest)
    (hostile.outside / ".memcli-txn-00000000deadbeef").mkdir()  # a "second store" it names
    before_outside = hostile.snapshot(hostile.outside)
    before_notes = {p.name: p.read_bytes() for p in store.iterdir() if p.is_file()}

    for args in (("show", "--json"), ("index", "--check")):
        proc = hostile.run(*args)
        assert proc.returncode == 0, proc.stderr
    assert hostile.snapshot(hostile.outside) == before_outside
    for decoy in (hostile.project.parent / "x.md", hostile.root / "x.md", victim):
        assert decoy.read_bytes() == SECRET
    assert {p.name: p.read_bytes() for p in store.iterdir() if p.is_file()} == before_notes
    assert not txn.exists()


def test_a_planted_txn_with_plain_names_only_touches_its_store(hostile) -> None:
    """The same shape with plain names is indistinguishable from a real batch: it is finished,
    inside the store only, and the index still agrees (or check reports it)."""
    store = hostile.project
    manifest = {"id": "1", "primary": str(store), "stores": [str(store)],
                "writes": {"project_knowledge_planted.md": "0"}, "deletes": []}
    _plant_txn(store, manifest)
    before_outside = hostile.snapshot(hostile.outside)
    proc = hostile.run("show", "--json")
    assert proc.returncode == 0
    assert (store / "project_knowledge_planted.md").read_bytes() == b"pwned\n"
    assert hostile.snapshot(hostile.outside) == before_outside
    assert not [p for p in store.iterdir()
                if p.name.startswith(".") and p.name != ".memcli-history"]


def test_a_symlinked_txn_folder_is_ignored(hostile) -> None:
    elsewhere = hostile.outside / "elsewhere"
    elsewhere.mkdir()
    manifest = {"id": "2", "primary": str(hostile.project), "stores": [str(hostile.project)],
                "writes": {"project_knowledge_planted.md": "0"}, "deletes": []}
    real = _plant_txn(elsewhere, manifest, name="txn")
    (hostile.project / ".memcli-txn-feedfacefeedface").symlink_to(real)
    before_outside = hostile.snapshot(hostile.outside)
    assert hostile.run("show").returncode == 0
    assert hostile.snapshot(hostile.outside) == before_outside
    assert not (hostile.project / "project_knowledge_planted.md").exists()


def test_a_planted_lock_symlink_is_refused_not_followed(hostile) -> None:
    target = hostile.outside / "lock-target"
    target.write_bytes(SECRET)
    (hostile.project / ".memcli.lock").symlink_to(target)
    proc = hostile.run("show")
    assert proc.returncode == 3
    assert "memcli: error:" in proc.stderr and "lock" in proc.stderr
    assert target.read_bytes() == SECRET
