"""An Anthropic model that ignores the prefill and starts over in prose with a bare array
still has its operations read (faked at the HTTP boundary by a real local server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_memcli
from fakeserver import FakeServer, Step, anthropic_stream

TURN = json.dumps({"role": "user", "content": "Remember that the test command is make test."})
OP = {"action": "create", "level": "project", "type": "project_knowledge",
      "title": "Test command", "content": "Run `make test` before pushing."}


@pytest.fixture
def anthropic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(tmp_path)
    for name, value in {"MEMCLI_HOME": str(tmp_path / "home"),
                        "MEMCLI_PROJECT_STORE": str(tmp_path / "project"),
                        "MEMCLI_PROVIDER": "anthropic", "MEMCLI_MODEL": "claude-3-5-haiku-latest",
                        "MEMCLI_API_KEY": "sk-test-key-not-secret", "NO_COLOR": "1"}.items():
        monkeypatch.setenv(name, value)
    with FakeServer() as server:
        monkeypatch.setenv("MEMCLI_BASE_URL", server.url)
        yield server


def _extract() -> Any:
    return invoke_memcli("extract", "--json", input=TURN + "\n")


def test_a_reply_that_restarts_in_prose_is_read_on_its_own(anthropic: FakeServer) -> None:
    answer = "Sure! Here is what to keep:\n\n" + json.dumps([OP]) + "\n\nLet me know."
    anthropic.script(Step(body=anthropic_stream([answer[:25], answer[25:]])))
    result = _extract()
    assert result.exit_code == 0, result.output
    assert json.loads(anthropic.requests[0].body)["messages"][-1]["role"] == "assistant"
    [op] = json.loads(result.stdout)["operations"]
    assert op["title"] == "Test command"


def test_a_continuation_of_the_prefill_is_still_read_whole(anthropic: FakeServer) -> None:
    anthropic.script(Step(body=anthropic_stream([json.dumps(OP) + "]}"])))
    result = _extract()
    assert result.exit_code == 0, result.output
    assert [o["title"] for o in json.loads(result.stdout)["operations"]] == ["Test command"]


def test_an_answer_broken_both_ways_reports_the_whole_answer(anthropic: FakeServer) -> None:
    anthropic.script(Step(body=anthropic_stream(['{"action": "create", "title": '])))
    result = _extract()
    assert result.exit_code != 0
    assert "memcli: error:" in result.output
