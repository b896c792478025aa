"""The thread count that follows the load: the rule, the pin, and the real /proc figures."""

from __future__ import annotations

import pytest

from botpsy.backends import cpu_share
from botpsy.backends.cpu_share import CpuSample, FreeCores, next_threads


def _after(waited: float, idle: float, wall: float = 1.0) -> tuple[CpuSample, CpuSample]:
    """Two samples ``wall`` seconds apart with ``waited`` and ``idle`` cores' worth in between."""
    return CpuSample(10.0, 5.0, 7.0), CpuSample(10.0 + wall, 5.0 + waited * wall, 7.0 + idle * wall)


@pytest.mark.parametrize(
    ("current", "waited", "idle", "expected"),
    [
        (2, 0.0, 0.0, 2),  # both threads ran, nothing idle: keep
        (2, 0.9, 0.0, 1),  # a thread waited for a core most of the time: one fewer
        (2, 0.35, 0.0, 1),  # a third of a core's waiting already costs the barrier
        (1, 0.6, 0.0, 1),  # never fewer than one
        (1, 0.0, 1.0, 2),  # a core stood idle: take it
        (1, 0.0, 0.5, 1),  # half a core idle is not a core
        (4, 0.0, 0.0, 4),
        (2, 0.0, 1.9, 2),  # never more than ``most``
        (4, 2.2, 0.0, 2),  # two cores' worth of waiting: two fewer
        (1, 0.0, 2.8, 2),
    ],
)
def test_threads_follow_the_waiting_and_the_idle_cores(current, waited, idle, expected):
    most = 2 if current <= 2 else 4
    assert next_threads(current, most, *_after(waited, idle)) == expected


def test_no_time_between_samples_changes_nothing():
    sample = CpuSample(1.0, 1.0, 1.0)
    assert next_threads(2, 2, sample, sample) == 2


def test_botpsy_threads_pins_the_count(monkeypatch):
    monkeypatch.setenv("BOTPSY_THREADS", "3")
    cores = FreeCores(8)
    monkeypatch.setattr(cpu_share, "take_sample", lambda: pytest.fail("the load was read"))
    assert cores.threads() == 3


@pytest.mark.parametrize("value", ["0", "two", "-1"])
def test_a_bad_botpsy_threads_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv("BOTPSY_THREADS", value)
    with pytest.raises(ValueError, match="BOTPSY_THREADS"):
        FreeCores(2)


def test_the_count_is_read_again_only_after_the_interval(monkeypatch):
    monkeypatch.delenv("BOTPSY_THREADS", raising=False)
    samples = {0.0: CpuSample(0.0, 0.0, 0.0), 0.06: CpuSample(0.06, 0.06, 0.0),
               0.4: CpuSample(0.4, 0.06, 0.34)}
    now = {"t": 0.0}

    def tick() -> float:
        return now["t"]

    monkeypatch.setattr(cpu_share.time, "monotonic", tick)
    monkeypatch.setattr(cpu_share, "take_sample", lambda: samples[now["t"]])
    cores = FreeCores(2)
    seen = []
    for t in [0.01, 0.06, 0.1, 0.4]:
        now["t"] = t
        seen.append(cores.threads())
    # 0.01: too soon; 0.06: first look, a whole core's worth waited -> 1; 0.1: within the
    # interval; 0.4: nobody waited and a core stood idle -> 2
    assert seen == [2, 1, 1, 2]


def test_the_real_figures_are_read_on_linux():
    sample = cpu_share.take_sample()
    if sample is None:
        pytest.skip("this kernel keeps no run delay")
    assert sample.waited_s >= 0 and sample.idle_s > 0
