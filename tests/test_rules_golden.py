"""The rules extractor gives exactly the operations and trace it gave when the golden file
was written (tests/rules_golden.py): on the extraction corpus, the transcript fixtures'
messages and the LoCoMo dialogue. A change meant to alter what is extracted regenerates the
file in the same commit; a speed-up leaves it as it is."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.rules_golden import GOLDEN, LOCOMO, corpus_inputs, digested, run

GOLD: dict[str, Any] = json.loads(GOLDEN.read_text("utf-8"))


def _differences(section: str, results: dict[str, Any]) -> list[str]:
    expected = GOLD[section]
    assert results.keys() == expected.keys(), "the inputs are not the golden file's"
    return [name for name, record in results.items() if record != expected[name]]


def test_corpus_turns_give_the_golden_operations() -> None:
    results = {name: run(messages) for name, messages in corpus_inputs()}
    assert _differences("corpus", results) == []


def test_fixture_messages_give_the_golden_operations() -> None:
    results = {}
    for name, stored in GOLD["fixtures"].items():
        messages = [(role, text) for role, text in stored["messages"]]
        results[name] = {"messages": stored["messages"], **run(messages)}
    assert _differences("fixtures", results) == []
    # the golden file is not empty of findings: it would compare nothing
    assert sum(len(r["ops"]) for r in GOLD["fixtures"].values()) > 10


def test_locomo_dialogue_gives_the_golden_operations() -> None:
    if not LOCOMO.is_file():
        pytest.skip("the LoCoMo data is not beside the repository (../shared)")
    from tests.rules_golden import locomo_inputs

    results = {name: digested(run(messages)) for name, messages in locomo_inputs()}
    assert _differences("locomo", results) == []


def test_few_locomo_chat_turns_give_a_note() -> None:
    # Chat between friends holds nothing a coding agent keeps: regenerating the golden file
    # must not quietly accept junk notes from it again (89 of 2,760 turns gave one before
    # round 8 of the rules).
    from tests.rules_golden import chat_notes

    noted, turns = chat_notes(GOLD)
    assert turns > 2000
    assert noted <= 5
