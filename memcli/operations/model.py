"""The operation model: what extract produces and apply consumes.

Documents are parsed leniently at the outer level (a bare array, an object with
"operations", a single operation) and then validated strictly, one operation at a time,
so that one bad operation is reported with its reason while the others go on.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, Literal

from memcli.errors import InputError
from memcli.operations.fields import (  # noqa: F401 - MAX_*: other modules import them here
    ACTION_ALIASES,
    FIELD_ORDER,
    MAX_CONTENT_CHARS,
    MAX_TITLE_CHARS,
    SKIPPED_ACTIONS,
    check_cites,
    check_content,
    check_date,
    check_filename,
    check_level,
    check_reason,
    check_slug,
    check_title,
    check_type,
    optional_text,
)
from memcli.store.names import LEVELS

# The one definition of an operation: these dataclasses. Each field names its check (a
# plain function of memcli.operations.fields); validate_item runs them, and
# memcli.operations.schema derives the JSON schema sent to models from the same fields, so
# nothing keeps two definitions equal and validating never imports pydantic (~50 ms).
# Fields are declared in the order their errors are reported: level, reason, then the rest.


def _checked(check: Any, *, default: Any = MISSING, ask: bool = True, kind: type = str) -> Any:
    """A field run through CHECK, whose value is then a KIND (or None when optional);
    ASK=False keeps it out of the schema models are sent (the prompt never asks a model for
    it: a person sets it, or memcli finds it)."""
    return field(default=default, metadata={"check": check, "ask": ask, "kind": kind})


@dataclass(frozen=True, kw_only=True)
class CreateOp:
    level: str = _checked(check_level)
    reason: str | None = _checked(check_reason, default=None)
    action: Literal["create"] = "create"
    type: str = _checked(check_type)
    title: str = _checked(check_title)
    content: str = _checked(check_content)
    summary: str | None = _checked(optional_text, default=None)
    slug: str | None = _checked(check_slug, default=None)
    expires: str | None = _checked(check_date, default=None, ask=False)
    review_after: str | None = _checked(check_date, default=None, ask=False)
    cites: list[dict[str, str]] | None = _checked(  # noqa: RUF009 - a dataclasses.field
        check_cites, default=None, ask=False, kind=list)


@dataclass(frozen=True, kw_only=True)
class UpdateOp:
    level: str = _checked(check_level)
    reason: str | None = _checked(check_reason, default=None)
    action: Literal["update"] = "update"
    filename: str = _checked(check_filename)
    content: str = _checked(check_content)
    title: str | None = _checked(check_title, default=None)
    summary: str | None = _checked(optional_text, default=None)
    type: str | None = _checked(check_type, default=None)
    expires: str | None = _checked(check_date, default=None, ask=False)
    review_after: str | None = _checked(check_date, default=None, ask=False)
    cites: list[dict[str, str]] | None = _checked(  # noqa: RUF009 - a dataclasses.field
        check_cites, default=None, ask=False, kind=list)


@dataclass(frozen=True, kw_only=True)
class DeleteOp:
    level: str = _checked(check_level)
    reason: str | None = _checked(check_reason, default=None)
    action: Literal["delete"] = "delete"
    filename: str = _checked(check_filename)


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


def validate_item(position: int, raw: Any) -> Parsed:
    """One item of a document, validated: an operation, a skip, or why it was rejected."""
    if not isinstance(raw, dict):
        return Parsed(position, raw, None, "not a JSON object")
    action = raw.get("action")
    name = action.strip().lower() if isinstance(action, str) else None
    if action is None and (why := _missing_action(raw)) is not None:
        return Parsed(position, raw, None, why)
    if action is None or name in SKIPPED_ACTIONS:
        return Parsed(position, raw, None, None)
    if name not in ACTION_ALIASES:
        why = f"unknown action {action!r}; use create, update or delete"
        return Parsed(position, raw, None, why)
    cls = _CLASSES[ACTION_ALIASES[name]]
    values: dict[str, Any] = {}
    errors: list[str] = []
    for spec in fields(cls):
        if spec.name == "action":
            continue
        try:
            values[spec.name] = _field_value(spec, raw)
        except ValueError as exc:
            errors.append(f"{spec.name}: {exc}")
    if errors:
        return Parsed(position, raw, None, "; ".join(errors))
    return Parsed(position, raw, cls(**values), None)


# Keys models put an action under when they do not follow the schema ("op": "create").
_ACTION_LOOKALIKES = ("op", "operation", "kind", "act", "command", "verb", "method")
# What makes an object without an action an operation all the same: its substance.
_SUBSTANCE = ("title", "content", "filename", "summary")


def _missing_action(raw: dict[str, Any]) -> str | None:
    """Why an object without "action" is rejected, or None when it is no operation at all.

    An object that names its action under another key, or that carries a title, content or
    file name, was meant as an operation: skipping it in silence would lose what the model
    proposed without a word, so it is rejected with the reason. Any other object ({"note":
    "nothing to remember"}) is skipped as before.
    """
    for key in _ACTION_LOOKALIKES:
        value = raw.get(key)
        if isinstance(value, str) and value.strip().lower() in ACTION_ALIASES:
            return f'no "action" (it says "{key}": {value!r}; the key is "action")'
    if any(key in raw for key in _SUBSTANCE):
        return 'no "action": say create, update or delete'
    return None


def _field_value(spec: Field[Any], raw: dict[str, Any]) -> Any:
    """The checked value of one field; a ValueError says what is wrong with it. Keys the
    operation does not define are ignored; a missing optional field is None."""
    required = spec.default is MISSING
    if spec.name not in raw:
        if required:
            raise ValueError("Field required")
        return spec.default
    value = raw[spec.name]
    if value is None and not required:
        return None
    value = spec.metadata["check"](value)
    kind = spec.metadata["kind"]
    if isinstance(value, kind) or (value is None and not required):
        return value
    raise ValueError(f"Input should be a valid {'string' if kind is str else kind.__name__}")


def as_dict(op: AnyOp) -> dict[str, Any]:
    """The operation as docs and the README write it: action first, unset fields left out."""
    data = {f.name: getattr(op, f.name) for f in fields(op)}
    return {key: data[key] for key in FIELD_ORDER if data.get(key) is not None}
