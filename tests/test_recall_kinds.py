"""Kinds of things in a memory of people (round 7 of issue 28): "what pet does Caroline have?"
is answered by the note that says she has a guinea pig, which never says `pet`.

The vocabulary's everyday groups (`pet`, `martial-art`, `injury`, `relationship`…)
bridge a kind and its members as the coding groups bridge a task and its tools. Each test of
`test_a_kind_finds_its_member` failed on `main` at d50e9e3 (checked by running this file
there): the member's note held only the person's name of the question, ranked among the
other notes about that person, and `recall` abstained (its coverage was below the threshold).
"""

from __future__ import annotations

from typing import Any

import pytest
from note_sets import recalled, searched, write_project_notes

PEOPLE: dict[str, tuple[str, str, str]] = {
    "user_preference_caroline-oscar.md": (
        "Caroline has a guinea pig", "Caroline has a guinea pig named Oscar.",
        "Caroline has a guinea pig named Oscar."),
    "user_preference_john-kickboxing.md": (
        "John does kickboxing", "John is doing kickboxing as a workout.",
        "John is currently doing kickboxing as a workout."),
    "user_preference_melanie-pottery.md": (
        "Melanie took a break from pottery", "Melanie sprained her wrist.",
        "Melanie sprained her wrist and took a break from pottery."),
    "user_preference_caroline-single.md": (
        "Caroline is a single parent", "Caroline is a single parent of two.",
        "Caroline is a single parent of two and loves it."),
    "user_preference_melanie-clarinet.md": (
        "Melanie plays the clarinet", "Melanie plays the clarinet to relax.",
        "Melanie plays the clarinet to relax after work."),
    **{f"user_preference_{who.lower()}-{n}.md": (
        f"{who} {what}", f"{who} {what}.", f"{who} {what} with friends.")
        for who in ("Caroline", "Melanie", "John")
        for n, what in enumerate(("went to a pride parade", "reads a lot of novels",
                                  "works from home", "bakes bread on Sundays",
                                  "plays chess at the club", "grows tomatoes",
                                  "visited the museum", "volunteers at the shelter"))},
}

KINDS = [
    ("What pet does Caroline have?", "user_preference_caroline-oscar.md"),
    ("What martial arts has John done?", "user_preference_john-kickboxing.md"),
    ("When did Melanie get hurt?", "user_preference_melanie-pottery.md"),
    ("What instrument does Melanie play?", "user_preference_melanie-clarinet.md"),
    ("What is Caroline's relationship status?", "user_preference_caroline-single.md"),
]


@pytest.fixture
def people(memenv: Any) -> Any:
    return write_project_notes(memenv, PEOPLE)


@pytest.mark.parametrize(("prompt", "note"), KINDS)
def test_a_kind_finds_its_member(people: Any, prompt: str, note: str) -> None:
    assert searched(people, prompt)[:1] == [note]
    assert recalled(people, prompt)[:1] == [note]


@pytest.mark.parametrize("prompt", [
    "What pet does Gina have?",  # nobody the store knows: the names rule
    "What car does Caroline drive?",  # no kind the store holds
])
def test_quiet_on_a_kind_nobody_has(people: Any, prompt: str) -> None:
    assert recalled(people, prompt) == []
