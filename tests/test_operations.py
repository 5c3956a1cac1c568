"""The operation model: document forms and per-operation validation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memcli.errors import InputError
from memcli.operations.model import (
    MAX_CONTENT_CHARS,
    MAX_TITLE_CHARS,
    CreateOp,
    DeleteOp,
    UpdateOp,
    parse_document,
    validate_item,
)

CREATE = {"action": "create", "level": "project", "type": "project_knowledge",
          "title": "Build workflow", "summary": "Run Go tests before release.",
          "slug": "build", "content": "Run `go test ./...` before tagging a release."}
UPDATE = {"action": "update", "level": "user", "filename": "user_preference_language.md",
          "content": "Answer in Chinese unless asked otherwise.", "summary": "Answer in Chinese."}
DELETE = {"action": "delete", "level": "project", "filename": "reference_material_old-wiki.md"}


# --------------------------------------------------------------------------- documents


def test_bare_array_form() -> None:
    doc = parse_document(json.dumps([CREATE, UPDATE, DELETE]))
    assert doc.items == [CREATE, UPDATE, DELETE]
    assert doc.base == {}


def test_object_form_with_base() -> None:
    base = {"project": "sha256:" + "0" * 64, "user": "sha256:" + "1" * 64, "team": "x"}
    doc = parse_document(json.dumps({"operations": [CREATE], "base": base}))
    assert doc.items == [CREATE]
    assert doc.base == {"project": base["project"], "user": base["user"]}  # unknown levels go


def test_object_form_without_base_and_a_single_operation() -> None:
    assert parse_document(json.dumps({"operations": []})).items == []
    assert parse_document(json.dumps(DELETE)).items == [DELETE]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("{not json", "not JSON"),
        ('[{"action": "create",]', "not JSON"),
        ('"create"', "expected a JSON array"),
        ("42", "expected a JSON array"),
        ('{"ops": []}', "expected a JSON array"),
        ('{"operations": {"action": "create"}}', '"operations" must be a JSON array'),
        ('{"operations": [], "base": "sha256:abc"}', '"base"'),
        ('{"operations": [], "base": {"project": 1}}', '"base"'),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_bad_documents_are_input_errors(text: str, why: str) -> None:
    with pytest.raises(InputError) as info:
        parse_document(text)
    assert why in str(info.value)
    assert info.value.exit_code == 2


# --------------------------------------------------------------------------- operations


def test_the_three_actions_validate() -> None:
    create = validate_item(1, CREATE).op
    update = validate_item(2, UPDATE).op
    delete = validate_item(3, DELETE).op
    assert isinstance(create, CreateOp) and create.slug == "build"
    assert isinstance(update, UpdateOp) and update.title is None and update.type is None
    assert isinstance(delete, DeleteOp) and delete.filename == DELETE["filename"]


@pytest.mark.parametrize("action", [None, "", "noop", "NOOP", " none ", "skip", "nothing"])
def test_noop_and_empty_actions_are_skipped(action: Any) -> None:
    raw = {"level": "project"} if action is None else {"action": action, "level": "project"}
    parsed = validate_item(4, raw)
    assert parsed.skipped and parsed.op is None and parsed.error is None
    assert parsed.position == 4


@pytest.mark.parametrize(
    ("raw", "why"),
    [({**{k: v for k, v in CREATE.items() if k != "action"}, "op": "create"},
      'no "action" (it says "op": \'create\'; the key is "action")'),
     ({**{k: v for k, v in UPDATE.items() if k != "action"}, "operation": "Update"},
      'no "action" (it says "operation": \'Update\'; the key is "action")'),
     ({k: v for k, v in CREATE.items() if k != "action"},
      'no "action": say create, update or delete'),
     ({"filename": "reference_material_old-wiki.md", "level": "project"},
      'no "action": say create, update or delete')],
)
def test_an_operation_without_action_is_rejected_not_skipped(raw: dict[str, Any],
                                                              why: str) -> None:
    # A model that writes "op" instead of "action" proposed something: dropping it in
    # silence lost the proposal without a word.
    parsed = validate_item(2, raw)
    assert not parsed.skipped and parsed.op is None
    assert parsed.error == why


def test_an_object_that_is_no_operation_is_still_skipped() -> None:
    parsed = validate_item(1, {"note": "nothing worth remembering", "op": "think"})
    assert parsed.skipped and parsed.error is None


@pytest.mark.parametrize(
    ("alias", "action"),
    [("add", "create"), ("NEW", "create"), ("edit", "update"), ("Replace", "update"),
     ("remove", "delete"), ("rm", "delete")],
)
def test_action_aliases(alias: str, action: str) -> None:
    base = {"create": CREATE, "update": UPDATE, "delete": DELETE}[action]
    parsed = validate_item(1, {**base, "action": alias})
    assert parsed.op is not None and parsed.op.action == action


def test_type_aliases_and_level_case() -> None:
    op = validate_item(1, {**CREATE, "type": "Feedback", "level": " USER "}).op
    assert isinstance(op, CreateOp)
    assert (op.type, op.level) == ("correction_feedback", "user")


def test_values_are_put_on_one_line_and_extra_keys_ignored() -> None:
    op = validate_item(1, {**CREATE, "title": " Build\n  workflow ", "summary": "a\nb",
                           "reason": "said\nso", "confidence": 0.9}).op
    assert isinstance(op, CreateOp)
    assert (op.title, op.summary, op.reason) == ("Build workflow", "a b", "said so")


REJECTIONS: list[tuple[dict[str, Any], str]] = [
    ({**CREATE, "action": "merge"}, "unknown action 'merge'"),
    ({**CREATE, "action": 3}, "unknown action 3"),
    ({k: v for k, v in CREATE.items() if k != "level"}, "level"),
    ({**CREATE, "level": "team"}, "level: must be one of project, user"),
    ({**CREATE, "level": None}, "level"),
    ({k: v for k, v in CREATE.items() if k != "type"}, "type"),
    ({**CREATE, "type": "memo"}, "type: must be one of"),
    ({k: v for k, v in CREATE.items() if k != "title"}, "title"),
    ({**CREATE, "title": "  \n "}, "title: is empty"),
    ({**CREATE, "title": "x" * (MAX_TITLE_CHARS + 1)}, f"longer than {MAX_TITLE_CHARS}"),
    ({**CREATE, "title": 5}, "title"),
    ({k: v for k, v in CREATE.items() if k != "content"}, "content"),
    ({**CREATE, "content": "   "}, "content: is empty"),
    ({**CREATE, "content": "x" * (MAX_CONTENT_CHARS + 1)}, f"longer than {MAX_CONTENT_CHARS}"),
    ({**CREATE, "content": ["a", "b"]}, "content"),
    ({**CREATE, "content": "lone \ud800 surrogate"}, "surrogate"),
    ({k: v for k, v in UPDATE.items() if k != "filename"}, "filename"),
    ({k: v for k, v in UPDATE.items() if k != "content"}, "content"),
    ({**UPDATE, "type": "memo"}, "type"),
    ({**UPDATE, "filename": 12}, "filename"),
    ({k: v for k, v in DELETE.items() if k != "filename"}, "filename"),
    ({k: v for k, v in DELETE.items() if k != "level"}, "level"),
]


@pytest.mark.parametrize(("raw", "why"), REJECTIONS)
def test_invalid_operations_are_rejected_with_a_reason(raw: dict[str, Any], why: str) -> None:
    parsed = validate_item(7, raw)
    assert parsed.op is None and not parsed.skipped
    assert parsed.error is not None and why in parsed.error, parsed.error
    assert parsed.position == 7


@pytest.mark.parametrize("raw", [[CREATE], "create", 3, None])
def test_an_item_that_is_not_an_object_is_rejected(raw: Any) -> None:
    parsed = validate_item(1, raw)
    assert parsed.error == "not a JSON object"


def test_one_invalid_operation_among_valid_ones() -> None:
    items = [CREATE, {**UPDATE, "level": "team"}, DELETE, {"action": "noop"}]
    parsed = [validate_item(i, raw) for i, raw in enumerate(items, start=1)]
    assert [p.op is not None for p in parsed] == [True, False, True, False]
    assert parsed[1].error is not None and "level" in parsed[1].error
    assert parsed[3].skipped
