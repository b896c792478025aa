"""Wall time of a cold ``botpsy ask`` (a new process) on a demo store, before vs after, in one run.

    .venv/bin/python benchmarks/cold_ask.py [--repeats 1] [--model botpsy-smol:q4_1]
        [--after-model botpsy-smol] [REQUEST ...]

Each ask is a new ``botpsy ask --json`` process on its own copy of one demo store (so an
earlier ask's reminder changes nothing), over the everyday requests
(``benchmarks/everyday_requests.py``). Three ways, alternating request by request:

- ``before``: ``--model`` (default: botpsy-smol on the shipped Q4_1, the default until
  the Q8_0 base) with no saved state (``BOTPSY_STATE_CACHE=0``): the whole prompt is evaluated;
- ``after, none saved``: the state cache on, its folder emptied first: evaluates, then
  saves the state of the system turn and tools;
- ``after, saved``: the same ask again: a new process that finds that state.

The system prompt carries the time to the minute, so a state saved by one ask is found
by the next one only while the minute and the tools chosen for the request are the same;
``after, saved`` therefore measures what the cache gives when it hits; how many of its
asks found no state (and saved one: the minute had turned) is printed beside it.
Both ``after`` ways run ``--after-model`` (default: botpsy-smol as it ships, on Q8_0).
Prints the median and p90 of each; target for the best ``after``: median <= 2.5 s,
p90 <= 4 s.
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

from everyday_requests import REQUESTS

BOTPSY = [sys.executable, "-m", "botpsy.cli"]
DEMO_DAY = "2026-12-03"


@dataclass(frozen=True)
class Way:
    """One way to run an ask: a label, the model spec, whether states are on and kept."""

    label: str
    model: str
    cache: bool
    keep_states: bool


@dataclass(frozen=True)
class Ask:
    """One timed ask: wall seconds, whether it wrote a new state (it found none), whether it worked."""

    seconds: float
    saved: bool
    ok: bool


def run_ask(way: Way, request: str, template: Path, states: Path) -> Ask:
    """Time one new ``botpsy ask`` process on a fresh copy of the demo store."""
    env = dict(os.environ, BOTPSY_STATE_CACHE="1" if way.cache else "0")
    env["BOTPSY_STATE_DIR"] = str(states)
    if way.cache and not way.keep_states:
        shutil.rmtree(states, ignore_errors=True)
    known = set(states.glob("*.kv"))
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "store"
        shutil.copytree(template, data)
        start = time.perf_counter()
        proc = subprocess.run(
            [*BOTPSY, "ask", request, "--model", way.model, "--data-dir", str(data), "--json"],
            env=env, capture_output=True, text=True, check=False,
        )
        seconds = time.perf_counter() - start
    saved = bool(set(states.glob("*.kv")) - known)
    try:
        json.loads(proc.stdout)
    except ValueError:
        print(f"  {way.label}: ask failed: {proc.stderr.strip()[-300:]}", file=sys.stderr)
        return Ask(seconds, saved, False)
    return Ask(seconds, saved, proc.returncode == 0)


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("requests", nargs="*", help="default: the everyday requests")
    parser.add_argument("--model", default="botpsy-smol:q4_1", help="model spec of the before way")
    parser.add_argument("--after-model", default="botpsy-smol", help="model spec of the after ways")
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    after = args.after_model
    ways = [Way("before", args.model, False, False), Way("after, none saved", after, True, False),
            Way("after, saved", after, True, True)]
    requests = args.requests or REQUESTS
    with tempfile.TemporaryDirectory() as tmp:
        template, states = Path(tmp) / "demo", Path(tmp) / "states"
        subprocess.run([*BOTPSY, "init", "--demo", "--data-dir", str(template), "--today", DEMO_DAY],
                       check=True, capture_output=True)
        for way in ways[1:]:  # a requantized model is made once, outside the clock
            run_ask(way, requests[0], template, states)
        results: dict[str, list[Ask]] = {way.label: [] for way in ways}
        for _ in range(args.repeats):
            for request in requests:
                for way in ways:
                    results[way.label].append(run_ask(way, request, template, states))
    print(f"cold `botpsy ask`, {len(requests)} requests x {args.repeats}; model {args.model}"
          + (f", after: {after}" if after != args.model else ""))
    best = None
    for way in ways:
        asks = results[way.label]
        times = [a.seconds for a in asks]
        median, tail = statistics.median(times), p90(times)
        best = min(best or (median, tail), (median, tail))
        print(f"{way.label}: median {median:.2f} s, p90 {tail:.2f} s; failed {sum(not a.ok for a in asks)}, "
              f"found no state {sum(a.saved for a in asks) if way.cache else '-'} of {len(asks)}; "
              f"runs {', '.join(f'{t:.1f}' for t in times)}")
    ok = best[0] <= 2.5 and best[1] <= 4.0
    print(f"target median <= 2.5 s, p90 <= 4 s: {'OK' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
