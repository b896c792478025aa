"""Time per request of the scope policy, the rules alone and with each multilingual
classifier (the sentence encoder, "use", and the character n-gram one, "ngram"), side
by side on the same requests; and what each classifier adds to a cold start (a new
process: imports, weights, the first request).

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

from botpsy.evals.safety_set import Split, load_full_set
from botpsy.safety import SafetyConfig, ScopePolicy
from botpsy.safety.config import ClassifierModel

COLD = ("import time; t = time.perf_counter(); from botpsy.safety import SafetyConfig, ScopePolicy; "
        "ScopePolicy(SafetyConfig(scope_classifier={on}, scope_classifier_model='{model}'))"
        ".check_request('Do I have any unread emails?'); print(time.perf_counter() - t)")
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


def cold_starts(runs: int) -> dict[str, list[float]]:
    """Seconds from a new process's first import to its first decision."""
    times: dict[str, list[float]] = {name: [] for name in COLD_ROUTES}
    for _ in range(runs):
        for name, (on, model) in COLD_ROUTES.items():
            out = subprocess.run([sys.executable, "-c", COLD.format(on=on, model=model)],
                                 check=True, capture_output=True, text=True).stdout
            times[name].append(float(out))
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
    cold = {name: statistics.median(s) for name, s in cold_starts(args.cold).items()}
    print(f"cold start (median of {args.cold}): rules {cold['rules']:.3f} s", *(
        f"{name} {s:.3f} s (adds {s - cold['rules']:.3f} s)" for name, s in cold.items()
        if name != "rules"), sep="; ")
    print(f"target < 20 ms per request: {'OK' if slowest < 20 else 'MISSED'}")
    return 0 if slowest < 20 else 1


if __name__ == "__main__":
    sys.exit(main())
