"""A real HTTP server on 127.0.0.1 that replays scripted responses, for provider tests.

Each request takes the next scripted ``Step``: status, headers and body chunks (each with
an optional delay), with faults on demand: a wait before the headers (for a time, or until
the test releases it), a connection closed after N body bytes, or a stall that keeps the
connection open and silent so that the client's read timeout fires. Every request is
recorded (method, path, headers, body, arrival time); ``respond`` answers by looking at the
request instead. Stdlib only; ``with FakeServer() as server`` (or the ``fake_server``
fixture) stops it, and any stalled response, when the block ends.

    server.script(Step(body=openai_stream(["Hel", "lo"])))
    settings = ProviderSettings("openai", "m", server.url + "/v1", None)
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import pytest

SSE_HEADERS = {"Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"}
JSON_HEADERS = {"Content-Type": "application/json"}


@dataclass
class Chunk:
    """Body bytes sent in one write, after ``delay`` seconds."""

    data: bytes
    delay: float = 0.0


@dataclass
class Step:
    """One scripted response.

    framing: "chunked" (Transfer-Encoding, the way streaming servers answer), "length"
    (Content-Length) or "close" (no length: the body ends when the connection closes,
    so a drop looks like a clean end of stream).
    """

    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: dict(SSE_HEADERS))
    body: Sequence[bytes | Chunk] = field(default_factory=list)
    framing: Literal["chunked", "length", "close"] = "chunked"
    delay: float = 0.0  # wait before the status line
    drop_after: int | None = None  # close the socket after this many body bytes
    stall: float | None = None  # after the body so far, stay silent this long, then close
    # Wait before the status line until the test sets this: a model that answers when the
    # test says, so that "X happened before the answer" is an order, not a race with a clock.
    hold: threading.Event | None = None


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes
    at: float  # time.monotonic() on arrival

    def json(self) -> Any:
        return json.loads(self.body)


def sse(data: Any, event: str | None = None) -> bytes:
    """One server-sent event; ``data`` is sent as is when a str, else as compact JSON."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    head = f"event: {event}\n" if event else ""
    return (head + f"data: {text}\n\n").encode()


def json_step(status: int, payload: Any, headers: dict[str, str] | None = None) -> Step:
    return Step(
        status=status,
        headers={**JSON_HEADERS, **(headers or {})},
        body=[json.dumps(payload).encode()],
        framing="length",
    )


def openai_stream(
    pieces: Iterable[str],
    *,
    model: str = "gpt-test",
    usage: tuple[int, int] | None = (11, 7),
    done: bool = True,
) -> list[bytes]:
    """The chunks OpenAI sends for a streamed chat completion with include_usage."""
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": model}
    events = [
        sse(
            {
                **base,
                "choices": [
                    {
                        "index": 0,
                        "delta": {"role": "assistant", "content": ""},
                        "logprobs": None,
                        "finish_reason": None,
                    }
                ],
                "usage": None,
            }
        )
    ]
    for piece in pieces:
        events.append(
            sse(
                {
                    **base,
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"content": piece},
                            "logprobs": None,
                            "finish_reason": None,
                        }
                    ],
                    "usage": None,
                }
            )
        )
    events.append(
        sse(
            {
                **base,
                "choices": [{"index": 0, "delta": {}, "logprobs": None, "finish_reason": "stop"}],
                "usage": None,
            }
        )
    )
    if usage is not None:
        events.append(
            sse(
                {
                    **base,
                    "choices": [],
                    "usage": {
                        "prompt_tokens": usage[0],
                        "completion_tokens": usage[1],
                        "total_tokens": usage[0] + usage[1],
                    },
                }
            )
        )
    if done:
        events.append(b"data: [DONE]\n\n")
    return events


