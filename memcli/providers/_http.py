"""HTTP plumbing the providers share: the client, status triage, retries with backoff.

Imported only from inside ``memcli.providers.complete``, so it may import httpx at the top.
"""

from __future__ import annotations

import email.utils
import json
import logging
import math
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import stamina
from httpx_sse import EventSource, ServerSentEvent

from memcli.errors import ConfigError, ProviderError
from memcli.providers._types import ProviderSettings
from memcli.text import clip, one_line

T = TypeVar("T")

RETRY_STATUSES = frozenset({408, 429, *range(500, 600)})
BACKOFF_INITIAL = 0.5  # seconds before the first retry, before jitter
BACKOFF_MAX = 8.0  # no single exponential wait is longer than this
ERROR_BODY_LIMIT = 64 * 1024  # an error page is read this far, never further
MESSAGE_LIMIT = 240  # characters of a server's message that go into ours


class Retryable(Exception):
    """A failure that another identical request may not have: a 5xx, a drop, a timeout."""

    def __init__(self, cause: str, retry_after: float | None = None) -> None:
        super().__init__(cause)
        self.cause = cause
        self.retry_after = retry_after


class StatusFailure(Exception):
    """An HTTP status that retrying will not change; the provider words the message."""

    def __init__(self, status: int, message: str, body: str) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message
        self.body = body


@dataclass
class Budget:
    """What one ``complete`` call has spent: requests sent, and since when."""

    settings: ProviderSettings
    started: float = field(default_factory=time.monotonic)
    attempts: int = 0

    def remaining(self) -> float:
        return self.settings.max_retry_seconds - (time.monotonic() - self.started)


