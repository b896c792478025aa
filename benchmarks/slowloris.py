"""Slowloris against the server: partial requests held open, before and after the deadlines.

    .venv/bin/python benchmarks/slowloris.py [--clients 200] [--hold 45]

Two servers run side by side in this process on 127.0.0.1: one with uvicorn's
plain ``Config`` (what ``botpsy serve`` ran before the read deadlines) and one
with ``server_config`` (``ReadDeadlineProtocol``). Against each, ``--clients``
connections send an unfinished request (half stop inside the headers, half inside
a declared body) and then nothing; after ``--hold`` seconds the script prints how
many connections each server still holds, and whether a normal request is still
answered. Bounded: every socket has a timeout and everything is closed at exit.
"""

from __future__ import annotations

import argparse
import time
from contextlib import ExitStack

import httpx
import uvicorn

from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.scripted import ScriptedBackend
from botpsy.formats import get_format
from botpsy.server.app import create_app
from botpsy.server.runner import serve_in_thread, slow_clients, still_open

HEADERS = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
BODY = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--hold", type=float, default=45.0)
    args = parser.parse_args()
    model = FormattedChatModel(ScriptedBackend([]), get_format("hermes"), name="scripted")
    half = args.clients // 2
    with ExitStack() as stack:
        servers = {
            "before": stack.enter_context(serve_in_thread(create_app(model),
                                                          make_config=uvicorn.Config)),
            "after": stack.enter_context(serve_in_thread(create_app(model))),
        }
        clients = {name: slow_clients(server, half, HEADERS)
                   + slow_clients(server, args.clients - half, BODY)
                   for name, server in servers.items()}
        for sockets in clients.values():
            for client in sockets:
                stack.callback(client.close)
        time.sleep(args.hold)
        for name, server in servers.items():
            held = still_open(clients[name])
            answered = httpx.get(server.url + "/health", timeout=10).status_code == 200
            print(f"{name:6s}: {held}/{len(clients[name])} partial connections still held "
                  f"after {args.hold:g} s; a normal request answered: {answered}")


if __name__ == "__main__":
    main()
