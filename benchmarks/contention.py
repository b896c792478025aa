"""Decode speed when the CPU is shared: does it slow in proportion, or collapse?

    .venv/bin/python benchmarks/contention.py [--model botpsy-smol] [--seconds 6] [--repeats 2]
        [--parallel 1] [--variant NAME=KEY=VALUE,KEY=VALUE ...]

A phone or a laptop always runs other things, and ``eval --parallel`` or a server runs
several decoders itself. Each case measures the decode speed (tok/s) of one new process
answering through botpsy's own llama.cpp backend, four ways, in one run: alone;
beside busy-looping processes on all cores but one; beside one other process decoding
the same way; beside two. With ``--parallel N`` every process is a
``BatchedLlamaCppBackend`` decoding N requests at once (a server, ``eval --parallel``),
and its speed is all their tokens together. Every process of a case runs one variant:

- ``fixed``: ``BOTPSY_THREADS`` = the cores (the thread count never changes: the
  behaviour before ``botpsy.backends.cpu_share``);
- ``shared``: what ships (the count follows the load);
- any ``--variant NAME=KEY=VALUE,...``: the environment of ``fixed`` plus these
  settings, e.g. ``passive=OMP_WAIT_POLICY=PASSIVE`` or
  ``noomp=PYTHONPATH=/tmp/llama-noomp`` (a llama-cpp-python built with
  ``-DGGML_OPENMP=OFF`` first on the path; a PYTHONPATH is put before the current one);
  ``BOTPSY_THREADS=`` (empty) lets such a variant's count follow the load.

Cases and variants alternate, ``--repeats`` times; the medians are printed, each case's
ratio to the same variant alone, its ratio to a fair share of the cores (one core of
the cores beside the busy loops, 1/(k+1) beside k decoders; target: at least 0.85 of it),
and each variant's speed alone against ``fixed`` alone (target for ``shared``: >= 0.95).
The exit code is 1 when ``shared`` misses a target.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

PROMPT = (
    "<|im_start|>user\nWrite a long story about a lighthouse keeper and a storm.<|im_end|>\n"
    "<|im_start|>assistant\n"
)
FAIR_TARGET = 0.85
ALONE_TARGET = 0.95


@dataclass(frozen=True)
class Case:
    """What runs beside the measured process: ``busy`` looping processes, ``decoders`` others."""

    name: str
    busy: int = 0
    decoders: int = 0

    def fair_share(self, cores: int) -> float:
        if self.busy:
            return max(1, cores - self.busy) / cores
        return 1 / (self.decoders + 1)


@dataclass
class Variant:
    """The environment every process of a case runs with."""

    name: str
    env: dict[str, str] = field(default_factory=dict)

    def environ(self) -> dict[str, str]:
        env = dict(os.environ)
        for key, value in self.env.items():
            env[key] = f"{value}{os.pathsep}{env[key]}" if key == "PYTHONPATH" and env.get(key) else value
        return env


def decode_worker(model: str, seconds: float) -> None:
    """Decode ``PROMPT`` again and again through ``LlamaCppBackend``; print "ready" once warm,
    then (``seconds`` > 0) one JSON line of the decode speed over that long, or run until killed."""
    from botpsy.backends.llamacpp import LlamaCppBackend
    from botpsy.backends.model_files import resolve_model
    from botpsy.types import GenerationParams

    ref = resolve_model(model)
    backend = LlamaCppBackend(ref.location, lora_path=ref.lora, n_ctx=1024)
    params = GenerationParams(max_tokens=96, temperature=0.0)
    list(backend.generate(PROMPT, params.model_copy(update={"max_tokens": 4})))  # prompt cached
    print("ready", flush=True)
    prompt_tokens = backend.count_tokens(PROMPT)
    tokens, decode_s = 0, 0.0
    end = time.monotonic() + seconds
    while seconds <= 0 or time.monotonic() < end:
        first = time.perf_counter()
        for n, _ in enumerate(backend.generate(PROMPT, params)):
            if n == 0:
                first = time.perf_counter()  # decoding starts after the first token
            if seconds > 0 and time.monotonic() >= end:
                break  # a collapsed decode must not hold the run for minutes
        decode_s += time.perf_counter() - first
        tokens += backend.llama.n_tokens - prompt_tokens  # each one evaluated since
    print(json.dumps({"tok_s": tokens / decode_s, "threads": backend.cores.current}), flush=True)


def batched_worker(model: str, seconds: float, parallel: int) -> None:
    """``decode_worker`` for ``BatchedLlamaCppBackend`` (the server's and ``eval --parallel``'s):
    ``parallel`` threads ask at once, each its own story; the speed is all their tokens
    (streamed pieces) over the wall time."""
    from concurrent.futures import ThreadPoolExecutor

    from botpsy.backends.model_files import load_text_backend, resolve_model
    from botpsy.types import GenerationParams

    backend = load_text_backend(resolve_model(model), parallel=parallel, n_ctx=1024)
    params = GenerationParams(max_tokens=96, temperature=0.0)
    prompts = [PROMPT.replace("a storm", f"storm number {i}") for i in range(parallel)]
    warm = params.model_copy(update={"max_tokens": 4})
    with ThreadPoolExecutor(parallel) as pool:
        list(pool.map(lambda p: list(backend.generate(p, warm)), prompts))
        print("ready", flush=True)
        start = time.monotonic()
        end = start + seconds

        def ask(prompt: str) -> int:
            count = 0
            while seconds <= 0 or time.monotonic() < end:
                for _ in backend.generate(prompt, params):
                    count += 1
                    if seconds > 0 and time.monotonic() >= end:
                        break
            return count

        total = sum(pool.map(ask, prompts))
    seconds_run, threads = time.monotonic() - start, backend.cores.current
    backend.close()  # its scheduler thread must not be decoding while the interpreter exits
    print(json.dumps({"tok_s": total / seconds_run, "threads": threads}), flush=True)


def _spawn(args: list[str], variant: Variant) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, *args], env=variant.environ(), stdout=subprocess.PIPE, text=True
    )


def measure(case: Case, variant: Variant, model: str, seconds: float, parallel: int) -> float:
    """Decode tok/s of a new process beside what ``case`` runs, all under ``variant``."""
    worker = [os.path.abspath(__file__), "--worker", "--model", model, "--parallel", str(parallel)]
    others = [_spawn(["-c", "while True: pass"], variant) for _ in range(case.busy)]
    decoders = [_spawn(worker, variant) for _ in range(case.decoders)]
    try:
        for proc in decoders:
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError(f"a decoding process failed to start ({variant.name})")
        time.sleep(1.0)  # let the others settle into their pace
        run = _spawn([*worker, "--seconds", str(seconds)], variant)
        out, _ = run.communicate()
        if run.returncode != 0:
            raise RuntimeError(f"the measured process failed ({variant.name}, {case.name})")
        return json.loads(out.splitlines()[-1])["tok_s"]
    finally:
        for proc in others + decoders:
            proc.kill()
            proc.wait()


def parse_variant(text: str) -> Variant:
    name, _, settings = text.partition("=")
    env = dict(pair.split("=", 1) for pair in settings.split(",") if pair)
    return Variant(name, {"BOTPSY_THREADS": str(os.cpu_count() or 1), **env})


def report(results: dict[tuple[str, str], list[float]], cases: list[Case], variants: list[Variant]) -> bool:
    """Print the medians and ratios; True when ``shared`` meets every target."""
    cores = os.cpu_count() or 1
    base = statistics.median(results[("fixed", "alone")])
    ok = True
    for variant in variants:
        alone = statistics.median(results[(variant.name, "alone")])
        check = variant.name == "shared"
        line = f"{variant.name}: alone {alone:.1f} tok/s = {alone / base:.2f}x fixed alone"
        if check:
            ok &= alone / base >= ALONE_TARGET
            line += f" (target >= {ALONE_TARGET})"
        print(line)
        for case in cases[1:]:
            tok_s = statistics.median(results[(variant.name, case.name)])
            ratio, fair = tok_s / alone, case.fair_share(cores)
            met = ratio >= FAIR_TARGET * fair
            ok &= met or not check
            print(
                f"  {case.name}: {tok_s:.1f} tok/s = {ratio:.3f}x alone, fair share {fair:.2f} -> "
                f"{ratio / fair:.2f} of fair (target >= {FAIR_TARGET})"
                + (f" {'OK' if met else 'MISSED'}" if check else "")
                + f"  [runs: {', '.join(f'{x:.1f}' for x in results[(variant.name, case.name)])}]"
            )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="botpsy-smol")
    parser.add_argument("--seconds", type=float, default=6.0, help="how long each measured process decodes")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--variant", action="append", default=[], help="NAME=KEY=VALUE,... (see above)")
    parser.add_argument("--parallel", type=int, default=1,
                        help="requests each process decodes at once (> 1: the batched backend)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        if args.parallel > 1:
            batched_worker(args.model, args.seconds, args.parallel)
        else:
            decode_worker(args.model, args.seconds)
        return 0
    cores = os.cpu_count() or 1
    cases = [Case("alone"), Case(f"beside {cores - 1} busy loop(s)", busy=cores - 1),
             Case("beside 1 decoder", decoders=1), Case("beside 2 decoders", decoders=2)]
    variants = [parse_variant("fixed"), Variant("shared"), *map(parse_variant, args.variant)]
    print(f"{cores} cores; model {args.model}; {args.parallel} request(s) per process; "
          f"{args.seconds:.0f} s per measurement, {args.repeats} repeats")
    results: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.repeats):
        for case in cases:
            for variant in variants:
                tok_s = measure(case, variant, args.model, args.seconds, args.parallel)
                results.setdefault((variant.name, case.name), []).append(tok_s)
    return 0 if report(results, cases, variants) else 1


if __name__ == "__main__":
    sys.exit(main())
