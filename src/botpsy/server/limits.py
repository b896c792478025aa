"""Request limits: body size (plain ASGI middleware), JSON nesting depth and text.

A local model server must not let one client exhaust memory with a huge body,
so bodies over the limit are refused with 413 before the app parses them: at
once when ``Content-Length`` says so, and while reading when a chunked body
grows past the limit. Starlette has no built-in body limit, hence this class.

``check_json_body`` (a dependency of every API route) refuses, with 400 and the
place it found them, two things a JSON body can carry that the code behind it
cannot take: nesting deeper than ``MAX_JSON_DEPTH`` (schemas in ``tools`` or
``response_format`` are walked recursively, and a deep one would exhaust the
stack) and lone surrogates (``"\\ud800"`` decodes to a string that no UTF-8
encoder, SQLite or tokenizer, accepts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from botpsy.safetext import lone_surrogate
from botpsy.server.errors import APIError, ErrorKind

DEFAULT_MAX_BODY = 1 << 20  # 1 MiB: hundreds of chat turns; far above any sane request
MAX_JSON_DEPTH = 64  # a tool schema nests a few levels; a chat request about five
_BODY_METHODS = {"POST", "PUT", "PATCH"}


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


@dataclass(frozen=True)
class JsonProblem:
    """Where a JSON body goes wrong (``messages[0].content``) and how."""

    where: str
    what: str
    kind: ErrorKind

    @property
    def message(self) -> str:
        where = self.where if len(self.where) <= 80 else f"{self.where[:40]}\u2026{self.where[-30:]}"
        return f"{where} {self.what}"


def json_problem(value: Any, max_depth: int = MAX_JSON_DEPTH) -> JsonProblem | None:
    """The first part of a decoded JSON value that is nested deeper
    than ``max_depth`` or holds a lone surrogate; None when there is none. Iterative,
    so any depth that decoded can be checked."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, str):
            index = lone_surrogate(item)
            if index is not None:
                code = f"U+{ord(item[index]):04X}"
                return JsonProblem(where or "body", f"holds a lone surrogate ({code}), which is "
                                   "not text", ErrorKind.invalid_text)
            continue
        if not isinstance(item, dict | list):
            continue
        if depth >= max_depth:
            return JsonProblem(where or "body", f"is nested deeper than {max_depth} levels",
                               ErrorKind.too_deep)
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in pairs:
            if isinstance(key, str) and lone_surrogate(key) is not None:
                return JsonProblem(where or "body", "has a key with a lone surrogate, which is "
                                   "not text", ErrorKind.invalid_text)
            path = f"{where}[{key}]" if isinstance(key, int) else (
                f"{where}.{key}" if where else str(key))
            stack.append((child, path, depth + 1))
    return None


async def check_json_body(request: Request) -> None:
    """Dependency: 400 for a JSON body that ``json_problem`` finds fault with. FastAPI has
    already decoded (and cached) the body of routes that take one."""
    if request.method not in _BODY_METHODS:
        return
    try:
        body = await request.json()
    except (ValueError, RecursionError):
        return  # not JSON: the route's own validation says so
    found = json_problem(body)
    if found is not None:
        raise APIError(400, found.kind, found.message, param=found.where[:200])
