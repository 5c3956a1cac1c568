"""The release path: one version source, a workflow that publishes only what CI checked,
with trusted publishing (no stored token), and the build check in .ci/run.

`.ci/release-check` itself (build, twine check, the wheel in a fresh venv) is run by CI;
these tests keep the pieces around it from drifting apart.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

from memcli import __version__

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def _workflow() -> dict[Any, Any]:
    loaded = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_the_version_has_one_source() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert project["project"]["dynamic"] == ["version"] and "version" not in project["project"]
    assert project["tool"]["hatch"]["version"]["path"] == "memcli/__init__.py"
    # No other module spells the version out.
    spelled = [str(p.relative_to(ROOT)) for p in (ROOT / "memcli").rglob("*.py")
               if re.search(rf"['\"]{re.escape(__version__)}['\"]", p.read_text("utf-8"))]
    assert spelled == ["memcli/__init__.py"]


def test_the_workflow_publishes_a_tag_with_trusted_publishing() -> None:
    workflow = _workflow()
    # YAML reads the key `on` as True.
    assert workflow[True] == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    jobs = workflow["jobs"]
    publish = jobs["publish"]
    assert set(publish["needs"]) == {"build", "test"}
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    step = publish["steps"][-1]
    assert step["uses"].startswith("pypa/gh-action-pypi-publish@")
    assert "with" not in step or not {"password", "user"} & set(step["with"])
    # No other job asks for more than reading the repository.
    assert all("permissions" not in job for name, job in jobs.items() if name != "publish")


def test_the_workflow_builds_with_the_same_check_as_ci_and_tests_the_wheel() -> None:
    jobs = _workflow()["jobs"]
    build = "\n".join(step.get("run", "") for step in jobs["build"]["steps"])
    assert "bash .ci/release-check" in build
    assert 'v${version}' in build and "CHANGELOG.md" in build  # the tag is the version
    test = "\n".join(step.get("run", "") for step in jobs["test"]["steps"])
    assert "dist/*.whl" in test and "rm -rf memcli" in test and "pytest" in test


def test_ci_runs_the_release_check_after_the_plain_install() -> None:
    run = (ROOT / ".ci" / "run").read_text("utf-8")
    assert run.index("bash .ci/plain-install") < run.index("bash .ci/release-check")
    check = (ROOT / ".ci" / "release-check").read_text("utf-8")
    for needed in ("python\" -m build", "twine\" check --strict", "README.md", "--version"):
        assert needed in check


def test_the_changelog_has_a_release_section_for_the_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$",
                     changelog, re.M)
