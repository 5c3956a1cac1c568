"""`memcli mcp` end to end: a subprocess driven by the MCP SDK's own client over stdio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio
from conftest import MemEnv

# Part of .[test] (CI installs it): a missing SDK fails here rather than skipping.
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import Implementation

OPS = [{"action": "create", "level": "project", "type": "project_knowledge",
        "title": "Test command", "summary": "make check runs the tests",
        "content": "Run `make check` before every commit."}]


def drive(memenv: MemEnv, body: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    params = StdioServerParameters(command=sys.executable, args=["-m", "memcli", "mcp"],
                                   env={**os.environ, **memenv.env}, cwd=str(memenv.repo))

    async def run() -> Any:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await body(session)

    return anyio.run(run)


def drive_in_memory(memenv: MemEnv, body: Callable[[ClientSession], Awaitable[Any]], *,
                    client: str = "mcp", env: Mapping[str, str] | None = None) -> Any:
    """``drive`` without the process, for tests of what the tools answer: the server
    `memcli mcp` builds (on the settings it resolves in memenv's folder for an unattended
    run, writes trusted as MEMCLI_TRUST_WRITES says), served in this process over the SDK's
    in-memory streams, with the handshake and JSON-RPC messages of stdio. Starting the SDK
    and pydantic in a process costs about 1 s of CPU; ``drive`` starts the process."""
    from mcp.client import Client

    from memcli.cli._process_state import (
        home_folder,
        person_zone,
        system_clock,
        trusted_writes,
        working_folder,
    )
    from memcli.mcp.server import build_server
    from memcli.settings.resolve import Flags, resolve

    saved = {name: os.environ.get(name) for name in env or {}}
    os.environ.update(env or {})
    try:
        settings = resolve(Flags(), os.environ, working_folder(), home=home_folder(),
                           clock=system_clock, zone=person_zone()).for_unattended()
        server = build_server(settings, trusted=trusted_writes("mcp"))

        async def run() -> Any:
            async with Client(server, mode="legacy", cache=None, client_info=Implementation(
                    name=client, version="1")) as connected:
                return await body(connected.session)

        return anyio.run(run)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def payload(result: Any) -> Any:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        content = result.structured_content
        return content.get("result", content) if isinstance(content, dict) else content
    return json.loads(result.content[0].text)


def test_tools_search_propose_apply_show_and_resources(memenv: MemEnv) -> None:
    added = memenv.run("add", "Always use pnpm, never npm.", "--title", "Package manager",
                       "--level", "user")
    assert added.returncode == 0, added.stderr

    async def session_work(session: ClientSession) -> dict[str, Any]:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        found = payload(await session.call_tool("search", {"query": "pnpm"}))
        proposed = payload(await session.call_tool("propose", {"operations": json.dumps(OPS)}))
        untouched = memenv.notes("project")
        applied = payload(await session.call_tool("apply", {"operations": json.dumps(OPS)}))
        shown = payload(await session.call_tool("show", {"name": "Test command"}))
        context = await session.call_tool("context", {})
        resources = {str(r.uri) for r in (await session.list_resources()).resources}
        index = await session.read_resource("memcli://project/MEMORY.md")
        bad = await session.call_tool("apply", {"operations": "not json at all"})
        history = payload(await session.call_tool("log", {"note": "Test command"}))
        return {"tools": tools, "found": found, "proposed": proposed, "untouched": untouched,
                "applied": applied, "shown": shown, "context": context,
                "resources": resources, "index": index, "bad": bad, "history": history}

    got = drive(memenv, session_work)
    tools = got["tools"]
    assert set(tools) == {"search", "show", "context", "propose", "apply", "log"}
    assert tools["log"].annotations.read_only_hint is True
    assert tools["apply"].annotations.destructive_hint is True
    assert tools["search"].annotations.read_only_hint is True
    assert set(tools["search"].input_schema["properties"]) == {"query", "level", "limit"}

    assert [h["title"] for h in got["found"]] == ["Package manager"]
    assert got["found"][0]["level"] == "user"
    assert got["untouched"] == []
    assert "+Run `make check` before every commit." in got["proposed"]["diff"]
    assert got["proposed"]["written"] is False
    assert got["applied"]["written"] is True
    assert memenv.notes("project") == ["project_knowledge_test-command.md"]
    assert "Run `make check` before every commit." in got["shown"]["text"]
    assert "Test command" in got["context"].content[0].text
    assert got["resources"] == {"memcli://project/MEMORY.md", "memcli://user/MEMORY.md"}
    assert got["index"].contents[0].text == memenv.index("project")
    assert got["bad"].is_error and "operations" in got["bad"].content[0].text.lower()
    # The apply above is the note's one transaction; propose (a dry run) left no record.
    (txn,) = got["history"]["transactions"]
    assert [op["action"] for op in txn["operations"]] == ["create"]


def test_the_cli_starts_without_the_sdk(memenv: MemEnv) -> None:
    """The base install never imports the SDK: --help and other commands leave it alone."""
    code = ("import sys; sys.argv=['memcli','context']\n"
            "from memcli.cli import main\n"
            "try: main()\nexcept SystemExit: pass\n"
            "print('mcp' in sys.modules, any(m.startswith('mcp.') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **memenv.env}, cwd=memenv.repo, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False False"


def test_without_the_sdk_mcp_says_how_to_install_it(memenv: MemEnv) -> None:
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'mcp' or name.startswith('mcp.'):\n"
            "            raise ModuleNotFoundError(name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "sys.argv = ['memcli', 'mcp']\n"
            "from memcli.cli import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **memenv.env}, cwd=memenv.repo, check=False)
    assert done.returncode == 2
    assert done.stderr == "memcli: error: memcli mcp needs the MCP SDK: pip install 'memcli[mcp]'\n"
