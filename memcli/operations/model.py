"""The operation model: what extract produces and apply consumes.

Documents are parsed leniently at the outer level (a bare array, an object with
"operations", a single operation) and then validated strictly, one operation at a time,
so that one bad operation is reported with its reason while the others go on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, Literal

from memcli.errors import InputError
from memcli.operations.fields import (  # noqa: F401 - the names other modules import from here
    ACTION_ALIASES,
    FIELD_ORDER,
    MAX_CONTENT_CHARS,
    MAX_TITLE_CHARS,
    SKIPPED_ACTIONS,
    plain_operation,
)
from memcli.store.names import LEVELS

# The operations are plain dataclasses. What comes from outside (a model's reply, an
# operations document) is validated by pydantic (memcli.operations.schema) into them;
# memcli's own operations (`add`, the rules extractor) may pass the same checks in
# memcli.operations.fields instead, which give the same answer (tests/test_fields.py) without
# importing pydantic (about 50 ms).


@dataclass(frozen=True, kw_only=True)
class CreateOp:
    level: str
    type: str
    title: str
    content: str
    action: Literal["create"] = "create"
    summary: str | None = None
    slug: str | None = None
    expires: str | None = None
    review_after: str | None = None
    cites: list[dict[str, str]] | None = None  # anchors (memcli.store.anchors), as written
    reason: str | None = None


@dataclass(frozen=True, kw_only=True)
class UpdateOp:
    level: str
    filename: str
    content: str
    action: Literal["update"] = "update"
    title: str | None = None
    summary: str | None = None
    type: str | None = None
    expires: str | None = None
    review_after: str | None = None
    cites: list[dict[str, str]] | None = None  # anchors (memcli.store.anchors), as written
    reason: str | None = None


@dataclass(frozen=True, kw_only=True)
class DeleteOp:
    level: str
    filename: str
    action: Literal["delete"] = "delete"
    reason: str | None = None


AnyOp = CreateOp | UpdateOp | DeleteOp
_CLASSES: dict[str, type[AnyOp]] = {"create": CreateOp, "update": UpdateOp, "delete": DeleteOp}


@dataclass(frozen=True)
class Parsed:
    """One item of a document after validation: an operation, a skip, or a rejection."""

    position: int  # 1-based, as a person counts
    raw: Any
    op: AnyOp | None
    error: str | None  # why it was rejected; None for valid or skipped items

    @property
    def skipped(self) -> bool:
        return self.op is None and self.error is None


@dataclass(frozen=True)
class Document:
    items: list[Any]
    base: dict[str, str]
    consolidation: bool = False  # made by `memcli consolidate`: deletes need --allow-delete


# Operations one document may hold. A document comes from anywhere (a pipe, an MCP client, a
# model's reply) and each operation is validated and planned against the locked stores: past
# a few thousand, a dry-run alone ran for minutes. A store's whole content is written by
# `import`, not by one document; a person with more splits the document.
MAX_DOCUMENT_OPERATIONS = 1000


def parse_document(text: str, limit: int = MAX_DOCUMENT_OPERATIONS) -> Document:
    """An operations document: a bare array, or {"operations": [...], "base": {...}}, of at
    most LIMIT operations (an InputError says so past it: none of them is applied)."""
    document = _parse_document(text)
    if len(document.items) > limit:
        raise InputError(f"the operations document holds {len(document.items)} operations; "
                         f"one apply takes at most {limit}, so split it")
    return document


def _parse_document(text: str) -> Document:
    if not text.strip():
        raise InputError("the operations document is empty; pass a JSON array or object")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _document_in_reply(text, exc)
    except RecursionError:
        raise InputError("the operations document is nested too deeply") from None
    if isinstance(data, list):
        return Document(data, {})
    if isinstance(data, dict) and "operations" in data:
        items = data["operations"]
        if not isinstance(items, list):
            raise InputError('"operations" must be a JSON array of operations')
        return Document(items, _base(data.get("base")), "consolidate" in data)
    if isinstance(data, dict) and "action" in data:
        return Document([data], {})
    raise InputError(
        'expected a JSON array of operations or an object with an "operations" array'
    )


def _document_in_reply(text: str, error: json.JSONDecodeError) -> Document:
    """The operations in what an LLM answered: fences, <think>, prose around the JSON.

    `extract --show-prompt | some-llm | memcli apply -` gets whatever the model wrote, so
    apply accepts what the reply parser of `extract` accepts; each item is then validated
    as strictly as ever.
    """
    from memcli.errors import ProviderError
    from memcli.operations.reply import parse_reply

    try:
        return Document(parse_reply(text), {})
    except ProviderError:
        raise InputError(
            f"the operations document is not JSON ({error.msg} at line {error.lineno}, "
            f"column {error.colno}), and holds no JSON operations among its text"
        ) from None


def _base(value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise InputError('"base" must map levels to "sha256:…" fingerprints')
    return {k: v for k, v in value.items() if k in LEVELS}


def validate_item(position: int, raw: Any, *, own: bool = False) -> Parsed:
    """One item of a document, validated. ``own``: memcli made it (``add``, the rules
    extractor), so the plain checks may answer first; a model's reply never passes it."""
    if not isinstance(raw, dict):
        return Parsed(position, raw, None, "not a JSON object")
    action = raw.get("action")
    if action is None or (isinstance(action, str) and action.strip().lower() in SKIPPED_ACTIONS):
        return Parsed(position, raw, None, None)
    if not isinstance(action, str) or action.strip().lower() not in ACTION_ALIASES:
        why = f"unknown action {action!r}; use create, update or delete"
        return Parsed(position, raw, None, why)
    plain = plain_operation(raw) if own else None
    if plain is not None:
        return Parsed(position, raw, _CLASSES[plain["action"]](**plain), None)
    from memcli.operations.schema import ADAPTER, ValidationError, describe

    item = {**raw, "action": ACTION_ALIASES[action.strip().lower()]}
    try:
        model = ADAPTER.validate_python(item)
    except ValidationError as exc:
        return Parsed(position, raw, None, describe(exc))
    return Parsed(position, raw, _CLASSES[model.action](**model.model_dump()), None)


def as_dict(op: AnyOp) -> dict[str, Any]:
    """The operation as docs and the README write it: action first, unset fields left out."""
    data = {f.name: getattr(op, f.name) for f in fields(op)}
    return {key: data[key] for key in FIELD_ORDER if data.get(key) is not None}