def brief(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A server's text fit for one line of a message: whitespace folded, cut to LIMIT."""
    return clip(one_line(text), limit)


def server_message(body: str) -> str:
    """The human part of an error body: OpenAI, Anthropic, Ollama and FastAPI shapes."""
    try:
        data = json.loads(body)
    except ValueError:
        return brief(body) or "(empty body)"
    found = find_message(data)
    return brief(found if found else body) or "(empty body)"


def find_message(data: Any) -> str | None:
    if isinstance(data, str):
        return data
    if isinstance(data, list):
        # FastAPI's 422 "detail" is a list of problems; the first says enough.
        return find_message(data[0]) if data else None
    if not isinstance(data, dict):
        return None
    for key in ("error", "message", "detail", "msg"):
        if key in data:
            found = find_message(data[key])
            if found:
                return found
    return None


def mentions(failure: StatusFailure, *words: str) -> bool:
    body = failure.body.lower()
    return any(word in body for word in words)


# Error types and codes that a stream may report after its HTTP 200 and that a new
# request may not meet again (Anthropic's names, OpenAI's and OpenRouter's).
_TRANSIENT_ERROR_TYPES = frozenset(
    {"overloaded_error", "api_error", "rate_limit_error", "timeout_error", "server_error"}
)


def stream_error(error: Any) -> Exception:
    """The exception for an error that arrived inside a stream (after HTTP 200)."""
    message = brief(find_message(error) or json.dumps(error, ensure_ascii=False))
    kind = code = None
    if isinstance(error, dict):
        kind, code = error.get("type"), error.get("code")
    if isinstance(code, str) and code.isdigit():
        code = int(code)
    if kind in _TRANSIENT_ERROR_TYPES or code in RETRY_STATUSES:
        return Retryable(f"the server reported an error mid-stream: {message}")
    return ProviderError(f"the server reported an error mid-stream: {message}")


@dataclass
class Answer:
    """What one successful request produced, before the provider labels it."""

    text: str
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None


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


def retry_after_seconds(headers: httpx.Headers, now: float | None = None) -> float | None:
    """The delay a server asked for, in seconds; None when it asked for none we can read.

    A date is measured against ``now``, else against the response's own ``Date`` header:
    the server's clock is the one its date was written by, and memcli reads no clock here.
    """
    # OpenAI sends the precise value in milliseconds next to the rounded standard header.
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            value = float(millis) / 1000
        except ValueError:
            value = math.nan
        if math.isfinite(value) and value >= 0:
            return value
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        value = float(raw)
    except ValueError:
        pass
    else:
        return value if math.isfinite(value) and value >= 0 else None
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    if now is None:
        now = _sent_at(headers)
        if now is None:
            return None
    return max(0.0, when.timestamp() - now)


def _sent_at(headers: httpx.Headers) -> float | None:
    try:
        sent = email.utils.parsedate_to_datetime(headers.get("date", ""))
    except (TypeError, ValueError, IndexError):
        return None
    return sent.timestamp() if sent.tzinfo is not None else None


def backoff_wait(
    retry_number: int,
    retry_after: float | None,
    remaining: float,
    rand: Callable[[], float] = random.random,
) -> float | None:
    """Seconds to wait before retry ``retry_number`` (1-based); None means give up now.

    A server's ``Retry-After`` is obeyed exactly, and when it reaches past the time left
    in the budget we give up at once instead of sleeping only to be turned away again.
    """
    if remaining <= 0:
        return None
    if retry_after is not None:
        return retry_after if retry_after <= remaining else None
    ceiling = min(BACKOFF_MAX, BACKOFF_INITIAL * 2.0 ** (retry_number - 1))
    # "Equal jitter": at least half the exponential step, so retries still spread out
    # when many agents hit the same rate limit at once.
    return min(ceiling / 2 + rand() * ceiling / 2, remaining)


def with_retries(budget: Budget, send: Callable[[], T]) -> T:
    """Call ``send`` until it returns, retrying on ``Retryable`` within the budget.

    stamina runs the loop (and ``stamina.set_testing`` turns the waits off in tests); the
    hook below decides each wait so that ``Retry-After`` and the time budget are honoured.
    """
    settings = budget.settings
    _quiet_stamina_logger()
    first_attempt = budget.attempts
    gave_up: list[str] = []

    def hook(exc: Exception) -> bool | float:
        if not isinstance(exc, Retryable):
            return False
        made = budget.attempts - first_attempt
        if made >= settings.max_attempts:
            return False
        wait = backoff_wait(made, exc.retry_after, budget.remaining())
        if wait is None:
            if exc.retry_after is not None:
                gave_up.append(
                    f"the server asked to wait {exc.retry_after:.0f} s, more than the "
                    f"{max(budget.remaining(), 0):.0f} s left of the retry budget"
                )
            else:
                gave_up.append(f"the {settings.max_retry_seconds:g} s retry budget is spent")
            return False
        return wait

    try:
        for attempt in stamina.retry_context(on=hook, attempts=settings.max_attempts, timeout=None):
            with attempt:
                budget.attempts += 1
                return send()
    except Retryable as exc:
        made = budget.attempts - first_attempt
        times = "attempt" if made == 1 else "attempts"
        why = f" ({gave_up[-1]})" if gave_up else ""
        raise ProviderError(
            f"{settings.provider} request to {settings.base_url} gave up after {made} "
            f"{times}{why}; last error: {exc.cause}"
        ) from None
    raise AssertionError("stamina ended its retry loop without a result or an error")


def _quiet_stamina_logger() -> None:
    # stamina logs each scheduled retry at WARNING; with logging unconfigured, Python's
    # last-resort handler would print "stamina.retry_scheduled" onto the CLI's stderr. A
    # NullHandler stops that, and an application that configures logging still gets them.
    logger = logging.getLogger("stamina")
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())


def make_client(settings: ProviderSettings, transport: httpx.BaseTransport | None) -> httpx.Client:
    # Loading the CA bundle costs ~40 ms; a plain-http server (a local model) never uses it.
    uses_tls = not settings.base_url.lower().startswith("http://")
    return httpx.Client(
        timeout=httpx.Timeout(settings.timeout),
        transport=transport,
        follow_redirects=False,
        verify=uses_tls,
    )


