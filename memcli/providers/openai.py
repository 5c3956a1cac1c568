"""OpenAI-compatible ``/chat/completions``, streamed.

The same wire format serves OpenAI, Ollama's /v1, vLLM, llama.cpp, LM Studio and
OpenRouter, which differ mostly in the JSON output modes they accept; hence the fallbacks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

import httpx
from httpx_sse import ServerSentEvent

from memcli.errors import ProviderError
from memcli.providers import OPERATIONS_SCHEMA, Completion, Prompt, ProviderSettings, _http

# Tried in this order; a server that rejects one format gets the next, down to none.
FORMATS: tuple[tuple[str, dict[str, Any] | None], ...] = (
    (
        "json_schema",
        {
            "type": "json_schema",
            "json_schema": {
                "name": "memcli_operations",
                "schema": OPERATIONS_SCHEMA,
                "strict": False,
            },
        },
    ),
    ("json_object", {"type": "json_object"}),
    ("none", None),
)


def request_body(
    prompt: Prompt,
    settings: ProviderSettings,
    response_format: dict[str, Any] | None,
    *,
    temperature: bool = True,
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
    if response_format is not None:
        body["response_format"] = response_format
    return body


def complete(
    prompt: Prompt,
    settings: ProviderSettings,
    *,
    transport: httpx.BaseTransport | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Completion:
    url = settings.base_url.strip().rstrip("/") + "/chat/completions"
    headers = {"Accept": "text/event-stream"}
    if settings.api_key:
        headers["Authorization"] = f"Bearer {settings.api_key}"
    budget = _http.Budget(settings)
    format_index = 0
    temperature = True
    with _http.make_client(settings, transport) as client:
        while True:
            mode, response_format = FORMATS[format_index]
            body = request_body(prompt, settings, response_format, temperature=temperature)
            send = functools.partial(
                _http.attempt, client, settings, url, headers, body, on_progress,
                read_stream=read_stream, read_whole=read_whole,
            )
            try:
                answer = _http.with_retries(budget, send)
            except _http.StatusFailure as failure:
                # Reasoning models (o1, o3, gpt-5) accept only their default temperature.
                if temperature and _rejects_temperature(failure):
                    temperature = False
                    continue
                if format_index + 1 < len(FORMATS) and _rejects_format(failure):
                    format_index += 1
                    continue
                raise _status_error(failure, settings) from None
            return Completion(
                text=answer.text,
                model=answer.model or settings.model,
                input_tokens=answer.input_tokens,
                output_tokens=answer.output_tokens,
                attempts=budget.attempts,
                json_mode=mode,
            )


def _rejects_format(failure: _http.StatusFailure) -> bool:
    if failure.status == 422:
        return True
    return failure.status == 400 and _http.mentions(
        failure, "response_format", "json_schema", "json_object", "response format"
    )


def _rejects_temperature(failure: _http.StatusFailure) -> bool:
    return failure.status in (400, 422) and _http.mentions(failure, "temperature")


def _status_error(failure: _http.StatusFailure, settings: ProviderSettings) -> ProviderError:
    status, message, base = failure.status, failure.message, settings.base_url
    if status in (401, 403):
        if settings.api_key:
            return ProviderError(
                f"{base} refused the API key (HTTP {status}: {message}); check "
                "OPENAI_API_KEY, or --base-url if the key belongs to another server"
            )
        return ProviderError(
            f"{base} wants an API key (HTTP {status}: {message}); set OPENAI_API_KEY"
        )
    if status == 404:
        return ProviderError(
            f"model '{settings.model}' or its endpoint was not found at {base} "
            f"(HTTP 404: {message}); check --model, and that --base-url ends with /v1"
        )
    return ProviderError(f"{base} rejected the request (HTTP {status}): {message}")


def read_stream(
    events: Iterable[ServerSentEvent], on_progress: Callable[[int], None] | None = None
) -> _http.Answer:
    """Accumulate ``choices[0].delta.content`` up to ``[DONE]``; usage from any chunk."""
    parts: list[str] = []
    received = 0
    answer = _http.Answer(text="")
    finished = False
    for event in events:
        data = event.data.strip()
        if data == "[DONE]":
            finished = True
            break
        if not data:
            continue
        chunk = _http.decode_event(data)
        if chunk.get("error") or event.event == "error":
            raise _http.stream_error(chunk.get("error", chunk))
        if isinstance(chunk.get("model"), str):
            answer.model = chunk["model"]
        _read_usage(chunk.get("usage"), answer)
        for choice in chunk.get("choices") or ():
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            content = delta.get("content") if isinstance(delta, dict) else None
            if isinstance(content, str) and content:
                parts.append(content)
                received += len(content)
                if on_progress is not None:
                    on_progress(received)
            if choice.get("finish_reason"):
                # A few servers close after the last choice without sending [DONE].
                finished = True
    if not finished:
        raise _http.Retryable("the stream ended before the answer was complete")
    answer.text = "".join(parts)
    return answer


def read_whole(data: Any) -> _http.Answer:
    """A non-streamed ``chat.completion`` object."""
    if isinstance(data, dict) and data.get("error"):
        raise _http.stream_error(data["error"])
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ProviderError(
            "the server's answer is not a chat completion (no choices[0].message.content)"
        ) from None
    answer = _http.Answer(text=content if isinstance(content, str) else "")
    if isinstance(data.get("model"), str):
        answer.model = data["model"]
    _read_usage(data.get("usage"), answer)
    return answer


def _read_usage(usage: Any, answer: _http.Answer) -> None:
    if not isinstance(usage, dict):
        return
    answer.input_tokens = _http.token_count(usage.get("prompt_tokens"))
    answer.output_tokens = _http.token_count(usage.get("completion_tokens"))
