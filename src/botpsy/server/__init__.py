"""Serving botpsy: an OpenAI-compatible HTTP API, the assistant API and web chat, and MCP.

- ``app.create_app(model, api_key=..., assistant=...)``: the FastAPI app (``botpsy serve``);
- ``assistant_service.AssistantService``: sessions, pending confirmations, audit over HTTP;
- ``mcp_server.build_mcp_server(registry)``: botpsy's tools as an MCP server (``botpsy mcp``);
- ``mcp_client.mcp_tools(config)`` / ``McpToolbox``: other MCP servers' tools in the registry;
- ``runner.serve_in_thread(app)``: a loopback server for tests and benchmarks.

Nothing heavy is imported here, so ``botpsy --help`` stays fast; see docs/serving.md.
"""
