"""Anthropic structured outputs first, the prefill only as a fallback.

The fake server on 127.0.0.1 plays the Messages API as its documentation describes it: it
checks each request's headers and body, accepts ``output_config.format`` (a JSON schema
whose objects all say ``additionalProperties: false``) for the models that have structured
outputs, and answers any other use of it with an HTTP 400 naming the parameter, as it
answers a prefill sent to a model without one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import stamina
from conftest import MemEnv
from fakeserver import FakeServer, Request, Step, anthropic_stream, json_step

from memcli.providers import OPERATIONS_SCHEMA, Prompt, ProviderSettings, complete
from memcli.providers.anthropic import PREFILL, closed, formats

PROMPT = Prompt(system="Reply with JSON operations.", user="user: remember that I use fish")
OPERATION = {"action": "create", "level": "user", "type": "user_preference",
             "title": "Shell", "content": "The person uses fish."}
ANSWER = json.dumps({"operations": [OPERATION]})
STRUCTURED = {"claude-haiku-4-5", "claude-sonnet-4-5-20250929", "claude-opus-4-5",
              "claude-sonnet-4-6", "claude-opus-4-7"}
NO_PREFILL = {"claude-sonnet-4-6", "claude-opus-4-7"}


def _error(message: str) -> Step:
    return json_step(400, {"type": "error",
                           "error": {"type": "invalid_request_error", "message": message}})


def _objects_closed(schema: Any) -> bool:
    if isinstance(schema, dict):
        if schema.get("type") == "object" and schema.get("additionalProperties") is not False:
            return False
        return all(_objects_closed(value) for value in schema.values())
    if isinstance(schema, list):
        return all(_objects_closed(value) for value in schema)
    return True


def messages_api(request: Request) -> Step:
    """What the Messages API answers, as its documentation says, for the models above."""
    headers, body = request.headers, request.json()
    assert request.path == "/v1/messages"
    assert headers["anthropic-version"] == "2023-06-01" and headers["x-api-key"]
    assert "anthropic-beta" not in headers  # the generally available form needs no beta
    assert 0 < body["max_tokens"] <= 4096 and body["stream"] is True
    model, config = body["model"], body.get("output_config")
    prefilled = body["messages"][-1]["role"] == "assistant"
    if config is not None:
        if model not in STRUCTURED:
            return _error(f"output_config.format: structured outputs are not supported by {model}")
        if prefilled:
            return _error("output_config.format cannot be used with a prefilled assistant turn")
        fmt = config["format"]
        if fmt["type"] != "json_schema" or not _objects_closed(fmt["schema"]):
            return _error("output_config.format.schema: additionalProperties must be false")
        return Step(body=anthropic_stream([ANSWER[:30], ANSWER[30:]], model=model))
    if prefilled:
        if model in NO_PREFILL:
            return _error("This model does not support assistant message prefill. The "
                          "conversation must end with a user message.")
        continuation = ANSWER[len(PREFILL):]
        return Step(body=anthropic_stream([continuation], model=model))
    return Step(body=anthropic_stream(["Here you are:\n" + ANSWER], model=model))


@pytest.fixture(autouse=True)
def _no_waits() -> Iterator[None]:
    with stamina.set_testing(True, attempts=100, cap=True):
        yield


@pytest.fixture
def api() -> Iterator[FakeServer]:
    with FakeServer() as server:
        server.respond(messages_api)
        yield server


def settings(server: FakeServer, model: str) -> ProviderSettings:
    return ProviderSettings("anthropic", model, server.url, "sk-ant-test-not-a-key", timeout=10)


@pytest.mark.parametrize("model", sorted(STRUCTURED))
def test_a_model_with_structured_outputs_gets_the_schema_and_no_prefill(
    api: FakeServer, model: str
) -> None:
    result = complete(PROMPT, settings(api, model))
    assert (result.text, result.json_mode, result.attempts) == (ANSWER, "json_schema", 1)
    [request] = api.requests
    body = request.json()
    assert [m["role"] for m in body["messages"]] == ["user"]
    assert body["output_config"] == {
        "format": {"type": "json_schema", "schema": closed(OPERATIONS_SCHEMA)}}
    assert "output_format" not in body  # the beta's name, replaced by output_config.format


def test_the_schema_sent_declares_every_key_and_closes_every_object() -> None:
    schema = closed(OPERATIONS_SCHEMA)
    assert _objects_closed(schema)
    item = schema["properties"]["operations"]["items"]
    assert set(item["properties"]) == {"action", "level", "type", "title", "summary", "slug",
                                       "filename", "content", "reason"}
    assert OPERATIONS_SCHEMA.get("additionalProperties") is None  # the original is untouched


def test_an_older_model_gets_the_prefill_and_never_the_schema(api: FakeServer) -> None:
    result = complete(PROMPT, settings(api, "claude-3-5-haiku-latest"))
    assert (result.text, result.json_mode, result.attempts) == (ANSWER, "prefill", 1)
    body = api.requests[0].json()
    assert "output_config" not in body
    assert body["messages"][-1] == {"role": "assistant", "content": PREFILL}


@pytest.mark.parametrize("model", ["claude-opus-4-1", "claude-sonnet-4-20250514",
                                   "claude-3-haiku-20240307", "claude-3.7-sonnet"])
def test_models_before_4_5_start_on_the_prefill(model: str) -> None:
    assert formats(model) == ("prefill", "none")


def test_a_server_that_refuses_the_schema_gets_the_prefill_next(api: FakeServer) -> None:
    # A name memcli cannot judge (a proxy's alias) is tried with structured outputs first.
    result = complete(PROMPT, settings(api, "my-proxy-claude"))
    assert (result.text, result.json_mode, result.attempts) == (ANSWER, "prefill", 2)
    first, second = (request.json() for request in api.requests)
    assert "output_config" in first and first["messages"][-1]["role"] == "user"
    assert "output_config" not in second and second["messages"][-1]["role"] == "assistant"


def test_a_refusal_of_both_ends_on_a_plain_request(api: FakeServer) -> None:
    # Structured outputs refused first, then the prefill: the plain answer is still read.
    api.script(_error("output_config: Extra inputs are not permitted"),
               _error("This model does not support assistant message prefill."))
    result = complete(PROMPT, settings(api, "my-proxy-claude"))
    assert (result.json_mode, result.attempts) == ("none", 3)
    last = api.requests[-1].json()
    assert "output_config" not in last and [m["role"] for m in last["messages"]] == ["user"]


def test_a_400_about_something_else_is_not_a_reason_to_drop_the_schema(api: FakeServer) -> None:
    api.script(_error("messages: text content blocks must be non-empty"))
    with pytest.raises(Exception, match="rejected the request"):
        complete(PROMPT, settings(api, "claude-haiku-4-5"))
    assert len(api.requests) == 1


def test_consolidation_answers_may_carry_their_kind() -> None:
    from memcli.providers import operations_schema

    item = closed(operations_schema("kind"))["properties"]["operations"]["items"]
    assert item["properties"]["kind"] == {"type": "string"}
    assert item["additionalProperties"] is False


def test_extract_with_the_default_anthropic_model_uses_structured_outputs(
    memenv: MemEnv, api: FakeServer
) -> None:
    env = {"MEMCLI_PROVIDER": "anthropic", "MEMCLI_API_KEY": "sk-ant-test-not-a-key",
           "MEMCLI_BASE_URL": api.url}
    turn = json.dumps({"role": "user", "content": "Remember that I use fish."}) + "\n"
    result = memenv.invoke("extract", "--json", input=turn, env=env)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [op["title"] for op in document["operations"]] == ["Shell"]
    assert document["extractor"]["json_mode"] == "json_schema"
    assert "output_config" in api.requests[0].json()


def test_a_refused_temperature_does_not_cost_the_schema(api: FakeServer) -> None:
    # The refusal names temperature (and, as validation errors do, the word "schema"): the
    # temperature goes, structured outputs stay.
    api.script(_error("temperature: Input should be less than or equal to 1 (see the schema)"))
    result = complete(PROMPT, settings(api, "claude-haiku-4-5"))
    assert (result.json_mode, result.attempts) == ("json_schema", 2)
    first, second = (request.json() for request in api.requests)
    assert "temperature" in first and "temperature" not in second
    assert "output_config" in second
