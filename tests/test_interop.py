"""`memcli import|export codex|gemini` on files in the shapes those tools write.

Codex's MEMORY.md blocks follow its consolidation template (a YAML header with
rollout_summary_files, description and keywords, then bullets); memory_summary.md has its
User Profile, General Tips and What's in Memory sections. GEMINI.md has the section Gemini
CLI's save_memory tool appends to, among a person's own instructions.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import MemEnv

CODEX_MEMORY = """\
---
rollout_summary_files:
  - 2026-11-02T10-30-00-ci-flakes.md (success, cwd=/repo/api, updated_at=2026-11-02T10:30:00Z)
description: Flaky integration tests in the api repo come from a shared Postgres port
keywords: pytest, postgres, port 5432, flaky, xdist
---

- Symptom: tests pass alone, fail under pytest -n auto.
- Cause: every worker binds port 5432; fix with the per-worker port fixture in conftest.py.
- Verify with `pytest -n 4 tests/integration`.

---
rollout_summary_files:
  - 2026-11-05T09-00-00-release.md (success, cwd=/repo/api, updated_at=2026-11-05T09:00:00Z)
description: Releases are cut with make release, never by tagging by hand
keywords: release, make, tags
---

- Run `make release VERSION=x.y.z`; it tags, builds and uploads.
"""

CODEX_SUMMARY = """\
## User Profile

Backend engineer who lives in the terminal; wants short answers and diffs, not essays.

## General Tips

- Run the linters before proposing a commit.
- Prefer rg over grep.

## What's in Memory

- ci: pytest, postgres
  - desc: flaky tests and the port fixture
"""

GEMINI_MD = """\
# Project instructions

Use TypeScript strict mode.

## Gemini Added Memories
- The user prefers pnpm over npm for every project.
- Deploys go through the staging cluster first,
  then production after a manual check.

