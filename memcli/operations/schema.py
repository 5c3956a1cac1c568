"""The JSON schema of an operations document, derived from the operations themselves.

Servers that constrain their output to a schema are sent this one. Loose on purpose: only
"action" is required and extra keys are allowed, because servers that turn a schema into a
grammar (llama.cpp, Ollama, vLLM) reject or mangle the fancier keywords; the strict check
is memcli's own validator (:func:`memcli.operations.model.validate_item`), operation by
operation. A field the prompt never asks a model for (``ask=False``) is left out.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from memcli.operations.model import CreateOp, DeleteOp, UpdateOp
from memcli.store.names import LEVELS, NOTE_TYPES

# What a model may answer as the action: the three operations, and "noop" for nothing.
_ACTIONS = ("create", "update", "delete", "noop")
_ENUMS: dict[str, tuple[str, ...]] = {"action": _ACTIONS, "level": LEVELS, "type": NOTE_TYPES}


def operations_schema(*extra_keys: str) -> dict[str, Any]:
    """The schema of {"operations": [...]}, with EXTRA_KEYS more string keys an operation
    may carry (consolidate's "kind")."""
    properties: dict[str, Any] = {}
    for cls in (CreateOp, UpdateOp, DeleteOp):
        for spec in fields(cls):
            if spec.metadata.get("ask", True) and spec.name not in properties:
                properties[spec.name] = _property(spec.name)
    properties.update({key: {"type": "string"} for key in extra_keys})
    # Action first, as every example in the prompt writes an operation.
    ordered = {"action": properties.pop("action"), **properties}
    item = {"type": "object", "properties": ordered, "required": ["action"]}
    return {"type": "object", "properties": {"operations": {"type": "array", "items": item}},
            "required": ["operations"]}


def _property(name: str) -> dict[str, Any]:
    enum = _ENUMS.get(name)
    return {"type": "string", "enum": list(enum)} if enum else {"type": "string"}
