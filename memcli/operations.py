"""The operation model: what extract produces and apply consumes (SPEC §4).

Documents are parsed leniently at the outer level (a bare array, an object with
"operations", a single operation) and then validated strictly, one operation at a time,
so that one bad operation is reported with its reason while the others go on.
"""

from __future__ import annotations

import json
import re
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
from memcli.names import LEVELS, canonical_type
from memcli.text import one_line

MAX_TITLE_CHARS = 100
MAX_CONTENT_CHARS = 20_000
ACTION_ALIASES = {
    "create": "create", "add": "create", "new": "create", "insert": "create",
    "update": "update", "edit": "update", "modify": "update", "replace": "update",
    "delete": "delete", "remove": "delete", "rm": "delete",
}
SKIPPED_ACTIONS = frozenset({"", "noop", "none", "skip", "nothing"})


def _no_surrogates(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("holds text that is not valid Unicode (a lone surrogate)") from None
    return value


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


def _type(value: Any) -> str:
    found = canonical_type(value) if isinstance(value, str) else None
    if found is None:
        raise ValueError(
            "must be one of user_preference, correction_feedback, project_knowledge, "
            "reference_material"
        )
    return found


def _title(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    title = one_line(_no_surrogates(value))
    if not title:
        raise ValueError("is empty")
    if len(title) > MAX_TITLE_CHARS:
        raise ValueError(f"is longer than {MAX_TITLE_CHARS} characters; shorten it")
    return title


def _content(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    _no_surrogates(value)
    if not value.strip():
        raise ValueError("is empty")
    if len(value) > MAX_CONTENT_CHARS:
        raise ValueError(f"is longer than {MAX_CONTENT_CHARS} characters; split the note")
    if _opens_with_frontmatter(value):
        # Models often send the whole note file as its content: written as it is, it would
        # become a second frontmatter block under memcli's own (lint M204).
        raise ValueError("starts with a frontmatter block; send the note's body only")
    # Line ends are the note's business, not the operation's: CRLF content is the same text.
    return value.replace("\r\n", "\n")


_NOTE_KEY = re.compile(r"(?:type|title|summary|created|updated)[ \t]*:")


def _opens_with_frontmatter(text: str) -> bool:
    """True when the first non-blank line is '---' and a note key follows before a fence."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None or lines[start].strip() != "---":
        return False
    for line in lines[start + 1 : start + 200]:
        if line.strip() in ("---", "..."):
            return False
        if _NOTE_KEY.match(line):
            return True
    return False


def _optional_text(value: Any) -> Any:
    return one_line(_no_surrogates(value)) if isinstance(value, str) else value


def _filename(value: Any) -> Any:
    return _no_surrogates(value) if isinstance(value, str) else value


def _optional(check: Any) -> Any:
    return lambda value: None if value is None else check(value)


NoteType = Annotated[str, BeforeValidator(_type)]
Title = Annotated[str, BeforeValidator(_title)]
Content = Annotated[str, BeforeValidator(_content)]
Text = Annotated[str, BeforeValidator(_optional_text)]
FileName = Annotated[str, BeforeValidator(_filename)]


class CreateOp(_Op):
    action: Literal["create"] = "create"
    type: NoteType
    title: Title
    content: Content
    summary: Text | None = None
    slug: Text | None = None


class UpdateOp(_Op):
    action: Literal["update"] = "update"
    filename: FileName
    content: Content
    title: Annotated[str | None, BeforeValidator(_optional(_title))] = None
    summary: Text | None = None
    type: Annotated[str | None, BeforeValidator(_optional(_type))] = None


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
        return Document(items, _base(data.get("base")))
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


_FIELD_ORDER = ("action", "level", "type", "filename", "title", "slug", "summary", "content",
                "reason")


def as_dict(op: CreateOp | UpdateOp | DeleteOp) -> dict[str, Any]:
    """The operation as SPEC §4 writes it: action first, unset fields left out."""
    data = op.model_dump(exclude_none=True)
    return {key: data[key] for key in _FIELD_ORDER if key in data}


def _describe(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(p) for p in error["loc"][1:]) or "operation"
        message = str(error["msg"]).removeprefix("Value error, ")
        parts.append(f"{field}: {message}")
    return "; ".join(parts)