## Style
- Two-space indentation.
"""


def codex_folder(root: Path) -> Path:
    folder = root / "codex-memories"
    (folder / "rollout_summaries").mkdir(parents=True)
    (folder / "MEMORY.md").write_text(CODEX_MEMORY, "utf-8")
    (folder / "memory_summary.md").write_text(CODEX_SUMMARY, "utf-8")
    (folder / "raw_memories.md").write_text("raw\n", "utf-8")
    return folder


def test_import_codex_makes_a_note_per_block_and_for_profile_and_tips(memenv: MemEnv) -> None:
    folder = codex_folder(memenv.root)
    done = memenv.call("import", "codex", str(folder), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert sorted(i["file"] for i in report["left_out"]) == ["raw_memories.md",
                                                             "rollout_summaries"]
    notes = memenv.notes("user")
    assert len(notes) == 4, notes
    flaky = next(n for n in notes if "flaky" in n)
    text = (memenv.user / flaky).read_text("utf-8")
    assert "per-worker port fixture" in text and "Keywords: pytest, postgres" in text
    profile = (memenv.user / "user_preference_codex-user-profile.md").read_text("utf-8")
    assert "lives in the terminal" in profile
    tips = (memenv.user / "user_preference_codex-general-tips.md").read_text("utf-8")
    assert "Prefer rg over grep." in tips and "flaky tests and the port fixture" not in tips
    again = memenv.call("import", "codex", str(folder), "--on-conflict", "update")
    assert again.returncode == 0, again.stderr
    assert memenv.notes("user") == notes


def test_export_codex_keeps_codex_blocks_and_replaces_its_own(memenv: MemEnv) -> None:
    folder = codex_folder(memenv.root)
    assert memenv.call("add", "Always use pnpm.", "--title", "Package manager",
                      "--level", "user").returncode == 0
    done = memenv.call("export", "codex", str(folder))
    assert done.returncode == 0, done.stderr
    text = (folder / "MEMORY.md").read_text("utf-8")
    assert text.startswith(CODEX_MEMORY.rstrip("\n") + "\n")  # Codex's blocks, byte for byte
    assert "memcli_note: user_preference_package-manager.md" in text
    assert "- Always use pnpm." in text
    assert memenv.call("export", "codex", str(folder)).stdout.startswith("unchanged")
    assert (folder / "memory_summary.md").read_text("utf-8") == CODEX_SUMMARY


def test_import_gemini_takes_the_saved_memories_only(memenv: MemEnv) -> None:
    path = memenv.repo / "GEMINI.md"
    path.write_text(GEMINI_MD, "utf-8")
    done = memenv.call("import", "gemini", str(memenv.repo), "--json")
    assert done.returncode == 0, done.stderr
    notes = memenv.notes("project")
    assert len(notes) == 2
    bodies = [(memenv.project / n).read_text("utf-8") for n in notes]
    assert any("then production after a manual check." in b for b in bodies)
    assert not any("Two-space" in b or "strict mode" in b for b in bodies)
    assert path.read_text("utf-8") == GEMINI_MD


def test_export_gemini_appends_to_the_section_and_round_trips(memenv: MemEnv) -> None:
    path = memenv.repo / "GEMINI.md"
    path.write_text(GEMINI_MD, "utf-8")
    assert memenv.call("import", "gemini", str(path)).returncode == 0
    assert memenv.call("add", "Run make check before every commit.", "--title",
                      "Test command", "--level", "project").returncode == 0
    done = memenv.call("export", "gemini", str(path))
    assert done.returncode == 0, done.stderr
    text = path.read_text("utf-8")
    section = text.split("## Gemini Added Memories\n")[1].split("\n## ")[0]
    assert "- Test command: Run make check before every commit." in section
    assert section.count("pnpm") == 1  # a memory already there is not added twice
    assert text.endswith("## Style\n- Two-space indentation.\n")
    assert memenv.call("export", "gemini", str(path)).stdout.startswith("unchanged")
    before = sorted(memenv.notes("project"))
    assert memenv.call("import", "gemini", str(path), "--on-conflict", "update").returncode == 0
    assert sorted(memenv.notes("project")) == before


def test_a_title_with_a_dot_round_trips_through_gemini(memenv: MemEnv) -> None:
    # "Node.js version: Use Node 22 …" was read back as a title of its own: a second note.
    path = memenv.repo / "GEMINI.md"
    assert memenv.call("add", "Use Node 22 for every service.", "--title", "Node.js version",
                      "--level", "project").returncode == 0
    assert memenv.call("export", "gemini", str(path)).returncode == 0
    assert "- Node.js version: Use Node 22 for every service." in path.read_text("utf-8")
    before = sorted(memenv.notes("project"))
    again = memenv.call("import", "gemini", str(path), "--on-conflict", "update", "--json")
    assert again.returncode == 0, again.stderr
    assert sorted(memenv.notes("project")) == before


def test_symbolic_links_are_never_followed(memenv: MemEnv, tmp_path: Path) -> None:
    real = tmp_path / "real-GEMINI.md"
    real.write_text(GEMINI_MD, "utf-8")
    link = memenv.repo / "GEMINI.md"
    link.symlink_to(real)
    for command in (["import", "gemini", str(link)], ["export", "gemini", str(link)]):
        done = memenv.call(*command)
        assert done.returncode == 2 and "symbolic link" in done.stderr, done
    assert real.read_text("utf-8") == GEMINI_MD
    folder = codex_folder(tmp_path)
    (folder / "MEMORY.md").unlink()
    (folder / "MEMORY.md").symlink_to(real)
    done = memenv.call("import", "codex", str(folder), "--json")
    left = {i["file"]: i for i in json.loads(done.stdout)["left_out"]}
    assert left["MEMORY.md"]["problem"] is True and "symbolic link" in left["MEMORY.md"]["reason"]
    assert done.returncode == 1


# --------------------------------------------------------------------------- round trips

# Each target: the path export writes to and import reads, and how the other tool adds a
# memory of its own there afterwards.
ROUND_TRIPS = {
    "claude-code": ("claude-memory", lambda path: (path / "feedback_tabs.md").write_text(
        "---\nname: Tabs\ndescription: Indent with tabs.\ntype: feedback\n---\n\n"
        "Indent with tabs.\n", "utf-8")),
    "codex": ("codex-memories", lambda path: (path / "MEMORY.md").write_text(
        (path / "MEMORY.md").read_text("utf-8") + "\n" + CODEX_MEMORY.split("\n\n---\n")[0]
        + "\n", "utf-8")),
    "gemini": ("GEMINI.md", lambda path: path.write_text(
        path.read_text("utf-8") + "- The user prefers pnpm over npm for every project.\n",
        "utf-8")),
}


def _notes_to_export(memenv: MemEnv) -> None:
    # A title unlike its summary, a dot in a title, a body of several lines: each changed
    # what an import read back (a second note under another title, or a rejected duplicate).
    for args in (["Always use pnpm, never npm.", "--title", "Package manager"],
                 ["Use Node 22 for every service.", "--title", "Node.js version"],
                 ["Run the linters first.\n\nThen `make check`, then commit.", "--title",
                  "Before a commit", "--summary", "Lint, check, commit."]):
        done = memenv.call("add", "--level", "user", *args)
        assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("tool", sorted(ROUND_TRIPS))
def test_export_then_import_creates_nothing(memenv: MemEnv, tool: str) -> None:
    _notes_to_export(memenv)
    path = memenv.root / ROUND_TRIPS[tool][0]
    exported = memenv.call("export", tool, "--level", "user", str(path))
    assert exported.returncode == 0, exported.stderr
    before = memenv.stores_snapshot()
    done = memenv.call("import", tool, "--level", "user", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert memenv.stores_snapshot() == before
    report = json.loads(done.stdout)
    known = sorted(item["reason"] for item in report["left_out"]
                   if item["reason"].startswith("already in"))
    assert known == sorted(f"already in the user store as {name}"
                           for name in memenv.notes("user")), report


@pytest.mark.parametrize("tool", sorted(ROUND_TRIPS))
def test_what_the_other_tool_added_after_an_export_is_still_imported(
        memenv: MemEnv, tool: str) -> None:
    _notes_to_export(memenv)
    folder, add_one = ROUND_TRIPS[tool]
    path = memenv.root / folder
    assert memenv.call("export", tool, "--level", "user", str(path)).returncode == 0
    add_one(path)
    before = memenv.notes("user")
    done = memenv.call("import", tool, "--level", "user", str(path))
    assert done.returncode == 0, done.stderr
    assert len(memenv.notes("user")) == len(before) + 1, done.stderr


@pytest.mark.parametrize(("tool", "target"), [("codex", "codex-memories"),
                                              ("gemini", "GEMINI.md")])
def test_exporting_a_store_that_does_not_exist_writes_nothing(memenv: MemEnv, tool: str,
                                                              target: str) -> None:
    # It created an empty MEMORY.md or GEMINI.md, and said "created".
    path = memenv.root / target
    done = memenv.call("export", tool, "--level", "user", str(path))
    assert done.returncode == 0, done.stderr
    assert not path.exists() and done.stdout == ""
    assert done.stderr == "memcli: the user store does not exist yet; nothing exported\n"


@pytest.mark.parametrize(("tool", "hint"), [("claude-code", "~/.claude/projects/<project>/memory"),
                                            ("codex", "~/.codex/memories"),
                                            ("gemini", "~/.gemini/GEMINI.md")])
def test_importing_from_a_path_that_does_not_exist_says_so(memenv: MemEnv, tool: str,
                                                           hint: str) -> None:
    missing = memenv.root / "nowhere"
    done = memenv.call("import", tool, str(missing))
    assert done.returncode == 2
    assert done.stderr.startswith(f"memcli: error: {missing}")
    assert "does not exist; pass " in done.stderr and hint in done.stderr
    assert done.stderr.count("\n") == 1


def test_the_export_summary_counts_in_words(memenv: MemEnv) -> None:
    assert memenv.call("add", "--level", "user", "Always use pnpm.").returncode == 0
    done = memenv.call("export", "claude-code", "--level", "user", str(memenv.root / "out"))
    assert done.returncode == 0, done.stderr
    assert "memcli: exported 1 note of the user store; 2 files written" in done.stderr


@pytest.mark.parametrize("tool", sorted(ROUND_TRIPS))
def test_export_dry_run_says_what_it_would_write_and_writes_nothing(memenv: MemEnv,
                                                                    tool: str) -> None:
    # import and hooks install had --dry-run; export, which writes into another tool's
    # folder, had none.
    _notes_to_export(memenv)
    path = memenv.root / "out" / ROUND_TRIPS[tool][0]
    before = memenv.stores_snapshot()
    done = memenv.call("export", tool, "--level", "user", "--dry-run", str(path))
    assert done.returncode == 0, done.stderr
    assert not (memenv.root / "out").exists()
    assert memenv.stores_snapshot() == before
    assert done.stdout.startswith("would create ")
    assert "dry run, nothing written" in done.stderr
    assert memenv.call("export", tool, "--level", "user", str(path)).returncode == 0
    again = json.loads(memenv.call("export", tool, "--level", "user", "--dry-run", "--json",
                                  str(path)).stdout)
    assert again["dry_run"] is True
    assert {f["change"] for f in again["files"]} == {"unchanged"}
