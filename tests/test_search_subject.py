"""The subject cue (round 4 of issue 28): a note whose title starts with the name a prompt asks
about is about that person or thing, and ranks above notes that name it in passing; `recall`
still abstains when the notes that match the prompt best are about somebody else."""

from __future__ import annotations

from typing import Any

import pytest
from note_sets import recalled, searched, write_project_notes

from memcli.search.engine import title_subject

# Notes as a memory of people reads: each about one person, some naming another in passing.
# "Where does Maria volunteer?" is answered by the note about Maria's volunteering; the six
# shorter notes about John that mention her and volunteering have more BM25 for the same
# words, and ranked above it before the subject cue.
PEOPLE: dict[str, tuple[str, str, str]] = {
    "user_preference_maria-kitchen.md": (
        "Maria at the soup kitchen", "Maria volunteers at the soup kitchen.",
        "Maria volunteers at the soup kitchen on Saturdays."),
    **{f"user_preference_john-{n}.md": (
        f"John {what}", f"John {what}.", f"John {what}.") for n, what in enumerate((
            "wants to volunteer with Maria",
            "asked Maria about volunteering",
            "heard that Maria volunteers",
            "says Maria should volunteer less",
            "would volunteer if Maria asked",
            "met Maria's volunteer friends",
        ))},
    **{f"user_preference_{who.lower()}-{n}.md": (
        f"{who} {what}", f"{who} {what}.", f"{who} {what}.") for who in ("Caroline", "Melanie")
        for n, what in enumerate(("likes painting", "has two cats", "reads a lot",
                                  "works from home", "bakes bread", "plays chess",
                                  "runs on Sundays", "grows tomatoes"))},
    "user_preference_caroline-road-trip.md": (
        "Caroline relaxed after the road trip", "Caroline relaxed after the road trip.",
        "After the road trip Caroline relaxed at home."),
    "user_preference_melanie-trip.md": (
        "Melanie's summer", "Melanie spent the summer with her kids.",
        "Melanie spent the summer with her kids: a road trip to the coast, where they swam "
        "and relaxed, a week at her parents' farm with the dogs, and books in the garden."),
}


@pytest.fixture
def people(memenv: Any) -> Any:
    return write_project_notes(memenv, PEOPLE)


def test_a_note_about_the_person_asked_about_ranks_in_the_top_five(people: Any) -> None:
    # Before the cue, the six notes about John that mention Maria ranked above it.
    ranked = searched(people, "Where does Maria volunteer?")
    assert "user_preference_maria-kitchen.md" in ranked[:5]


def test_a_note_that_names_the_person_in_passing_is_not_about_them(people: Any) -> None:
    # Seven notes hold `Maria` and nothing else the prompt asks; the one about her comes
    # before John's (shorter, they ranked above it before the cue).
    assert searched(people, "What did Maria do?")[0] == "user_preference_maria-kitchen.md"


def test_recall_abstains_when_the_best_notes_are_about_someone_else(people: Any) -> None:
    # Melanie did not relax after a road trip: Caroline did. The note about Melanie's trip
    # ranks first by its subject, but the prompt's words are Caroline's note's.
    prompt = "How did Melanie relax after the road trip?"
    assert searched(people, prompt)[0] == "user_preference_melanie-trip.md"
    assert recalled(people, prompt) == []
    assert recalled(people, "How did Caroline relax after the road trip?")[:1] == [
        "user_preference_caroline-road-trip.md"]


@pytest.mark.parametrize(("title", "subject"), [
    ("Maria's new puppy", "maria"), ("Postgres connection pool", "postgr"),
    ("", ""), ("  — notes", "note"),
])
def test_the_subject_of_a_title_is_its_first_word_stemmed(title: str, subject: str) -> None:
    assert title_subject(title) == subject
