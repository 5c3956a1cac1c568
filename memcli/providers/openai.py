"""OpenAI-compatible ``/chat/completions``, streamed.

The same wire format serves OpenAI, Ollama's /v1, vLLM, llama.cpp, LM Studio and
OpenRouter, which differ mostly in the JSON output modes they accept; hence the fallbacks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from httpx_sse import ServerSentEvent

from memcli.errors import ProviderError
from memcli.providers import _answer, _failures
from memcli.providers._types import MAX_OUTPUT_TOKENS, Prompt, ProviderSettings
from memcli.providers._wire import Choices, Ladder, Wire

# Tried in this order; a server that rejects one format gets the next, down to none.
FORMATS = ("json_schema", "json_object", "none")


def response_format(mode: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    if mode == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": "memcli_operations", "schema": schema, "strict": False}}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


# How the limit is sent: OpenAI's current name, then the older one that compatible servers
# (Ollama, llama.cpp, vLLM) know. Never without one: a server that refuses both is an error.
LIMITS = ("max_completion_tokens", "max_tokens")


def request_body(
    prompt: Prompt,
    settings: ProviderSettings,
    response_format: dict[str, Any] | None,
    *,
    temperature: bool = True,
    limit: str = LIMITS[0],
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": settings.model,
        "messages": [
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": prompt.user},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if temperature:
        body["temperature"] = 0
    body[limit] = MAX_OUTPUT_TOKENS
    if response_format is not None:
        body["response_format"] = response_format
    return body


def _body(prompt: Prompt, settings: ProviderSettings, choices: Choices) -> dict[str, Any]:
    return request_body(prompt, settings, response_format(choices["format"], prompt.schema),
                        temperature=choices["temperature"] == "0", limit=choices["limit"])


def _url(base_url: str) -> str:
    return base_url.strip().rstrip("/") + "/chat/completions"


def _headers(settings: ProviderSettings) -> dict[str, str]:
    headers = {"Accept": "text/event-stream"}
    if settings.api_key:
        headers["Authorization"] = f"Bearer {settings.api_key}"
    return headers


def _ladders(settings: ProviderSettings) -> tuple[Ladder, ...]:
    return (
        # Reasoning models (o1, o3, gpt-5) accept only their default temperature.
        Ladder("temperature", ("0", "default"), _rejects_temperature),
        Ladder("limit", LIMITS, _rejects_limit),
        Ladder("format", FORMATS, _rejects_format),
    )


def _finish(text: str, choices: Choices) -> tuple[str, str]:
    return text, choices["format"]


def _rejects_format(failure: _failures.StatusFailure) -> bool:
    if failure.status == 422:
        return True
    return failure.status == 400 and _failures.mentions(
        failure, "response_format", "json_schema", "json_object", "response format"
    )


def _rejects_limit(failure: _failures.StatusFailure) -> bool:
    return failure.status in (400, 422) and _failures.mentions(
        failure, "max_completion_tokens", "max_tokens")


def _rejects_temperature(failure: _failures.StatusFailure) -> bool:
    return failure.status in (400, 422) and _failures.mentions(failure, "temperature")


def read_stream(
    events: Iterable[ServerSentEvent], on_progress: Callable[[int], None] | None = None
) -> _answer.Answer:
    """Accumulate ``choices[0].delta.content`` up to ``[DONE]``; usage from any chunk."""
    received = _answer.Received(on_progress)
    answer = _answer.Answer(text="")
    finished = False
    for event in events:
        data = event.data.strip()
        if data == "[DONE]":
            finished = True
            break
        if not data:
            continue
        chunk = _answer.decode_event(data)
        if chunk.get("error") or event.event == "error":
            raise _failures.stream_error(chunk.get("error", chunk))
        if isinstance(chunk.get("model"), str):
            answer.model = chunk["model"]
        _read_usage(chunk.get("usage"), answer)
        for choice in chunk.get("choices") or ():
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            content = delta.get("content") if isinstance(delta, dict) else None
            received.add(content)
            if choice.get("finish_reason"):
                # A few servers close after the last choice without sending [DONE].
                finished = True
                answer.cut_off = choice["finish_reason"] == "length"
    if not finished:
        raise _failures.Retryable("the stream ended before the answer was complete")
    answer.text = received.text()
    return answer


def read_whole(data: Any) -> _answer.Answer:
    """A non-streamed ``chat.completion`` object."""
    if isinstance(data, dict) and data.get("error"):
        raise _failures.stream_error(data["error"])
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ProviderError(
            "the server's answer is not a chat completion (no choices[0].message.content)"
        ) from None
    answer = _answer.Answer(text=content if isinstance(content, str) else "",
                            cut_off=data["choices"][0].get("finish_reason") == "length")
    if isinstance(data.get("model"), str):
        answer.model = data["model"]
    _read_usage(data.get("usage"), answer)
    return answer


def _read_usage(usage: Any, answer: _answer.Answer) -> None:
    if not isinstance(usage, dict):
        return
    answer.input_tokens = _answer.token_count(usage.get("prompt_tokens"))
    answer.output_tokens = _answer.token_count(usage.get("completion_tokens"))


WIRE = Wire(
    url=_url, headers=_headers, ladders=_ladders, body=_body,
    read_stream=read_stream, read_whole=read_whole, finish=_finish,
    endpoint="its endpoint", url_hint="check --model, and that --base-url ends with /v1",
)
