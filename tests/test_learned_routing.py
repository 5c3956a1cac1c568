"""How the offline extractor routes what a cue rule found, once the learned detector has read
the same sentence (routing round 6, docs/extractor-model.md): the route head and the shapes
decide, as for the model's own findings, unless the head says project knowledge.

The phrasings here are not rows of the training corpus (benchmarks/data/extraction/).
"""

from __future__ import annotations

import pytest

from tests.conftest import MemEnv
from tests.extract_turns import say


def _routes(memenv: MemEnv, text: str) -> list[tuple[str, str]]:
    ops = say(memenv, text)["operations"]
    return [(op["level"], op["type"]) for op in ops]


@pytest.mark.parametrize("text", [
    # Cue rules ("always", "never") caught these and filed them as the project's.
    "always show me the diff before you commit anything",
    "never open a PR without asking me first",
    "always explain the plan in two lines before touching my code",
])
def test_a_wish_a_cue_rule_caught_is_the_persons_preference(memenv: MemEnv, text: str) -> None:
    assert _routes(memenv, text) == [("user", "user_preference")]


@pytest.mark.parametrize("text", [
    # A rule read each as a plain fact of the project; it puts the agent right.
    "we use uv not poetry, dont add a poetry.lock",
    # "don't add lodash, we write the helpers ourselves" left this list with the weights of
    # eleven authors (routed project knowledge, 0.54 against 0.47): docs/extractor-model.md,
    # Known limits, "Routing".
])
def test_a_correction_a_rule_caught_is_correction_feedback(memenv: MemEnv, text: str) -> None:
    assert _routes(memenv, text) == [("project", "correction_feedback")]


@pytest.mark.parametrize("text", [
    # Standing rules of the repository: the head says project knowledge, the rules' route
    # stands (taking the head's word wider broke the hand-labelled splits' routing).
    "never commit node_modules",
    "always run the linter before pushing",
])
def test_a_standing_rule_a_cue_rule_caught_stays_the_projects(memenv: MemEnv, text: str) -> None:
    assert _routes(memenv, text) == [("project", "project_knowledge")]


@pytest.mark.parametrize("text", [
    # The agent's value put right with no "no", no "you did", no "wrong": the route head
    # read it as a plain fact until it was trained on eleven authors (round 6).
    "the default branch is trunk, not main",
])
def test_a_value_put_right_without_a_no_is_correction_feedback(memenv: MemEnv,
                                                                text: str) -> None:
    assert _routes(memenv, text) == [("project", "correction_feedback")]


@pytest.mark.parametrize("text", [
    # A habit of the person's own code, said without "I like" or "I prefer": the route head
    # filed these as the project's until it was trained on eleven authors (round 6).
    "pas de point-virgule dans mon js",
    "我的js不加分号",
])
def test_a_habit_of_the_persons_own_code_is_their_preference(memenv: MemEnv,
                                                             text: str) -> None:
    assert _routes(memenv, text) == [("user", "user_preference")]
