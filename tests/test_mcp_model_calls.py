"""The MCP server as a model calls it (issue 34, item 1), through the official SDK client
(over stdio for the server's stderr, in memory for what the tools answer): operations
documents as JSON itself, a call that wrote nothing is a failed call, errors in the tools'
own words without pydantic's report, and a quiet stderr."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
from conftest import MemEnv
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import Implementation

OP = {"action": "create", "level": "project", "type": "project_knowledge",
      "title": "Test command", "content": "Run `make check` before every commit."}
OTHER = {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Lint command", "content": "Run `make lint` before every push."}


def calls(memenv: MemEnv, steps: list[tuple[str, dict[str, Any]]],
          stderr: Path) -> list[Any]:
    """Each (tool, arguments) called in one session as client "claude-ai"; the server's
    stderr goes to STDERR."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "memcli", "mcp"],
                                   env={**os.environ, **memenv.env}, cwd=str(memenv.repo))

    async def run() -> list[Any]:
        with stderr.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(
                    read, write, client_info=Implementation(name="claude-ai", version="1")
            ) as session:
                await session.initialize()
                return [await session.call_tool(tool, args) for tool, args in steps]

    return anyio.run(run)


def calls_in_memory(memenv: MemEnv, steps: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """``calls`` to the server in this process (tests/test_mcp.py, ``drive_in_memory``),
    for the tests of what the tools answer; the server's stderr is the process's test."""
    from tests.test_mcp import drive_in_memory

    async def run(session: ClientSession) -> list[Any]:
        return [await session.call_tool(tool, args) for tool, args in steps]

    return list(drive_in_memory(memenv, run, client="claude-ai"))


def text(result: Any) -> str:
    return str(result.content[0].text)


def data(result: Any) -> Any:
    assert not result.is_error, text(result)
    content = result.structured_content
    return content.get("result", content) if isinstance(content, dict) else json.loads(
        text(result))


def test_operations_may_be_an_array_an_object_or_json_text(memenv: MemEnv) -> None:
    proposed, applied, other, again = calls_in_memory(memenv, [
        ("propose", {"operations": [OP]}),
        ("apply", {"operations": {"operations": [OP]}}),
        ("apply", {"operations": json.dumps([OTHER])}),
        ("apply", {"operations": [OP, OTHER]}),  # the same step again
    ])
    assert "+Run `make check` before every commit." in data(proposed)["diff"]
    assert data(applied)["written"] is True and data(other)["written"] is True
    assert memenv.notes("project") == ["project_knowledge_lint-command.md",
                                       "project_knowledge_test-command.md"]
    repeated = data(again)
    assert repeated["written"] is False and len(repeated["unchanged"]) == 2
    logged = json.loads(memenv.invoke("log", "--json").stdout)["transactions"]
    assert [t["source"]["via"] for t in logged] == ["mcp:claude-ai", "mcp:claude-ai"]


def test_a_call_whose_every_operation_is_rejected_fails_in_the_tools_words(
        memenv: MemEnv) -> None:
    assert memenv.apply([OP]).exit_code == 0
    changed = dict(OP, content="Run tox.")
    rejected, partial, proposed = calls_in_memory(memenv, [
        ("apply", {"operations": [changed]}),
        ("apply", {"operations": [changed, OTHER]}),
        ("propose", {"operations": [changed]}),
    ])
    assert rejected.is_error
    assert text(rejected).startswith("apply: nothing written: #1 create rejected: duplicate: "
                                     "project_knowledge_test-command.md already exists")
    assert "on_conflict update or rename" in text(rejected)
    assert "--" not in text(rejected)
    # Some written: a success that lists what was refused, in the same words.
    done = data(partial)
    assert done["written"] is True and [r["position"] for r in done["rejected"]] == [1]
    assert "on_conflict update or rename" in done["rejected"][0]["message"]
    # propose shows the refusal; it writes nothing either way.
    assert data(proposed)["rejected"][0]["position"] == 1
    assert "Run tox." not in (memenv.project / "project_knowledge_test-command.md").read_text()


def test_bad_arguments_are_one_line_without_pydantic_and_stderr_stays_quiet(
        memenv: MemEnv, tmp_path: Path) -> None:
    stderr = tmp_path / "stderr"
    results = calls(memenv, [
        ("search", {"query": "make", "limit": 0}),
        ("log", {"limit": -3}),
        ("apply", {"operations": [OP], "on_conflict": "overwrite"}),
        ("apply", {"operations": 5}),
        ("search", {"query": "make", "level": "team"}),
        ("apply", {"operations": [dict(OP, level="team")]}),
    ], stderr)
    said = [text(r) for r in results]
    assert all(r.is_error for r in results), said
    assert said[0] == "search: limit should be greater than or equal to 1 (got 0)"
    assert said[1] == "log: limit should be greater than or equal to 1 (got -3)"
    assert said[2] == ("apply: on_conflict should be 'fail', 'update' or 'rename' "
                       "(got 'overwrite')")
    assert said[3].startswith("apply: operations should be ") and said[3].endswith("(got 5)")
    assert said[4].startswith("search: level should be 'project', 'user' or 'all'")
    assert said[5].startswith("apply: nothing written: #1 create rejected: ")
    for line in said:
        assert "\n" not in line and "pydantic" not in line and "https://" not in line, line
        assert "--on-conflict" not in line and "Error executing tool" not in line, line
    assert memenv.notes("project") == []
    # Six refused calls: nothing on the client's stderr (no INFO boxes per call).
    assert stderr.read_text("utf-8") == ""
