"""Binding rules: loopback is open, anything else needs a key (long enough), refused at
start-up; the Host and Origin rules of ``HostOriginGuard``."""

from __future__ import annotations

import pytest
from starlette.datastructures import Headers

from botpsy.server.app import create_app
from botpsy.server.auth import (
    ANY_HOST,
    MIN_API_KEY_CHARS,
    HostOriginGuard,
    UnsafeBindError,
    allowed_hosts_for,
    check_bind,
    is_loopback,
)

from .helpers import scripted_model


@pytest.mark.parametrize("host", ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"])
def test_loopback_addresses(host):
    assert is_loopback(host)
    check_bind(host, None)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "example.org", ""])
def test_other_addresses_need_a_key(host):
    assert not is_loopback(host)
    with pytest.raises(UnsafeBindError, match="--api-key"):
        check_bind(host, None)
    check_bind(host, "a-key-long-enough-to-pass")


@pytest.mark.parametrize("key", ["k", "s3cret", "x" * (MIN_API_KEY_CHARS - 1)])
def test_short_keys_are_refused_naming_the_minimum(key):
    with pytest.raises(UnsafeBindError, match=f"at least {MIN_API_KEY_CHARS}"):
        check_bind("127.0.0.1", key)
    with pytest.raises(UnsafeBindError, match=f"at least {MIN_API_KEY_CHARS}"):
        create_app(scripted_model([]), api_key=key)


def test_a_long_enough_key_is_accepted():
    check_bind("0.0.0.0", "x" * MIN_API_KEY_CHARS)


@pytest.mark.parametrize(("bind", "extra", "expected"), [
    ("127.0.0.1", (), {"127.0.0.1", "localhost", "::1"}),
    ("[::1]", (), {"127.0.0.1", "localhost", "::1"}),
    ("192.168.1.20", ("Box.lan",), {"192.168.1.20", "box.lan"}),
    ("0.0.0.0", (), {ANY_HOST}),
])
def test_allowed_hosts_follow_the_bind(bind, extra, expected):
    assert set(allowed_hosts_for(bind, extra)) == expected


@pytest.mark.parametrize(("headers", "status"), [
    ({"host": "127.0.0.1:8000"}, None),
    ({"host": "localhost"}, None),
    ({"host": "[::1]:8000"}, None),
    ({"host": "LOCALHOST:8000", "origin": "http://localhost:8000"}, None),
    ({"host": "evil.example:8000"}, 400),
    ({"host": "127.0.0.1.evil.example"}, 400),
    ({"host": "127.0.0.1:notaport"}, 400),
    ({}, 400),
    ({"host": "127.0.0.1:8000", "origin": "http://evil.example"}, 403),
    ({"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:9999"}, 403),
    ({"host": "127.0.0.1:8000", "origin": "null"}, 403),
])
def test_host_and_origin_rules(headers, status):
    guard = HostOriginGuard(None, allowed_hosts_for("127.0.0.1"))
    refusal = guard.refusal(Headers(headers))
    assert (refusal.status if refusal else None) == status