@dataclass
class Reply:
    """A 2xx response whose body is still to be read."""

    response: httpx.Response

    @property
    def is_event_stream(self) -> bool:
        return self.content_type == "text/event-stream"

    @property
    def content_type(self) -> str:
        value: str = self.response.headers.get("content-type", "")
        return value.partition(";")[0].strip().lower()

    def events(self) -> Iterator[ServerSentEvent]:
        return EventSource(self.response).iter_sse()

    def json(self) -> Any:
        """The body of a server that answered in one piece although asked to stream."""
        body = self.response.read()
        try:
            return json.loads(body)
        except ValueError:
            raise ProviderError(
                f"the server answered with {self.content_type or 'no content type'} that is "
                f"not JSON: {brief(body.decode('utf-8', 'replace'), 80)}"
            ) from None


@dataclass(frozen=True)
class Endpoint:
    """Where one completion's requests go, and how they are sent."""

    client: httpx.Client
    settings: ProviderSettings
    url: str
    headers: dict[str, str]


@contextmanager
def post(endpoint: Endpoint, body: dict[str, Any]) -> Iterator[Reply]:
    """POST ``body`` and yield the 2xx reply; anything else becomes one of our exceptions.

    Network errors raised while the caller reads the stream inside the ``with`` block come
    back through here too, so a stream that drops half-way is retried like any other drop.
    """
    settings, url = endpoint.settings, endpoint.url
    try:
        with endpoint.client.stream("POST", url, json=body, headers=endpoint.headers) as response:
            if not 200 <= response.status_code < 300:
                raise _status_failure(response)
            yield Reply(response)
    except httpx.TimeoutException as exc:
        phase = "connect to" if isinstance(exc, httpx.ConnectTimeout) else "hear from"
        raise Retryable(f"could not {phase} the server within {settings.timeout:g} s") from None
    except httpx.ConnectError as exc:
        # Not retried: a refused connection is nearly always a server that is not running,
        # and waiting would only delay the same answer.
        raise ProviderError(
            f"cannot connect to {settings.base_url} ({_reason(exc)}); is the server running? "
            "check --base-url"
        ) from None
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
        raise Retryable(f"the connection dropped ({_reason(exc)})") from None
    except httpx.UnsupportedProtocol:
        raise ConfigError(
            f"base URL '{settings.base_url}' must start with http:// or https://; fix --base-url"
        ) from None
    except httpx.InvalidURL as exc:
        raise ConfigError(
            f"base URL '{settings.base_url}' is not valid ({exc}); fix --base-url"
        ) from None
    except httpx.HTTPError as exc:
        raise ProviderError(f"request to {url} failed: {_reason(exc)}") from None


def attempt(
    endpoint: Endpoint,
    body: dict[str, Any],
    on_progress: Callable[[int], None] | None,
    *,
    read_stream: Callable[[Iterator[ServerSentEvent], Callable[[int], None] | None], Answer],
    read_whole: Callable[[Any], Answer],
) -> Answer:
    """One request: a stream read event by event, or a whole JSON answer from a server that
    ignored ``"stream": true``; anything else means the base URL points at the wrong thing."""
    with post(endpoint, body) as reply:
        if reply.is_event_stream:
            return read_stream(reply.events(), on_progress)
        if reply.content_type.endswith("json"):
            answer = read_whole(reply.json())
            if on_progress is not None:
                on_progress(len(answer.text))
            return answer
        raise ProviderError(
            f"{endpoint.url} answered with {reply.content_type or 'no content type'}, "
            "not an event stream; check --base-url"
        )


def _reason(exc: Exception) -> str:
    return brief(str(exc), 120) or type(exc).__name__


def _status_failure(response: httpx.Response) -> Exception:
    raw = b""
    for chunk in response.iter_bytes():
        raw += chunk
        if len(raw) >= ERROR_BODY_LIMIT:
            break
    body = raw[:ERROR_BODY_LIMIT].decode("utf-8", "replace")
    status = response.status_code
    message = server_message(body)
    if status in RETRY_STATUSES and not _quota_exhausted(body):
        return Retryable(f"HTTP {status}: {message}", retry_after_seconds(response.headers))
    return StatusFailure(status, message, body)


def _quota_exhausted(body: str) -> bool:
    # OpenAI answers 429 both for "slow down" and for "no credit left"; only the first
    # goes away by waiting.
    return "insufficient_quota" in body
