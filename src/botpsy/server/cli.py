"""``botpsy serve`` and ``botpsy mcp``.

``serve`` starts the OpenAI-compatible HTTP API, the assistant API and the web
chat page on one model; ``mcp`` exposes the assistant's tools to MCP clients
over stdio. Both are plain functions so the main CLI can register them as
top-level commands (``app.command()(serve)``); ``app`` here holds them too, and
``python -m botpsy.server.cli`` runs it.

Heavy imports (FastAPI, uvicorn, llama.cpp, the MCP SDK) happen inside the
commands so that ``botpsy --help`` stays fast.
"""

from __future__ import annotations

import os
import sys
from datetime import date
from pathlib import Path
from typing import Annotated

import typer

from botpsy.options import (
    DEFAULT_MODEL,
    DataDirOpt,
    FormatOpt,
    MaxTokensOpt,
    ModelOpt,
    NCtxOpt,
    OldSafetyOpt,
    SafetyConfigOpt,
    deprecated,
)

app = typer.Typer(
    help="Serve botpsy: OpenAI-compatible HTTP API, web chat, MCP.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

DEFAULT_MAX_BODY = 1 << 20


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _open_store(data_dir: Path | None, demo: bool):
    import sqlite3

    from botpsy.assistant import AssistantStore  # lazy: pydantic

    try:
        store = AssistantStore(data_dir)
    except (OSError, sqlite3.DatabaseError) as exc:
        _fail(f"cannot open the assistant's store in {data_dir or 'the per-user data folder'}: "
              f"{exc} (give another folder with --data-dir, or `botpsy init --force` to make a "
              "new store there)")
    if demo:
        from botpsy.assistant.demo import seed_demo  # lazy: pydantic

        try:
            seed_demo(store, date.today())
        except ValueError:
            pass  # the store already holds data: keep it, never mix the demo into it
    return store


def _safety(path: Path | None):
    if path is None:
        return None
    from botpsy.safety.config import SafetyConfig, SafetyConfigError  # lazy: pydantic

    try:
        return SafetyConfig.load(path)
    except SafetyConfigError as exc:
        _fail(f"{exc} (fix the file given to --safety-config, or leave the option out)")


def _mcp_extra_tools(path: Path | None):
    if path is None:
        return []
    from botpsy.server.mcp_client import McpConfigError, McpToolError, mcp_tools  # lazy: pydantic

    try:
        return mcp_tools(path)
    except (McpConfigError, McpToolError) as exc:
        _fail(str(exc))


def serve(
    model: ModelOpt = DEFAULT_MODEL,
    host: Annotated[
        str, typer.Option(help="address to bind; anything but loopback needs --api-key")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535)] = 8000,
    api_key: Annotated[
        str | None, typer.Option(envvar="BOTPSY_API_KEY", help="bearer key clients must send")
    ] = None,
    data_dir: DataDirOpt = None,
    fmt: FormatOpt = None,
    n_ctx: NCtxOpt = 4096,
    max_tokens: MaxTokensOpt = 256,
    timeout: Annotated[
        float, typer.Option(min=1, help="seconds per request, queue wait included")
    ] = 120.0,
    max_body: Annotated[
        int, typer.Option(min=1024, help="largest request body in bytes")
    ] = DEFAULT_MAX_BODY,
    alias: Annotated[
        list[str] | None,
        typer.Option(
            help="another model name requests may use (repeatable), e.g. one a client insists on"
        ),
    ] = None,
    assistant: Annotated[bool, typer.Option(help="serve the assistant API and web page")] = True,
    demo: Annotated[
        bool, typer.Option(help="fill an empty assistant store with the demo week")
    ] = False,
    safety_config: SafetyConfigOpt = None,
    mcp_config: Annotated[
        Path | None, typer.Option(help="MCP servers whose tools the assistant may use (toml/json)")
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(help="another Host name clients use to reach this server (repeatable), "
                     "e.g. behind a proxy; by default only the bound address is answered"),
    ] = None,
) -> None:
    """Serve a model over an OpenAI-compatible API, plus the assistant and its web page."""
    from botpsy.server.auth import UnsafeBindError, allowed_hosts_for, check_bind  # lazy: fastapi

    try:
        check_bind(host, api_key)  # before loading anything: refuse fast and clearly
    except UnsafeBindError as exc:
        _fail(str(exc))
    import uvicorn

    from botpsy.backends.model_files import ModelNotFoundError, load_chat_model  # lazy: pydantic
    from botpsy.server.app import create_app  # lazy: fastapi
    from botpsy.server.assistant_service import AssistantService  # lazy: fastapi
    from botpsy.server.deadlines import server_config  # lazy: uvicorn

    try:
        chat_model = load_chat_model(model, fmt=fmt, n_ctx=n_ctx)
    except (ModelNotFoundError, ValueError) as exc:
        _fail(f"{exc} (`botpsy models` lists the models this machine has)")
    service = None
    if assistant:
        from botpsy.types import GenerationParams  # lazy: pydantic

        service = AssistantService.open(
            chat_model,
            store=_open_store(data_dir, demo),
            safety=_safety(safety_config),
            extra_tools=_mcp_extra_tools(mcp_config),
            params=GenerationParams(max_tokens=max_tokens),
        )
    web = create_app(
        chat_model,
        api_key=api_key,
        assistant=service,
        max_body=max_body,
        request_timeout=timeout,
        aliases=tuple(alias or ()),
        allowed_hosts=allowed_hosts_for(host, allowed_host or ()),
    )
    shown = f"[{host}]" if ":" in host else host
    typer.echo(
        f"botpsy: serving {chat_model.name} on http://{shown}:{port} "
        f"(OpenAI API at /v1{', web chat at /' if service else ''})",
        err=True,
    )
    config = server_config(web, host=host, port=port, log_level="info",
                           timeout_graceful_shutdown=5)
    uvicorn.Server(config).run()


