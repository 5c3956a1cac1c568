"""The MCP server (`memcli mcp`): an entry point, run by an MCP client."""
