"""`memcli mcp`: the MCP tools and resources over stdio, on the official MCP Python SDK.

Only this module imports the SDK, and only `memcli mcp` imports this module, so the rest of
memcli starts as fast without the ``mcp`` extra as with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

# The SDK is built on pydantic, and reads these annotations to make each tool's schema.
from pydantic import Field, ValidationError

from memcli import __version__
from memcli.errors import MemcliError, UsageError
from memcli.mcp import tools as mcp_tools

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mcp.server.mcpserver import MCPServer

    from memcli.settings.config import Settings

INSTRUCTIONS = (
    "Long-term memory as reviewable Markdown notes in two stores: project (shared with the "
    "repository) and user (yours, every project). Call `context` at the start of a task, "
    "`search` to find what is remembered, `show` to read a note, `propose` to check an "
    "operations document (create/update/delete notes) and see its diff, `apply` to write it, "
    "`log` to see what changed and why."
)


# The tools' argument types, as a model reads them in the schema.
Level = Literal["project", "user", "all"] | None
# Models send an operations document as JSON text, or (most of them) as the JSON itself.
Operations = Annotated[str | list[Any] | dict[str, Any], Field(
    description='An array of operations, {"operations": [...]}, or either as JSON text.')]


def build_server(settings: Settings, trusted: bool = False) -> MCPServer:
    try:
        from mcp.server.mcpserver import Context, MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
        from mcp.types import ToolAnnotations
    except ImportError:
        raise UsageError("memcli mcp needs the MCP SDK: pip install 'memcli[mcp]'") from None
    class Server(MCPServer):
        async def call_tool(self, name: str, arguments: dict[str, Any],
                            context: Any = None) -> Any:
            """The SDK's call, with arguments that fail the schema told in one line of the
            tool's own words (the SDK hands the client pydantic's report, with its URLs)."""
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as exc:
                if isinstance(exc.__cause__, ValidationError):
                    raise ToolError(argument_errors(name, exc.__cause__.errors())) from None
                # "Error executing tool apply: nothing written: …" -> "apply: nothing …"
                prefix = f"Error executing tool {name}: "
                if str(exc).startswith(prefix):
                    raise ToolError(f"{name}: {str(exc)[len(prefix):]}") from None
                raise

    # WARNING: the SDK logs every refused call at INFO, as a box of several lines on the
    # client's stderr (which some clients show the person); a crash is still logged.
    server = Server("memcli", version=__version__, instructions=INSTRUCTIONS,
                    log_level="WARNING")
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False,
                                open_world_hint=False)

    def guarded(call: Any, *args: Any) -> Any:
        try:
            return call(settings, *args)
        except MemcliError as exc:
            raise ToolError(str(exc)) from None

    @server.tool(annotations=read_only)
    def search(query: str, level: Level = None,
               limit: Annotated[int, Field(ge=1, le=mcp_tools.MAX_LIMIT)] = 10
               ) -> list[dict[str, Any]]:
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
    def log(note: str | None = None, level: Level = None,
            limit: Annotated[int, Field(ge=1, le=mcp_tools.MAX_LIMIT)] = 20
            ) -> dict[str, Any]:
        """What changed in the stores, newest first: each transaction's time, command, source
        and operations with their reasons. note: only the history of that note (its file
        name, slug or title); level: project, user or all; limit: at most this many."""
        return guarded(mcp_tools.log, note, level, limit)  # type: ignore[no-any-return]

    def propose(operations: Operations, ctx: Context, to_inbox: bool = False) -> dict[str, Any]:
        """Check an operations document against the stores; returns the diff, writes nothing.

        operations: an array of operations, {"operations": [...]}, or that as JSON text;
        each has action (create, update, delete), level (project, user), type, title,
        summary and content. What would be refused is listed under "rejected".
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

    def apply(operations: Operations, ctx: Context,
              on_conflict: Literal["fail", "update", "rename"] = "fail") -> dict[str, Any]:
        """Write an operations document in one transaction (notes and MEMORY.md of both stores).

        operations: as for propose. Updates and deletes change or remove notes. on_conflict:
        fail, update or rename, for a create whose note exists. Call propose first to see
        the diff. A call whose every operation is refused fails; one that wrote some lists
        the refused ones under "rejected". Unless the person trusts MCP clients, deletes
        and updates that remove most of a note are refused and one call changes at most 5
        existing notes.
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


def argument_errors(tool: str, errors: Sequence[Any]) -> str:
    """pydantic's errors for a tool's arguments as one line, in the tool's terms: the
    argument's name as the schema spells it, what it should be, what was sent (cut)."""
    from memcli.text import clip

    shoulds: dict[str, list[str]] = {}  # argument -> what it should be, in pydantic's words
    got: dict[str, str] = {}
    for error in errors:
        # A union's errors name the member tried ("operations.str"): the argument is first.
        where = str(error.get("loc", ("?",))[0])
        if error.get("type") == "missing":
            shoulds.setdefault(where, []).append("is missing")
            continue
        should = str(error.get("msg", "is not valid")).removeprefix("Input should be ")
        if should not in shoulds.setdefault(where, []):
            shoulds[where].append(should)
        got[where] = clip(repr(error.get("input")), 40)
    said = [f"{where} is missing" if what == ["is missing"] else
            f"{where} should be {' or '.join(what)} (got {got.get(where, '?')})"
            for where, what in shoulds.items()]
    return f"{tool}: " + "; ".join(said)


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