def mcp(
    data_dir: DataDirOpt = None,
    auto_approve: Annotated[
        list[str] | None,
        typer.Option(help="side-effecting tool allowed without asking the user (repeatable); "
                     "never once the session has read untrusted data"),
    ] = None,
    demo: Annotated[bool, typer.Option(help="fill an empty store with the demo week")] = False,
    safety_config: SafetyConfigOpt = None,
    old_safety: OldSafetyOpt = None,
) -> None:
    """Expose the assistant's tools as an MCP server on stdin/stdout.

    Side-effecting tools (send_email, delete_event, write_file, ...) run only
    after the user confirms through the client (MCP elicitation); clients that
    cannot ask get an error result and nothing runs, unless --auto-approve names
    the tool. Once a session has read untrusted data (mail from others, an
    imported invitation, a download), every tool that writes needs the user's yes,
    and --auto-approve does not apply.
    """
    import anyio

    from botpsy.assistant import assistant_tools, untrusted_output_tools  # lazy: pydantic
    from botpsy.safety.audit import AuditLog  # lazy: pydantic
    from botpsy.safety.cli import AUDIT_DB  # lazy: pydantic
    from botpsy.safety.policy import ScopePolicy  # lazy: pydantic
    from botpsy.server.mcp_server import build_mcp_server, serve_stdio  # lazy: mcp
    from botpsy.tools import ToolRegistry  # lazy: pydantic

    safety_file = deprecated("--safety", "--safety-config", old_safety, safety_config)
    store = _open_store(data_dir, demo)
    registry = ToolRegistry(assistant_tools(store))
    unknown = sorted(set(auto_approve or []) - set(registry.names()))
    if unknown:
        _fail(f"--auto-approve names unknown tools {unknown}; tools: {', '.join(registry.names())}")
    server = build_mcp_server(
        registry,
        auto_approve=auto_approve or [],
        untrusted_output=untrusted_output_tools(),
        policy=ScopePolicy(_safety(safety_file)),
        audit=AuditLog(store.data_dir / AUDIT_DB),
    )
    # stdout carries the protocol: anything else printed there would corrupt it.
    sys.stdout.flush()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    anyio.run(serve_stdio, server)


app.command()(serve)
app.command()(mcp)

if __name__ == "__main__":
    app()
