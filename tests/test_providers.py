"""Providers against a real HTTP server on 127.0.0.1 that streams the exact wire formats.

stamina's test mode takes the waits out of retries (the attempt limits stay ours), except
in the one test that proves ``Retry-After`` is waited for.
"""

from __future__ import annotations

import email.utils
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import stamina
from fakeserver import (
    JSON_HEADERS,
    SSE_HEADERS,
    Chunk,
    FakeServer,
    Step,
    anthropic_stream,
    json_step,
    openai_stream,
    split_bytes,
    sse,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.errors import ConfigError, ProviderError
from memcli.providers import (
    OPERATIONS_SCHEMA,
    Completion,
    Prompt,
    ProviderSettings,
    _failures,
    _retry,
    complete,
)
from memcli.providers.anthropic import PREFILL, with_prefill

KEY = "sk-test-K3Y-never-in-messages"
PROMPT = Prompt(system="Reply with JSON operations.", user="user: remember that I use fish")
ANSWER = '{"operations": [{"action": "noop"}]}'


@pytest.fixture(autouse=True)
def _no_waits() -> Iterator[None]:
    # cap=True keeps each test's own max_attempts; only the sleeping goes.
    with stamina.set_testing(True, attempts=100, cap=True):
        yield


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as fake:
        yield fake
        assert fake.unused == 0, "a scripted response was never requested"


def openai_settings(server: FakeServer, **overrides: Any) -> ProviderSettings:
    values: dict[str, Any] = {
        "provider": "openai",
        "model": "test-model",
        "base_url": server.url + "/v1",
        "api_key": KEY,
        "timeout": 2.0,
    }
    values.update(overrides)
    return ProviderSettings(**values)


def anthropic_settings(server: FakeServer, **overrides: Any) -> ProviderSettings:
    values: dict[str, Any] = {
        "provider": "anthropic",
        "model": "claude-3-5-haiku-latest",
        "base_url": server.url,
        "api_key": KEY,
        "timeout": 2.0,
    }
    values.update(overrides)
    return ProviderSettings(**values)


def fails(settings: ProviderSettings, match: str) -> str:
    """The message of the ProviderError that ``complete`` raises: one line, no key."""
    with pytest.raises(ProviderError, match=match) as info:
        complete(PROMPT, settings)
    message = str(info.value)
    assert "\n" not in message
    assert KEY not in message
    return message


# --- OpenAI-compatible -------------------------------------------------------------------

# Byte for byte what api.openai.com streams (ids shortened); the content holds U+2028, which
# a splitter on str.splitlines() would take for a line break.
OPENAI_WIRE = (
    b'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1732000000,'
    b'"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_1","choices":[{"index":0,'
    b'"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,'
    b'"finish_reason":null}],"usage":null}\n\n'
    b'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1732000000,'
    b'"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_1","choices":[{"index":0,'
    b'"delta":{"content":"{\\"operations\\": [{\\"action\\": \\"noop\\", \\"reason\\": \\"a'
    + "\u2028".encode()
    + b'b\\"}"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n'
    b'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1732000000,'
    b'"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_1","choices":[{"index":0,'
    b'"delta":{"content":"]}"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n'
    b'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1732000000,'
    b'"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_1","choices":[{"index":0,'
    b'"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}\n\n'
    b'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1732000000,'
    b'"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_1","choices":[],'
    b'"usage":{"prompt_tokens":123,"completion_tokens":17,"total_tokens":140}}\n\n'
    b"data: [DONE]\n\n"
)
OPENAI_WIRE_TEXT = '{"operations": [{"action": "noop", "reason": "a\u2028b"}]}'


def test_openai_streams_the_answer_with_usage_and_sends_the_exact_request(
    server: FakeServer,
) -> None:
    # Cut in the middle of a line and of the UTF-8 bytes of U+2028.
    cut = OPENAI_WIRE.index("\u2028".encode()) + 1
    server.script(Step(body=[OPENAI_WIRE[:50], OPENAI_WIRE[50:cut], OPENAI_WIRE[cut:]]))
    progress: list[int] = []

    result = complete(PROMPT, openai_settings(server), on_progress=progress.append)

    assert result == Completion(
        text=OPENAI_WIRE_TEXT,
        model="gpt-4o-mini-2024-07-18",
        input_tokens=123,
        output_tokens=17,
        attempts=1,
        json_mode="json_schema",
    )
    assert progress == sorted(progress) and progress[-1] == len(OPENAI_WIRE_TEXT)
    [request] = server.requests
    assert (request.method, request.path) == ("POST", "/v1/chat/completions")
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["content-type"] == "application/json"
    assert request.json() == {
        "model": "test-model",
        "messages": [
            {"role": "system", "content": PROMPT.system},
            {"role": "user", "content": PROMPT.user},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
        "temperature": 0,
        "max_completion_tokens": 4096,
        "response_format": {
            "type": "json_schema",
            "json_schema": {
                "name": "memcli_operations",
                "schema": OPERATIONS_SCHEMA,
                "strict": False,
            },
        },
    }


def test_openai_without_a_key_sends_no_authorization_and_tolerates_a_trailing_slash(
    server: FakeServer,
) -> None:
    server.script(Step(body=openai_stream([ANSWER], usage=None)))
    result = complete(PROMPT, openai_settings(server, api_key=None, base_url=server.url + "/v1/"))
    assert result.text == ANSWER
    assert (result.input_tokens, result.output_tokens) == (None, None)
    assert server.requests[0].path == "/v1/chat/completions"
    assert "authorization" not in server.requests[0].headers


def test_openai_429_with_retry_after_is_retried(server: FakeServer) -> None:
    server.script(
        json_step(429, {"error": {"message": "Rate limit reached"}}, {"Retry-After": "1"}),
        Step(body=openai_stream(['{"operations": []}'])),
    )
    result = complete(PROMPT, openai_settings(server))
    assert (result.text, result.attempts) == ('{"operations": []}', 2)
    assert server.requests[0].json() == server.requests[1].json()


def test_retry_after_is_waited_for_before_the_next_request(server: FakeServer) -> None:
    server.script(
        json_step(503, {"error": {"message": "busy"}}, {"Retry-After": "1"}),
        Step(body=openai_stream([ANSWER])),
    )
    with stamina.set_testing(False):
        result = complete(PROMPT, openai_settings(server, timeout=10.0))
    assert result.attempts == 2
    first, second = server.requests
    assert second.at - first.at >= 1.0


def test_500_then_success_is_retried_and_counted(server: FakeServer) -> None:
    server.script(
        json_step(500, {"error": {"message": "oops"}}),
        Step(body=openai_stream([ANSWER])),
    )
    assert complete(PROMPT, openai_settings(server)).attempts == 2


def test_retries_stop_at_max_attempts_and_name_the_last_cause(server: FakeServer) -> None:
    server.script(*[json_step(503, {"error": {"message": "overloaded"}})] * 3)
    message = fails(openai_settings(server, max_attempts=3), "gave up after 3 attempts")
    assert "HTTP 503: overloaded" in message
    assert len(server.requests) == 3


def test_retry_after_beyond_the_budget_gives_up_at_once(server: FakeServer) -> None:
    server.script(json_step(429, {"error": {"message": "slow down"}}, {"Retry-After": "120"}))
    message = fails(openai_settings(server, max_retry_seconds=30), "gave up after 1 attempt ")
    assert "asked to wait 120 s" in message and "HTTP 429: slow down" in message


def test_429_for_an_exhausted_quota_is_not_retried(server: FakeServer) -> None:
    server.script(
        json_step(
            429,
            {
                "error": {
                    "message": "You exceeded your current quota",
                    "type": "insufficient_quota",
                    "code": "insufficient_quota",
                }
            },
        )
    )
    fails(openai_settings(server), "exceeded your current quota")
    assert len(server.requests) == 1


@pytest.mark.parametrize("framing", ["chunked", "close"])
def test_a_stream_dropped_mid_way_is_retried_from_scratch(server: FakeServer, framing: Any) -> None:
    pieces = ['{"operations": [', '{"action": "noop"}', "]}"]
    first = openai_stream(pieces)
    server.script(
        Step(body=first, framing=framing, drop_after=len(b"".join(first[:2])) + 10),
        Step(body=openai_stream(pieces)),
    )
    progress: list[int] = []
    result = complete(PROMPT, openai_settings(server), on_progress=progress.append)
    # Nothing of the broken first answer is kept.
    assert (result.text, result.attempts) == ("".join(pieces), 2)
    assert progress[-1] == len(result.text)


def test_a_stream_that_ends_without_done_or_finish_is_incomplete(server: FakeServer) -> None:
    chunks = openai_stream(["{"], done=False, usage=None)[:-1]  # no finish_reason, no [DONE]
    server.script(Step(body=chunks), Step(body=chunks))
    fails(openai_settings(server, max_attempts=2), "stream ended before the answer was complete")


def test_openai_error_chunk_after_200(server: FakeServer) -> None:
    server.script(
        Step(body=[sse({"error": {"message": "upstream overloaded", "code": 502}})]),
        Step(body=openai_stream([ANSWER])),
        Step(
            body=[
                *openai_stream(["{"], done=False, usage=None)[:2],
                sse({"error": {"message": "context too long", "type": "invalid_request_error"}}),
            ]
        ),
    )
    assert complete(PROMPT, openai_settings(server)).attempts == 2
    fails(openai_settings(server), "mid-stream: context too long")
    assert len(server.requests) == 3


@pytest.mark.parametrize("status", [401, 403])
def test_openai_refused_key_names_the_setting_and_hides_the_key(
    server: FakeServer, status: int
) -> None:
    # A careless proxy echoes the key back; it must not reach the message.
    server.script(json_step(status, {"error": {"message": f"Incorrect API key provided: {KEY}"}}))
    message = fails(openai_settings(server), f"HTTP {status}")
    assert "OPENAI_API_KEY" in message and "--base-url" in message
    assert "Incorrect API key provided: ***" in message
    assert len(server.requests) == 1


def test_openai_without_a_key_on_401_says_to_set_one(server: FakeServer) -> None:
    server.script(json_step(401, {"error": "unauthorized"}))
    fails(openai_settings(server, api_key=None), "wants an API key .*set OPENAI_API_KEY")


def test_openai_404_names_the_model_and_base_url(server: FakeServer) -> None:
    server.script(json_step(404, {"error": {"message": "model 'test-model' not found"}}))
    message = fails(openai_settings(server), "model 'test-model'")
    assert server.url + "/v1" in message and "--model" in message


def test_other_4xx_gives_the_servers_message_on_one_line(server: FakeServer) -> None:
    server.script(json_step(400, {"error": {"message": "messages:\n  too\tmany   tokens"}}))
    message = fails(openai_settings(server), r"HTTP 400\): messages: too many tokens$")
    assert len(server.requests) == 1
    assert message


def test_rejected_response_format_falls_back_to_json_object_then_none(
    server: FakeServer,
) -> None:
    server.script(
        json_step(
            400,
            {
                "error": {
                    "message": "Invalid parameter: 'response_format' of type "
                    "'json_schema' is not supported with this model."
                }
            },
        ),
        json_step(400, {"error": {"message": "response_format json_object unsupported"}}),
        Step(body=openai_stream([ANSWER])),
    )
    result = complete(PROMPT, openai_settings(server))
    assert (result.json_mode, result.attempts) == ("none", 3)
    formats = [request.json().get("response_format") for request in server.requests]
    assert formats == [
        {
            "type": "json_schema",
            "json_schema": {
                "name": "memcli_operations",
                "schema": OPERATIONS_SCHEMA,
                "strict": False,
            },
        },
        {"type": "json_object"},
        None,
    ]


def test_a_422_falls_back_to_json_object(server: FakeServer) -> None:
    server.script(
        json_step(422, {"detail": [{"msg": "extra fields not permitted"}]}),
        Step(body=openai_stream([ANSWER])),
    )
    assert complete(PROMPT, openai_settings(server)).json_mode == "json_object"


def test_a_400_that_is_not_about_the_format_does_not_fall_back(server: FakeServer) -> None:
    server.script(json_step(400, {"error": {"message": "max context length exceeded"}}))
    fails(openai_settings(server), "max context length exceeded")


def test_a_rejected_temperature_is_dropped(server: FakeServer) -> None:
    server.script(
        json_step(
            400,
            {
                "error": {
                    "message": "Unsupported value: 'temperature' does not "
                    "support 0 with this model.",
                    "param": "temperature",
                }
            },
        ),
        Step(body=openai_stream([ANSWER])),
    )
    result = complete(PROMPT, openai_settings(server))
    assert (result.json_mode, result.attempts) == ("json_schema", 2)
    assert "temperature" in server.requests[0].json()
    assert "temperature" not in server.requests[1].json()


def test_a_server_that_ignores_stream_true_still_works(server: FakeServer) -> None:
    server.script(
        json_step(
            200,
            {
                "model": "llama3",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER}}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 6},
            },
        )
    )
    progress: list[int] = []
    result = complete(PROMPT, openai_settings(server), on_progress=progress.append)
    assert (result.text, result.model, result.input_tokens) == (ANSWER, "llama3", 5)
    assert progress == [len(ANSWER)]


