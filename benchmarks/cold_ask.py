"""Wall time of a cold ``botpsy ask`` (a new process) on a demo store, before vs after, in one run.

    .venv/bin/python benchmarks/cold_ask.py [--before-src DIR] [--model botpsy-smol]
        [--before-model SPEC] [--repeats 1] [REQUEST ...]

Each ask is a new ``botpsy ask --json`` process on its own copy of one demo store (so an
earlier ask's reminder changes nothing), over the everyday requests, both sets
(``benchmarks/everyday_requests.py``), as a user would ask them: one after another, on
the real clock, each way keeping its own saved prompt states from ask to ask (emptied
once, after a warm-up ask that makes any requantized or folded model file).

- ``before``: the code under ``--before-src`` (a ``src`` folder of an earlier checkout,
  e.g. ``git worktree add /tmp/before <commit>``: ``--before-src /tmp/before/src``) on
  ``--before-model``; without it, this checkout with the state cache off.
- ``after``: this checkout on ``--model``, the state cache on.

The ways alternate request by request, so both meet the same machine. Printed per way:
median and p90 of the wall times, failed asks, and how many asks saved a new state (their
prompt start was not saved whole: a new tool set, a new day, or, in code that put the
minute in the system prompt, a new minute).
Target for ``after``: median <= 2.5 s, p90 <= 4 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from everyday_requests import SETS

REQUESTS = [request for requests in SETS.values() for request in requests]
DEMO_DAY = "2026-12-03"
SRC = Path(__file__).resolve().parents[1] / "src"


@dataclass(frozen=True)
class Way:
    """One way to run an ask: its label, the sources and model spec, its states folder."""

    label: str
    src: Path
    model: str
    states: Path
    cache: bool = True

    def env(self) -> dict[str, str]:
        return dict(os.environ, PYTHONPATH=str(self.src), BOTPSY_STATE_DIR=str(self.states),
                    BOTPSY_STATE_CACHE="1" if self.cache else "0")


@dataclass(frozen=True)
class Ask:
    """One timed ask: wall seconds, whether it saved a new state, whether it worked."""

    seconds: float
    saved: bool
    ok: bool


def run_ask(way: Way, request: str, template: Path) -> Ask:
    """Time one new ``botpsy ask`` process on a fresh copy of the demo store."""
    known = set(way.states.glob("*.kv"))
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "store"
        shutil.copytree(template, data)
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "botpsy.cli", "ask", request, "--model", way.model,
             "--data-dir", str(data), "--json"],
            env=way.env(), capture_output=True, text=True, check=False,
        )
        seconds = time.perf_counter() - start
    saved = bool(set(way.states.glob("*.kv")) - known)
    try:
        json.loads(proc.stdout)
    except ValueError:
        print(f"  {way.label}: ask failed: {proc.stderr.strip()[-300:]}", file=sys.stderr)
        return Ask(seconds, saved, False)
    return Ask(seconds, saved, proc.returncode == 0)


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("requests", nargs="*", help="default: the everyday requests, both sets")
    parser.add_argument("--before-src", type=Path, help="src folder of the code to compare against")
    parser.add_argument("--before-model", default="botpsy-smol", help="model spec of the before way")
    parser.add_argument("--model", default="botpsy-smol", help="model spec of the after way")
    parser.add_argument("--repeats", type=int, default=1)
    return parser.parse_args()


def report(ways: list[Way], results: dict[str, list[Ask]]) -> bool:
    """Print each way's figures; True when ``after`` meets the target."""
    ok = False
    for way in ways:
        asks = results[way.label]
        times = [a.seconds for a in asks]
        median, tail = statistics.median(times), p90(times)
        print(f"{way.label} ({way.model}, {way.src}{'' if way.cache else ', no saved states'}): "
              f"median {median:.2f} s, p90 {tail:.2f} s; failed {sum(not a.ok for a in asks)}, "
              f"saved a new state {sum(a.saved for a in asks)} of {len(asks)}; "
              f"runs {', '.join(f'{t:.1f}' for t in times)}")
        if way.label == "after":
            ok = median <= 2.5 and tail <= 4.0
    return ok


def main() -> int:
    args = parse_args()
    requests = args.requests or REQUESTS
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ways = [Way("before", (args.before_src or SRC).resolve(), args.before_model, root / "before",
                    cache=args.before_src is not None),
                Way("after", SRC, args.model, root / "after")]
        template = root / "demo"
        subprocess.run([sys.executable, "-m", "botpsy.cli", "init", "--demo", "--data-dir", str(template),
                        "--today", DEMO_DAY], check=True, capture_output=True, env=ways[1].env())
        for way in ways:  # a requantized or folded model is made once, outside the clock
            run_ask(way, "hello", template)
            shutil.rmtree(way.states, ignore_errors=True)
        results: dict[str, list[Ask]] = {way.label: [] for way in ways}
        for _ in range(args.repeats):
            for request in requests:
                for way in ways:
                    results[way.label].append(run_ask(way, request, template))
    print(f"cold `botpsy ask`, {len(requests)} requests x {args.repeats}, one after another")
    ok = report(ways, results)
    print(f"target for after, median <= 2.5 s and p90 <= 4 s: {'OK' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
