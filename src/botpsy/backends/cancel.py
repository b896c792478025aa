"""Stopping a generation from outside while the model is still reading its prompt.

A stream can be stopped between the tokens it yields (the server closes it), but
a long prompt's prefill runs before the first token: seconds of CPU during which
a request that timed out, or whose client left, still holds the only model. The
thread that runs a generation installs its cancel flag with ``cancel_scope``;
backends call ``check_cancelled`` between prompt chunks, which raises
``GenerationCancelled`` once the flag is set. Thread-local, because a model runs
one generation per thread and the flag belongs to the job on that thread.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_local = threading.local()


class GenerationCancelled(BaseException):
    """The job's cancel flag was set while its prompt was being evaluated.

    A ``BaseException``, like ``GeneratorExit``: layers that turn backend errors into
    an answer (the agent's "model error" turn) must let it through to the worker."""


@contextmanager
def cancel_scope(flag: threading.Event) -> Iterator[None]:
    """Generations on this thread stop at their next prompt chunk once ``flag`` is set."""
    previous = getattr(_local, "flag", None)
    _local.flag = flag
    try:
        yield
    finally:
        _local.flag = previous


def check_cancelled() -> None:
    """Raise ``GenerationCancelled`` if this thread's job was cancelled (no scope: never)."""
    flag = getattr(_local, "flag", None)
    if flag is not None and flag.is_set():
        raise GenerationCancelled("the request was cancelled during prompt evaluation")