def anthropic_stream(
    pieces: Iterable[str],
    *,
    model: str = "claude-test",
    input_tokens: int = 25,
    output_tokens: int = 15,
    ping: bool = True,
    stop: bool = True,
) -> list[bytes]:
    """The events the Messages API sends for a streamed text answer."""
    events = [
        sse(
            {
                "type": "message_start",
                "message": {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "content": [],
                    "model": model,
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": input_tokens, "output_tokens": 1},
                },
            },
            "message_start",
        ),
        sse(
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
            "content_block_start",
        ),
    ]
    if ping:
        events.append(sse({"type": "ping"}, "ping"))
    for piece in pieces:
        events.append(
            sse(
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": piece},
                },
                "content_block_delta",
            )
        )
    events.append(sse({"type": "content_block_stop", "index": 0}, "content_block_stop"))
    events.append(
        sse(
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": output_tokens},
            },
            "message_delta",
        )
    )
    if stop:
        events.append(sse({"type": "message_stop"}, "message_stop"))
    return events


class FakeServer:
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self._steps: deque[Step] = deque()
        self._responder: Callable[[Request], Step] | None = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.fake = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def script(self, *steps: Step) -> None:
        with self._lock:
            self._steps.extend(steps)

    def respond(self, responder: Callable[[Request], Step]) -> None:
        """Answer every request that no scripted step is left for with ``responder(request)``:
        a server that looks at what it was sent (its body, its headers) before it answers."""
        with self._lock:
            self._responder = responder

    @property
    def unused(self) -> int:
        """Scripted steps that no request has taken yet."""
        with self._lock:
            return len(self._steps)

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _next(self, request: Request) -> Step:
        with self._lock:
            self.requests.append(request)
            if self._steps:
                return self._steps.popleft()
            if self._responder is not None:
                return self._responder(request)
        # 418, not 5xx: a missing step must fail the test at once, not be retried.
        return json_step(418, {"error": {"message": "fakeserver: no scripted response left"}})


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        # The client hanging up on a stalled or dropped response is part of the script.
        pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        fake = self.server.fake
        step = fake._next(
            Request(
                method=self.command,
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=body,
                at=time.monotonic(),
            )
        )
        self.close_connection = True
        if step.delay and fake._stopping.wait(step.delay):
            return
        while step.hold is not None and not step.hold.wait(0.05):
            if fake._stopping.is_set():
                return
        chunks = [c if isinstance(c, Chunk) else Chunk(c) for c in step.body]
        self.send_response(step.status)
        for name, value in step.headers.items():
            self.send_header(name, value)
        if step.framing == "chunked":
            self.send_header("Transfer-Encoding", "chunked")
        elif step.framing == "length":
            self.send_header("Content-Length", str(sum(len(c.data) for c in chunks)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        if self._send_body(step, chunks):
            return
        if step.stall is not None:
            fake._stopping.wait(step.stall)
            self._drop()
            return
        if step.framing == "chunked":
            self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _send_body(self, step: Step, chunks: list[Chunk]) -> bool:
        """Write the body; True when the script dropped the connection half-way."""
        sent = 0
        for chunk in chunks:
            if chunk.delay and self.server.fake._stopping.wait(chunk.delay):
                self._drop()
                return True
            data = chunk.data
            cut = step.drop_after is not None and sent + len(data) >= step.drop_after
            if cut:
                assert step.drop_after is not None
                data = data[: step.drop_after - sent]
            if step.framing == "chunked" and data:
                # The chunk header announces the whole chunk: a cut leaves it incomplete.
                self.wfile.write(f"{len(chunk.data):x}\r\n".encode() + data)
                if not cut:
                    self.wfile.write(b"\r\n")
            else:
                self.wfile.write(data)
            self.wfile.flush()
            sent += len(data)
            if cut:
                self._drop()
                return True
        return False

    def _drop(self) -> None:
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


@pytest.fixture
def fake_server() -> Iterator[FakeServer]:
    with FakeServer() as server:
        yield server


def split_bytes(data: bytes, cuts: Iterable[int]) -> list[bytes]:
    """``data`` cut at the given offsets (used to prove chunk boundaries do not matter)."""
    points = sorted({c for c in cuts if 0 < c < len(data)})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
