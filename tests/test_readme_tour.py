"""The README's five-minute tour, run as written in bash, in a temporary home and repository.

Each line of the README's block runs in one shell (so `cd` and the venv activation carry
over, as they do for a person), and each step's output is checked.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARK = "@@@ step "


def _tour_lines() -> list[str]:
    readme = ROOT.joinpath("README.md").read_text("utf-8")
    section = readme.split("## A five-minute tour", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.S)
    assert block is not None, "the tour has no ```sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def _clone_like(tmp_path: Path) -> Path:
    """What the tour starts from: the clone after the README's first command."""
    clone = tmp_path / "clone"
    (clone / "examples").mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "turn.jsonl", clone / "examples" / "turn.jsonl")
    activate = clone / ".venv" / "bin" / "activate"
    activate.parent.mkdir(parents=True)
    # The real venv's activate script, reduced to what it does for the tour: memcli on PATH.
    activate.write_text(f'export PATH="{Path(sys.executable).parent}:$PATH"\n', "utf-8")
    return clone


@pytest.fixture(scope="module")
def tour(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    tmp_path = tmp_path_factory.mktemp("tour")
    clone = _clone_like(tmp_path)
    lines = _tour_lines()
    script = ["set -eo pipefail"]
    for number, line in enumerate(lines):
        script += [f'echo "{MARK}{number}"; echo "{MARK}{number}" >&2', line]
    (tmp_path / "tmp").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMCLI_")}
    env.update({"HOME": str(tmp_path / "home"), "TMPDIR": str(tmp_path / "tmp"),
                "PATH": "/usr/bin:/bin", "NO_COLOR": "1"})
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"the tour failed:\n{done.stdout}\n{done.stderr}"
    out = _by_step(done.stdout)
    err = _by_step(done.stderr)
    steps = {line: (out.get(i, ""), err.get(i, "")) for i, line in enumerate(lines)}
    (ops,) = (tmp_path / "tmp").glob("*/ops.json")
    steps["ops.json"] = (ops.read_text("utf-8"), "")
    return steps


def _by_step(text: str) -> dict[int, str]:
    parts = re.split(rf"^{MARK}(\d+)\n", text, flags=re.M)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def _step(tour: dict[str, tuple[str, str]], starts: str) -> tuple[str, str]:
    found = [value for line, value in tour.items() if line.startswith(starts)]
    assert len(found) == 1, f"the tour has no single line starting {starts!r}"
    return found[0]


def test_extract_gives_the_four_operations_the_readme_promises(tour: dict) -> None:
    readme = ROOT.joinpath("README.md").read_text("utf-8")
    assert "the four notes the example turn" in readme
    out, err = _step(tour, "memcli extract")
    assert out == ""  # redirected into ops.json
    assert "6 messages" in err
    operations = json.loads(tour["ops.json"][0])["operations"]
    assert sorted(op["type"] for op in operations) == [
        "correction_feedback", "project_knowledge", "reference_material", "user_preference"]


def test_the_dry_run_shows_a_diff_and_writes_nothing(tour: dict) -> None:
    out, err = _step(tour, "memcli apply --dry-run")
    assert out.count("+++ b/project/") >= 3 and "+++ b/user/" in out
    assert "4 to apply" in err and "nothing written" in err


def test_apply_writes_four_notes(tour: dict) -> None:
    _, err = _step(tour, "memcli apply ops.json")
    assert "4 applied" in err and "written" in err


def test_show_lists_and_shows_a_note(tour: dict) -> None:
    out, _ = _step(tour, "memcli show  ")
    assert "Test command" in out and "Package manager" in out
    note, _ = _step(tour, 'memcli show "Test command"')
    assert note.startswith("---\ntype: project_knowledge\ntitle: Test command\n")
    assert "uv run pytest -q" in note


def test_context_and_lint(tour: dict) -> None:
    out, _ = _step(tour, "memcli context")
    assert out.startswith("## Project Memory") and "## User Memory" in out
    assert "[project_knowledge] Test command" in out
    _, err = _step(tour, "memcli lint")
    assert "0 errors, 0 warnings" in err


def test_add_and_rm_of_a_user_note(tour: dict) -> None:
    out, _ = _step(tour, "memcli add --level user")
    assert "create user/user_preference_answer-in-english-briefly.md" in out
    out, err = _step(tour, "memcli rm --yes")
    assert "delete user/user_preference_answer-in-english-briefly.md" in out
    assert "1 applied" in err


def test_a_note_anchored_to_a_file_verifies(tour: dict) -> None:
    out, _ = _step(tour, "memcli add --cite ops.json")
    assert "create project/project_knowledge_ops-json-holds-what-extract-proposed.md" in out
    out, err = _step(tour, "memcli verify")
    assert "unchanged ops.json" in out and "1 unchanged (1 anchor in 1 note)" in err


def test_the_tour_starts_from_the_clone() -> None:
    lines = _tour_lines()
    assert lines[0].startswith(". .venv/bin/activate")
    assert any("examples/turn.jsonl" in line for line in lines)


def test_search_and_recall_find_the_notes_the_tour_wrote(tour: dict) -> None:
    # The tour searched for "make test --force-with-lease", which no note of the example
    # turn is about: what a reader saw ranked had nothing to do with the query.
    out, _ = _step(tour, "memcli search")
    assert out.splitlines()[0].startswith("project/project_knowledge_test-command.md")
    assert "project/correction_feedback_package-manager.md" in out
    out, _ = _step(tour, "memcli recall")
    assert "### [project_knowledge] Test command" in out and "uv run pytest -q" in out
