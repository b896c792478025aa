"""Read deadlines for HTTP connections, and the one uvicorn configuration botpsy serves with.

uvicorn times out only idle keep-alive connections *after* a response: a client
that opens a connection and sends its headers (or its body) a byte at a time,
or never finishes them, holds the connection for ever. A few hundred such
"slowloris" clients exhaust the server's sockets and file descriptors.
``ReadDeadlineProtocol`` is uvicorn's h11 protocol with two deadlines on top:

- the request line and headers must arrive within ``header_timeout`` seconds of
  the connection opening (or of the previous request on a kept-alive one);
- the body must arrive within ``body_timeout`` seconds of the headers.

Each deadline is absolute: trickling bytes does not extend it. A client past
either gets ``408 Request Timeout`` (when no response has started) and the
connection is closed; the app sees a disconnect. Once a request is read, the
deadlines are off: generating a long answer is bounded by the request timeout.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

DEFAULT_HEADER_TIMEOUT_S = 10.0
DEFAULT_BODY_TIMEOUT_S = 30.0  # the largest allowed body (1 MiB) at ~35 KB/s
KEEP_ALIVE_S = 5


class ReadDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with header and body read deadlines (module docstring)."""

    header_timeout: float = DEFAULT_HEADER_TIMEOUT_S
    body_timeout: float = DEFAULT_BODY_TIMEOUT_S

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._phase: str | None = None
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()  # a kept-alive connection waits for its next request's headers

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Arm the deadline of the part of the request now being read (or none)."""
        state = self.conn.their_state
        phase = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if phase == self._phase:
            return
        self._disarm()
        self._phase = phase
        if phase is not None and not self.transport.is_closing():
            seconds = self.header_timeout if phase == "headers" else self.body_timeout
            self._deadline = self.loop.call_later(seconds, self._expired, phase, seconds)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self, phase: str, seconds: float) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        who = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        self.logger.warning("closed the connection of %s: its request %s did not arrive "
                            "within %g s", who, phase, seconds)
        started = self.cycle is not None and self.cycle.response_started
        if phase == "headers" or not started:
            self.transport.write(_timeout_response(phase, seconds))
        self.transport.close()


def _timeout_response(phase: str, seconds: float) -> bytes:
    body = f"request {phase} did not arrive within {seconds:g} s\n".encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def deadline_protocol(header_timeout: float, body_timeout: float) -> type[ReadDeadlineProtocol]:
    """``ReadDeadlineProtocol`` with these deadlines (uvicorn takes a class, not an instance)."""
    return type("ReadDeadlineProtocol", (ReadDeadlineProtocol,),
                {"header_timeout": header_timeout, "body_timeout": body_timeout})


def server_config(
    app: ASGIApp,
    *,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT_S,
    body_timeout: float = DEFAULT_BODY_TIMEOUT_S,
    **options: Any,
) -> uvicorn.Config:
    """The uvicorn ``Config`` every botpsy server runs with (``botpsy serve`` and the
    test/benchmark runner alike): the deadline protocol, a short keep-alive."""
    options.setdefault("timeout_keep_alive", KEEP_ALIVE_S)
    return uvicorn.Config(app, http=deadline_protocol(header_timeout, body_timeout), **options)
