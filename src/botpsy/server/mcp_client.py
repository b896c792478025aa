"""Tools of other MCP servers, joined into botpsy's registry.

A config file (TOML or JSON) lists the servers; their tools become ordinary
registry ``Tool``s, so the agent calls them like its own. Two facts the remote
server cannot be trusted to state come from the config instead:

- **side effects**: ``side_effects`` lists tools that change the world (they go
  through botpsy's confirmation gate), ``read_only`` lists tools that do not;
  an unlisted tool counts as side-effecting unless ``assume_read_only = true``.
  MCP's own ``readOnlyHint`` is a hint from the server and is not relied on.
- **untrusted output**: everything an MCP tool returns is third-party text.
  The agent already treats tool output as untrusted data; the toolbox also names
  its tools in ``untrusted_output_tools()`` (like the assistant's toolboxes) and
  each result is prefixed with its origin, so the model sees where it came from.
  The tools' descriptions and schemas are third-party text too (``ToolSpec.source``):
  a turn whose prompt shows one is tainted, so no side effect runs unconfirmed.

Example ``mcp.toml``::

    [servers.weather]
    command = "weather-mcp"          # stdio server: a command and its arguments
    args = ["--units", "metric"]
    read_only = ["forecast"]
    side_effects = ["subscribe_alerts"]

    [servers.notes]
    url = "http://127.0.0.1:9000/mcp"   # or a Streamable HTTP endpoint
    prefix = "remote_"                  # tool names become remote_<name>

The Claude-Desktop style ``{"mcpServers": {...}}`` JSON is read as well.

Connections stay open for the toolbox's life, on one background event loop:
``with McpToolbox.from_file(path) as box: registry = ToolRegistry(box.tools())``.
``mcp_tools(config)`` is the short form; its connections close at exit.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import threading
import tomllib
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, Self

import mcp_types as types
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from botpsy.tools import Tool

log = logging.getLogger("botpsy.mcp")


class McpConfigError(ValueError):
    """The MCP config file is unreadable or invalid."""


class McpToolError(RuntimeError):
    """An MCP tool reported an error, or its server could not be reached in time."""


class McpServerConfig(BaseModel):
    """One MCP server: a stdio command or a Streamable HTTP ``url``."""

    model_config = ConfigDict(extra="forbid")

    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] | None = None
    cwd: str | None = None
    url: str | None = None
    prefix: str = ""
    tools: list[str] | None = Field(default=None, description="allow-list; all tools when absent")
    side_effects: list[str] = Field(default_factory=list)
    read_only: list[str] = Field(default_factory=list)
    assume_read_only: bool = False
    timeout_s: float = Field(default=30.0, gt=0)

    @model_validator(mode="after")
    def _one_transport(self) -> McpServerConfig:
        if (self.command is None) == (self.url is None):
            raise ValueError("give exactly one of 'command' (stdio) or 'url' (Streamable HTTP)")
        both = set(self.side_effects) & set(self.read_only)
        if both:
            raise ValueError(f"tools listed as both side_effects and read_only: {sorted(both)}")
        return self

    def is_side_effect(self, name: str) -> bool:
        if name in self.side_effects:
            return True
        return name not in self.read_only and not self.assume_read_only


class McpConfig(BaseModel):
    """All configured servers by name."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    servers: dict[str, McpServerConfig] = Field(default_factory=dict, alias="mcpServers")

    @classmethod
    def load(cls, path: str | Path) -> McpConfig:
        """Read ``.toml`` or ``.json``; problems raise ``McpConfigError`` naming the file."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
            data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
        except OSError as exc:
            raise McpConfigError(f"{path}: cannot read MCP config ({exc.strerror})") from exc
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            raise McpConfigError(
                f"{path}: not valid {path.suffix[1:].upper() or 'JSON'}: {exc}"
            ) from exc
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()
            )
            raise McpConfigError(f"{path}: invalid MCP config: {problems}") from exc


def result_text(result: types.CallToolResult) -> str:
    """The text of a tool result; non-text parts are named rather than dropped silently."""
    parts = []
    for block in result.content:
        if isinstance(block, types.TextContent):
            parts.append(block.text)
        elif isinstance(block, types.ResourceLink):
            parts.append(f"[resource {block.uri}]")
        else:
            parts.append(f"[{block.type} content omitted]")
    if not parts and result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    return "\n".join(parts)


class _LoopThread:
    """An asyncio loop in a daemon thread: MCP sessions are async, registry tools are sync."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="botpsy-mcp", daemon=True)
        self.thread.start()

    def submit(self, coro: Any) -> Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


