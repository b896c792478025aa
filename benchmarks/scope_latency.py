"""Time per request of the scope policy, the rules alone and with each multilingual
classifier (the sentence encoder, "use", the character n-gram one, "ngram", and the mean
of both, "mean"), side by side on the same requests; and what each classifier adds to a
cold start (a new process: imports, weights, the first request).

    .venv/bin/python benchmarks/scope_latency.py [--repeats 3] [--cold 3]

Per request: every request of the frozen test set, each route timed on it in turn
(median and p90, wall clock); each classifier is timed as used (asked only where no
rule matched) and alone on every request (its worst case). Target: under 20 ms per
request. Cold: ``--cold`` fresh processes per route, the routes alternating, each
importing the policy and deciding one request.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

from botpsy.evals.safety_set import Split, load_full_set
from botpsy.safety import SafetyConfig, ScopePolicy
from botpsy.safety.config import ClassifierModel

# prints two numbers: seconds from the first import to the first decision, and of those
# the seconds from building the policy (where a classifier loads) to the decision
COLD = ("import time; t = time.perf_counter(); from botpsy.safety import SafetyConfig, ScopePolicy; "
        "p = time.perf_counter(); ScopePolicy(SafetyConfig(scope_classifier={on}, "
        "scope_classifier_model='{model}')).check_request('Do I have any unread emails?'); "
        "e = time.perf_counter(); print(e - t, e - p)")
# route -> (classifier on, which)
COLD_ROUTES = {"rules": (False, "use"), **{f"rules + {m.value}": (True, m.value)
                                           for m in ClassifierModel}}


def per_request(repeats: int) -> dict[str, list[float]]:
    """Milliseconds per request for each route, the routes interleaved per request."""
    texts = [i.text for i in load_full_set() if i.split is Split.test]
    routes = {"rules": ScopePolicy(SafetyConfig(scope_classifier=False)).check_request}
    for model in ClassifierModel:
        both = ScopePolicy(SafetyConfig(scope_classifier=True, scope_classifier_model=model))
        both.check_request("warm up: the weights load here")
        routes[f"rules + {model.value}"] = both.check_request
        routes[f"{model.value} on every request"] = both.classifier.verdict
    times: dict[str, list[float]] = {name: [] for name in routes}
    for _ in range(repeats):
        for text in texts:
            for name, decide in routes.items():
                start = time.perf_counter()
                decide(text)
                times[name].append((time.perf_counter() - start) * 1000)
    return times


@dataclass(frozen=True)
class ColdStart:
    """One new process: from its first import to its first decision, and the part of
    that spent building the policy and deciding (where a classifier loads its weights;
    less noisy than the difference of two totals)."""

    total: float
    policy: float


def cold_starts(runs: int) -> dict[str, list[ColdStart]]:
    """``runs`` new processes per route, the routes alternating."""
    times: dict[str, list[ColdStart]] = {name: [] for name in COLD_ROUTES}
    for _ in range(runs):
        for name, (on, model) in COLD_ROUTES.items():
            out = subprocess.run([sys.executable, "-c", COLD.format(on=on, model=model)],
                                 check=True, capture_output=True, text=True).stdout
            total, policy = map(float, out.split())
            times[name].append(ColdStart(total=total, policy=policy))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cold", type=int, default=3)
    args = parser.parse_args()
    slowest = 0.0
    for name, ms in per_request(args.repeats).items():
        ms.sort()
        p90 = ms[int(0.9 * (len(ms) - 1))]
        slowest = max(slowest, statistics.median(ms))
        print(f"{name}: median {statistics.median(ms):.2f} ms, p90 {p90:.2f} ms per request "
              f"({len(ms)} timed)")
    for name, starts in cold_starts(args.cold).items():
        print(f"cold start, {name} (median of {args.cold}): "
              f"{statistics.median(s.total for s in starts):.3f} s from the first import, of which "
              f"{1000 * statistics.median(s.policy for s in starts):.1f} ms building the policy "
              "and deciding")
    print(f"target < 20 ms per request: {'OK' if slowest < 20 else 'MISSED'}")
    return 0 if slowest < 20 else 1


if __name__ == "__main__":
    sys.exit(main())
