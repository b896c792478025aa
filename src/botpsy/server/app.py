"""The FastAPI application: ``create_app(model, ...)``.

Routes:
- ``GET /health`` (no key needed): liveness, model name, queue depth;
- ``/v1/chat/completions``, ``/v1/models``: the OpenAI-compatible API;
- ``/assistant/...`` and the web chat page at ``/``: only when an assistant is given.

Everything that touches the model goes through one ``ModelWorker`` (one thread),
so one model instance serves any number of clients in turn.

Around the routes, outermost first: ``ErrorBoundary`` (no traceback leaves the
app), ``HostOriginGuard`` (DNS rebinding, other sites' pages), ``BodySizeLimit``;
on every API route the key and ``check_json_body``. ``/docs`` and
``/openapi.json`` sit behind the key too: they list every route a caller could try.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import Depends, FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from botpsy.backends.base import ChatModel
from botpsy.server.assistant_routes import router as assistant_router
from botpsy.server.auth import LOOPBACK_NAMES, ApiKeyGuard, HostOriginGuard
from botpsy.server.chat_routes import router as chat_router
from botpsy.server.errors import ErrorBoundary, install_error_handlers
from botpsy.server.limits import DEFAULT_MAX_BODY, BodySizeLimit, check_json_body
from botpsy.server.state import DEFAULT_TIMEOUT_S, ServerState
from botpsy.server.worker import DEFAULT_MAX_PENDING, ModelWorker

if TYPE_CHECKING:
    from botpsy.server.assistant_service import AssistantService

STATIC_DIR = Path(__file__).parent / "static"


def create_app(
    model: ChatModel,
    *,
    api_key: str | None = None,
    assistant: AssistantService | None = None,
    max_body: int = DEFAULT_MAX_BODY,
    request_timeout: float = DEFAULT_TIMEOUT_S,
    max_pending: int = DEFAULT_MAX_PENDING,
    aliases: tuple[str, ...] = (),
    allowed_hosts: Iterable[str] = LOOPBACK_NAMES,
) -> FastAPI:
    """An app serving ``model`` (and, if given, the assistant and its web page).

    ``api_key``: when set, every route but ``/health`` and the static page needs
    ``Authorization: Bearer KEY``. ``max_body``: bytes per request body (413 past it).
    ``request_timeout``: seconds a request may wait and generate (504 past it).
    ``max_pending``: queued requests before new ones get 503.
    ``allowed_hosts``: the ``Host`` names it answers to (``auth.allowed_hosts_for``).
    A key shorter than ``auth.MIN_API_KEY_CHARS`` raises ``UnsafeBindError``.
    """
    worker = ModelWorker(max_pending=max_pending)
    state = ServerState(model, worker, request_timeout, assistant, aliases)
    if assistant is not None:
        assistant.attach(worker, request_timeout)

    @asynccontextmanager
    async def lifespan(_: FastAPI):
        yield
        worker.shutdown()

    guard = [Depends(ApiKeyGuard(api_key)), Depends(check_json_body)]
    app = FastAPI(
        title="botpsy",
        summary="OpenAI-compatible API and personal assistant on a small model",
        lifespan=lifespan,
        docs_url=None, redoc_url=None, openapi_url=None,  # added behind the key below
    )
    app.state.botpsy = state
    install_error_handlers(app)
    app.add_middleware(BodySizeLimit, max_body=max_body)
    app.add_middleware(HostOriginGuard, allowed_hosts=allowed_hosts)
    app.add_middleware(ErrorBoundary)  # added last: the outermost
    app.include_router(chat_router, dependencies=guard)
    _add_health(app, state)
    _add_docs(app, guard)
    if assistant is not None:
        app.include_router(assistant_router, dependencies=guard)
        _add_page(app, api_key is not None)
    return app


def _add_health(app: FastAPI, state: ServerState) -> None:
    @app.get("/health", tags=["server"])
    async def health() -> dict:
        """Liveness and load; open without a key so supervisors can poll it."""
        return {
            "status": "ok",
            "model": state.model.name,
            "pending": state.worker.pending,
            "completed": state.worker.completed,
            "cancelled": state.worker.cancelled,
            "assistant": state.assistant is not None,
        }


def _add_docs(app: FastAPI, guard: list) -> None:
    """The OpenAPI schema and its two viewers, behind the key when one is set."""

    @app.get("/openapi.json", include_in_schema=False, dependencies=guard)
    async def openapi() -> JSONResponse:
        return JSONResponse(app.openapi())

    @app.get("/docs", include_in_schema=False, dependencies=guard)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url="/openapi.json", title="botpsy API")

    @app.get("/redoc", include_in_schema=False, dependencies=guard)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(openapi_url="/openapi.json", title="botpsy API")


def _add_page(app: FastAPI, needs_key: bool) -> None:
    """The web chat page: static files, no build step, nothing loaded from elsewhere."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    @app.get("/page-config", include_in_schema=False)
    async def page_config(_: Request) -> JSONResponse:
        return JSONResponse({"needs_key": needs_key})
