"""Who may talk to the server: loopback-only by default, a bearer key otherwise.

The assistant behind this server reads the user's mail and can send it, so a
server reachable from the network without a key would hand the user's data to
anyone on the LAN. ``check_bind`` refuses that combination at start-up (and keys
shorter than ``MIN_API_KEY_CHARS``), and ``ApiKeyGuard`` checks
``Authorization: Bearer KEY`` (what the OpenAI clients send) in constant time.

A loopback server without a key is still reachable from the user's browser, so
``HostOriginGuard`` answers only requests whose ``Host`` names the bound address
(a site that makes its own name resolve to 127.0.0.1, "DNS rebinding", sends its
own name and is refused) and whose ``Origin``, when a browser sends one, is the
server itself (another site's page cannot post to it).
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Iterable
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from botpsy.server.errors import APIError, ErrorKind

_bearer = HTTPBearer(auto_error=False, description="the key given to `botpsy serve --api-key`")
BearerDep = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


MIN_API_KEY_CHARS = 16
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
ANY_HOST = "*"
_WILDCARD_BINDS = {"0.0.0.0", "::", ""}


class UnsafeBindError(ValueError):
    """A non-loopback address was asked for without an API key, or the key is too short."""


def check_api_key(api_key: str | None) -> None:
    """Raise ``UnsafeBindError`` for a key short enough to guess."""
    if api_key is not None and len(api_key) < MIN_API_KEY_CHARS:
        raise UnsafeBindError(
            f"the API key is {len(api_key)} characters long; it must have at least "
            f"{MIN_API_KEY_CHARS}. Make one with: python -c \"import secrets; "
            "print(secrets.token_urlsafe(24))\""
        )


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a hostname or a wildcard: may be reachable from elsewhere


def check_bind(host: str, api_key: str | None) -> None:
    """Raise ``UnsafeBindError`` when ``host`` is reachable from elsewhere and no key is
    set, or when the key is too short."""
    check_api_key(api_key)
    if not is_loopback(host) and not api_key:
        raise UnsafeBindError(
            f"refusing to listen on {host!r} without an API key: anyone who can reach this "
            "address could read and act on the assistant's data. Pass --api-key KEY (or set "
            "BOTPSY_API_KEY), or bind 127.0.0.1."
        )


class ApiKeyGuard:
    """FastAPI dependency: 401 unless the request carries the configured bearer key."""

    def __init__(self, api_key: str | None) -> None:
        check_api_key(api_key)
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


def allowed_hosts_for(bind: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The ``Host`` names a server bound to ``bind`` answers to: the loopback names for
    a loopback address, the address itself for another one, any name (``ANY_HOST``)
    for a wildcard bind, which needs a key anyway; plus the ``extra`` names."""
    bind = bind.strip().strip("[]").lower()
    if is_loopback(bind):
        base: tuple[str, ...] = (*LOOPBACK_NAMES, bind)
    elif bind in _WILDCARD_BINDS:
        base = (ANY_HOST,)
    else:
        base = (bind,)
    return tuple(dict.fromkeys([*base, *(name.strip().strip("[]").lower() for name in extra)]))


def _hostname(authority: str) -> str | None:
    """The host of a ``Host`` header value (``name[:port]``, ``[v6][:port]``), lower-cased."""
    try:
        parts = urlsplit(f"//{authority}")
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        return None
    return parts.hostname or None


class HostOriginGuard:
    """ASGI middleware: 400 for a ``Host`` the server does not answer to, 403 for a
    browser request whose ``Origin`` is another site (module docstring)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = LOOPBACK_NAMES) -> None:
        self.app = app
        self.allowed = frozenset(allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            refusal = self.refusal(Headers(scope=scope))
            if refusal is not None:
                if scope["type"] == "http":
                    await refusal.response()(scope, receive, send)
                else:
                    await send({"type": "websocket.close", "code": 1008})
                return
        await self.app(scope, receive, send)

    def refusal(self, headers: Headers) -> APIError | None:
        """Why a request with these headers is refused, or None."""
        host = headers.get("host", "")
        name = _hostname(host)
        if name is None or (ANY_HOST not in self.allowed and name not in self.allowed):
            return APIError(
                400, ErrorKind.invalid_host,
                f"this server does not answer to the host {host!r}; it answers to "
                f"{', '.join(sorted(self.allowed))}. (A page from another site that resolves "
                "to this address is refused; start the server with --allowed-host NAME to "
                "add a name.)",
            )
        origin = headers.get("origin")
        if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
            return APIError(
                403, ErrorKind.forbidden_origin,
                f"requests from pages of {origin!r} are refused: only this server's own page "
                f"may call it (origin http://{host}).",
            )
        return None
