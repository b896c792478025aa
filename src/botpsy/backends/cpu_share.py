"""How many threads llama.cpp should use right now: as many as the machine lets run.

Why: llama.cpp's threads meet at a barrier after every operation of the graph and
wait for each other there by spinning. When the machine has fewer free cores than
the model has threads, a thread spins on a core while the thread it waits for is
not running, and decode does not slow in proportion to the load, it collapses far
below its fair share (``benchmarks/contention.py`` measures it).
One thread never waits for another, so with the cores taken it gets its fair share;
with the cores free, two threads are faster than one. Neither a fixed count nor a
passive wait policy (which sleeps at every barrier and costs most of the free-CPU
speed) is right both ways, so the count follows what the scheduler gives.

How: every ``interval`` seconds (between llama_decode calls, never inside one) two
figures since the last look decide: how long this process's threads sat runnable
without a core (the kernel's run delay, /proc/self/task/*/schedstat), and how much
of the machine stood idle. Threads that waited for a core mean there are fewer
cores to be had: one thread fewer per core waited. Idle cores mean more are to be
had: one thread more per idle core. Counting other processes' CPU time instead would
be wrong both ways: work of lower priority yields its core, and with the kernel's
autogroups (most desktops) a niced process in another session does not.
``BOTPSY_THREADS`` pins the count (yesterday's behaviour, or a comparison); where the
kernel keeps no run delay (no /proc: macOS, Windows) the count stays at ``most``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

INTERVAL_S = 0.25
# The first look comes sooner: a prompt evaluated right after loading must not spend
# long on cores that are taken.
FIRST_LOOK_S = 0.05
# Threads that waited for a core this many cores' worth of the time (on average) are
# too many; an idle share of this much of a core is a core to be had.
WAITED = 0.3
IDLE = 0.75

_TASKS = Path("/proc/self/task")


def run_delay_s() -> float | None:
    """Seconds this process's threads have spent runnable but not running, all threads
    summed (field 2 of each schedstat); None where the kernel does not keep it."""
    total = 0
    try:
        for task in _TASKS.iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[1])
            except (FileNotFoundError, ProcessLookupError):
                continue  # a thread that ended meanwhile
    except (OSError, IndexError, ValueError):
        return None
    return total / 1e9


def idle_s() -> float:
    """Seconds the machine's cores have stood idle, all cores summed."""
    times = psutil.cpu_times()
    return times.idle + getattr(times, "iowait", 0.0)


@dataclass(frozen=True)
class CpuSample:
    """Cumulative figures at one moment: this process's run delay and the machine's idle time."""

    at: float
    waited_s: float
    idle_s: float


def take_sample() -> CpuSample | None:
    """The figures now, or None where the run delay is not kept."""
    waited = run_delay_s()
    return None if waited is None else CpuSample(time.monotonic(), waited, idle_s())


def next_threads(current: int, most: int, before: CpuSample, after: CpuSample) -> int:
    """The count for the next interval, from what ``current`` threads met between two samples."""
    wall = after.at - before.at
    if wall <= 0:
        return current
    waited = (after.waited_s - before.waited_s) / wall  # cores' worth of waiting
    idle = (after.idle_s - before.idle_s) / wall  # idle cores
    if waited >= WAITED:
        return max(1, current - max(1, round(waited)))
    if idle >= IDLE:
        return min(most, current + int(idle + (1 - IDLE)))
    return current


def pinned_threads() -> int | None:
    """``BOTPSY_THREADS`` as a positive int, or None when unset."""
    value = os.environ.get("BOTPSY_THREADS", "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"BOTPSY_THREADS must be a positive whole number, got {value!r}")
    return int(value)


class FreeCores:
    """The thread count to use now, re-read at most every ``interval`` seconds.

    ``most``: the count on a free machine (the cores, at most eight). With ``pinned``
    (or ``BOTPSY_THREADS``) the count is fixed and the load is never read."""

    def __init__(self, most: int, *, pinned: int | None = None, interval: float = INTERVAL_S) -> None:
        self.most = max(1, most)
        self.pinned = pinned if pinned is not None else pinned_threads()
        self.interval = interval
        self.current = self.pinned or self.most
        self._last = None if self.pinned else take_sample()
        self._looked = False

    def threads(self) -> int:
        """The count for the next llama_decode call."""
        if self._last is None:
            return self.current
        waited = time.monotonic() - self._last.at
        if waited < (self.interval if self._looked else FIRST_LOOK_S):
            return self.current
        sample = take_sample()
        if sample is None:
            return self.current
        self.current = next_threads(self.current, self.most, self._last, sample)
        self._last, self._looked = sample, True
        return self.current