def test_a_200_that_is_not_a_stream_is_an_error(server: FakeServer) -> None:
    server.script(Step(headers={"Content-Type": "text/html"}, body=[b"<html>login</html>"]))
    fails(openai_settings(server), "text/html, not an event stream; check --base-url")


def test_connection_refused_names_the_base_url() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}/v1"
    settings = ProviderSettings("openai", "m", base, KEY, timeout=2.0)
    message = fails(settings, "cannot connect to")
    assert base in message and "--base-url" in message
    # Not retried: retries end in the deadline's error or count their attempts.
    assert "timeout" not in message and "attempt" not in message


# --- Anthropic ---------------------------------------------------------------------------

ANTHROPIC_WIRE = (
    b"event: message_start\n"
    b'data: {"type":"message_start","message":{"id":"msg_01","type":"message",'
    b'"role":"assistant","content":[],"model":"claude-3-5-haiku-20241022","stop_reason":null,'
    b'"stop_sequence":null,"usage":{"input_tokens":472,"cache_creation_input_tokens":0,'
    b'"cache_read_input_tokens":100,"output_tokens":2}}}\n\n'
    b"event: content_block_start\n"
    b'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}'
    b"\n\n"
    b"event: ping\n"
    b'data: {"type": "ping"}\n\n'
    b"event: content_block_delta\n"
    b'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta",'
    b'"text":"{\\"action\\": \\"noop\\"}"}}\n\n'
    b"event: content_block_delta\n"
    b'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"]}"}}'
    b"\n\n"
    b"event: content_block_stop\n"
    b'data: {"type":"content_block_stop","index":0}\n\n'
    b"event: message_delta\n"
    b'data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},'
    b'"usage":{"output_tokens":9}}\n\n'
    b"event: message_stop\n"
    b'data: {"type":"message_stop"}\n\n'
)


