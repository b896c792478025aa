"""Every failure of the HTTP API as one categorised, OpenAI-shaped error body.

Clients written against OpenAI (the official SDK, LangChain, curl scripts) read
``{"error": {"message", "type", "code", "param"}}`` and the HTTP status; we give
them exactly that for every failure, including the ones FastAPI and Starlette
raise themselves (malformed JSON, schema errors, unknown routes), so that a bad
request is always answered with a clear reason and never with a stack trace.

An unexpected exception is answered with a 500 that names only its type and is
logged as one line (``ErrorBoundary``): Starlette's own handler re-raises it to
the server, which logs the whole traceback, and a traceback per request is a
way to fill the disk. The traceback goes to the DEBUG level.
"""

from __future__ import annotations

import logging
from enum import Enum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("botpsy.server")


class ErrorKind(str, Enum):
    """The category of a failed request; the value is the OpenAI ``code``."""

    invalid_json = "invalid_json"  # the body is not JSON
    invalid_request = "invalid_request"  # JSON, but not a valid request (schema, values)
    invalid_api_key = "invalid_api_key"  # missing or wrong API key
    invalid_host = "invalid_host"  # a Host header this server does not answer to
    forbidden_origin = "forbidden_origin"  # a browser request from another site's page
    too_deep = "too_deep"  # JSON nested deeper than the server accepts
    invalid_text = "invalid_text"  # text that is not valid Unicode (a lone surrogate)
    model_not_found = "model_not_found"  # the request names a model this server does not serve
    not_found = "not_found"  # unknown route, session or pending call
    method_not_allowed = "method_not_allowed"
    conflict = "conflict"  # the resource is busy or in the wrong state (e.g. no pending call)
    request_too_large = "request_too_large"  # body over the server's limit
    timeout = "timeout"  # generation did not finish within the per-request limit
    server_busy = "server_busy"  # the request queue is full
    model_error = "model_error"  # the model or its backend failed while generating
    server_error = "server_error"  # anything else: a bug, reported without internals


# OpenAI's ``type`` field: client errors vs. server-side errors.
_TYPES = {
    ErrorKind.invalid_api_key: "authentication_error",
    ErrorKind.forbidden_origin: "permission_error",
    ErrorKind.timeout: "timeout_error",
    ErrorKind.server_busy: "server_error",
    ErrorKind.model_error: "server_error",
    ErrorKind.server_error: "server_error",
}


class ErrorDetail(BaseModel):
    """The ``error`` object of an OpenAI error body."""

    message: str
    type: str
    code: str
    param: str | None = None


class ErrorBody(BaseModel):
    error: ErrorDetail


class APIError(Exception):
    """A request that fails with a status code and a categorised message."""

    def __init__(self, status: int, kind: ErrorKind, message: str, *, param: str | None = None):
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message
        self.param = param

    def body(self) -> ErrorBody:
        return error_body(self.kind, self.message, self.param)

    def response(self) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if self.status == 401 else None
        if self.status == 503:
            headers = {"Retry-After": "1"}
        return JSONResponse(self.body().model_dump(), status_code=self.status, headers=headers)


def error_body(kind: ErrorKind, message: str, param: str | None = None) -> ErrorBody:
    """The OpenAI error body for ``kind``."""
    kind_type = _TYPES.get(kind, "invalid_request_error")
    return ErrorBody(
        error=ErrorDetail(message=message, type=kind_type, code=kind.value, param=param)
    )


def _location(loc: tuple[Any, ...]) -> str:
    """``('body', 'messages', 0, 'role')`` -> ``messages[0].role``."""
    out = ""
    for part in loc[1:] if loc and loc[0] == "body" else loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def validation_error(exc: RequestValidationError) -> APIError:
    """400 for a body that is not JSON, 422 naming the first bad field otherwise."""
    errors = list(exc.errors())
    if any(err.get("type") == "json_invalid" for err in errors):
        detail = next(err for err in errors if err.get("type") == "json_invalid")
        reason = (detail.get("ctx") or {}).get("error", "invalid JSON")
        return APIError(400, ErrorKind.invalid_json, f"request body is not valid JSON: {reason}")
    first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
    where = _location(tuple(first.get("loc", ())))
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    message = f"{where or 'body'}: {first.get('msg', 'invalid')}{more}"
    return APIError(422, ErrorKind.invalid_request, message, param=where or None)


def _http_error(exc: StarletteHTTPException) -> APIError:
    kinds = {
        404: ErrorKind.not_found,
        405: ErrorKind.method_not_allowed,
        413: ErrorKind.request_too_large,
    }
    kind = kinds.get(exc.status_code, ErrorKind.invalid_request)
    if exc.status_code >= 500:
        kind = ErrorKind.server_error
    if isinstance(exc.__cause__, RecursionError):  # FastAPI's JSON decoding gave up
        return APIError(400, ErrorKind.too_deep, "request body is nested too deeply to read")
    return APIError(exc.status_code, kind, str(exc.detail))


def one_line(exc: BaseException, limit: int = 300) -> str:
    """``Type: message`` on one line, cut at ``limit`` characters."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class ErrorBoundary:
    """ASGI middleware (outermost): an exception nothing else handled becomes a 500
    naming its type (when no response has started), one log line, and no re-raise."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            log.error("%s %s failed: %s", scope.get("method"), scope.get("path"), one_line(exc))
            log.debug("traceback of that failure", exc_info=exc)
            if not started:
                error = APIError(500, ErrorKind.server_error,
                                 f"internal error ({type(exc).__name__})")
                await error.response()(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    """Route every exception to an OpenAI-style body; unexpected ones reach the
    ``ErrorBoundary`` the app adds last, which logs them in one line."""

    @app.exception_handler(APIError)
    async def _api_error(_: Request, exc: APIError) -> JSONResponse:
        return exc.response()

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_error(exc).response()

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _http_error(exc).response()
