"""The operation model: what extract produces and apply consumes (SPEC §4).

Documents are parsed leniently at the outer level (a bare array, an object with
"operations", a single operation) and then validated strictly, one operation at a time,
so that one bad operation is reported with its reason while the others go on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from memcli.errors import InputError
from memcli.fields import (  # noqa: F401 - the names other modules import from here
    ACTION_ALIASES,
    FIELD_ORDER,
    MAX_CONTENT_CHARS,
    MAX_TITLE_CHARS,
    SKIPPED_ACTIONS,
)
from memcli.fields import check_content as _content
from memcli.fields import check_date as _date
from memcli.fields import check_filename as _filename
from memcli.fields import check_title as _title
from memcli.fields import check_type as _type
from memcli.fields import no_surrogates as _no_surrogates
from memcli.fields import optional as _optional
from memcli.fields import optional_text as _optional_text
from memcli.names import LEVELS
from memcli.text import one_line


class _Op(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False, frozen=True)

    level: str
    reason: str | None = None

    @field_validator("level", mode="before")
    @classmethod
    def _level(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() in LEVELS:
            return value.strip().lower()
        raise ValueError(f"must be one of {', '.join(LEVELS)}")

    @field_validator("reason", mode="before")
    @classmethod
    def _reason(cls, value: Any) -> Any:
        return one_line(_no_surrogates(value)) if isinstance(value, str) else None


NoteType = Annotated[str, BeforeValidator(_type)]
Title = Annotated[str, BeforeValidator(_title)]
Content = Annotated[str, BeforeValidator(_content)]
Text = Annotated[str, BeforeValidator(_optional_text)]
FileName = Annotated[str, BeforeValidator(_filename)]
When = Annotated[str | None, BeforeValidator(_date)]


class CreateOp(_Op):
    action: Literal["create"] = "create"
    type: NoteType
    title: Title
    content: Content
    summary: Text | None = None
    slug: Text | None = None
    expires: When = None
    review_after: When = None


class UpdateOp(_Op):
    action: Literal["update"] = "update"
    filename: FileName
    content: Content
    title: Annotated[str | None, BeforeValidator(_optional(_title))] = None
    summary: Text | None = None
    type: Annotated[str | None, BeforeValidator(_optional(_type))] = None
    expires: When = None
    review_after: When = None


class DeleteOp(_Op):
    action: Literal["delete"] = "delete"
    filename: FileName


Operation = Annotated[CreateOp | UpdateOp | DeleteOp, Field(discriminator="action")]
_ADAPTER: TypeAdapter[CreateOp | UpdateOp | DeleteOp] = TypeAdapter(Operation)


@dataclass(frozen=True)
class Parsed:
    """One item of a document after validation: an operation, a skip, or a rejection."""

    position: int  # 1-based, as a person counts
    raw: Any
    op: CreateOp | UpdateOp | DeleteOp | None
    error: str | None  # why it was rejected; None for valid or skipped items

    @property
    def skipped(self) -> bool:
        return self.op is None and self.error is None


@dataclass(frozen=True)
class Document:
    items: list[Any]
    base: dict[str, str]
    consolidation: bool = False  # made by `memcli consolidate`: deletes need --allow-delete


def parse_document(text: str) -> Document:
    """An operations document: a bare array, or {"operations": [...], "base": {...}}."""
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
    from memcli.reply import parse_reply

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
    if not isinstance(raw, dict):
        return Parsed(position, raw, None, "not a JSON object")
    action = raw.get("action")
    if action is None or (isinstance(action, str) and action.strip().lower() in SKIPPED_ACTIONS):
        return Parsed(position, raw, None, None)
    if not isinstance(action, str) or action.strip().lower() not in ACTION_ALIASES:
        why = f"unknown action {action!r}; use create, update or delete"
        return Parsed(position, raw, None, why)
    item = {**raw, "action": ACTION_ALIASES[action.strip().lower()]}
    try:
        return Parsed(position, raw, _ADAPTER.validate_python(item), None)
    except ValidationError as exc:
        return Parsed(position, raw, None, _describe(exc))




def as_dict(op: CreateOp | UpdateOp | DeleteOp) -> dict[str, Any]:
    """The operation as SPEC §4 writes it: action first, unset fields left out."""
    data = op.model_dump(exclude_none=True)
    return {key: data[key] for key in FIELD_ORDER if key in data}


def _describe(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(p) for p in error["loc"][1:]) or "operation"
        message = str(error["msg"]).removeprefix("Value error, ")
        parts.append(f"{field}: {message}")
    return "; ".join(parts)
