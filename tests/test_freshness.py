"""Freshness (expires, review_after) and `memcli status`."""

from __future__ import annotations

import json

from tests.conftest import MemEnv

LATER = "2026-12-10T10:00:00Z"  # after the dates below


def _add(memenv: MemEnv, text: str, *flags: str) -> None:
    result = memenv.invoke("add", text, *flags)
    assert result.exit_code == 0, result.stderr


def test_add_expires_writes_the_date_and_context_leaves_the_note_out_after_it(
        memenv: MemEnv) -> None:
    _add(memenv, "Code freeze: no merges to main.", "--title", "Code freeze",
         "--expires", "2026-12-05")
    _add(memenv, "Run go test before tagging.", "--title", "Test command")
    note = (memenv.project / "project_knowledge_code-freeze.md").read_text()
    assert "\nexpires: 2026-12-05\n" in note
    before = memenv.invoke("context").stdout
    assert "Code freeze" in before and "expired" not in before
    after = memenv.invoke("context", env={"MEMCLI_NOW": LATER}).stdout
    assert "Code freeze" not in after and "Test command" in after
    assert "(1 expired memory entries left out; run `memcli status`)" in after
    on_the_day = memenv.invoke("context", env={"MEMCLI_NOW": "2026-12-05T23:59:00Z"}).stdout
    assert "Code freeze" in on_the_day  # a date covers its whole day


def test_add_rejects_a_bad_date_with_one_line(memenv: MemEnv) -> None:
    result = memenv.invoke("add", "x", "--expires", "next friday")
    assert result.exit_code == 2
    assert result.stderr == "memcli: error: --expires 'next friday' is not a date; use YYYY-MM-DD\n"
    assert not memenv.project.exists()


def test_operations_set_and_change_dates_and_refuse_bad_ones(memenv: MemEnv) -> None:
    code, report = memenv.apply_json([
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Freeze", "content": "Freeze.", "expires": "2026-12-05",
         "review_after": "2026-12-01"},
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Bad", "content": "Bad.", "expires": "soon"}])
    assert code == 1
    assert "expires: must be a date" in report["rejected"][0]["message"]
    path = memenv.project / "project_knowledge_freeze.md"
    assert "review_after: 2026-12-01" in path.read_text()
    memenv.apply([{"action": "update", "level": "project", "filename": path.name,
                   "content": "Freeze.", "expires": "2027-01-10"}])
    assert "expires: 2027-01-10" in path.read_text()


def test_a_date_a_person_wrote_as_yaml_is_read(memenv: MemEnv) -> None:
    memenv.write_note("project", "project_knowledge_old.md",
                      {"type": "project_knowledge", "title": "Old", "summary": "Old.",
                       "expires": "2020-01-01", "updated": "2020-01-01T00:00:00Z"})
    memenv.write_note("project", "project_knowledge_typo.md",
                      {"type": "project_knowledge", "title": "Typo", "summary": "Typo.",
                       "expires": "someday", "updated": "2020-01-01T00:00:00Z"})
    text = memenv.invoke("context").stdout
    assert "Old" not in text and "Typo" in text  # an unreadable date never hides a note


def test_status_reports_context_use_cut_expired_review_and_duplicates(memenv: MemEnv) -> None:
    _add(memenv, "Code freeze until Friday.", "--title", "Code freeze", "--expires", "2026-12-05")
    memenv.apply([{"action": "create", "level": "user", "type": "user_preference",
                   "title": "Editor", "content": "Helix.", "review_after": "2026-12-01"}])
    _add(memenv, "Use pnpm.", "--title", "Package manager pnpm")
    memenv.write_note("project", "project_knowledge_pnpm-package-manager.md",
                      {"type": "project_knowledge", "title": "pnpm package manager",
                       "summary": "Use pnpm.", "updated": "2026-11-01T00:00:00Z"})
    for i in range(210):
        memenv.write_note("project", f"reference_material_r{i}.md",
                          {"type": "reference_material", "title": f"Ref {i}",
                           "summary": f"Reference number {i}.",
                           "updated": "2020-01-01T00:00:00Z"})
    assert memenv.invoke("index").exit_code == 0
    result = memenv.invoke("status", "--json", env={"MEMCLI_NOW": LATER})
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    project, user = data["levels"]
    context = memenv.invoke("context", env={"MEMCLI_NOW": LATER}).stdout
    assert data["context"]["lines"] == context.count("\n")
    assert data["context"]["bytes"] == len(context.encode())
    assert project["context"]["entries"] + user["context"]["entries"] == sum(
        1 for line in context.splitlines() if line.startswith("- ["))
    assert project["notes"] == 213
    assert len(project["cut_by_cap"]) == 213 - 1 - project["context"]["entries"]
    assert all(name not in context for name in project["cut_by_cap"])
    assert [e["file"] for e in project["expired"]] == ["project_knowledge_code-freeze.md"]
    assert [e["file"] for e in user["past_review"]] == ["user_preference_editor.md"]
    pairs = [sorted(d["files"]) for d in project["near_duplicates"]]
    assert ["project_knowledge_package-manager-pnpm.md",
            "project_knowledge_pnpm-package-manager.md"] in pairs
    assert data["healthy"] is False
    assert [t["command"] for t in data["transactions"]] == ["index", "add", "apply", "add"]
    text = memenv.invoke("status", env={"MEMCLI_NOW": LATER})
    assert "cut by the cap: " in text.stdout and "project_knowledge_code-freeze.md" in text.stdout


def test_status_of_a_healthy_store(memenv: MemEnv) -> None:
    _add(memenv, "Run go test.", "--title", "Test command")
    result = memenv.invoke("status", "--json")
    data = json.loads(result.stdout)
    assert data["healthy"] is True
    assert data["levels"][0]["context"]["entries"] == 1
    assert data["levels"][0]["context"]["tokens"] > 0
