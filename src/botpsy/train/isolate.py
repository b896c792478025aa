"""Run one recipe step in a fresh process, so its memory ends with it.

Why: a whole ``smol`` recipe in one process was killed for memory twice in DAPO round 2
(24 GB RSS on a 23 GB machine, where the same stage alone peaks near 13 GB): Python,
PyTorch and glibc keep freed heap and caches that ``release_memory`` cannot all hand back.
A spawned child per stage starts clean and returns everything to the OS when it exits.
Spawn, not fork: a forked child would inherit the parent's heap and torch's thread pools.
The child dies with its parent (Linux ``PR_SET_PDEATHSIG``): a recipe stopped with Ctrl-C
or ``kill`` must not leave a stage training on, writing into the run's folders.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

T = TypeVar("T")


_PR_SET_PDEATHSIG = 1


class StageProcessDied(RuntimeError):
    """The child process ended without a result (killed for memory, most likely)."""


def die_with_parent(parent: int) -> None:
    """In the child: ask the kernel for SIGTERM when the parent dies, and exit at once if it
    already has (the request only covers deaths after it). Elsewhere than Linux a no-op."""
    if not sys.platform.startswith("linux"):
        return
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:
        os._exit(1)


def run_isolated(fn: Callable[..., T], *args: object, label: str = "") -> T:
    """``fn(*args)`` in a new spawned process; its result (or its exception) comes back.

    ``fn`` and ``args`` must be picklable (module-level functions, dataclass configs). A
    child killed from outside (the OOM killer's SIGKILL) raises ``StageProcessDied`` with
    the way to resume, instead of a bare ``BrokenProcessPool``.
    """
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=1, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
    ) as pool:
        future = pool.submit(fn, *args)
        try:
            return future.result()
        except BrokenProcessPool as exc:
            name = label or getattr(fn, "__qualname__", repr(fn))
            raise StageProcessDied(
                f"the process running {name} died without a result (killed for memory?); "
                "what it saved is kept: re-run the same command to resume from its newest "
                "checkpoint"
            ) from exc
