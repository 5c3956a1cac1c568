"""MCP and memory-tool writes are unattended writes (issue 25, item 5).

A prompt-injected model holding the MCP ``apply`` tool must not wipe the stores, its
writes name their source in the history, and no run of later writes can push the record
of a destructive change out of the history within its retention window, while the history
stays within its byte bound.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from conftest import MemEnv
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import Implementation

from memcli.writes.history import MAX_BYTES


def mcp_calls(memenv: MemEnv, calls: Callable[[ClientSession], Awaitable[Any]],
              env: dict[str, str] | None = None, in_memory: bool = False) -> Any:
    """``calls`` in one session of the official SDK client over stdio, as client "wiper"
    (a client holds one session for all its calls); with IN_MEMORY, to the server in this
    process (tests/test_mcp.py, ``drive_in_memory``)."""
    if in_memory:
        from tests.test_mcp import drive_in_memory

        return drive_in_memory(memenv, calls, client="wiper", env=env)
    params = StdioServerParameters(command=sys.executable, args=["-m", "memcli", "mcp"],
                                   env={**os.environ, **memenv.env, **(env or {})},
                                   cwd=str(memenv.repo))

    async def run() -> Any:
        async with stdio_client(params) as (read, write), ClientSession(
                read, write, client_info=Implementation(name="wiper", version="1")) as session:
            await session.initialize()
            return await calls(session)

    return anyio.run(run)


def tool_call(tool: str, operations: list[dict[str, Any]]
              ) -> Callable[[ClientSession], Awaitable[Any]]:
    async def call(session: ClientSession) -> Any:
        return await session.call_tool(tool, {"operations": json.dumps(operations)})

    return call


def mcp_apply(memenv: MemEnv, operations: list[dict[str, Any]],
              env: dict[str, str] | None = None, tool: str = "apply",
              in_memory: bool = False) -> Any:
    """One `apply` (or ``tool``) call in a session of its own."""
    return mcp_calls(memenv, tool_call(tool, operations), env, in_memory)


def add_notes(memenv: MemEnv, count: int) -> list[str]:
    for n in range(count):
        level = "project" if n % 2 else "user"
        done = memenv.invoke("add", f"Fact number {n}: the deploy target {n} is staging-{n} "
                             "and it is rebuilt every night from the main branch.",
                             "--title", f"Fact {n}", "--level", level)
        assert done.exit_code == 0, done.output
    return sorted(memenv.notes("project") + memenv.notes("user"))


def contents(memenv: MemEnv) -> dict[str, str]:
    return {f"{lv}/{n}": (memenv.store(lv) / n).read_text("utf-8")
            for lv in ("project", "user") for n in memenv.notes(lv)}


def wipe(memenv: MemEnv) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    for level in ("project", "user"):
        for name in memenv.notes(level):
            action = "delete" if len(ops) % 2 else "update"
            ops.append({"action": action, "level": level, "filename": name, "content": "."}
                       if action == "update" else
                       {"action": "delete", "level": level, "filename": name})
    return ops


def test_an_mcp_wipe_is_refused_and_the_client_is_named_in_the_history(
        memenv: MemEnv) -> None:
    add_notes(memenv, 8)
    before = contents(memenv)
    user_note = memenv.notes("user")[0]
    # An ordinary write, which goes through, recorded as the client's and listed by restore.
    update = [{"action": "update", "level": "user", "filename": user_note,
               "content": before[f"user/{user_note}"].split("---\n", 2)[2]
               + "\nAlso rebuilt on every release tag."}]

    async def calls(session: ClientSession) -> tuple[Any, Any, Any, dict[str, str]]:
        proposed = await tool_call("propose", wipe(memenv))(session)
        wiped = await tool_call("apply", wipe(memenv))(session)
        after_the_wipe = contents(memenv)
        return proposed, wiped, await tool_call("apply", update)(session), after_the_wipe

    proposal, result, updated, after_the_wipe = mcp_calls(memenv, calls)
    # propose shows the wipe as apply would treat it: every operation refused.
    proposed = json.dumps([c.model_dump() for c in proposal.content])
    assert proposed.count("rejected") >= 1 and "-Fact number" not in proposed, proposed
    assert after_the_wipe == before, result.content
    text = json.dumps([c.model_dump() for c in result.content])
    assert "needs MEMCLI_TRUST_WRITES=mcp" in text and "--allow-delete" not in text
    assert not updated.is_error
    logged = json.loads(memenv.invoke("log", "--json").output)["transactions"]
    assert logged[0]["source"]["via"] == "mcp:wiper"
    assert all(t["source"]["via"] == "cli" for t in logged[1:])
    listed = memenv.invoke("restore", "--list")
    assert "via mcp:wiper" in listed.output, listed.output


def test_a_person_can_trust_mcp_clients_with_deletes(memenv: MemEnv) -> None:
    add_notes(memenv, 2)
    ops = [{"action": "delete", "level": "user", "filename": memenv.notes("user")[0]}]
    # In memory: the refusal above is the process's (nothing trusted unless the person says).
    assert not mcp_apply(memenv, ops, env={"MEMCLI_TRUST_WRITES": "mcp"},
                         in_memory=True).is_error
    assert memenv.notes("user") == []


@pytest.mark.slow  # a campaign: 24 applies of 3 MiB each, 72 MiB of history written
def test_large_writes_cannot_push_a_delete_record_out_and_the_bound_holds(
        memenv: MemEnv) -> None:
    add_notes(memenv, 2)
    victim = memenv.notes("user")[0]
    deleted = memenv.invoke("rm", f"user/{victim}")
    assert deleted.exit_code == 0, deleted.output
    # 24 applies of 3 MiB of notes each: 72 MiB of records against a 64 MiB bound.
    big = "word " * 3800
    for n in range(24):
        ops = [{"action": "create", "level": "user", "type": "reference",
                "title": f"Big {n} {m}", "summary": f"big note {n} {m}", "content": big}
               for m in range(3 * 1024 * 1024 // len(big))]
        done = memenv.apply(ops)
        assert done.exit_code == 0, done.output
    history = memenv.user / ".memcli-history"
    assert sum(p.stat().st_size for p in history.glob("*.json")) <= MAX_BYTES
    logged = json.loads(memenv.invoke("log", "--json", "--limit", "1000").output)
    removal = [t["id"] for t in logged["transactions"] if t["command"] == "rm"]
    assert len(removal) == 1, [t["command"] for t in logged["transactions"]]
    restored = memenv.invoke("undo", removal[0])
    assert restored.exit_code == 0, restored.output
    assert victim in memenv.notes("user")
