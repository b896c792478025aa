"""Who may talk to the server: loopback-only by default, a bearer key otherwise.

The assistant behind this server reads the user's mail and can send it, so a
server reachable from the network without a key would hand the user's data to
anyone on the LAN. ``check_bind`` refuses that combination at start-up, and
``ApiKeyGuard`` checks ``Authorization: Bearer KEY`` (what the OpenAI clients
send) in constant time.
"""

from __future__ import annotations

import ipaddress
import secrets
from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from botpsy.server.errors import APIError, ErrorKind

_bearer = HTTPBearer(auto_error=False, description="the key given to `botpsy serve --api-key`")
BearerDep = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


class UnsafeBindError(ValueError):
    """A non-loopback address was asked for without an API key."""


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a hostname or a wildcard: may be reachable from elsewhere


def check_bind(host: str, api_key: str | None) -> None:
    """Raise ``UnsafeBindError`` when ``host`` is reachable from elsewhere and no key is set."""
    if not is_loopback(host) and not api_key:
        raise UnsafeBindError(
            f"refusing to listen on {host!r} without an API key: anyone who can reach this "
            "address could read and act on the assistant's data. Pass --api-key KEY (or set "
            "BOTPSY_API_KEY), or bind 127.0.0.1."
        )


class ApiKeyGuard:
    """FastAPI dependency: 401 unless the request carries the configured bearer key."""

    def __init__(self, api_key: str | None) -> None:
        self._key = api_key.encode() if api_key else None

    async def __call__(self, credentials: BearerDep) -> None:
        if self._key is None:
            return
        if credentials is None:
            raise APIError(
                401,
                ErrorKind.invalid_api_key,
                "missing API key: send 'Authorization: Bearer KEY'",
            )
        if not secrets.compare_digest(credentials.credentials.encode(), self._key):
            raise APIError(401, ErrorKind.invalid_api_key, "incorrect API key")
