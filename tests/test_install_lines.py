"""The install lines of the README and docs are ones a reader can run: memcli is not on
PyPI, so each installs from a clone or a git address, and the README's pre-commit hook runs
with the real pre-commit."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# `pip install memcli`, `pipx install 'memcli[mcp]'`, `uv tool install memcli`: by name, from
# an index that has no memcli. `memcli[mcp] @ git+…` names where it comes from.
_BY_NAME = re.compile(r"\b(?:pip|pipx|uv tool|uv pip)\s+install\s+(?:-\S+\s+)*['\"]?"
                      r"memcli(?:\[[^\]]*\])?['\"]?(?!\S|\s*@)")


def test_no_page_installs_memcli_by_name() -> None:
    found = [f"{page.name}:{number}: {line.strip()}"
             for page in PAGES
             for number, line in enumerate(page.read_text("utf-8").splitlines(), start=1)
             if _BY_NAME.search(line)]
    assert found == []


@pytest.mark.parametrize("line", ["pip install memcli", "pipx install 'memcli[mcp]'",
                                  "- run: pip install memcli   # or: …",
                                  "uv tool install memcli"])
def test_the_check_catches_an_install_by_name(line: str) -> None:
    assert _BY_NAME.search(line)


@pytest.mark.parametrize("line", ["pipx install '.[mcp]'", "pip install -e '.[mcp]'",
                                  "pipx install 'memcli[mcp] @ git+https://x.example/memcli'",
                                  'pip install "git+https://x.example/you/memcli@0123abc"'])
def test_the_check_lets_a_clone_or_a_git_address_pass(line: str) -> None:
    assert not _BY_NAME.search(line)


def _readme_hook_block() -> str:
    section = (ROOT / "README.md").read_text("utf-8").split("**pre-commit.**", 1)[1]
    block = re.search(r"```yaml\n(.*?)```", section, flags=re.S)
    assert block is not None
    return block.group(1)


def test_the_readme_pre_commit_hook_runs_memcli_lint(tmp_path: Path) -> None:
    # Its `repo:` was an address that does not exist; the block must work as written.
    repo = tmp_path / "repo"
    store = repo / ".memcli" / "memory"
    store.mkdir(parents=True)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("MEMCLI_", "GIT_"))},
           "HOME": str(tmp_path / "home"), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit"),
           "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
           "GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig"), "GIT_CONFIG_NOSYSTEM": "1"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(args), cwd=repo, env=env, capture_output=True, text=True,
                              timeout=300, check=False)

    assert run("git", "init", "-q").returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(_readme_hook_block(), "utf-8")
    assert run("memcli", "add", "--title", "Tests", "Run the tests with make test.").returncode == 0
    (store / "MEMORY.md").write_text("# Memory\n\n- [project_knowledge] Wrong (x.md)\n", "utf-8")
    assert run("git", "add", "-A").returncode == 0
    broken = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "memcli lint" in broken.stdout and " M10" in broken.stdout, broken.stdout
    assert run("memcli", "index").returncode == 0
    assert run("git", "add", "-A").returncode == 0
    clean = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout
