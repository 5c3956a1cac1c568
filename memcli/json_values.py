"""JSON values: their type, and the one encoder every `--json` (and every MCP answer) uses.

A result type says what happened; :mod:`memcli.render` chooses the keys users script
against, and :func:`to_json` turns what it hands over into plain JSON values: dataclasses
and records (:mod:`memcli.value_types`) field by field, paths as text, enums by value, dates in
ISO 8601, tuples and sets as lists. Anything else is a programming error, not something to
guess a form for.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping
from pathlib import PurePath
from typing import TypeAlias

from memcli.value_types import Record

JsonValue: TypeAlias = "str | int | float | bool | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = "dict[str, JsonValue]"


def to_json(value: object) -> JsonValue:
    """VALUE as JSON values (see the module's docstring for what becomes what)."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, Mapping):
        return {_key(key): to_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, set | frozenset):
        return [to_json(item) for item in sorted(value)]
    if isinstance(value, Record):
        return {name: to_json(getattr(value, name)) for name in value.__match_args__}
    # dataclasses.is_dataclass, asked without importing dataclasses: lint's whole run
    # defines no dataclass, and the module costs as much to import as one costs to define.
    if not isinstance(value, type) and hasattr(type(value), "__dataclass_fields__"):
        import dataclasses

        return {f.name: to_json(getattr(value, f.name))
                for f in dataclasses.fields(value)}  # type: ignore[arg-type]
    return _scalar(value)


def _key(key: object) -> str:
    """An object key as the json module writes one (a YAML frontmatter may have any)."""
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, bool | int | float):
        import json

        return json.dumps(key)
    raise TypeError(f"no JSON key for {type(key).__name__}")


def _scalar(value: object) -> JsonValue:
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    raise TypeError(f"no JSON form for {type(value).__name__}")


def dumps(value: object) -> str:
    """VALUE as the text memcli prints: indented, non-ASCII characters as they are."""
    # Imported here: every command's text output loads this module, only --json needs json.
    import json

    return json.dumps(to_json(value), ensure_ascii=False, indent=2)
