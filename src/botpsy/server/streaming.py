"""Running a job on the model worker under a deadline, and streaming it as SSE.

Shared by the OpenAI route and the assistant routes. A stream is *primed*
before any header is sent: the first event (which waits for the queue and the
prefill) is awaited under the deadline, so a full queue, a timeout or a model
failure at that point is still a proper 503/504/500 JSON error. After the first
byte the status is fixed at 200, so later failures become an ``error`` event in
the stream and the stream ends. Leaving a stream early (client gone, deadline)
closes the worker iterator, which stops the generation.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from sse_starlette import EventSourceResponse

from botpsy.server.errors import APIError, ErrorKind, one_line
from botpsy.server.worker import ModelWorker, QueueFullError

log = logging.getLogger("botpsy.server")
T = TypeVar("T")


def generation_error(exc: BaseException, timeout: float) -> APIError:
    """The API error for a failure while waiting for or running a generation."""
    if isinstance(exc, APIError):
        return exc
    if isinstance(exc, QueueFullError):
        return APIError(503, ErrorKind.server_busy, f"server busy: {exc}; retry shortly")
    if isinstance(exc, TimeoutError):
        return APIError(
            504,
            ErrorKind.timeout,
            f"generation did not finish within the server's {timeout:g} s limit",
        )
    if isinstance(exc, ValueError):
        return APIError(400, ErrorKind.invalid_request, str(exc))
    log.warning("model failure: %s", one_line(exc))
    return APIError(500, ErrorKind.model_error, f"the model failed: {type(exc).__name__}: {exc}")


@dataclass
class PrimedStream:
    """A worker stream whose first item has arrived within the deadline."""

    first: Any
    rest: AsyncIterator[Any]
    deadline: float
    timeout: float

    async def items(self) -> AsyncIterator[Any]:
        """All items, the first included; raises TimeoutError at the deadline."""
        yield self.first
        while True:
            async with asyncio.timeout_at(self.deadline):
                try:
                    item = await anext(self.rest)
                except StopAsyncIteration:
                    return
            yield item

    async def close(self) -> None:
        await self.rest.aclose()


async def prime(
    worker: ModelWorker, make: Callable[[], Iterator[T]], timeout: float
) -> PrimedStream:
    """Start ``make()`` on the worker and wait for its first item (APIError on failure)."""
    deadline = asyncio.get_running_loop().time() + timeout
    rest = worker.iterate(make)
    try:
        async with asyncio.timeout_at(deadline):
            first = await anext(rest)
    except StopAsyncIteration:
        raise APIError(500, ErrorKind.model_error, "the model produced no output") from None
    except Exception as exc:  # noqa: BLE001 - every failure becomes a categorised APIError
        await rest.aclose()
        raise generation_error(exc, timeout) from None
    return PrimedStream(first, rest, deadline, timeout)


async def run_with_deadline(coro_fn: Callable[[], Any], timeout: float) -> Any:
    """Await ``coro_fn()`` under ``timeout``; failures become APIErrors."""
    try:
        async with asyncio.timeout(timeout):
            return await coro_fn()
    except Exception as exc:  # noqa: BLE001 - every failure becomes a categorised APIError
        raise generation_error(exc, timeout) from None


def sse_response(events: AsyncIterator[str]) -> EventSourceResponse:
    """An SSE response whose ``data:`` lines are the given JSON strings.

    sse-starlette watches for the client's disconnect and cancels ``events``,
    which is what stops a generation nobody is reading any more.
    """

    async def wire() -> AsyncIterator[dict[str, str]]:
        async for data in events:
            yield {"data": data}

    return EventSourceResponse(wire(), ping=10, sep="\n")