def test_anthropic_streams_the_answer_after_the_prefill_with_usage(server: FakeServer) -> None:
    server.script(Step(body=[ANTHROPIC_WIRE]))
    progress: list[int] = []

    result = complete(PROMPT, anthropic_settings(server), on_progress=progress.append)

    assert result == Completion(
        text='{"operations": [{"action": "noop"}]}',
        model="claude-3-5-haiku-20241022",
        input_tokens=572,
        output_tokens=9,
        attempts=1,
        json_mode="prefill",
    )
    assert result.text.startswith(PREFILL)
    assert progress[-1] == len(result.text) - len(PREFILL)
    [request] = server.requests
    assert (request.method, request.path) == ("POST", "/v1/messages")
    assert request.headers["x-api-key"] == KEY
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert request.headers["content-type"] == "application/json"
    assert "authorization" not in request.headers
    assert request.json() == {
        "model": "claude-3-5-haiku-latest",
        "max_tokens": 4096,
        "stream": True,
        "temperature": 0,
        "system": PROMPT.system,
        "messages": [
            {"role": "user", "content": PROMPT.user},
            {"role": "assistant", "content": PREFILL},
        ],
    }


def test_anthropic_base_url_with_v1_is_tolerated(server: FakeServer) -> None:
    server.script(Step(body=anthropic_stream(["]}"])))
    complete(PROMPT, anthropic_settings(server, base_url=server.url + "/v1/"))
    assert server.requests[0].path == "/v1/messages"


