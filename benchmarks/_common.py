"""Helpers shared by the benchmark scripts: interleaved timing and ratio printing.

Benchmarks here measure two things side by side in one run, alternating them, and
print the ratio of medians: these machines are noisy, so absolute times from
different runs are not comparable, ratios from one run are.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def interleaved(fns: dict[str, Callable[[], object]], repeats: int, warmup: int = 1) -> dict[str, list[float]]:
    """Run each function ``repeats`` times, alternating between them; seconds per run."""
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def report_ratio(label: str, num: list[float], den: list[float], target: float, lower_is_better: bool = True) -> bool:
    """Print medians and their ratio against a target; True when the target is met."""
    ratio = statistics.median(num) / statistics.median(den)
    ok = ratio <= target if lower_is_better else ratio >= target
    print(
        f"{label}: {statistics.median(num) * 1000:.1f} ms vs {statistics.median(den) * 1000:.1f} ms "
        f"(median of {len(num)}) -> ratio {ratio:.3f} (target {'<=' if lower_is_better else '>='} {target}) "
        f"{'OK' if ok else 'MISSED'}"
    )
    return ok
