"""`recall` after a relevant first note (round 7 of issue 28): the notes that follow it answer
the rest of a prompt that asks several things, and need cover less of it than the first.

`test_a_later_note_answers_part_of_the_prompt` failed on `main` at d50e9e3 (checked by
running this file there): the note on swimming with the kids covers 0.23 of the prompt,
under the threshold (0.30) that the first note must reach, and `recall` stopped before it.
The other tests pass on `main` too: they guard what the change must keep (a note holding only
the name asked about is still cut, a prompt the store knows nothing of is still quiet, and
the cut never leaves out a note ranked above one it hands over).
"""

from __future__ import annotations

from typing import Any

import pytest
from note_sets import recalled, searched, write_project_notes

FACTS = [
    "Melanie went camping with her kids in the mountains and roasted marshmallows.",
    "Melanie took the kids to the lake to swim.",
    "Melanie is going swimming with the kids after work.",
    "Melanie signed up for a pottery class and finds it therapeutic.",
    "Melanie roasted marshmallows by the campfire.",
    "Melanie reads a lot of novels.",
    "Melanie works from home.",
    "Melanie bakes bread on Sundays.",
    "Caroline went to a pride parade with friends.",
    "Caroline reads a lot of novels.",
    "Caroline works from home.",
    "Caroline plays chess at the club.",
]
NOTES = {f"project_knowledge_obs-{n}.md": (fact.rstrip("."), fact, fact)
         for n, fact in enumerate(FACTS)}
PROMPT = "How does Melanie spend time with her kids at the lake and in the mountains?"


@pytest.fixture
def people(memenv: Any) -> Any:
    return write_project_notes(memenv, NOTES)


def test_a_later_note_answers_part_of_the_prompt(people: Any) -> None:
    kept = recalled(people, PROMPT)
    assert kept[:2] == ["project_knowledge_obs-0.md", "project_knowledge_obs-1.md"]
    assert "project_knowledge_obs-2.md" in kept  # swimming with the kids: a part of it


def test_a_note_holding_only_the_name_is_still_cut(people: Any) -> None:
    kept = recalled(people, PROMPT)
    assert "project_knowledge_obs-3.md" not in kept  # pottery: Melanie alone
    assert "project_knowledge_obs-6.md" not in kept  # works from home


@pytest.mark.parametrize("prompt", [
    "How does Caroline spend time with her kids at the lake?",  # it was Melanie
    "what is the capital of Mongolia and its population?",
])
def test_quiet_when_the_first_note_is_not_relevant(people: Any, prompt: str) -> None:
    assert recalled(people, prompt) == []


@pytest.mark.parametrize("prompt", [
    PROMPT, "What does Melanie enjoy doing with her kids in the mountains?",
    "What outdoor things did Melanie do with the kids this summer?",
])
def test_recall_never_leaves_out_a_note_ranked_above_one_it_keeps(people: Any,
                                                                  prompt: str) -> None:
    kept = recalled(people, prompt)
    assert kept and kept == searched(people, prompt)[:len(kept)]
