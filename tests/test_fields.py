"""One definition of an operation: the dataclasses of memcli.operations.model, whose fields
name their checks. The validator and the JSON schema sent to models both come from them."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from memcli.extraction.rules.patterns import lazy
from memcli.operations.model import CreateOp, DeleteOp, UpdateOp, as_dict, validate_item
from memcli.operations.schema import operations_schema
from memcli.providers import OPERATIONS_SCHEMA
from memcli.store.names import LEVELS, NOTE_TYPES

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


def test_every_rules_operation_of_the_corpus_validates_unchanged() -> None:
    ops = _rules_outputs()
    assert len(ops) > 200
    for op in ops:
        parsed = validate_item(1, op)
        assert parsed.op is not None, (op, parsed.error)
        # The rules write their operations clean: validation changes nothing in them.
        assert as_dict(parsed.op) == {k: v for k, v in op.items() if v is not None}


# The messages the pydantic validator gave (issue 33 removed it): a person or a model
# reading a rejection sees the same words as before.
@pytest.mark.parametrize(("change", "error"), [
    ({"title": None}, "title: Input should be a valid string"),
    ({"title": 3}, "title: Input should be a valid string"),
    ({"summary": ["a"]}, "summary: Input should be a valid string"),
    ({"level": "team", "title": "", "content": 1},
     "level: must be one of project, user; title: is empty; "
     "content: Input should be a valid string"),
    ({"type": None}, "type: must be one of user_preference, correction_feedback, "
                     "project_knowledge, reference_material"),
    ({"expires": "soon"}, "expires: must be a date (YYYY-MM-DD) or an ISO date-time"),
])
def test_rejections_say_what_they_said_before(change: dict[str, Any], error: str) -> None:
    assert validate_item(1, {**CREATE, **change}).error == error


def test_a_missing_field_is_required_and_an_unknown_key_ignored() -> None:
    parsed = validate_item(1, {"action": "update", "level": "user", "colour": "red"})
    assert parsed.error == "filename: Field required; content: Field required"
    parsed = validate_item(1, {"action": "delete", "level": "user", "filename": "a.md",
                               "colour": "red", "reason": 5})
    assert parsed.op == DeleteOp(level="user", filename="a.md")


def _items(schema: dict[str, Any]) -> dict[str, Any]:
    items: dict[str, Any] = schema["properties"]["operations"]["items"]
    return items


def test_the_schema_models_are_sent_is_derived_from_the_operations() -> None:
    properties = _items(OPERATIONS_SCHEMA)["properties"]
    asked = {f.name for cls in (CreateOp, UpdateOp, DeleteOp) for f in fields(cls)
             if f.metadata.get("ask", True)}
    assert set(properties) == asked
    assert next(iter(properties)) == "action"
    assert properties["level"]["enum"] == list(LEVELS)
    assert sorted(properties["type"]["enum"]) == sorted(NOTE_TYPES)
    assert properties["action"]["enum"] == ["create", "update", "delete", "noop"]
    # A person sets the dates (`add --expires`); the prompt never asks a model for them.
    assert "expires" not in properties and "review_after" not in properties
    assert _items(OPERATIONS_SCHEMA)["required"] == ["action"]


def test_more_keys_are_added_as_strings() -> None:
    properties = _items(operations_schema("kind"))["properties"]
    assert properties["kind"] == {"type": "string"}
    assert set(properties) - {"kind"} == set(_items(OPERATIONS_SCHEMA)["properties"])


def test_a_lazy_pattern_needs_one_of_its_words_before_it_compiles() -> None:
    pattern = lazy(r"(?:do not|don't) (?P<x>\w+)", re.I, needs=("do not", "don't"))
    assert pattern.fullmatch("always test") is None
    assert pattern._compiled is None  # turned away without compiling
    match = pattern.fullmatch("DON'T panic")
    assert match is not None and match.group("x") == "panic"
    assert pattern.sub("-", "keep it") == "keep it"
