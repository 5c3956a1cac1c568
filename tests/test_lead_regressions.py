"""Regressions found while integrating the parts; each test names the defect it pins."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import invoke_memcli

_LEVELS = "abcdefghij"


def _alias_bomb() -> str:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for previous, name in itertools.pairwise(_LEVELS):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_updating_a_note_whose_frontmatter_is_an_alias_bomb_does_not_hang(tmp_path: Path) -> None:
    store = tmp_path / "project"
    store.mkdir()
    note = store / "project_knowledge_bomb.md"
    note.write_text("---\ntype: project_knowledge\ntitle: Bomb\nsummary: S\n" + _alias_bomb()
                    + "---\nOld body.\n", encoding="utf-8")
    ops = [{"action": "update", "level": "project", "filename": note.name,
            "content": "New body.", "summary": "New."}]
    env = {**os.environ, "HOME": str(tmp_path), "MEMCLI_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "memcli", "--project-store", str(store), "apply", "-"],
        input=json.dumps(ops), capture_output=True, text=True, env=env, timeout=60, check=False,
    )
    # An alias bomb is a broken note for every command (issue 12): the update is refused
    # at once with its reason, and the note is left byte for byte as it was.
    assert done.returncode == 1, done.stderr
    assert "YAML aliases" in done.stderr and len(done.stderr.splitlines()) <= 3
    text = note.read_text(encoding="utf-8")
    assert "Old body." in text and "New body." not in text
    assert _alias_bomb() in text


def test_lint_with_an_unknown_format_changes_nothing(tmp_path: Path) -> None:
    store = tmp_path / "project"
    store.mkdir()
    note = store / "project_knowledge_x.md"
    note.write_text("---\ntype: project_knowledge\ntitle: X\nsummary: S\n---\nBody.\n",
                    encoding="utf-8")
    result = invoke_memcli("--project-store", str(store), "--user-store",
                                      str(tmp_path / "user"), "lint", "--fix", "--format", "bogus")
    assert result.exit_code == 2
    assert not (store / "MEMORY.md").exists(), "--fix must not run before the format is checked"


def _store_with(tmp_path: Path, files: dict[str, str]) -> Path:
    store = tmp_path / "project"
    store.mkdir(exist_ok=True)
    for name, text in files.items():
        (store / name).write_text(text, encoding="utf-8")
    return store


def _note(title: str, summary: str, body: str = "Body.", updated: str = "2026-01-01") -> str:
    return (f"---\ntype: project_knowledge\ntitle: {title}\nsummary: {summary}\n"
            f"created: {updated}\nupdated: {updated}\n---\n{body}\n")


def _run(tmp_path: Path, *args: str, input: str | None = None) -> Any:
    return invoke_memcli("--project-store", str(tmp_path / "project"),
                                    "--user-store", str(tmp_path / "user"), *args, input=input)


def test_one_oversized_entry_does_not_hide_the_others_from_context(tmp_path: Path) -> None:
    files = {f"project_knowledge_n{i}.md": _note(f"N{i}", f"Small {i}.") for i in range(10)}
    files["project_knowledge_huge.md"] = _note("Huge", "x " * 15000, updated="2026-12-01")
    _store_with(tmp_path, files)
    result = _run(tmp_path, "context", "--json")
    assert result.exit_code == 0, result.output
    block = json.loads(result.stdout)
    assert block["shown"] == 10
    assert block["left_out"] == 1
    assert "Small 9." in block["text"]
    assert len(block["text"].encode()) <= 25 * 1024


def test_a_file_name_with_a_backslash_is_a_stray_file_not_an_index_line(tmp_path: Path) -> None:
    _store_with(tmp_path, {"project_knowledge_a\\b.md": _note("A", "S."),
                           "project_knowledge_ok.md": _note("Ok", "S.")})
    assert _run(tmp_path, "index").exit_code == 0
    index = (tmp_path / "project" / "MEMORY.md").read_text(encoding="utf-8")
    assert "a\\b" not in index
    assert _run(tmp_path, "index").exit_code == 0
    assert _run(tmp_path, "index", "--check").exit_code == 0
    assert (tmp_path / "project" / "MEMORY.md").read_text(encoding="utf-8") == index


def test_a_derived_summary_skips_a_leading_heading(tmp_path: Path) -> None:
    result = _run(tmp_path, "add", "--title", "Deploy", "## Deploy\nDeploys go through make ship.")
    assert result.exit_code == 0, result.output
    note = (tmp_path / "project" / "project_knowledge_deploy.md").read_text(encoding="utf-8")
    assert "summary: Deploys go through make ship.\n" in note


def test_a_secret_in_an_operations_reason_is_not_printed(tmp_path: Path) -> None:
    token = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    ops = [{"action": "create", "level": "project", "type": "project_knowledge",
            "title": "CI", "content": "CI runs on push.", "reason": f"user pasted {token}"}]
    result = _run(tmp_path, "apply", "--dry-run", "--json", "-", input=json.dumps(ops))
    assert result.exit_code == 0, result.output
    assert token not in result.output
    assert "[REDACTED]" in json.loads(result.stdout)["applied"][0]["reason"]


def test_an_update_that_differs_only_in_crlf_line_ends_changes_nothing(tmp_path: Path) -> None:
    store = _store_with(tmp_path, {"project_knowledge_x.md": _note("X", "S.", "Line one.\nTwo.")})
    assert _run(tmp_path, "index").exit_code == 0
    before = (store / "project_knowledge_x.md").read_bytes()
    ops = [{"action": "update", "level": "project", "filename": "project_knowledge_x.md",
            "content": "Line one.\r\nTwo.\r\n"}]
    result = _run(tmp_path, "apply", "--json", "-", input=json.dumps(ops))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["unchanged"], result.stdout
    assert (store / "project_knowledge_x.md").read_bytes() == before


def test_help_lists_the_main_job_first_and_every_command_once() -> None:
    result = invoke_memcli("--help")
    assert result.exit_code == 0
    commands = result.stdout.split("Everyday:")[1].split("Options:")[0]
    listed = [line.split()[0] for line in commands.splitlines() if line.startswith("  ")
              and not line.startswith("   ") and "Plumbing" not in line and ", " not in line[:14]]
    listed += commands.split("shells:\n", 1)[1].split("\n", 1)[0].strip().split(", ")
    assert listed[:2] == ["extract", "apply"]
    assert sorted(listed) == sorted(set(listed))
    assert {"lint", "context", "show", "add", "rm", "index", "hook"} <= set(listed)
