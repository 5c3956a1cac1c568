"""Find the operations in what a model answered, tolerantly but honestly.

Models wrap their JSON in code fences, prose and ``<think>`` blocks, or answer with a bare
array or a single operation; all of that is accepted. Broken JSON (trailing commas, smart
quotes, a reply cut off by the output limit) is not repaired: guessing would put words in
the model's mouth, so it is reported instead. Items come back as they are, objects or not,
for the strict validator to judge one by one.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
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
    values, broken, cut = _scan(text)
    if broken:
        position, message, offset = broken[0]
        # Where it broke, as a line and column of the whole reply (computed once).
        error = json.JSONDecodeError(message, text, position + offset)
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


# A value is first decoded from a window of the text: a failure then costs the window, not
# the text before it (json computes an error's line and column from the start of what it
# was given). Windows grow until the value fits.
_WINDOWS = (4096, 65536, 1 << 20)
# Starts tried inside the stretch an earlier failure read before they are skipped: enough to
# find an answer after a broken fragment, few enough that hostile text stays linear.
_RETRIES_IN_FAILURE = 8
# Characters at a window's end in which a decoding error may come from the cut itself.
_CUT_MARGIN = 16


def _scan(text: str) -> tuple[list[tuple[int, int, Any]], list[tuple[int, str, int]], int]:
    """Every JSON object or array in ``text`` after the reasoning, with its span; where JSON
    broke after the reasoning; and where the reasoning ends.

    Reasoning comes before the answer: everything up to the last closing think tag that
    is not inside a JSON value is dropped, opening tag or not (some chat templates put the
    "<think>" into the prompt, so only the "</think>" shows up in the reply). It is dropped
    as soon as its tag is passed, so a long reasoning does not keep every value it held.

    A start that fails to decode counts as broken JSON only when it looks like JSON
    (``{"``, ``[{``, ``[[``, ``["``, or a quote JSON does not allow); a bracket in prose
    such as "[see below]" does not.

    Linear: a failed start's error is computed on a window, and after a few failed starts
    inside the stretch an earlier failure read, the rest of that stretch is skipped. A
    failure is kept as (start, message, offset), not as the error: each error holds the
    window it was raised on, and thousands of broken starts held hundreds of megabytes.
    """
    values: list[tuple[int, int, Any]] = []
    broken: list[tuple[int, str, int]] = []
    position = cut = outside = 0  # outside: where the text since the last value starts
    failed_until = 0  # the end of what the last failure read
    retries = 0
    while (match := _STARTS.search(text, position)) is not None:
        start = match.start()
        if start < failed_until:
            retries += 1
            if retries > _RETRIES_IN_FAILURE:
                position = failed_until
                continue
        outcome = _decode_at(text, start)
        if not isinstance(outcome, _Failure):
            value, end = outcome
            cut = _drop_reasoning(text, outside, start, cut, values, broken)
            values.append((start, end, value))
            position = outside = end
            continue
        error, read_until = outcome.error, outcome.read_until
        if _looks_like_json(text, start):
            broken.append((start, error.msg, error.pos))
        if start >= failed_until:
            retries = 0
        failed_until = max(failed_until, read_until)
        position = start + 1
    cut = _drop_reasoning(text, outside, len(text), cut, values, broken)
    return values, broken, cut


def _drop_reasoning(text: str, start: int, end: int, cut: int,
                    values: list[tuple[int, int, Any]],
                    broken: list[tuple[int, str, int]]) -> int:
    """Where the reasoning ends, given the text between two values (``start``..``end``):
    a closing think tag there drops the values and failures before it."""
    for match in _THINK_END.finditer(text, start, end):
        cut = match.end()
    if cut > start:
        values.clear()
        del broken[:bisect.bisect_left(broken, cut, key=lambda failure: failure[0])]
    return cut


@dataclass(frozen=True)
class _Failure:
    error: json.JSONDecodeError
    read_until: int  # how far decoding read before it failed


def _decode_at(text: str, start: int) -> tuple[Any, int] | _Failure:
    """(value, end), or why no value starts here."""
    for size in (*_WINDOWS, len(text)):
        window = text[start : start + size] if size < len(text) - start else text[start:]
        whole = len(window) == len(text) - start
        try:
            value, end = _DECODER.raw_decode(window)
        except json.JSONDecodeError as error:
            # An error near the window's end may be the window's doing (a `\uXXXX` escape or
            # a number cut in two): only the whole rest of the text can tell.
            cut_off = (error.msg.startswith("Unterminated")
                       or error.pos >= len(window) - _CUT_MARGIN)
            if cut_off and not whole:
                continue  # the window ended inside the value: try a larger one
            read = len(window) if cut_off else error.pos + 1
            return _Failure(error, start + read)
        except RecursionError:
            # Thousands of nested brackets: no model writes that as an answer.
            return _Failure(json.JSONDecodeError("nested too deeply", window, 0),
                            start + len(window))
        return value, start + end
    raise AssertionError("unreachable: the last window is the whole rest of the text")


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
