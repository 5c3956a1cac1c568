"""CHANGELOG.md follows Keep a Changelog, and its newest release is the package's version."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

from memcli import __version__

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"
_RELEASE = re.compile(r"^## \[(?P<version>\d+\.\d+\.\d+(?:[-.][0-9A-Za-z.]+)?)\] - "
                      r"(?P<date>\d{4}-\d{2}-\d{2})$")
SECTIONS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def _headings(level: str) -> list[str]:
    return [line.rstrip() for line in CHANGELOG.read_text("utf-8").splitlines()
            if line.startswith(level + " ")]


def _releases() -> list[tuple[tuple[int, ...], datetime.date, str]]:
    found = []
    for heading in _headings("##"):
        match = _RELEASE.match(heading)
        if match:
            number = tuple(int(p) for p in match["version"].split("-")[0].split(".")[:3])
            found.append((number, datetime.date.fromisoformat(match["date"]), match["version"]))
    return found


def test_the_package_version_is_the_top_released_entry() -> None:
    releases = _releases()
    assert releases, "CHANGELOG.md has no released entry (## [x.y.z] - YYYY-MM-DD)"
    assert releases[0][2] == __version__, (
        f"memcli/__init__.py says {__version__}, the newest release in CHANGELOG.md is "
        f"{releases[0][2]}: bump one of them"
    )


def test_unreleased_comes_first_and_every_other_entry_is_a_dated_release() -> None:
    headings = _headings("##")
    assert headings[0] == "## [Unreleased]"
    for heading in headings[1:]:
        assert _RELEASE.match(heading), f"not a '## [x.y.z] - YYYY-MM-DD' release: {heading!r}"


def test_releases_are_newest_first() -> None:
    releases = _releases()
    versions = [number for number, _, _ in releases]
    dates = [date for _, date, _ in releases]
    assert versions == sorted(versions, reverse=True)
    assert len(set(versions)) == len(versions)
    assert dates == sorted(dates, reverse=True)


def test_changes_are_grouped_under_the_standard_headings() -> None:
    for heading in _headings("###"):
        assert heading.removeprefix("### ") in SECTIONS, f"unknown section {heading!r}"
