"""The transport: one POST, and its reply read within the deadline and the size cap.

Every wait on the network is given at most the time left before the deadline; a reply's
body is read through :class:`_Capped`, which stops at the deadline (a server that trickles
bytes) and past :data:`MAX_REPLY_BYTES` (a server that never stops), and a watchdog shuts
the socket at the deadline (a server that went quiet half-way).
Imported only from inside ``memcli.providers.complete``, so it may import httpx at the top.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import EventSource, ServerSentEvent

from memcli.errors import ConfigError, ProviderError
from memcli.providers._answer import Answer
from memcli.providers._failures import Retryable, brief, status_failure
from memcli.providers._retry import Budget
from memcli.providers._types import ProviderSettings

# A whole answer of 4,096 output tokens streams as about 1 MiB of events (OpenAI's chunks
# are ~250 bytes a token); four times that is a server that will not stop, not an answer.
MAX_REPLY_BYTES = 4 * 1024 * 1024


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
    """A 2xx response whose body is still to be read (through the cap)."""

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
    """Where one completion's requests go, how they are sent, and the budget they share."""

    client: httpx.Client
    settings: ProviderSettings
    url: str
    headers: dict[str, str]
    budget: Budget


@contextlib.contextmanager
def post(endpoint: Endpoint, body: dict[str, Any]) -> Iterator[Reply]:
    """POST ``body`` and yield the 2xx reply; anything else becomes one of our exceptions.

    Network errors raised while the caller reads the stream inside the ``with`` block come
    back through here too, so a stream that drops half-way is retried like any other drop.
    """
    settings, url, budget = endpoint.settings, endpoint.url, endpoint.budget
    left = budget.left()
    if left <= 0:
        raise budget.deadline_error()
    watchdog = _Watchdog(budget)
    try:
        with endpoint.client.stream("POST", url, json=body, headers=endpoint.headers,
                                    timeout=httpx.Timeout(left)) as response, \
                watchdog.watching(response):
            capped = _capped(response, endpoint)
            if not 200 <= response.status_code < 300:
                raise status_failure(capped)
            yield Reply(capped)
    except httpx.TimeoutException as exc:
        # Every timeout is the time left, so a timeout is the deadline.
        phase = "connect to" if isinstance(exc, httpx.ConnectTimeout) else "hear from"
        raise budget.deadline_error(f"could not {phase} the server in time") from None
    except httpx.ConnectError as exc:
        # Not retried: a refused connection is nearly always a server that is not running,
        # and waiting would only delay the same answer.
        raise ProviderError(
            f"cannot connect to {settings.base_url} ({_reason(exc)}); is the server running? "
            "check --base-url"
        ) from None
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
        if watchdog.fired or budget.passed():
            raise budget.deadline_error("the server was still sending") from None
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


class _Capped(httpx.SyncByteStream):
    """A response body read no further than the size cap and no later than the deadline."""

    def __init__(self, source: httpx.Response, endpoint: Endpoint) -> None:
        self._source = source
        self._endpoint = endpoint

    def __iter__(self) -> Iterator[bytes]:
        budget, settings = self._endpoint.budget, self._endpoint.settings
        size = 0
        # Decoded bytes are counted: a compressed body is capped at what it expands to.
        for chunk in self._source.iter_bytes():
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                raise ProviderError(
                    f"{settings.provider} at {settings.base_url} sent more than "
                    f"{MAX_REPLY_BYTES // (1024 * 1024)} MiB in one reply; memcli stopped "
                    "reading it (a model that does not stop, or --base-url points at "
                    "something else)"
                )
            if budget.passed():
                raise budget.deadline_error("the server was still sending")
            yield chunk

    def close(self) -> None:
        self._source.close()


def _capped(response: httpx.Response, endpoint: Endpoint) -> httpx.Response:
    # The new response's body is already decoded: it must not be decoded a second time.
    headers = [(name, value) for name, value in response.headers.multi_items()
               if name.lower() not in ("content-encoding", "content-length")]
    return httpx.Response(response.status_code, headers=headers,
                          stream=_Capped(response, endpoint), request=response.request)


class _Watchdog:
    """Shuts the connection down at the deadline, so that a read waiting on a server that
    went quiet half-way returns then, not a whole read timeout later."""

    def __init__(self, budget: Budget) -> None:
        self._budget = budget
        self.fired = False

    @contextlib.contextmanager
    def watching(self, response: httpx.Response) -> Iterator[None]:
        sock = _socket_of(response)
        if sock is None:  # a transport without a socket (tests' MockTransport)
            yield
            return
        timer = threading.Timer(max(self._budget.left(), 0.0), self._fire, args=(sock,))
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()

    def _fire(self, sock: socket.socket) -> None:
        self.fired = True
        # The plain socket's shutdown, also under TLS: it wakes a blocked read without
        # touching the TLS object that the reading thread is using.
        with contextlib.suppress(OSError):
            socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _socket_of(response: httpx.Response) -> socket.socket | None:
    stream = response.extensions.get("network_stream")
    get_extra_info = getattr(stream, "get_extra_info", None)
    sock = get_extra_info("socket") if callable(get_extra_info) else None
    return sock if isinstance(sock, socket.socket) else None


def _reason(exc: Exception) -> str:
    return brief(str(exc), 120) or type(exc).__name__

