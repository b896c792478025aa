"""Run an app under uvicorn in a background thread on a free loopback port.

For tests and benchmarks that need a real socket (the OpenAI SDK, a browser, a
load generator): the port is chosen by the OS, the address is always
127.0.0.1, and leaving the ``with`` block always stops the server.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn
from starlette.types import ASGIApp

from botpsy.server.deadlines import server_config


@dataclass(frozen=True)
class RunningServer:
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


@contextmanager
def serve_in_thread(
    app: ASGIApp,
    *,
    startup_timeout: float = 20.0,
    log_level: str = "warning",
    make_config: Callable[..., uvicorn.Config] = server_config,
    **options,
) -> Iterator[RunningServer]:
    """Serve ``app`` on 127.0.0.1:<free port> until the block exits; ``options`` go to
    ``make_config`` (``server_config``: e.g. ``header_timeout``)."""
    # IPPROTO_TCP explicitly: asyncio turns Nagle off (TCP_NODELAY) only on sockets whose
    # proto says TCP, and with proto 0 every keep-alive response waits ~40 ms for an ACK.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = make_config(app, log_level=log_level, timeout_graceful_shutdown=2, lifespan="on",
                           **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, daemon=True, name=f"uvicorn-{port}"
    )
    thread.start()
    try:
        deadline = time.monotonic() + startup_timeout
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"uvicorn did not start on 127.0.0.1:{port}")
            time.sleep(0.01)
        yield RunningServer("127.0.0.1", port)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def slow_clients(server: RunningServer, count: int, partial: bytes) -> list[socket.socket]:
    """``count`` connections that each send ``partial`` (an unfinished request) and then
    nothing: the slowloris pattern, for tests and benchmarks of the read deadlines."""
    clients = []
    for _ in range(count):
        client = socket.create_connection((server.host, server.port), timeout=5)
        client.sendall(partial)
        clients.append(client)
    return clients


def still_open(clients: list[socket.socket]) -> int:
    """How many of ``clients`` the server has not closed (whatever it sent first)."""
    open_count = 0
    for client in clients:
        client.setblocking(False)
        try:
            while client.recv(65536):  # drain a 408 the server sent before closing
                pass
        except BlockingIOError:
            open_count += 1  # nothing to read and not closed: still held
        except OSError:
            pass  # reset by the server: closed
    return open_count
