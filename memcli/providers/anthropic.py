"""The Anthropic Messages API (``/v1/messages``), streamed.

JSON output comes from a prefilled assistant turn: the model continues ``PREFILL``, and the
prefill is put back in front of what it returns. Models from Claude 4.6 on refuse a
prefill, and Opus 4.7 refuses ``temperature``; both are left out for those models by name
and, for names we cannot judge, dropped after the server says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from httpx_sse import ServerSentEvent

from memcli.errors import ProviderError
from memcli.providers import _answer, _failures
from memcli.providers._types import Prompt, ProviderSettings
from memcli.providers._wire import Choices, Ladder, Wire

API_VERSION = "2023-06-01"
MAX_TOKENS = 4096
PREFILL = '{"operations": ['

_MODEL_VERSION = re.compile(r"claude-(?:opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2})(?!\d))?")


def _version(model: str) -> tuple[int, int] | None:
    # "claude-sonnet-4-20250514" is 4.0: a date is never taken for a minor version.
    match = _MODEL_VERSION.search(model.lower())
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


def supports_prefill(model: str) -> bool:
    version = _version(model)
    return version is None or version < (4, 6)


def supports_temperature(model: str) -> bool:
    version = _version(model)
    return version is None or version < (4, 7)


def request_body(
    prompt: Prompt, settings: ProviderSettings, *, prefill: bool, temperature: bool
) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": prompt.user}]
    if prefill:
        messages.append({"role": "assistant", "content": PREFILL})
    body: dict[str, Any] = {
        "model": settings.model,
        "max_tokens": MAX_TOKENS,
        "stream": True,
        "system": prompt.system,
        "messages": messages,
    }
    if temperature:
        body["temperature"] = 0
    return body


def messages_url(base_url: str) -> str:
    base = base_url.strip().rstrip("/")
    # Tolerate a base URL given the OpenAI way, with the version already on it.
    if base.endswith("/v1"):
        base = base[: -len("/v1")]
    return base + "/v1/messages"


def _body(prompt: Prompt, settings: ProviderSettings, choices: Choices) -> dict[str, Any]:
    return request_body(prompt, settings, prefill=choices["prefill"] == "prefill",
                        temperature=choices["temperature"] == "0")


def _headers(settings: ProviderSettings) -> dict[str, str]:
    return {
        "x-api-key": settings.api_key or "",
        "anthropic-version": API_VERSION,
        "content-type": "application/json",
        "accept": "text/event-stream",
    }


def _ladders(settings: ProviderSettings) -> tuple[Ladder, ...]:
    # A model known to refuse a feature starts on the rung without it.
    prefill = ("prefill", "none") if supports_prefill(settings.model) else ("none",)
    temperature = ("0", "default") if supports_temperature(settings.model) else ("default",)
    return (
        Ladder("prefill", prefill, _rejects_prefill),
        Ladder("temperature", temperature, _rejects_temperature),
    )


def _finish(text: str, choices: Choices) -> tuple[str, str]:
    if choices["prefill"] == "prefill":
        return with_prefill(text), "prefill"
    return text, "none"


def with_prefill(text: str) -> str:
    """The whole answer: the prefill, then what the model continued with.

    A model that starts over instead of continuing (a fresh ``{"operations"`` or a code
    fence) would otherwise give ``{"operations": [{"operations": [...`` that no parser
    accepts; its restart is complete on its own.
    """
    if text.lstrip().startswith(('{"operations"', "```")):
        return text
    return PREFILL + text


def _rejects_prefill(failure: _failures.StatusFailure) -> bool:
    return failure.status == 400 and _failures.mentions(
        failure, "prefill", "must end with a user message", "final assistant content"
    )


def _rejects_temperature(failure: _failures.StatusFailure) -> bool:
    return failure.status == 400 and _failures.mentions(failure, "temperature")


def read_stream(
    events: Iterable[ServerSentEvent], on_progress: Callable[[int], None] | None = None
) -> _answer.Answer:
    """Collect the text deltas of a Messages stream, up to ``message_stop``."""
    received = _answer.Received(on_progress)
    answer = _answer.Answer(text="")
    input_parts: dict[str, int] = {}
    finished = False
    for event in events:
        if event.event == "ping" or not event.data.strip():
            continue
        payload = _answer.decode_event(event.data)
        kind = payload.get("type", event.event)
        if kind == "error" or event.event == "error":
            raise _failures.stream_error(payload.get("error", payload))
        if kind == "message_start":
            message = payload.get("message")
            if isinstance(message, dict):
                if isinstance(message.get("model"), str):
                    answer.model = message["model"]
                _read_usage(message.get("usage"), answer, input_parts)
        elif kind == "content_block_start":
            block = payload.get("content_block")
            if isinstance(block, dict) and block.get("type") == "text":
                received.add(block.get("text"))
        elif kind == "content_block_delta":
            delta = payload.get("delta")
            # thinking_delta, signature_delta, input_json_delta are not part of the answer.
            if isinstance(delta, dict) and delta.get("type") == "text_delta":
                received.add(delta.get("text"))
        elif kind == "message_delta":
            _read_usage(payload.get("usage"), answer, input_parts)
        elif kind == "message_stop":
            finished = True
            break
        # Other event types (content_block_stop, and any added later) carry nothing we use.
    if not finished:
        raise _failures.Retryable("the stream ended before message_stop")
    answer.text = received.text()
    return answer


def read_whole(data: Any) -> _answer.Answer:
    """A non-streamed Messages response."""
    if isinstance(data, dict) and data.get("type") == "error":
        raise _failures.stream_error(data.get("error", data))
    content = data.get("content") if isinstance(data, dict) else None
    if not isinstance(content, list):
        raise ProviderError("the server's answer is not a Messages response (no content)")
    text = "".join(
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    )
    answer = _answer.Answer(text=text)
    if isinstance(data.get("model"), str):
        answer.model = data["model"]
    _read_usage(data.get("usage"), answer, {})
    return answer


_INPUT_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def _read_usage(usage: Any, answer: _answer.Answer, input_parts: dict[str, int]) -> None:
    if not isinstance(usage, dict):
        return
    # input_tokens leaves out cached tokens; all three together are what was sent.
    for key in _INPUT_KEYS:
        count = _answer.token_count(usage.get(key))
        if count is not None:
            input_parts[key] = count
    if "input_tokens" in input_parts:
        answer.input_tokens = sum(input_parts.values())
    output = _answer.token_count(usage.get("output_tokens"))
    if output is not None:
        answer.output_tokens = output


WIRE = Wire(
    url=messages_url, headers=_headers, ladders=_ladders, body=_body,
    read_stream=read_stream, read_whole=read_whole, finish=_finish,
    endpoint="the messages endpoint", url_hint="check --model and --base-url",
)
