"""One model instance, many requests: a single worker thread runs generations in turn.

A local model holds one KV cache and saturates the CPU by itself, so concurrent
requests are queued rather than run in parallel (which would only thrash).
Generation runs in a dedicated thread so the event loop stays free to accept
connections, answer ``/health`` and notice disconnects. Every job carries a
cancel flag: a request that times out or whose client went away stops its
generation at the next token, or during a long prompt's prefill at the next prompt
chunk (``backends.cancel``), and a job cancelled while still queued never starts.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import aclosing
from dataclasses import dataclass
from typing import TypeVar

from botpsy.backends.cancel import GenerationCancelled, cancel_scope
from botpsy.types import Completion, StreamEvent

T = TypeVar("T")

DEFAULT_MAX_PENDING = 64


class QueueFullError(RuntimeError):
    """More requests are waiting than the server accepts; the client should retry."""


@dataclass
class _Failure:
    error: BaseException


_END = object()


class ModelWorker:
    """Runs blocking iterators (model streams, agent turns) one at a time in one thread."""

    def __init__(self, *, max_pending: int = DEFAULT_MAX_PENDING) -> None:
        self.max_pending = max_pending
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="botpsy-model")
        self._pending = 0
        self.completed = 0  # jobs that ran to their end (for /health and tests)
        self.cancelled = 0  # jobs stopped early because their client left or timed out

    @property
    def pending(self) -> int:
        """Jobs queued or running."""
        return self._pending

    async def iterate(self, make: Callable[[], Iterator[T]]) -> AsyncIterator[T]:
        """Items of ``make()`` as the worker thread produces them.

        Leaving the loop early (break, error, cancellation) cancels the job: the
        thread closes the iterator at its next item, which stops the generation.
        """
        if self._pending >= self.max_pending:
            raise QueueFullError(f"{self._pending} requests are already waiting for the model")
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[object] = asyncio.Queue()
        cancel = threading.Event()

        def push(item: object) -> None:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, item)
            except RuntimeError:  # the loop closed (server shutting down): nobody is listening
                cancel.set()

        future = loop.run_in_executor(self._executor, self._run, make, push, cancel)
        self._pending += 1
        future.add_done_callback(self._done)
        try:
            while True:
                item = await queue.get()
                if item is _END:
                    return
                if isinstance(item, _Failure):
                    raise item.error
                yield item  # type: ignore[misc]
        finally:
            cancel.set()

    def _done(self, _future: object) -> None:
        self._pending -= 1

    def _run(
        self,
        make: Callable[[], Iterator[T]],
        push: Callable[[object], None],
        cancel: threading.Event,
    ) -> None:
        """Worker-thread body: drain the iterator into ``push`` until done or cancelled."""
        try:
            if cancel.is_set():
                self.cancelled += 1
                return
            with cancel_scope(cancel):  # a long prefill stops at its next chunk too
                self._drain(make(), push, cancel)
        except GenerationCancelled:
            self.cancelled += 1
        except BaseException as exc:  # noqa: BLE001 - handed to the request, never lost
            push(_Failure(exc))
        finally:
            push(_END)

    def _drain(
        self, items: Iterator[T], push: Callable[[object], None], cancel: threading.Event
    ) -> None:
        try:
            for item in items:
                push(item)
                if cancel.is_set():
                    self.cancelled += 1
                    return
            self.completed += 1
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()  # GeneratorExit reaches the backend: generation stops here

    async def complete(self, make: Callable[[], Iterator[StreamEvent]]) -> Completion:
        """The final Completion of a model stream."""
        async with aclosing(self.iterate(make)) as events:
            async for event in events:
                if event.type == "done" and event.completion is not None:
                    return event.completion
        raise RuntimeError("generation ended without a completion")

    def shutdown(self) -> None:
        """Stop accepting work; running jobs see their cancel flag via their clients."""
        self._executor.shutdown(wait=False, cancel_futures=True)