def test_anthropic_overloaded_error_after_200_is_retried(server: FakeServer) -> None:
    started = anthropic_stream(['{"action": "cre'], stop=False)[:3]
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    server.script(
        Step(body=[*started, sse(overloaded, "error")]),
        Step(body=anthropic_stream(['{"action": "noop"}', "]}"])),
    )
    result = complete(PROMPT, anthropic_settings(server))
    assert (result.text, result.attempts) == ('{"operations": [{"action": "noop"}]}', 2)


def test_anthropic_invalid_request_error_after_200_fails(server: FakeServer) -> None:
    error = {"type": "error", "error": {"type": "invalid_request_error", "message": "bad input"}}
    server.script(Step(body=[*anthropic_stream([], stop=False)[:2], sse(error, "error")]))
    fails(anthropic_settings(server), "mid-stream: bad input")
    assert len(server.requests) == 1


def test_anthropic_stream_cut_before_message_stop_is_retried(server: FakeServer) -> None:
    server.script(
        Step(body=anthropic_stream(["]}"], stop=False), framing="close"),
        Step(body=anthropic_stream(["]}"])),
    )
    assert complete(PROMPT, anthropic_settings(server)).attempts == 2


def test_anthropic_rejected_prefill_is_dropped(server: FakeServer) -> None:
    server.script(
        json_step(
            400,
            {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "This model does not support assistant message prefill. The "
                    "conversation must end with a user message.",
                },
            },
        ),
        Step(body=anthropic_stream([ANSWER])),
    )
    result = complete(PROMPT, anthropic_settings(server, model="claude-3-7-sonnet-latest"))
    assert (result.text, result.json_mode, result.attempts) == (ANSWER, "none", 2)
    assert [m["role"] for m in server.requests[1].json()["messages"]] == ["user"]


