"""Binding rules: loopback is open, anything else needs a key, refused at start-up."""

from __future__ import annotations

import pytest

from botpsy.server.auth import UnsafeBindError, check_bind, is_loopback


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
