"""A model reply has a deadline and a size cap; every request has a maximum output length.

``timeout`` is the deadline of the whole exchange (retries, their waits and fallback
requests included). Each hostile server here is a real HTTP server on 127.0.0.1: one that
never stops streaming, one that sends a huge body, one that sends a good answer one byte
at a time, one that goes quiet half-way. Each must end at its deadline or cap (how soon is
benchmarks/deadlines.py's to measure; a test asserts no wall-clock limit) with one line on
stderr, exit status 4 (``ExitStatus.PROVIDER``) and nothing written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import stamina
from conftest import MemEnv
from fakeserver import Chunk, FakeServer, Step, anthropic_stream, json_step, openai_stream, sse

from memcli.errors import ExitStatus, ProviderError
from memcli.providers import Prompt, ProviderSettings, complete
from memcli.providers._http import MAX_REPLY_BYTES

PROMPT = Prompt(system="Reply with JSON operations.", user="user: remember that I use fish")
ANSWER = json.dumps({"operations": [{"action": "create", "level": "user",
                                     "type": "user_preference", "title": "Shell",
                                     "content": "The person uses fish."}]})
TURN = json.dumps({"role": "user", "content": "Remember that I use fish."}) + "\n"


@pytest.fixture(autouse=True)
def _no_waits() -> Iterator[None]:
    with stamina.set_testing(True, attempts=100, cap=True):
        yield


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as fake:
        yield fake


def settings(server: FakeServer, provider: str = "openai", **overrides: Any) -> ProviderSettings:
    values: dict[str, Any] = {
        "provider": provider,
        "model": "test-model" if provider == "openai" else "claude-3-5-haiku-latest",
        "base_url": server.url + ("/v1" if provider == "openai" else ""),
        "api_key": "sk-test-not-a-key",
        "timeout": 1.0,
    }
    values.update(overrides)
    return ProviderSettings(**values)


def fails_with(settings: ProviderSettings, match: str) -> str:
    """The one-line error ``complete`` ends with. How long that took is not asserted (a busy
    machine runs anything several times slower): benchmarks/deadlines.py measures each
    hostile server's time against its deadline. What is asserted is that the deadline or
    the cap is what ended the exchange: each server here would otherwise answer, much later,
    and the call would succeed, or fail with another message."""
    with pytest.raises(ProviderError, match=match) as info:
        complete(PROMPT, settings)
    message = str(info.value)
    assert "\n" not in message
    return message


def endless_deltas() -> list[Chunk]:
    """A model that never stops: a text delta every 20 ms, for longer than any test runs."""
    event = sse({"choices": [{"index": 0, "delta": {"content": "la "}}]})
    return [Chunk(event, delay=0.02) for _ in range(20_000)]


def huge_body() -> list[bytes]:
    """Well-formed events, fast, past the size cap."""
    event = sse({"choices": [{"index": 0, "delta": {"content": "x" * 60_000}}]})
    return [event] * (MAX_REPLY_BYTES // len(event) + 8)


def byte_by_byte(data: bytes, delay: float) -> list[Chunk]:
    return [Chunk(data[i:i + 1], delay=delay) for i in range(len(data))]


# --- the deadline, in process --------------------------------------------------------------


def test_a_server_that_keeps_streaming_ends_at_the_deadline(server: FakeServer) -> None:
    server.script(Step(body=endless_deltas()))
    message = fails_with(settings(server), r"within the 1 s timeout \(1 attempt\)")
    assert "--timeout" in message
    assert len(server.requests) == 1  # the deadline is not a reason to ask again


def test_an_answer_sent_byte_by_byte_ends_at_the_deadline(server: FakeServer) -> None:
    # A good answer, but at 50 bytes a second it would take about a minute.
    server.script(Step(body=byte_by_byte(b"".join(openai_stream([ANSWER])), 0.02)))
    fails_with(settings(server), "within the 1 s timeout")


def test_a_server_silent_before_the_status_line_ends_at_the_deadline(server: FakeServer) -> None:
    server.script(Step(delay=30, body=openai_stream([ANSWER])))
    fails_with(settings(server), "could not hear from the server in time")
    assert len(server.requests) == 1


def test_a_server_that_goes_quiet_half_way_is_cut_at_the_deadline(server: FakeServer) -> None:
    # Bytes until 1.5 s into a 2 s deadline, then silence: a read timeout alone would wait
    # another 2 s after the last byte; the deadline ends it at 2 s.
    head = [Chunk(piece, delay=0.1) for piece in openai_stream(["{"] * 14)[:15]]
    server.script(Step(body=head, stall=30))
    fails_with(settings(server, timeout=2.0), "within the 2 s timeout")
    assert len(server.requests) == 1


def test_retries_and_their_waits_stay_inside_the_deadline(server: FakeServer) -> None:
    # Each 503 takes 0.4 s to arrive: the third attempt gets what is left of the second
    # and the fourth, which max_attempts would allow and which would succeed, is never sent.
    busy = json_step(503, {"error": {"message": "busy"}})
    busy.delay = 0.4
    server.script(busy, busy, busy, Step(body=openai_stream([ANSWER])))
    fails_with(settings(server), "within the 1 s timeout")
    assert 2 <= len(server.requests) <= 3


def test_a_retry_after_past_the_deadline_gives_up_at_once(server: FakeServer) -> None:
    server.script(json_step(429, {"error": {"message": "slow down"}}, {"Retry-After": "5"}))
    message = fails_with(settings(server, timeout=2.0), "gave up after 1 attempt ")
    assert "asked to wait 5 s" in message and "before the 2 s timeout" in message


def test_fallback_requests_count_against_the_deadline(server: FakeServer) -> None:
    refused = json_step(400, {"error": {"message": "response_format json_schema unsupported"}})
    refused.delay = 0.6
    server.script(refused, refused, Step(body=openai_stream([ANSWER])))
    fails_with(settings(server), r"within the 1 s timeout \(2 attempts\)")
    assert len(server.requests) == 2


def test_anthropic_is_held_to_the_same_deadline(server: FakeServer) -> None:
    head = anthropic_stream(["]}"])[:3]
    ping = sse({"type": "ping"}, "ping")
    server.script(Step(body=[*head, *[Chunk(ping, delay=0.02) for _ in range(20_000)]]))
    fails_with(settings(server, "anthropic"), "within the 1 s timeout")


# --- the size cap, in process --------------------------------------------------------------


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_huge_stream_is_cut_at_the_cap(server: FakeServer, provider: str) -> None:
    server.script(Step(body=huge_body()))
    message = fails_with(settings(server, provider, timeout=30.0), "more than 4 MiB in one reply")
    assert "stopped reading" in message


def test_a_huge_body_in_one_piece_is_cut_at_the_cap(server: FakeServer) -> None:
    # A server that ignores "stream": true and answers with one endless JSON document.
    piece = b'{"choices": [{"message": {"content": "' + b"y" * 65_000
    body = [piece] + [b"y" * 65_000] * (MAX_REPLY_BYTES // 65_000 + 4)
    server.script(Step(headers={"Content-Type": "application/json"}, body=body))
    fails_with(settings(server, timeout=30.0), "more than 4 MiB in one reply")


def test_one_endless_line_is_cut_at_the_cap(server: FakeServer) -> None:
    # No newline ever: the event parser must not buffer it without end.
    body = [b"data: "] + [b"z" * 65_000] * (MAX_REPLY_BYTES // 65_000 + 4)
    server.script(Step(body=body))
    fails_with(settings(server, timeout=30.0), "more than 4 MiB in one reply")


def test_an_answer_under_the_cap_is_read_whole(server: FakeServer) -> None:
    text = "w" * (MAX_REPLY_BYTES // 8)
    server.script(Step(body=openai_stream([text[i:i + 60_000]
                                           for i in range(0, len(text), 60_000)])))
    assert complete(PROMPT, settings(server, timeout=30.0)).text == text


# --- a maximum output length in every request ----------------------------------------------


def test_every_openai_fallback_still_sends_an_output_limit(server: FakeServer) -> None:
    server.script(
        json_step(400, {"error": {"message": "Unsupported value: 'temperature'"}}),
        json_step(400, {"error": {"message": "max_completion_tokens is not supported"}}),
        json_step(400, {"error": {"message": "response_format json_schema is not supported"}}),
        json_step(400, {"error": {"message": "response_format json_object is not supported"}}),
        Step(body=openai_stream([ANSWER])),
    )
    result = complete(PROMPT, settings(server, timeout=10.0))
    assert (result.json_mode, result.attempts) == ("none", 5)
    for request in server.requests:
        body = request.json()
        assert 0 < (body.get("max_completion_tokens") or body["max_tokens"]) <= 4096


def test_a_server_that_refuses_every_limit_is_an_error_not_an_unlimited_request(
    server: FakeServer,
) -> None:
    server.script(
        json_step(400, {"error": {"message": "Unrecognized argument: max_completion_tokens"}}),
        json_step(400, {"error": {"message": "Unrecognized argument: max_tokens"}}),
    )
    fails_with(settings(server, timeout=10.0), r"rejected the request \(HTTP 400\)")
    assert len(server.requests) == 2


def test_every_anthropic_fallback_still_sends_an_output_limit(server: FakeServer) -> None:
    refusal = {"type": "error", "error": {"type": "invalid_request_error", "message":
               "This model does not support assistant message prefill."}}
    server.script(
        json_step(400, {"type": "error", "error": {"type": "invalid_request_error",
                                                   "message": "temperature: unsupported"}}),
        json_step(400, refusal),
        Step(body=anthropic_stream([ANSWER])),
    )
    result = complete(PROMPT, settings(server, "anthropic", timeout=10.0))
    assert result.attempts == 3
    assert all(0 < r.json()["max_tokens"] <= 4096 for r in server.requests)


# --- the command line: exit status, one line, nothing written ------------------------------


def _extract(memenv: MemEnv, server: FakeServer, provider: str, timeout: str) -> str:
    env = {"MEMCLI_PROVIDER": provider, "MEMCLI_API_KEY": "sk-test-not-a-key",
           "MEMCLI_BASE_URL": server.url + ("/v1" if provider == "openai" else ""),
           "MEMCLI_MODEL": "test-model" if provider == "openai" else "claude-sonnet-4-6"}
    before = memenv.stores_snapshot()
    proc = memenv.run("extract", "--apply", "--timeout", timeout, input=TURN, env=env,
                      timeout=60)
    assert memenv.stores_snapshot() == before
    assert proc.returncode == ExitStatus.PROVIDER, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("memcli: error: "), proc.stderr
    return lines[0]


def test_cli_timeout_bounds_a_server_that_keeps_streaming(
    memenv: MemEnv, server: FakeServer
) -> None:
    server.script(Step(body=endless_deltas()))
    # The stream would run for 400 s and end in a good answer: the error is the deadline's
    # (benchmarks/deadlines.py times the command against its --timeout).
    line = _extract(memenv, server, "openai", "2")
    assert "within the 2 s timeout" in line
    assert len(server.requests) == 1


def test_cli_stops_reading_a_huge_reply(memenv: MemEnv, server: FakeServer) -> None:
    server.script(Step(body=huge_body()))
    line = _extract(memenv, server, "anthropic", "30")
    assert "more than 4 MiB" in line


def test_cli_timeout_bounds_an_answer_sent_byte_by_byte(
    memenv: MemEnv, server: FakeServer
) -> None:
    server.script(Step(body=byte_by_byte(b"".join(anthropic_stream([ANSWER])), 0.02)))
    line = _extract(memenv, server, "anthropic", "2")
    assert "within the 2 s timeout" in line


# --- an answer that the output limit cut off -----------------------------------------------


def _cut(events: list[bytes], reason: bytes, to: bytes) -> list[bytes]:
    return [event.replace(reason, to) for event in events]


def test_a_completion_says_when_the_output_limit_ended_it(server: FakeServer) -> None:
    server.script(
        Step(body=_cut(openai_stream(['{"operations": [']), b'"stop"', b'"length"')),
        Step(body=_cut(anthropic_stream(['{"operations": [']), b'"end_turn"', b'"max_tokens"')),
        Step(body=anthropic_stream([ANSWER])),
    )
    assert complete(PROMPT, settings(server, timeout=10.0)).cut_off is True
    assert complete(PROMPT, settings(server, "anthropic", timeout=10.0)).cut_off is True
    assert complete(PROMPT, settings(server, "anthropic", timeout=10.0)).cut_off is False


def test_extract_names_the_output_limit_when_a_cut_answer_does_not_parse(
    memenv: MemEnv, server: FakeServer
) -> None:
    broken = '{"operations": [{"action": "create", "level": "user", "title": "Sh'
    server.script(Step(body=_cut(anthropic_stream([broken]), b'"end_turn"', b'"max_tokens"')))
    env = {"MEMCLI_PROVIDER": "anthropic", "MEMCLI_API_KEY": "sk-test-not-a-key",
           "MEMCLI_BASE_URL": server.url, "MEMCLI_MODEL": "claude-sonnet-4-6"}
    before = memenv.stores_snapshot()
    result = memenv.invoke("extract", "--apply", input=TURN, env=env)
    assert result.exit_code == ExitStatus.PROVIDER
    assert "stopped at the 4,096-token output limit" in result.stderr
    assert result.stderr.count("\n") == 1
    assert memenv.stores_snapshot() == before
