"""`memcli mcp`: the MCP tools and resources over stdio, on the official MCP Python SDK.

Only this module imports the SDK, and only `memcli mcp` imports this module, so the rest of
memcli starts as fast without the ``mcp`` extra as with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memcli import __version__
from memcli.errors import MemcliError, UsageError
from memcli.mcp import tools as mcp_tools

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from memcli.settings.config import Settings

INSTRUCTIONS = (
    "Long-term memory as reviewable Markdown notes in two stores: project (shared with the "
    "repository) and user (yours, every project). Call `context` at the start of a task, "
    "`search` to find what is remembered, `show` to read a note, `propose` to check an "
    "operations document (create/update/delete notes) and see its diff, `apply` to write it, "
    "`log` to see what changed and why."
)


def build_server(settings: Settings, trusted: bool = False) -> MCPServer:
    try:
        from mcp.server.mcpserver import Context, MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
        from mcp.types import ToolAnnotations
    except ImportError:
        raise UsageError("memcli mcp needs the MCP SDK: pip install 'memcli[mcp]'") from None

    server = MCPServer("memcli", version=__version__, instructions=INSTRUCTIONS)
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False,
                                open_world_hint=False)

    def guarded(call: Any, *args: Any) -> Any:
        try:
            return call(settings, *args)
        except MemcliError as exc:
            raise ToolError(str(exc)) from None

    @server.tool(annotations=read_only)
    def search(query: str, level: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        """Find notes ranked for QUERY (the words of titles, summaries and bodies), best first.

        level: project, user or all (default all); limit: at most this many (default 10).
        """
        return guarded(mcp_tools.search, query, level, limit)  # type: ignore[no-any-return]

    @server.tool(annotations=read_only)
    def show(name: str) -> dict[str, Any]:
        """Read one note: its file name, project/NAME.md, its slug or its title."""
        return guarded(mcp_tools.show, name)  # type: ignore[no-any-return]

    @server.tool(annotations=read_only)
    def context() -> str:
        """The memory block for a system prompt: both stores' indexes, within budget."""
        return guarded(mcp_tools.context)  # type: ignore[no-any-return]

    @server.tool(annotations=read_only)
    def log(note: str | None = None, level: str | None = None,
            limit: int = 20) -> dict[str, Any]:
        """What changed in the stores, newest first: each transaction's time, command, source
        and operations with their reasons. note: only the history of that note (its file
        name, slug or title); level: project, user or all; limit: at most this many."""
        return guarded(mcp_tools.log, note, level, limit)  # type: ignore[no-any-return]

    def propose(operations: str, ctx: Context, to_inbox: bool = False) -> dict[str, Any]:
        """Check an operations document (JSON) against the stores; returns the diff, writes nothing.

        The document is a JSON array of operations or {"operations": [...]}: each has action
        (create, update, delete), level (project, user), type, title, summary and content.
        to_inbox: instead, leave the operations in the review inbox, where the person accepts
        or rejects them (`memcli review`); nothing is written to the notes.
        """
        try:
            return mcp_tools.propose(settings, operations, trusted, inbox=to_inbox,
                                     client=_client_name(ctx))
        except MemcliError as exc:
            raise ToolError(str(exc)) from None

    propose.__annotations__["ctx"] = Context
    # Only the inbox is written, never a note: nothing the tool does destroys anything.
    server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False,
                                            idempotent_hint=False, open_world_hint=False))(propose)

    def apply(operations: str, ctx: Context, on_conflict: str = "fail") -> dict[str, Any]:
        """Write an operations document in one transaction (notes and MEMORY.md of both stores).

        Updates and deletes change or remove notes. on_conflict: fail, update or rename, for a
        create whose note exists. Call propose first to see the diff. Unless the person
        trusts MCP clients, deletes and updates that remove most of a note are refused and
        one call changes at most 5 existing notes.
        """
        try:
            return mcp_tools.apply(settings, operations, on_conflict,
                                   client=_client_name(ctx), trusted=trusted)
        except MemcliError as exc:
            raise ToolError(str(exc)) from None

    # The SDK finds the context parameter by its class; the annotations of this module are
    # strings (postponed), and Context is imported here, not at the module's top.
    apply.__annotations__["ctx"] = Context
    server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True,
                                            idempotent_hint=False, open_world_hint=False))(apply)

    for level in ("project", "user"):
        _index_resource(server, settings, level)
    return server


def _index_resource(server: MCPServer, settings: Settings, level: str) -> None:
    @server.resource(f"memcli://{level}/MEMORY.md", name=f"{level}-index",
                     description=f"The {level} store's MEMORY.md: one line per note.",
                     mime_type="text/markdown")
    def index() -> str:
        from mcp.server.mcpserver.exceptions import ResourceError

        try:
            return mcp_tools.index_text(settings, level)
        except MemcliError as exc:  # the client gets memcli's one line, not "Error reading"
            raise ResourceError(str(exc)) from None


def _client_name(ctx: Any) -> str:
    """The name the client gave in its initialize request ("?" when it gave none)."""
    try:
        name = ctx.session.client_params.client_info.name
    except AttributeError:
        return "?"
    return name if isinstance(name, str) else "?"


def serve(settings: Settings, trusted: bool = False) -> None:
    """Serve on stdin and stdout until the client closes them."""
    build_server(settings, trusted).run("stdio")