def test_anthropic_newer_models_get_neither_prefill_nor_temperature(server: FakeServer) -> None:
    server.script(Step(body=anthropic_stream([ANSWER])))
    result = complete(PROMPT, anthropic_settings(server, model="claude-opus-4-7"))
    assert (result.text, result.json_mode) == (ANSWER, "json_schema")
    body = server.requests[0].json()
    assert "temperature" not in body and len(body["messages"]) == 1
    assert body["output_config"]["format"]["type"] == "json_schema"


@pytest.mark.parametrize("status", [401, 403])
def test_anthropic_refused_key_names_the_setting(server: FakeServer, status: int) -> None:
    server.script(
        json_step(
            status,
            {
                "type": "error",
                "error": {"type": "authentication_error", "message": "invalid x-api-key"},
            },
        )
    )
    message = fails(anthropic_settings(server), "ANTHROPIC_API_KEY")
    assert "invalid x-api-key" in message


def test_anthropic_404_names_the_model(server: FakeServer) -> None:
    server.script(
        json_step(
            404,
            {
                "type": "error",
                "error": {"type": "not_found_error", "message": "model: claude-nope"},
            },
        )
    )
    message = fails(anthropic_settings(server, model="claude-nope"), "model 'claude-nope'")
    assert server.url in message


def test_anthropic_529_is_retried(server: FakeServer) -> None:
    server.script(
        json_step(
            529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
        ),
        Step(body=anthropic_stream(["]}"])),
    )
    assert complete(PROMPT, anthropic_settings(server)).attempts == 2


# --- Settings, checked before any request --------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        (
            ProviderSettings("anthropic", "claude-x", "https://api.anthropic.com", None),
            "ANTHROPIC_API_KEY",
        ),
        (ProviderSettings("openai", "gpt-x", "https://api.openai.com/v1", None), "OPENAI_API_KEY"),
        (ProviderSettings("openai", " ", "http://127.0.0.1:1/v1", None), "--model"),
        (ProviderSettings("openai", "m", "", None), "--base-url"),
        (ProviderSettings("openai", "m", "127.0.0.1:11434/v1", None), "http://"),
        (ProviderSettings("mistral", "m", "http://x", None), "unknown provider"),
    ],
)
def test_unusable_settings_are_a_config_error(settings: ProviderSettings, match: str) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise AssertionError("no request may be sent")

    with pytest.raises(ConfigError, match=match):
        complete(PROMPT, settings, transport=httpx.MockTransport(refuse))


def test_settings_repr_hides_the_key() -> None:
    assert KEY not in repr(ProviderSettings("openai", "m", "http://x/v1", KEY))


