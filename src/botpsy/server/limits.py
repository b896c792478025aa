"""Request-size limit as plain ASGI middleware.

A local model server must not let one client exhaust memory with a huge body,
so bodies over the limit are refused with 413 before the app parses them: at
once when ``Content-Length`` says so, and while reading when a chunked body
grows past the limit. Starlette has no built-in body limit, hence this class.
"""

from __future__ import annotations

from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from botpsy.server.errors import APIError, ErrorKind

DEFAULT_MAX_BODY = 1 << 20  # 1 MiB: hundreds of chat turns; far above any sane request


def _too_large_message(limit: int) -> str:
    return f"request body is larger than this server's limit of {limit} bytes"


class BodySizeLimit:
    """Refuse HTTP request bodies over ``max_body`` bytes with an OpenAI-style 413."""

    def __init__(self, app: ASGIApp, max_body: int = DEFAULT_MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            error = APIError(413, ErrorKind.request_too_large, _too_large_message(self.max_body))
            await error.response()(scope, receive, send)
            return
        await self.app(scope, self._counting(receive), send)

    def _counting(self, receive: Receive) -> Receive:
        """``receive`` that fails with 413 past the limit. An HTTPException, because
        FastAPI turns any other exception raised while reading a body into a 400."""
        seen = 0

        async def wrapped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise HTTPException(413, _too_large_message(self.max_body))
            return message

        return wrapped


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
