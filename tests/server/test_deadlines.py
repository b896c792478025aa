"""Read deadlines: partial requests (slowloris) are cut off; whole ones are served."""

from __future__ import annotations

import socket
import time

import httpx

from botpsy.server.app import create_app
from botpsy.server.runner import serve_in_thread, slow_clients, still_open

from .helpers import scripted_model

DEADLINE_S = 0.4
HEADERS_ONLY = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
BODY_MISSING = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"model\"")


def _wait_closed(clients: list[socket.socket], limit_s: float = 5.0) -> int:
    """Poll until the server closed every client or ``limit_s`` passed; the open count."""
    deadline = time.monotonic() + limit_s
    while (left := still_open(clients)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_partial_headers_and_bodies_are_cut_off_and_the_server_still_serves():
    app = create_app(scripted_model([]))
    deadline = 2.0  # long enough to see all 40 held first, even on a busy machine
    with serve_in_thread(app, header_timeout=deadline, body_timeout=deadline) as server:
        clients = slow_clients(server, 30, HEADERS_ONLY) + slow_clients(server, 10, BODY_MISSING)
        try:
            assert still_open(clients) == 40  # held while within the deadline
            assert _wait_closed(clients, limit_s=10) == 0
            assert httpx.get(server.url + "/health", timeout=5).status_code == 200
        finally:
            for client in clients:
                client.close()


def test_a_timed_out_request_is_told_408():
    with serve_in_thread(create_app(scripted_model([])), header_timeout=DEADLINE_S) as server:
        (client,) = slow_clients(server, 1, HEADERS_ONLY)
        with client:
            client.settimeout(5)
            answer = client.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408 ") and b"headers did not arrive" in answer


def test_trickling_bytes_do_not_extend_the_deadline():
    with serve_in_thread(create_app(scripted_model([])), header_timeout=DEADLINE_S) as server:
        (client,) = slow_clients(server, 1, b"GET /health HTTP/1.1\r\n")
        with client:
            cut_off = False
            for _ in range(60):  # a header byte every 50 ms, for up to 3 s
                try:
                    client.sendall(b"X")
                except OSError:
                    cut_off = True
                    break
                if still_open([client]) == 0:
                    cut_off = True
                    break
                time.sleep(0.05)
    assert cut_off


def test_kept_alive_connections_serve_several_requests():
    app = create_app(scripted_model([]))
    with (serve_in_thread(app, header_timeout=DEADLINE_S) as server,
          httpx.Client(base_url=server.url) as client):
        for _ in range(3):
            assert client.get("/health").status_code == 200
