"""The pydantic validator of one operation: what a model's reply or a document must pass.

Imported only when something from outside is validated (pydantic costs about 50 ms to
import); the operation it yields is turned into :mod:`memcli.operations.model`' plain dataclasses.
"""

from __future__ import annotations

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

from memcli.operations.fields import check_cites as _cites
from memcli.operations.fields import check_content as _content
from memcli.operations.fields import check_date as _date
from memcli.operations.fields import check_filename as _filename
from memcli.operations.fields import check_reason as _check_reason
from memcli.operations.fields import check_slug as _slug
from memcli.operations.fields import check_title as _title
from memcli.operations.fields import check_type as _type
from memcli.operations.fields import optional as _optional
from memcli.operations.fields import optional_text as _optional_text
from memcli.store.names import LEVELS

__all__ = ["ADAPTER", "ValidationError", "describe"]


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
        return _check_reason(value)


NoteType = Annotated[str, BeforeValidator(_type)]
Title = Annotated[str, BeforeValidator(_title)]
Content = Annotated[str, BeforeValidator(_content)]
Text = Annotated[str, BeforeValidator(_optional_text)]
FileName = Annotated[str, BeforeValidator(_filename)]
When = Annotated[str | None, BeforeValidator(_date)]
Cites = Annotated[list[dict[str, str]] | None, BeforeValidator(_cites)]


class CreateOp(_Op):
    action: Literal["create"] = "create"
    type: NoteType
    title: Title
    content: Content
    summary: Text | None = None
    slug: Annotated[str, BeforeValidator(_slug)] | None = None
    expires: When = None
    review_after: When = None
    cites: Cites = None


class UpdateOp(_Op):
    action: Literal["update"] = "update"
    filename: FileName
    content: Content
    title: Annotated[str | None, BeforeValidator(_optional(_title))] = None
    summary: Text | None = None
    type: Annotated[str | None, BeforeValidator(_optional(_type))] = None
    expires: When = None
    review_after: When = None
    cites: Cites = None


class DeleteOp(_Op):
    action: Literal["delete"] = "delete"
    filename: FileName


Operation = Annotated[CreateOp | UpdateOp | DeleteOp, Field(discriminator="action")]
ADAPTER: TypeAdapter[CreateOp | UpdateOp | DeleteOp] = TypeAdapter(Operation)


def describe(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(p) for p in error["loc"][1:]) or "operation"
        message = str(error["msg"]).removeprefix("Value error, ")
        parts.append(f"{field}: {message}")
    return "; ".join(parts)
