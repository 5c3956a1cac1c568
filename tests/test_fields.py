"""The plain checks the `rules` path validates with give exactly what pydantic gives, and
leave to pydantic whatever they are not sure of."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from memcli.extraction.rules.patterns import lazy
from memcli.operations.fields import plain_operation
from memcli.operations.model import as_dict, validate_item

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "extraction"
CREATE = {"action": "create", "level": "project", "type": "project_knowledge",
          "title": "Test command", "content": "Run make test.", "summary": "Run make test.",
          "reason": "user said: 'x'"}


def _rules_outputs() -> list[dict[str, Any]]:
    import datetime

    from memcli.extraction.rules import extract_rules
    from memcli.messages import Message

    ops: list[dict[str, Any]] = []
    for split in ("dev", "test"):
        for line in (CORPUS / f"{split}.jsonl").read_text("utf-8").splitlines():
            text = json.loads(line)["text"]
            ops += extract_rules([Message("user", text)], [], today=datetime.date(2026, 5, 12))
    return ops


def test_every_rules_operation_of_the_corpus_validates_the_same_way() -> None:
    ops = _rules_outputs()
    assert len(ops) > 200
    for op in ops:
        parsed = validate_item(1, op)
        assert parsed.op is not None
        assert plain_operation(op) == as_dict(parsed.op)


@pytest.mark.parametrize("change", [
    {"level": " Project "}, {"action": "add"}, {"action": "Update", "filename": "x.md"},
    {"content": "line one\r\nline two"}, {"title": "Test\ncommand"}, {"summary": None},
    {"reason": "said\tthis\nand that"}, {"type": "knowledge"}, {"slug": "test-cmd"},
])
def test_accepted_shapes_match_pydantic(change: dict[str, Any]) -> None:
    op = {**CREATE, **change}
    parsed = validate_item(1, op)
    assert parsed.op is not None
    assert plain_operation(op) == as_dict(parsed.op)


@pytest.mark.parametrize("change", [
    {"level": "team"}, {"action": "delete"}, {"title": ""}, {"title": "x" * 101},
    {"content": "   "}, {"content": "---\ntitle: x\n---\nbody"}, {"content": "bad \ud800"},
    {"title": 3}, {"summary": ["a"]}, {"type": "opinion"}, {"action": None},
])
def test_doubtful_or_invalid_operations_are_left_to_pydantic(change: dict[str, Any]) -> None:
    assert plain_operation({**CREATE, **change}) is None


def test_a_lazy_pattern_needs_one_of_its_words_before_it_compiles() -> None:
    pattern = lazy(r"(?:do not|don't) (?P<x>\w+)", re.I, needs=("do not", "don't"))
    assert pattern.fullmatch("always test") is None
    assert pattern._compiled is None  # turned away without compiling
    match = pattern.fullmatch("DON'T panic")
    assert match is not None and match.group("x") == "panic"
    assert pattern.sub("-", "keep it") == "keep it"
