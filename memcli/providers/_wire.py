"""The one request loop every wire format shares: retries inside, fallbacks around them.

A wire format (one module per format: ``openai``, ``anthropic``) says how to address the
server and build a body, how to read its answer, and which request features a server may
refuse (a JSON output mode, a prefilled answer, a temperature). Each such feature is a
:class:`Ladder` of choices, best first; when a server refuses the current choice with a
status that names it, the loop steps down that ladder and asks again, until the last rung.
Imported only from inside ``memcli.providers.complete``, so it may import httpx at the top.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import ServerSentEvent

from memcli.errors import ProviderError
from memcli.providers import _http
from memcli.providers._answer import Answer
from memcli.providers._failures import StatusFailure
from memcli.providers._retry import Budget, with_retries
from memcli.providers._types import Completion, Prompt, ProviderSettings
from memcli.settings.provider_registry import ProviderSpec

Choices = Mapping[str, str]  # ladder name -> the rung sent in this request


@dataclass(frozen=True)
class Ladder:
    """A request feature a server may refuse, and what to send instead, best first."""

    name: str
    rungs: tuple[str, ...]
    refused: Callable[[StatusFailure], bool]


@dataclass(frozen=True)
class Wire:
    """What differs between wire formats; everything else is :func:`complete`."""

    url: Callable[[str], str]  # base URL -> the endpoint
    headers: Callable[[ProviderSettings], dict[str, str]]
    ladders: Callable[[ProviderSettings], Sequence[Ladder]]  # checked in this order
    body: Callable[[Prompt, ProviderSettings, Choices], dict[str, Any]]
    read_stream: Callable[[Iterable[ServerSentEvent], Callable[[int], None] | None], Answer]
    read_whole: Callable[[Any], Answer]
    finish: Callable[[str, Choices], tuple[str, str]]  # answer text -> (text, json mode)
    endpoint: str  # how a 404 names what was not found
    url_hint: str  # what a 404 tells the person to check


def complete(
    prompt: Prompt,
    settings: ProviderSettings,
    spec: ProviderSpec,
    wire: Wire,
    *,
    transport: httpx.BaseTransport | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Completion:
    url = wire.url(settings.base_url)
    headers = wire.headers(settings)
    ladders = [ladder for ladder in wire.ladders(settings) if ladder.rungs]
    rung = dict.fromkeys((ladder.name for ladder in ladders), 0)
    budget = Budget(settings)
    with _http.make_client(settings, transport) as client:
        endpoint = _http.Endpoint(client, settings, url, headers, budget)
        while True:
            choices = {ladder.name: ladder.rungs[rung[ladder.name]] for ladder in ladders}
            send = functools.partial(
                _http.attempt, endpoint, wire.body(prompt, settings, choices), on_progress,
                read_stream=wire.read_stream, read_whole=wire.read_whole,
            )
            try:
                answer = with_retries(budget, send)
            except StatusFailure as failure:
                step = _step_down(ladders, rung, failure)
                if step is None:
                    raise status_error(failure, settings, spec, wire) from None
                rung[step] += 1
                continue
            text, json_mode = wire.finish(answer.text, choices)
            return Completion(
                text=text,
                model=answer.model or settings.model,
                input_tokens=answer.input_tokens,
                output_tokens=answer.output_tokens,
                attempts=budget.attempts,
                json_mode=json_mode,
                cut_off=answer.cut_off,
            )


def _step_down(
    ladders: Sequence[Ladder], rung: Mapping[str, int], failure: StatusFailure
) -> str | None:
    """The first ladder with a rung left whose current choice the failure refuses."""
    for ladder in ladders:
        if rung[ladder.name] + 1 < len(ladder.rungs) and ladder.refused(failure):
            return ladder.name
    return None


def status_error(
    failure: StatusFailure, settings: ProviderSettings, spec: ProviderSpec, wire: Wire
) -> ProviderError:
    status, message, base = failure.status, failure.message, settings.base_url
    if status in (401, 403):
        if settings.api_key:
            return ProviderError(
                f"{base} refused the API key (HTTP {status}: {message}); check "
                f"{spec.key_variable}, or --base-url if the key belongs to another server"
            )
        return ProviderError(
            f"{base} wants an API key (HTTP {status}: {message}); set {spec.key_variable}"
        )
    if status == 404:
        return ProviderError(
            f"model '{settings.model}' or {wire.endpoint} was not found at {base} "
            f"(HTTP 404: {message}); {wire.url_hint}"
        )
    return ProviderError(f"{base} rejected the request (HTTP {status}): {message}")
