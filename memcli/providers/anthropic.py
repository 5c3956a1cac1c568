"""The Anthropic Messages API (``/v1/messages``), streamed.

JSON output, best first: structured outputs (``output_config.format``, a JSON schema the
server constrains the answer to; generally available, no beta header, from Claude Haiku,
Sonnet and Opus 4.5 on); a prefilled assistant turn, where the model continues ``PREFILL``
and the prefill is put back in front of what it returns; then neither. Models from Claude
4.6 on refuse a prefill, Opus 4.7 refuses ``temperature`` and models before 4.5 know no
structured outputs: each is left out for those models by name and, for names we cannot
judge, dropped after the server refuses it with an HTTP 400 that names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from httpx_sse import ServerSentEvent

from memcli.errors import ProviderError
from memcli.providers import _answer, _failures
from memcli.providers._types import MAX_OUTPUT_TOKENS, Prompt, ProviderSettings
from memcli.providers._wire import Choices, Ladder, Wire

API_VERSION = "2023-06-01"
PREFILL = '{"operations": ['
FORMATS = ("json_schema", "prefill", "none")  # how JSON is asked for, best first

# "claude-sonnet-4-5-20250929", "claude-opus-4-1", "claude-haiku-4.5": family, then version.
_MODEL_VERSION = re.compile(r"claude-(?:opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2})(?!\d))?")
# "claude-3-5-haiku-latest", "claude-3-haiku-20240307", "claude-3.7-sonnet": the older order.
_OLD_MODEL_VERSION = re.compile(r"claude-(\d)(?:[-.](\d))?-(?:opus|sonnet|haiku)")


def _version(model: str) -> tuple[int, int] | None:
    # "claude-sonnet-4-20250514" is 4.0: a date is never taken for a minor version.
    name = model.lower()
    match = _MODEL_VERSION.search(name) or _OLD_MODEL_VERSION.search(name)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


def supports_structured_outputs(model: str) -> bool:
    version = _version(model)
    return version is None or version >= (4, 5)


def supports_prefill(model: str) -> bool:
    version = _version(model)
    return version is None or version < (4, 6)


def supports_temperature(model: str) -> bool:
    version = _version(model)
    return version is None or version < (4, 7)


def closed(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with ``additionalProperties: false`` on every object, which structured
    outputs require; the keys an operation may have are all declared, so none is lost."""
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):
            result[key] = {name: closed(sub) for name, sub in value.items()}
        elif key == "items" and isinstance(value, dict):
            result[key] = closed(value)
        else:
            result[key] = value
    if schema.get("type") == "object":
        result["additionalProperties"] = False
    return result


def request_body(
    prompt: Prompt, settings: ProviderSettings, *, json_mode: str, temperature: bool
) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": prompt.user}]
    if json_mode == "prefill":
        messages.append({"role": "assistant", "content": PREFILL})
    body: dict[str, Any] = {
        "model": settings.model,
        "max_tokens": MAX_OUTPUT_TOKENS,
        "stream": True,
        "system": prompt.system,
        "messages": messages,
    }
    if json_mode == "json_schema":
        body["output_config"] = {"format": {"type": "json_schema", "schema": closed(prompt.schema)}}
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
    return request_body(prompt, settings, json_mode=choices["format"],
                        temperature=choices["temperature"] == "0")


def _headers(settings: ProviderSettings) -> dict[str, str]:
    return {
        "x-api-key": settings.api_key or "",
        "anthropic-version": API_VERSION,
        "content-type": "application/json",
        "accept": "text/event-stream",
    }


def formats(model: str) -> tuple[str, ...]:
    """The ways of asking for JSON that MODEL may accept, best first."""
    known_not = {"json_schema": not supports_structured_outputs(model),
                 "prefill": not supports_prefill(model)}
    return tuple(mode for mode in FORMATS if not known_not.get(mode, False))


def _ladders(settings: ProviderSettings) -> tuple[Ladder, ...]:
    # A model known to refuse a feature starts on the rung without it. Temperature is
    # judged first: its refusal names it, while a refused schema may say only "schema".
    temperature = ("0", "default") if supports_temperature(settings.model) else ("default",)
    return (
        Ladder("temperature", temperature, _rejects_temperature),
        Ladder("format", formats(settings.model), _rejects_format),
    )


def _finish(text: str, choices: Choices) -> tuple[str, str]:
    if choices["format"] == "prefill":
        return with_prefill(text), "prefill"
    return text, choices["format"]


def with_prefill(text: str) -> str:
    """The whole answer: the prefill, then what the model continued with.

    A model that starts over instead of continuing (a fresh ``{"operations"`` or a code
    fence) would otherwise give ``{"operations": [{"operations": [...`` that no parser
    accepts; its restart is complete on its own.
    """
    if text.lstrip().startswith(('{"operations"', "```")):
        return text
    return PREFILL + text


# What a 400 says when it refuses the current way of asking for JSON: structured outputs
# (a model or server without them, a schema it cannot compile), or the prefill. Only the
# rung in use can be named, since the other is not in the request.
_FORMAT_REFUSALS = (
    "output_config", "output_format", "json_schema", "structured output", "schema",
    "prefill", "must end with a user message", "final assistant content",
)


def _rejects_format(failure: _failures.StatusFailure) -> bool:
    return failure.status == 400 and _failures.mentions(failure, *_FORMAT_REFUSALS)


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
            delta = payload.get("delta")
            if isinstance(delta, dict) and delta.get("stop_reason") == "max_tokens":
                answer.cut_off = True
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
    answer = _answer.Answer(text=text, cut_off=data.get("stop_reason") == "max_tokens")
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
