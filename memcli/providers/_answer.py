"""An answer as the wire formats collect it from a stream: text, model and token counts."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memcli.errors import ProviderError
from memcli.providers._failures import brief


@dataclass
class Answer:
    """What one successful request produced, before the provider labels it."""

    text: str
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cut_off: bool = False  # the server said the output limit ended the answer


class Received:
    """An answer's text as it streams in, and the running count that progress reports."""

    def __init__(self, on_progress: Callable[[int], None] | None) -> None:
        self._parts: list[str] = []
        self._count = 0
        self._on_progress = on_progress

    def add(self, text: Any) -> None:
        if isinstance(text, str) and text:
            self._parts.append(text)
            self._count += len(text)
            if self._on_progress is not None:
                self._on_progress(self._count)

    def text(self) -> str:
        return "".join(self._parts)


def token_count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def decode_event(data: str) -> dict[str, Any]:
    try:
        payload = json.loads(data)
    except ValueError:
        raise ProviderError(
            f"the server sent a stream event that is not JSON: {brief(data, 80)}"
        ) from None
    if not isinstance(payload, dict):
        raise ProviderError(
            f"the server sent a stream event that is not a JSON object: {brief(data, 80)}"
        )
    return payload
