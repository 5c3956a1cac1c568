"""Recall, round 6 of issue 28: a misspelt word is still the note's word.

`test_a_misspelt_word_still_counts` failed before (checked by running this file on `main`
at c49cd98): "clipy complains about pedantic stuff" asks for three things; the note on
Clippy held `pedantic` and, misspelt, `clippy`, but the lone-word rule counted one word held
and `recall` returned nothing. The other tests pass on `main` too: they guard what the
change must not do.
"""

from __future__ import annotations

from typing import Any

import pytest
from note_sets import recalled, searched, write_project_notes

from memcli.search.coverage import _near

NOTES: dict[str, tuple[str, str, str]] = {
    "correction_feedback_clippy.md": (
        "Clippy must be clean", "cargo clippy with pedantic lints, warnings are errors.",
        "Run `cargo clippy --all-targets -- -D warnings`; the crate enables clippy::pedantic, "
        "so allow a pedantic lint only with a comment saying why."),
    "project_knowledge_printing.md": (
        "Printing the report", "print_report writes the summary table.",
        "`print_report()` in src/report.rs writes the summary table to stdout."),
    "project_knowledge_release.md": (
        "Cutting a release", "cargo release minor, then push the tag.",
        "`cargo release minor --execute` bumps the version and tags it; push the tag and CI "
        "builds the binaries."),
}


@pytest.fixture
def store(memenv: Any) -> Any:
    return write_project_notes(memenv, NOTES)


def test_a_misspelt_word_still_counts(store: Any) -> None:
    prompt = "clipy complains about pedantic stuff"
    assert searched(store, prompt)[:1] == ["correction_feedback_clippy.md"]
    assert recalled(store, prompt)[:1] == ["correction_feedback_clippy.md"]


def test_a_derived_word_is_no_typo(store: Any) -> None:
    # `printer` is no misspelt `print`: a 3d printer is not about the report's printing.
    assert recalled(store, "config for a 3d printer bed leveling") == []


@pytest.mark.parametrize(("word", "other", "near"), [
    ("clipi", "clippi", True),  # a letter dropped
    ("updta", "updat", True),  # two swapped
    ("sever", "server", True),
    ("migraton", "migrat", False),  # two letters more: left alone
    ("printer", "print", False),  # a derived word
    ("mxport", "export", False),  # the first letter
    ("abcde", "axcdx", False),  # two changes
])
def test_near_is_one_edit(word: str, other: str, near: bool) -> None:
    assert _near(word, other) is near
