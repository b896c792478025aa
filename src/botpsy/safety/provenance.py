"""The origin that new and changed items are stored with: taint follows the data.

A note written while a stranger's email was in view may carry that stranger's
words, even when the user confirmed it; read back later, it must taint the turn
like the email would. So whoever runs a call (the agent's pipeline, the MCP
server) says what the call's taint is with ``writing_as``, and the stores read
``write_origin()`` when they insert or change an item. Outside any call (the
user's own import, the demo, a test) items are the user's own unless the caller
says otherwise.

Context variables follow the call into ``asyncio.to_thread`` and tasks, so an
MCP tool running in a worker thread still sees its call's origin.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from botpsy.types import Origin

_WRITE_ORIGIN: ContextVar[Origin] = ContextVar("botpsy_write_origin", default=Origin.user)


def write_origin() -> Origin:
    """The origin that a write made now records."""
    return _WRITE_ORIGIN.get()


@contextmanager
def writing_as(origin: Origin) -> Iterator[Origin]:
    """Within the block, items written record ``origin``."""
    token = _WRITE_ORIGIN.set(origin)
    try:
        yield origin
    finally:
        _WRITE_ORIGIN.reset(token)


def origin_for(tainted: bool) -> Origin:
    """What a call's writes record: third-party when untrusted data was in view."""
    return Origin.third_party if tainted else Origin.user


def merged(old: str | Origin, new: Origin) -> Origin:
    """The origin of an item changed by a write: once a stranger's text may be in it,
    it stays third-party (a trusted edit cannot launder it)."""
    if Origin(old) is Origin.third_party:
        return Origin.third_party
    return new
