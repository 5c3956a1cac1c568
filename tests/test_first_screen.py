"""What a person sees at an 80-column terminal (issue 34): the grouped help with a first
example, summaries and options that fit, and the small answers of show, rm and extract.

Every test here runs memcli in a real pseudo-terminal (tests/terminal.py), not a pipe: the
width, the prompts and the colour decisions are the terminal's.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from terminal import run_in_terminal


def screen(memenv: Any, *args: str, keys: bytes = b"", after: bytes = b"") -> Any:
    return run_in_terminal(list(args), {**os.environ, **memenv.env}, memenv.repo, keys=keys,
                           after=after)


# --------------------------------------------------------------------------- the help


def test_the_first_screen_has_sections_an_example_and_the_docs(memenv: Any) -> None:
    shown = screen(memenv, "--help")
    assert shown.status == 0, shown.text
    first = "\n".join(shown.lines[:24])
    assert 'memcli add "' in first and "memcli hooks install --agent" in first
    assert "Docs:" in first and "docs/" in first
    assert "Everyday:" in first
    headings = [line for line in shown.lines if re.match(r"^\S.*:$", line)]
    assert headings[:4] == ["Everyday:", "Review and history:", "Agents and integrations:",
                            "Plumbing, run for you by hooks, git and shells:"]
    # Plumbing stays out of the way: one line of names, not four rows beside everyday ones.
    plumbing = shown.lines[shown.lines.index(headings[3]) + 1]
    assert plumbing.split(", ") == ["  index", "merge-index", "hook", "memory-tool",
                                    "completion"]
    everyday = shown.text.split("Everyday:", 1)[1].split("Review and history:", 1)[0]
    listed = re.findall(r"^  (\S+)", everyday, flags=re.MULTILINE)
    assert listed == ["extract", "apply", "add", "show", "search", "recall", "context", "rm"]
    assert all(len(line) <= 80 for line in shown.lines), shown.text


@pytest.mark.parametrize("group", ["import", "export", "hooks", "hook"])
def test_subcommand_summaries_are_whole_sentences(memenv: Any, group: str) -> None:
    shown = screen(memenv, group, "--help")
    assert shown.status == 0, shown.text
    commands = shown.text.split("Commands:", 1)[1]
    assert "..." not in commands and "…" not in commands, commands
    # Each summary, its wrapped lines joined, ends its sentence.
    rows = re.split(r"\n  (?=\S)", "\n" + commands.strip("\n"))
    for row in filter(None, (r.strip() for r in rows)):
        assert " ".join(row.split()).endswith((".", "0", ")")), row
    assert all(len(line) <= 80 for line in shown.lines), shown.text


@pytest.mark.parametrize("command", ["add", "extract", "apply"])
def test_command_help_fits_80_columns(memenv: Any, command: str) -> None:
    shown = screen(memenv, command, "--help")
    assert shown.status == 0, shown.text
    too_wide = [line for line in shown.lines if len(line) > 80]
    assert too_wide == []


# --------------------------------------------------------------------------- long `add` text

LONG = ("The staging database is rebuilt every night at two from the production snapshot, "
        "so never keep test data there for longer than a day or two please.")


def test_long_add_text_gets_a_short_title_and_show_keeps_its_file_name_whole(
        memenv: Any) -> None:
    added = memenv.invoke("add", LONG)
    assert added.exit_code == 0, added.stderr
    [name] = memenv.notes("project")
    assert name == "project_knowledge_staging-database-is-rebuilt-every-night.md"
    note = (memenv.project / name).read_text("utf-8")
    assert "title: Staging database is rebuilt every night\n" in note
    shown = screen(memenv, "show")
    assert shown.status == 0, shown.text
    assert all(len(line) <= 80 for line in shown.lines), shown.text
    assert any(line.strip() == name for line in shown.lines), shown.text
    # The title is what a person types to find it again.
    again = screen(memenv, "show", "Staging database is rebuilt every night")
    assert again.status == 0 and "production snapshot" in again.text, again.text


# --------------------------------------------------------------------------- small answers


def test_show_on_empty_stores_says_how_to_add_one(memenv: Any) -> None:
    shown = screen(memenv, "show")
    assert shown.status == 0, shown.text
    assert shown.text.strip() == \
        'memcli: no notes yet; add one with: memcli add "Run make test before pushing."'
    one = screen(memenv, "show", "--level", "user")
    assert "memcli add --level user" in one.text
    # A script reading the listing gets no line, and no note either.
    piped = memenv.run("show")
    assert piped.returncode == 0 and piped.stdout == "" and piped.stderr == ""


def test_declining_rm_says_nothing_was_removed(memenv: Any) -> None:
    assert memenv.invoke("add", "Run make test before a commit.").exit_code == 0
    declined = screen(memenv, "rm", "Run make test before a commit", keys=b"n\n",
                      after=b"[y/N]: ")
    assert declined.status == 1, declined.text
    assert "Remove these notes?" in declined.text
    assert declined.lines[-1] == "memcli: nothing removed", declined.text
    assert memenv.notes("project") == ["project_knowledge_run-make-test-before-a-commit.md"]
