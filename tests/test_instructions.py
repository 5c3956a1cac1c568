"""Notes that repeat or contradict a line of AGENTS.md, CLAUDE.md or GEMINI.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from memcli.commands.interop.instructions import NoteText, check_stores

AGENTS = """\
# Agents guide

- Always run `make check` before committing.
- Never use npm; use pnpm for every install.
- Use two-space indentation, never tabs.

```sh
npm install   # an example in a fence is not an instruction
```
"""


def note(title: str, body: str = "", summary: str = "") -> NoteText:
    return NoteText("project", f"project_knowledge_{len(title)}.md", title, summary, body)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "AGENTS.md").write_text(AGENTS, "utf-8")
    return tmp_path


@pytest.mark.parametrize(("text", "kind", "line"), [
    ("Run make check before committing.", "repeats", 3),
    ("Use npm for installs", "contradicts", 4),
    ("Use npm instead of pnpm", "contradicts", 4),
    ("Indent with tabs", "contradicts", 5),
])
def test_repeats_and_contradictions_are_found(repo: Path, text: str, kind: str,
                                              line: int) -> None:
    found = check_stores(repo, [note("Some title", body=text)])
    assert [(f.kind, f.line.file, f.line.number, f.sentence) for f in found] == [
        (kind, "AGENTS.md", line, text)]


@pytest.mark.parametrize("text", [
    "The API lives in services/api.",
    "Commit after each test run.",
    "Deploys go through the staging cluster first.",
])
def test_unrelated_notes_are_not_flagged(repo: Path, text: str) -> None:
    assert check_stores(repo, [note(text)]) == []


def test_claude_and_gemini_files_count_and_links_are_not_followed(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("Answer in English, never in French.\n", "utf-8")
    outside = tmp_path / "outside.md"
    outside.write_text("Use tabs for indentation.\n", "utf-8")
    (tmp_path / "GEMINI.md").symlink_to(outside)
    found = check_stores(tmp_path, [note("Answer language", body="Answer in French.")])
    assert [(f.kind, f.line.file) for f in found] == [("contradicts", "CLAUDE.md")]
    assert check_stores(tmp_path, [note("Indentation", body="Use spaces, not tabs.")]) == []
