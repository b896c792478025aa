"""Time per request of the scope policy: the rules alone and the rules with the
multilingual classifier, side by side on the same requests.

    .venv/bin/python benchmarks/scope_latency.py [--repeats 5] [--requests 60]

Each run checks ``--requests`` requests of the safety set (every language); the
classifier is asked on every request (its worst case: in use it speaks only where
no rule matched). Target: rules + classifier under 20 ms per request.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from _common import interleaved, report_ratio

from botpsy.evals.safety_set import load_full_set
from botpsy.safety import ScopePolicy, classify
from botpsy.safety.classifier import ScopeClassifier


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--requests", type=int, default=60)
    args = parser.parse_args()

    items = load_full_set()
    texts = [i.text for i in items[:: max(1, len(items) // args.requests)]][: args.requests]
    policy, judge = ScopePolicy(), ScopeClassifier()

    def rules() -> None:
        for text in texts:
            policy.check_request(text)

    def rules_and_classifier() -> None:
        for text in texts:
            classify(text)
            judge.verdict(text)

    times = interleaved({"rules": rules, "both": rules_and_classifier}, args.repeats)
    per_request = statistics.median(times["both"]) / len(texts) * 1000
    print(f"{len(texts)} requests per run; rules + classifier: {per_request:.1f} ms per request "
          f"(target < 20 ms) {'OK' if per_request < 20 else 'MISSED'}")
    report_ratio("rules + classifier vs rules", times["both"], times["rules"], target=10.0)
    return 0 if per_request < 20 else 1


if __name__ == "__main__":
    sys.exit(main())
