"""The shipped pre-commit hooks, run by the real pre-commit in a throw-away git repository.

pre-commit installs the hook repository with pip into its own environment, which needs the
network (PyPI) and takes a while: one `try-repo` and one `install`, both module-scoped.
HOME, MEMCLI_HOME, PRE_COMMIT_HOME and git's configuration all point into tmp_path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
_OFFLINE_SIGNS = ("Temporary failure in name resolution", "Failed to establish a new connection",
                  "No matching distribution found", "Could not find a version")


def _run(args: list[str], cwd: Path, env: Mapping[str, str],
         timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=dict(env), capture_output=True, text=True,
                          timeout=timeout, check=False)


def _git(cwd: Path, env: Mapping[str, str], *args: str) -> str:
    proc = _run(["git", *args], cwd, env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def _pre_commit(cwd: Path, env: Mapping[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    proc = _run([sys.executable, "-m", "pre_commit", *args], cwd, env)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0 and any(sign in output for sign in _OFFLINE_SIGNS):
        pytest.skip("pre-commit could not install the hook from PyPI (offline?)")
    return proc


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    base = tmp_path_factory.mktemp("pre-commit")
    home = base / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("")
    values = {k: v for k, v in os.environ.items()
              if not k.startswith(("MEMCLI_", "GIT_", "PRE_COMMIT"))}
    values.update({
        "HOME": str(home),
        "MEMCLI_HOME": str(home / ".memcli"),
        "PRE_COMMIT_HOME": str(base / "pre-commit-cache"),
        # Both installs share downloads; nothing is written to the real pip cache.
        "PIP_CACHE_DIR": str(base / "pip-cache"),
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "NO_COLOR": "1",
    })
    return values


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> tuple[Path, str]:
    """This checkout's working tree as a one-commit repository, so that the hooks under test
    are the ones on disk (try-repo alone would take HEAD plus tracked changes only)."""
    source = tmp_path_factory.mktemp("hook-repo")
    for relative in _working_tree_files():
        target = source / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, target)
    _git(source, env, "init", "-q")
    _git(source, env, "add", "-A")
    _git(source, env, "commit", "-q", "-m", "memcli under test")
    return source, _git(source, env, "rev-parse", "HEAD")


def _working_tree_files() -> list[str]:
    """Tracked and new files, not ignored ones (no .venv, caches or build output)."""
    if (ROOT / ".git").exists():
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True).stdout.decode()
        return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]
    skip = {".venv", ".ci-venv", "build", "dist", ".mypy_cache", ".ruff_cache", ".pytest_cache",
            ".hypothesis", "__pycache__"}
    return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def _project(base: Path, env: dict[str, str]) -> Path:
    """A repository whose commit history holds a clean project store."""
    base.mkdir()
    _git(base, env, "init", "-q")
    for text, title in (("Run go test before release.", "Build workflow"),
                        ("Use pnpm, never npm.", "Package manager")):
        proc = _run([sys.executable, "-m", "memcli", "add", text, "--title", title], base, env)
        assert proc.returncode == 0, proc.stderr
    _git(base, env, "add", "-A")
    _git(base, env, "commit", "-q", "-m", "memory")
    return base


def _break_index(project: Path) -> None:
    index = project / ".memcli" / "memory" / "MEMORY.md"
    index.write_text(index.read_text("utf-8").replace("Build workflow", "Build steps"), "utf-8")


def test_try_repo_refuses_a_broken_index(tmp_path: Path, env: dict[str, str],
                                         hook_repo: tuple[Path, str]) -> None:
    project = _project(tmp_path / "project", env)
    _break_index(project)
    _git(project, env, "add", "-A")
    proc = _pre_commit(project, env, "try-repo", str(hook_repo[0]), "memcli-lint",
                       "--ref", hook_repo[1])
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "memcli-lint" in output and "Failed" in output
    assert ".memcli/memory/MEMORY.md:" in output and "M103 error" in output


def test_a_commit_that_breaks_the_index_is_refused(tmp_path: Path, env: dict[str, str],
                                                   hook_repo: tuple[Path, str]) -> None:
    project = _project(tmp_path / "project", env)
    source, rev = hook_repo
    (project / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {source}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: memcli-lint\n"
        "      - id: memcli-lint-store\n")
    installed = _pre_commit(project, env, "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    _git(project, env, "add", ".pre-commit-config.yaml")
    _git(project, env, "commit", "-q", "-m", "hooks")  # installs the hook environment

    _break_index(project)
    _git(project, env, "add", "-A")
    refused = _run(["git", "commit", "-m", "break the index"], project, env)
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0, output
    assert "M103 error" in output and "memcli lint" in output
    assert _git(project, env, "log", "--format=%s", "-1") == "hooks"

    fixed = _run([sys.executable, "-m", "memcli", "lint", "--fix"], project, env)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    added = _run([sys.executable, "-m", "memcli", "add", "Tag releases from main.",
                  "--title", "Release branch"], project, env)
    assert added.returncode == 0, added.stderr
    _git(project, env, "add", "-A")
    passed = _run(["git", "commit", "-m", "a clean store"], project, env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "memcli lint (changed memory files)" in passed.stdout + passed.stderr
    assert _git(project, env, "log", "--format=%s", "-1") == "a clean store"


def test_memcli_verify_warns_when_a_commit_changes_a_cited_file(
        tmp_path: Path, env: dict[str, str], hook_repo: tuple[Path, str]) -> None:
    project = tmp_path / "project"
    project.mkdir()
    _git(project, env, "init", "-q")
    (project / "deploy.sh").write_text("echo deploy\n")
    _git(project, env, "add", "-A")
    _git(project, env, "commit", "-q", "-m", "script")
    proc = _run([sys.executable, "-m", "memcli", "add", "--cite", "deploy.sh",
                 "--title", "Deploy", "Deploy with deploy.sh."], project, env)
    assert proc.returncode == 0, proc.stderr
    (project / "deploy.sh").write_text("echo ship\n")
    _git(project, env, "add", "-A")
    proc = _pre_commit(project, env, "try-repo", str(hook_repo[0]), "memcli-verify",
                       "--ref", hook_repo[1])
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output  # a warning: the commit goes on
    assert "memcli verify" in output and "changed   deploy.sh" in output
