"""Regressions found while integrating the parts; each test names the defect it pins."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from memcli.cli import app

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
    assert done.returncode == 0, done.stderr
    text = note.read_text(encoding="utf-8")
    assert "New body." in text
    assert _alias_bomb() in text, "the untouched keys must be written back byte for byte"


def test_lint_with_an_unknown_format_changes_nothing(tmp_path: Path) -> None:
    store = tmp_path / "project"
    store.mkdir()
    note = store / "project_knowledge_x.md"
    note.write_text("---\ntype: project_knowledge\ntitle: X\nsummary: S\n---\nBody.\n",
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["--project-store", str(store), "--user-store",
                                      str(tmp_path / "user"), "lint", "--fix", "--format", "bogus"])
    assert result.exit_code == 2
    assert not (store / "MEMORY.md").exists(), "--fix must not run before the format is checked"
