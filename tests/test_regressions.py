"""Regression tests for the defects the reliability campaigns found (docs/reliability.md)."""

from __future__ import annotations


def test_an_empty_store_folder_left_by_a_killed_first_write_is_up_to_date(memenv) -> None:
    # crash-safety: a batch SIGKILLed after it created a fresh store folder, before its
    # commit point, leaves the folder empty; the next `index --check` called that store's
    # (missing) MEMORY.md out of date, although memcli reads it exactly like no store.
    memenv.project.mkdir(parents=True)
    memenv.user.mkdir(parents=True)
    before = memenv.snapshot()
    result = memenv.invoke("index", "--check")
    assert result.exit_code == 0, result.stderr
    assert memenv.invoke("index").exit_code == 0
    assert memenv.snapshot() == before  # nothing to index: no header-only MEMORY.md either
    # A store with a note but no index is still out of date.
    memenv.write_note("project", "project_knowledge_x.md")
    assert memenv.invoke("index", "--check").exit_code == 1