class McpToolbox:
    """Open connections to the configured MCP servers and their tools as botpsy Tools."""

    def __init__(self, config: McpConfig) -> None:
        self.config = config
        self._runner: _LoopThread | None = None
        self._stop: asyncio.Event | None = None
        self._main: Future[Any] | None = None
        self._tools: list[Tool] = []

    @classmethod
    def from_file(cls, path: str | Path) -> McpToolbox:
        return cls(McpConfig.load(path))

    def open(self, timeout: float = 60.0) -> Self:
        """Connect to every server and list its tools (raises McpToolError on failure)."""
        self._runner = _LoopThread()
        ready: Future[list[Tool]] = Future()
        self._main = self._runner.submit(self._hold(ready))
        try:
            self._tools = ready.result(timeout=timeout)
        except Exception as exc:
            self.close()
            raise McpToolError(f"could not connect to the MCP servers: {exc}") from exc
        return self

    async def _hold(self, ready: Future[list[Tool]]) -> None:
        """Enter every client in this one task (anyio needs enter and exit in the same
        task), publish the tools, then keep the connections until ``close``."""
        from mcp import Client

        self._stop = asyncio.Event()
        try:
            async with AsyncExitStack() as stack:
                tools: list[Tool] = []
                for name, server in self.config.servers.items():
                    client = await stack.enter_async_context(Client(_target(server)))
                    listing = await client.list_tools()
                    tools += [
                        self._tool(client, name, server, item)
                        for item in listing.tools
                        if server.tools is None or item.name in server.tools
                    ]
                ready.set_result(tools)
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            if not isinstance(exc, Exception):
                raise

    def _tool(
        self, client: Any, server_name: str, server: McpServerConfig, item: types.Tool
    ) -> Tool:
        spec = {
            "name": server.prefix + item.name,
            "description": item.description or "",
            "parameters": item.input_schema,
        }
        call = self._caller(client, server_name, item.name, server.timeout_s)
        return Tool.from_openai(spec, fn=call, side_effect=server.is_side_effect(item.name),
                                source=f"mcp:{server_name}")

    def _caller(
        self, client: Any, server_name: str, remote: str, timeout: float
    ) -> Callable[..., str]:
        def call(**arguments: Any) -> str:
            if self._runner is None:
                raise McpToolError(f"the connection to MCP server {server_name!r} is closed")
            future = self._runner.submit(client.call_tool(remote, arguments))
            try:
                result = future.result(timeout=timeout)
            except TimeoutError:
                future.cancel()
                raise McpToolError(
                    f"MCP server {server_name!r} did not answer within {timeout:g} s"
                ) from None
            text = result_text(result)
            if result.is_error:
                raise McpToolError(f"{server_name}/{remote}: {text}")
            return f"[untrusted output of MCP server {server_name!r}, tool {remote!r}]\n{text}"

        return call

    def tools(self) -> list[Tool]:
        return list(self._tools)

    def untrusted_output_tools(self) -> frozenset[str]:
        """Every MCP tool: their output is third-party text."""
        return frozenset(tool.name for tool in self._tools)

    def close(self) -> None:
        """Close the sessions (stdio servers exit) and stop the loop thread."""
        if self._runner is None:
            return
        if self._stop is not None:
            self._runner.loop.call_soon_threadsafe(self._stop.set)
        if self._main is not None:
            try:
                self._main.result(timeout=10)
            except Exception as exc:  # noqa: BLE001 - closing: a server that died already is fine
                log.debug("MCP connections closed with %s: %s", type(exc).__name__, exc)
        self._runner.stop()
        self._runner = None

    def __enter__(self) -> Self:
        return self.open() if self._runner is None else self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _target(server: McpServerConfig) -> Any:
    if server.url is not None:
        return server.url
    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=server.command or "", args=server.args, env=server.env, cwd=server.cwd
    )


def mcp_tools(config: McpConfig | str | Path) -> list[Tool]:
    """The tools of every server in ``config`` (a McpConfig or a file path).

    The connections stay open until the process exits; use ``McpToolbox`` as a
    context manager to close them earlier.
    """
    parsed = config if isinstance(config, McpConfig) else McpConfig.load(config)
    box = McpToolbox(parsed).open()
    atexit.register(box.close)
    return box.tools()
