"""Find the operations in what a model answered, tolerantly but honestly (SPEC §7).

Models wrap their JSON in code fences, prose and ``<think>`` blocks, or answer with a bare
array or a single operation; all of that is accepted. Broken JSON (trailing commas, smart
quotes, a reply cut off by the output limit) is not repaired: guessing would put words in
the model's mouth, so it is reported instead. Items come back as they are, objects or not,
for the strict validator to judge one by one.
"""

from __future__ import annotations

import json
import re
from typing import Any

from memcli.errors import ProviderError

__all__ = ["parse_reply"]

OPERATION_KEYS = frozenset(
    {"action", "level", "type", "title", "summary", "slug", "filename", "content", "reason"}
)
QUOTE_CHARS = 80

_DECODER = json.JSONDecoder()
_STARTS = re.compile(r"[\[{]")
_THINK_END = re.compile(r"</think(?:ing)?>", re.IGNORECASE)
_THINK_START = re.compile(r"\s*<think(?:ing)?>", re.IGNORECASE)


def parse_reply(text: str) -> list[Any]:
    """The operations in ``text``, in order; ``ProviderError`` when there are none to find.

    ``{"operations": []}`` and ``[]`` are answers too (nothing worth remembering) and give
    an empty list.
    """
    if not text.strip():
        raise ProviderError("the model returned an empty answer")
    values, broken = _scan(text)
    # Reasoning comes before the answer: everything up to the last closing think tag that
    # is not inside a JSON string is dropped, opening tag or not (some chat templates put
    # the "<think>" into the prompt, so only the "</think>" shows up in the reply).
    cut = 0
    for match in _THINK_END.finditer(text):
        if not any(start <= match.start() < end for start, end, _ in values):
            cut = match.end()
    values = [value for value in values if value[0] >= cut]
    broken = [error for error in broken if error[0] >= cut]
    if broken:
        position, error = broken[0]
        raise ProviderError(_broken_message(text, position, error))

    found = False
    operations: list[Any] = []
    for _, _, value in values:
        items = _operations_in(value)
        if items is not None:
            found = True
            operations.extend(items)
    if not found:
        raise ProviderError(_nothing_message(text, cut))
    return operations


def _scan(text: str) -> tuple[list[tuple[int, int, Any]], list[tuple[int, json.JSONDecodeError]]]:
    """Every JSON object or array in ``text`` with its span, and where JSON broke.

    A start that fails to decode counts as broken JSON only when it looks like JSON
    (``{"``, ``[{``, ``[[``, ``["``, or a quote JSON does not allow); a bracket in prose
    such as "[see below]" does not.
    """
    values: list[tuple[int, int, Any]] = []
    broken: list[tuple[int, json.JSONDecodeError]] = []
    position = 0
    while (match := _STARTS.search(text, position)) is not None:
        start = match.start()
        try:
            value, end = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError as error:
            if _looks_like_json(text, start):
                broken.append((start, error))
            position = start + 1
        except RecursionError:
            # Thousands of nested brackets: no model writes that as an answer.
            broken.append((start, json.JSONDecodeError("nested too deeply", text, start)))
            position = start + 1
        else:
            values.append((start, end, value))
            position = end
    return values, broken


def _looks_like_json(text: str, start: int) -> bool:
    rest = text[start + 1 : start + 200].lstrip()
    # Smart and single quotes count: that is JSON a model got wrong, not prose.
    return rest[:1] in ('"', "{", "[", "'", "\u201c", "\u2018")


def _operations_in(value: Any) -> list[Any] | None:
    """The operations a JSON value holds, or None when it is not about operations."""
    if isinstance(value, dict):
        if "operations" in value:
            operations = value["operations"]
            if not isinstance(operations, list):
                raise ProviderError(
                    f'"operations" in the model\'s reply is {_kind(operations)}, not a list'
                )
            return operations
        if OPERATION_KEYS & value.keys():
            return [value]
        return None
    if isinstance(value, list) and (not value or any(isinstance(item, dict) for item in value)):
        return value
    # A list of plain numbers or words is prose ("see [1]"), not an answer.
    return None


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    kinds = {dict: "an object", str: "a string", bool: "a boolean", list: "a list"}
    return kinds.get(type(value), "a number")


def _quote(text: str) -> str:
    snippet = " ".join(text.split())
    if len(snippet) > QUOTE_CHARS:
        snippet = snippet[: QUOTE_CHARS - 1] + "…"
    return json.dumps(snippet, ensure_ascii=False)


def _broken_message(text: str, position: int, error: json.JSONDecodeError) -> str:
    if error.pos >= len(text.rstrip().rstrip("`").rstrip()) or "Unterminated" in error.msg:
        return (
            "the JSON in the model's reply is cut off (did it hit its output limit?): "
            f"{_quote(text[position:])}"
        )
    return (
        f"the model's reply holds JSON that does not parse ({error.msg} at line "
        f"{error.lineno} column {error.colno}): {_quote(text[position:])}"
    )


def _nothing_message(text: str, cut: int) -> str:
    if _THINK_START.match(text) and cut == 0:
        return (
            "the model's reply is a <think> block that never ends, with no JSON operations: "
            f"{_quote(text)}"
        )
    return f"found no JSON operations in the model's reply: {_quote(text)}"