def test_importing_providers_and_reply_loads_no_http_stack() -> None:
    code = (
        "import sys, memcli.providers, memcli.operations.reply\n"
        "print(sorted(m for m in ('httpx', 'httpx_sse', 'stamina') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- MockTransport: where a real socket adds nothing -----------------------------------------


class _Chunks(httpx.SyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks


def _mock(chunks: list[bytes], headers: dict[str, str] | None = None) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=headers or SSE_HEADERS, stream=_Chunks(chunks))

    return httpx.MockTransport(handler)


MOCK_OPENAI = ProviderSettings("openai", "m", "http://mock/v1", None)
MOCK_ANTHROPIC = ProviderSettings("anthropic", "claude-3-haiku", "http://mock", KEY)


@settings(max_examples=examples(60), deadline=None)
@given(cuts=st.lists(st.integers(min_value=1, max_value=len(OPENAI_WIRE) - 1), max_size=30))
def test_openai_stream_parsing_does_not_depend_on_chunk_boundaries(cuts: list[int]) -> None:
    transport = _mock(split_bytes(OPENAI_WIRE, cuts))
    assert complete(PROMPT, MOCK_OPENAI, transport=transport).text == OPENAI_WIRE_TEXT


@settings(max_examples=examples(60), deadline=None)
@given(cuts=st.lists(st.integers(min_value=1, max_value=len(ANTHROPIC_WIRE) - 1), max_size=30))
def test_anthropic_stream_parsing_does_not_depend_on_chunk_boundaries(cuts: list[int]) -> None:
    crlf = ANTHROPIC_WIRE.replace(b"\n", b"\r\n")  # servers may end lines either way
    result = complete(PROMPT, MOCK_ANTHROPIC, transport=_mock(split_bytes(crlf, cuts)))
    assert result.text == '{"operations": [{"action": "noop"}]}'


def test_unicode_line_separators_inside_json_survive() -> None:
    text = "a\u2028b\u2029c\u0085d\x1ce"
    wire = b"".join(openai_stream([text]))
    assert complete(PROMPT, MOCK_OPENAI, transport=_mock([wire])).text == text


def test_a_malformed_event_is_an_error_not_a_crash() -> None:
    message = ""
    with pytest.raises(ProviderError) as info:
        complete(PROMPT, MOCK_OPENAI, transport=_mock([b"data: {not json\n\n"]))
    message = str(info.value)
    assert "not JSON" in message


def test_anthropic_non_streamed_answer_is_read() -> None:
    payload = {
        "type": "message",
        "model": "claude-3-haiku",
        "content": [{"type": "text", "text": "]}"}],
        "usage": {"input_tokens": 3, "output_tokens": 2},
    }
    transport = _mock([json.dumps(payload).encode()], JSON_HEADERS)
    result = complete(PROMPT, MOCK_ANTHROPIC, transport=transport)
    assert (result.text, result.input_tokens, result.output_tokens) == (PREFILL + "]}", 3, 2)


# --- Pure helpers ------------------------------------------------------------------------


def test_retry_after_in_seconds_milliseconds_and_http_dates() -> None:
    now = 1_800_000_000.0
    date = email.utils.formatdate(now + 30, usegmt=True)
    assert _failures.retry_after_seconds(httpx.Headers({"retry-after": "7"})) == 7
    assert _failures.retry_after_seconds(httpx.Headers({"retry-after": "1.5"})) == 1.5
    assert _failures.retry_after_seconds(httpx.Headers({"retry-after": date}), now=now) == 30
    past = email.utils.formatdate(now - 30, usegmt=True)
    assert _failures.retry_after_seconds(httpx.Headers({"retry-after": past}), now=now) == 0
    both = httpx.Headers({"retry-after": "2", "retry-after-ms": "1250"})
    assert _failures.retry_after_seconds(both) == 1.25
    for junk in ("soon", "-3", "nan", ""):
        assert _failures.retry_after_seconds(httpx.Headers({"retry-after": junk})) is None
    assert _failures.retry_after_seconds(httpx.Headers()) is None


def test_a_retry_after_date_is_measured_against_the_servers_date_header() -> None:
    # memcli reads no clock for this: the server's Date header is the reference, so a
    # skewed local clock cannot turn "in 30 s" into an hour or into nothing.
    sent = 1_800_000_000.0
    headers = httpx.Headers({"retry-after": email.utils.formatdate(sent + 30, usegmt=True),
                             "date": email.utils.formatdate(sent, usegmt=True)})
    assert _failures.retry_after_seconds(headers) == 30
    undated = httpx.Headers({"retry-after": email.utils.formatdate(sent + 30, usegmt=True)})
    assert _failures.retry_after_seconds(undated) is None


def test_a_provider_that_refuses_both_features_is_stepped_down_one_ladder_at_a_time(
    server: FakeServer,
) -> None:
    # temperature first (its ladder is checked first), then the format, then success.
    server.script(
        json_step(400, {"error": {"message": "Unsupported value: 'temperature'"}}),
        json_step(400, {"error": {"message": "response_format json_schema is not supported"}}),
        Step(body=openai_stream([ANSWER])),
    )
    result = complete(PROMPT, openai_settings(server))
    assert (result.json_mode, result.attempts) == ("json_object", 3)
    bodies = [request.json() for request in server.requests]
    assert ["temperature" in body for body in bodies] == [True, False, False]
    assert [body["response_format"]["type"] for body in bodies] == [
        "json_schema", "json_schema", "json_object"]


def test_every_registered_provider_has_a_wire_format_and_usable_defaults() -> None:
    from memcli.providers import _wire_format
    from memcli.settings.provider_registry import PROVIDERS

    for spec in PROVIDERS.values():
        assert _wire_format(spec).url(spec.default_base_url).startswith(spec.default_base_url)
        # A local server (Ollama) needs no key, and its default model is the first it lists.
        assert spec.local or (spec.default_model and spec.key_variables)


def test_backoff_honours_retry_after_and_the_budget() -> None:
    assert _retry.backoff_wait(1, retry_after=3.0, remaining=10.0) == 3.0
    assert _retry.backoff_wait(1, retry_after=30.0, remaining=10.0) is None
    assert _retry.backoff_wait(1, retry_after=None, remaining=0.0) is None
    # Exponential with jitter between half and all of each step, capped, and clipped to
    # what is left of the budget.
    assert _retry.backoff_wait(1, None, 60.0, rand=lambda: 0.0) == 0.25
    assert _retry.backoff_wait(1, None, 60.0, rand=lambda: 1.0) == 0.5
    assert _retry.backoff_wait(3, None, 60.0, rand=lambda: 1.0) == 2.0
    assert _retry.backoff_wait(20, None, 60.0, rand=lambda: 1.0) == _retry.BACKOFF_MAX
    assert _retry.backoff_wait(20, None, 1.5, rand=lambda: 1.0) == 1.5


def test_a_chunk_delay_shorter_than_the_timeout_is_fine(server: FakeServer) -> None:
    pieces = openai_stream(['{"operations"', ": []}"])
    server.script(Step(body=[pieces[0], Chunk(pieces[1], delay=0.2), *pieces[2:]]))
    assert complete(PROMPT, openai_settings(server, timeout=1.0)).text == '{"operations": []}'


def test_a_model_that_restarts_instead_of_continuing_the_prefill_is_not_doubled() -> None:
    assert with_prefill('{"action": "noop"}]}') == '{"operations": [{"action": "noop"}]}'
    assert with_prefill("]}") == '{"operations": []}'
    assert with_prefill(' {"operations": []}') == ' {"operations": []}'
    assert with_prefill('```json\n{"operations": []}\n```') == '```json\n{"operations": []}\n```'


def test_openai_limit_falls_back_to_max_tokens(server: FakeServer) -> None:
    # OpenAI's own name first; a compatible server that refuses it gets the older name (one
    # that refuses both is an error: no request goes without a limit).
    refusal = {"error": {"message": "Unrecognized request argument supplied: "
                                    "max_completion_tokens"}}
    server.script(json_step(400, refusal), Step(body=openai_stream([ANSWER])))
    result = complete(PROMPT, openai_settings(server))
    assert (result.text, result.attempts) == (ANSWER, 2)
    bodies = [request.json() for request in server.requests]
    assert bodies[0]["max_completion_tokens"] == 4096 and "max_tokens" not in bodies[0]
    assert bodies[1]["max_tokens"] == 4096 and "max_completion_tokens" not in bodies[1]
    assert all(body["response_format"]["type"] == "json_schema" for body in bodies)
