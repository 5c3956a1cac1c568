"""`memcli import claude-code` and `memcli export claude-code` on real-shaped memory folders."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_memcli
from typer.testing import Result

from memcli.store.notes import parse_note

NOW = "2026-11-30T12:00:00Z"

# Shapes seen in Claude Code memory folders: the classic frontmatter, the newer metadata
# block, bookkeeping keys, a CJK note, an old topic file with no frontmatter, free text in
# MEMORY.md, and files that are not notes at all.
FOLDER: dict[str, str | bytes] = {
    "MEMORY.md": (
        "# Memory Index\n"
        "\n"
        "- [Use pnpm](feedback_use_pnpm.md) — Always pnpm, never npm\n"
        "- [Deploy](project_deploy.md) — How a release goes out\n"
        "- [用户偏好](user_language.md) — 用中文回答\n"
        "- [Debugging](./debugging.md) — The flaky test\n"
        "- [Grafana](reference_dashboards.md): where the dashboards are\n"
        "\n"
        "## Loose notes\n"
        "- The staging database is read-only on Fridays.\n"
    ),
    "feedback_use_pnpm.md": (
        "---\n"
        "name: Use pnpm\n"
        "description: Always use pnpm, never npm, in this repository.\n"
        "type: feedback\n"
        "originSessionId: 22e240a2-b6d9-41a1-bfe7-0b6526db01b4\n"
        "---\n"
        "Use pnpm for every install and script.\n"
        "\n"
        "**Why:** the lockfile is pnpm's; npm rewrites it.\n"
        "**How to apply:** any `npm install` suggestion becomes `pnpm add`.\n"
    ),
    "project_deploy.md": (
        "---\n"
        "name: Deploy steps\n"
        "description: Tag, then run make deploy; never deploy on Fridays.\n"
        "metadata:\n"
        "  type: project\n"
        "---\n"
        "\n"
        "# Deploy\n"
        "\n"
        "1. Tag the release.\n"
        "2. Run `make deploy`.\n"
    ),
    "user_language.md": (
        "---\n"
        "name: 用户偏好\n"
        "description: 除非另有要求，用中文回答。\n"
        "type: user\n"
        "---\n"
        "用户希望用中文交流，代码注释保持英文。\n"
    ),
    "reference_dashboards.md": (
        "---\n"
        "name: Grafana dashboards\n"
        "description: Latency dashboards live in Grafana under team-api.\n"
        "type: reference\n"
        "related: [project_deploy.md]\n"
        "---\n"
        "https://grafana.example.com/d/team-api — p99 latency per endpoint.\n"
    ),
    "debugging.md": "# Debugging\r\n\r\nThe flaky test is test_sync; rerun it once.\r\n",
    "diagram.png": b"\x89PNG\r\n\x1a\n\x00\x00",
    ".DS_Store": b"\x00\x01",
    "archive/old.md": "---\nname: Old\ntype: project\n---\nOld note.\n",
}
IMPORTABLE = 6  # five notes and the loose text of MEMORY.md


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = {
        "MEMCLI_PROJECT_STORE": str(tmp_path / "repo" / ".memcli" / "memory"),
        "MEMCLI_USER_STORE": str(tmp_path / "home" / ".memcli" / "memory"),
        "MEMCLI_NOW": NOW,
        "NO_COLOR": "1",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    (tmp_path / "repo").mkdir()
    monkeypatch.chdir(tmp_path / "repo")
    return values


def memcli(*args: str) -> Result:
    return invoke_memcli(*args, catch_exceptions=False)


def make_folder(root: Path, files: dict[str, str | bytes] = FOLDER) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    return root


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def notes_of(store: Path) -> dict[str, dict[str, Any]]:
    """Every note of a store as what an operation could say about it."""
    found = {}
    for path in sorted(store.glob("*.md")):
        if path.name == "MEMORY.md":
            continue
        note = parse_note(path.name, path.read_bytes())
        found[path.name] = {"type": note.type, "title": note.title, "summary": note.summary,
                            "content": note.content}
    return found


# --------------------------------------------------------------------------- import


def test_import_maps_every_shape_to_memcli_notes(env: dict[str, str], tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "claude")
    result = memcli("import", "claude-code", str(folder))

    assert result.exit_code == 0, result.output
    notes = notes_of(Path(env["MEMCLI_PROJECT_STORE"]))
    assert notes["correction_feedback_use-pnpm.md"] == {
        "type": "correction_feedback", "title": "Use pnpm",
        "summary": "Always use pnpm, never npm, in this repository.",
        "content": "Use pnpm for every install and script.\n\n**Why:** the lockfile is pnpm's; "
                   "npm rewrites it.\n**How to apply:** any `npm install` suggestion becomes "
                   "`pnpm add`.",
    }
    assert notes["project_knowledge_deploy-steps.md"]["type"] == "project_knowledge"
    assert notes["project_knowledge_deploy-steps.md"]["content"].startswith("# Deploy\n\n1.")
    assert notes["user_preference_用户偏好.md"]["summary"] == "除非另有要求，用中文回答。"
    assert notes["reference_material_grafana-dashboards.md"]["type"] == "reference_material"
    # No frontmatter: the heading is the title, the index line the summary, CRLF becomes LF.
    assert notes["project_knowledge_debugging.md"] == {
        "type": "project_knowledge", "title": "Debugging", "summary": "The flaky test",
        "content": "# Debugging\n\nThe flaky test is test_sync; rerun it once.",
    }
    loose = notes["project_knowledge_claude-code-memory-md.md"]
    assert loose["content"] == ("## Loose notes\n"
                                "- The staging database is read-only on Fridays.")
    assert len(notes) == IMPORTABLE


def test_what_is_not_a_note_is_reported_and_the_folder_is_left_as_it_was(
        env: dict[str, str], tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "claude", {
        **FOLDER, "feedback_broken.md": "---\nname: [unclosed\ntype: feedback\n---\nText.\n",
        "project_latin1.md": "Caf\xe9".encode("latin-1"),
    })
    before = tree(folder)
    result = memcli("import", "claude-code", str(folder), "--json")

    assert result.exit_code == 1  # two Markdown files could not be read
    report = json.loads(result.stdout)
    left_out = {item["file"]: item for item in report["left_out"]}
    assert set(left_out) == {"diagram.png", ".DS_Store", "archive", "feedback_broken.md",
                             "project_latin1.md"}
    assert left_out["feedback_broken.md"]["problem"] is True
    assert "YAML" in left_out["feedback_broken.md"]["reason"]
    assert left_out["diagram.png"]["problem"] is False
    assert any("originSessionId" in w for w in report["warnings"])
    assert any("related" in w for w in report["warnings"])
    assert any("debugging.md: no type" in w for w in report["warnings"])
    assert len(report["apply"]["applied"]) == IMPORTABLE
    assert tree(folder) == before


def test_dry_run_shows_the_notes_and_writes_nothing(env: dict[str, str], tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "claude")
    result = memcli("import", "claude-code", str(folder), "--dry-run")

    assert result.exit_code == 0, result.output
    assert "+++ b/project/correction_feedback_use-pnpm.md" in result.stdout
    assert "(from feedback_use_pnpm.md)" in result.stdout
    assert not Path(env["MEMCLI_PROJECT_STORE"]).exists()


def test_importing_twice_changes_nothing_and_a_changed_memory_is_a_conflict(
        env: dict[str, str], tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "claude")
    assert memcli("import", "claude-code", str(folder)).exit_code == 0
    store = Path(env["MEMCLI_PROJECT_STORE"])
    before = tree(store)

    again = memcli("import", "claude-code", str(folder))
    assert again.exit_code == 0, again.output  # the same step again (issue 34, item 4)
    assert "already says this" in again.stdout and tree(store) == before
    memory = folder / "feedback_use_pnpm.md"
    memory.write_text(memory.read_text("utf-8") + "\nAlso in CI.\n", "utf-8")
    again = memcli("import", "claude-code", str(folder))
    assert again.exit_code == 1
    assert "duplicate" in again.stderr
    assert "came from feedback_use_pnpm.md" in again.stderr
    updated = memcli("import", "claude-code", str(folder), "--on-conflict", "update")
    assert updated.exit_code == 0, updated.output
    assert b"Also in CI." in tree(store)["correction_feedback_use-pnpm.md"]


def test_user_level_import_goes_to_the_user_store(env: dict[str, str], tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "claude", {k: v for k, v in FOLDER.items()
                                               if k in ("user_language.md",)})
    result = memcli("import", "claude-code", str(folder), "--level", "user")

    assert result.exit_code == 0, result.output
    assert list(notes_of(Path(env["MEMCLI_USER_STORE"]))) == ["user_preference_用户偏好.md"]
    assert not Path(env["MEMCLI_PROJECT_STORE"]).exists()


def test_a_folder_that_is_not_a_memory_folder_is_a_usage_error(
        env: dict[str, str], tmp_path: Path) -> None:
    project = tmp_path / "claude-project"
    make_folder(project / "memory")
    (project / "session.jsonl").write_text("{}\n")
    result = memcli("import", "claude-code", str(project))

    assert result.exit_code == 2
    assert "did you mean" in result.stderr and "memory" in result.stderr


# --------------------------------------------------------------------------- export


def test_import_export_import_round_trips_every_note(env: dict[str, str],
                                                     tmp_path: Path) -> None:
    first = Path(env["MEMCLI_PROJECT_STORE"])
    second = tmp_path / "second" / ".memcli" / "memory"
    exported = tmp_path / "exported"
    assert memcli("import", "claude-code", str(make_folder(tmp_path / "claude"))).exit_code == 0

    out = memcli("export", "claude-code", str(exported))
    assert out.exit_code == 0, out.output
    back = memcli("--project-store", str(second), "import", "claude-code", str(exported))
    assert back.exit_code == 0, back.output
    assert back.stderr.count("warning") == 0, back.stderr  # nothing the export wrote is odd

    assert notes_of(second) == notes_of(first)
    assert len(notes_of(second)) == IMPORTABLE
    # A second export of the same store changes nothing.
    again = memcli("export", "claude-code", str(exported), "--json")
    assert {f["change"] for f in json.loads(again.stdout)["files"]} == {"unchanged"}


def test_export_writes_claude_code_notes_and_a_linked_index(env: dict[str, str],
                                                            tmp_path: Path) -> None:
    memcli("add", "Always use pnpm, never npm.", "--type", "correction_feedback",
           "--title", "Use pnpm [tooling]")
    exported = tmp_path / "exported"
    result = memcli("export", "claude-code", str(exported))

    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(exported)) == ["MEMORY.md", "feedback_use-pnpm-tooling.md"]
    assert (exported / "feedback_use-pnpm-tooling.md").read_text("utf-8") == (
        "---\n"
        "name: Use pnpm [tooling]\n"
        "description: Always use pnpm, never npm.\n"
        "type: feedback\n"
        "---\n"
        "\n"
        "Always use pnpm, never npm.\n"
    )
    assert (exported / "MEMORY.md").read_text("utf-8") == (
        "# Memory index\n"
        "\n"
        "- [Use pnpm \\[tooling\\]](feedback_use-pnpm-tooling.md) — Always use pnpm, never npm.\n"
    )


def test_export_into_a_claude_folder_keeps_what_claude_wrote(env: dict[str, str],
                                                             tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "claude", {
        "MEMORY.md": "# Claude's memory\n\n- [Mine](project_mine.md) — Claude's own note\n",
        "project_mine.md": "---\nname: Mine\ndescription: Claude's own note\ntype: project\n"
                           "---\nKeep me.\n",
    })
    memcli("add", "The test command is make check.", "--title", "Test command")
    result = memcli("export", "claude-code", str(folder))

    assert result.exit_code == 0, result.output
    assert (folder / "project_mine.md").read_text("utf-8").endswith("Keep me.\n")
    assert (folder / "MEMORY.md").read_text("utf-8") == (
        "# Claude's memory\n"
        "\n"
        "- [Test command](project_test-command.md) — The test command is make check.\n"
        "- [Mine](project_mine.md) — Claude's own note\n"
    )


@pytest.mark.parametrize("args", [["--level", "all"], ["--level", "team"]])
def test_export_takes_one_level(env: dict[str, str], tmp_path: Path, args: list[str]) -> None:
    result = memcli("export", "claude-code", str(tmp_path / "out"), *args)
    assert result.exit_code == 2
    assert "use project or user" in result.stderr


def test_export_refuses_to_write_into_a_memcli_store(env: dict[str, str]) -> None:
    memcli("add", "The test command is make check.")
    result = memcli("export", "claude-code", env["MEMCLI_PROJECT_STORE"])
    assert result.exit_code == 2
    assert "is a memcli store" in result.stderr


def test_exporting_an_empty_store_writes_nothing(env: dict[str, str], tmp_path: Path) -> None:
    result = memcli("export", "claude-code", str(tmp_path / "out"))
    assert result.exit_code == 0
    assert "does not exist yet" in result.stderr
    assert not (tmp_path / "out").exists()
