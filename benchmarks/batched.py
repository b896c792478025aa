"""Batched llama.cpp decoding against one request at a time, side by side in one run.

    .venv/bin/python benchmarks/batched.py [--model smollm2:q8_0] [--parallel 8] [--cases 32]

An evaluation asks hundreds of independent questions. ``LlamaCppBackend`` answers
them one after another; ``BatchedLlamaCppBackend`` lets ``--parallel`` threads ask at
once and decodes their tokens in shared ``llama_decode`` calls. Both answer the
same BFCL-shaped prompts (a tool schema and a request, greedy, 64-token budget, the
early-stop probe size) with the same model. Prints the wall times, the ratio
batched / sequential and how many answers came out identical: all of them, since both
backends evaluate prompts the same way (``botpsy.backends.llamacpp``); the exit code is
1 when one differs or batching is not faster. A second row measures grammar-constrained
answers, where the batched backend also checks the grammar on the chosen token first.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from botpsy.backends.llamacpp import LlamaCppBackend
from botpsy.backends.llamacpp_batched import BatchedLlamaCppBackend
from botpsy.backends.model_files import resolve_model
from botpsy.formats import get_format
from botpsy.types import GenerationParams, Message, ToolSpec

CITIES = ["Paris", "Lima", "Oslo", "Kyoto", "Quito", "Accra", "Perth", "Turin"]


def _prompts(n: int) -> list[str]:
    """BFCL-like single-turn prompts: one tool schema, one request, the hermes format."""
    fmt = get_format("hermes")
    tool = ToolSpec(
        name="get_forecast",
        description="Weather forecast for a city over the next days.",
        parameters={
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name."},
                "days": {"type": "integer", "description": "Number of days, 1 to 10."},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city", "days"],
        },
    )
    return [
        fmt.render(
            [Message(role="user", content=f"What will the weather be in {CITIES[i % 8]} for the "
                                          f"next {i % 9 + 1} days? Question {i}.")],
            [tool],
        )
        for i in range(n)
    ]


def _run(backend, prompts: list[str], params: GenerationParams, grammar: str | None,
         threads: int) -> tuple[float, list[str]]:
    def ask(prompt: str) -> str:
        return "".join(chunk.text for chunk in backend.generate(prompt, params, grammar))

    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        texts = list(pool.map(ask, prompts))
    return time.perf_counter() - start, texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default="smollm2:q8_0")
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--cases", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2, help="llama.cpp threads")
    args = parser.parse_args()
    ref = resolve_model(args.model)
    prompts = _prompts(args.cases)
    grammar = r'''root ::= "<tool_call>\n{\"name\": \"get_forecast\", \"arguments\": {\"city\": \"" [A-Za-z ]+ "\", \"days\": " [0-9]+ "}}\n</tool_call>"'''
    one = LlamaCppBackend(ref.location, lora_path=ref.lora, n_ctx=1024, n_threads=args.threads)
    many = BatchedLlamaCppBackend(ref.location, lora_path=ref.lora, n_ctx=1024,
                                  n_threads=args.threads, parallel=args.parallel)
    params = GenerationParams(max_tokens=64)
    print(f"{args.model}: {args.cases} prompts, {args.parallel} at once, {args.threads} threads")
    ratios, differ = [], 0
    for label, constraint, cases in (("free", None, prompts),
                                     ("grammar", grammar, prompts[: max(4, args.cases // 4)])):
        seq_s, seq = _run(one, cases, params, constraint, threads=1)
        bat_s, bat = _run(many, cases, params, constraint, threads=args.parallel)
        same = sum(a == b for a, b in zip(seq, bat))
        differ += len(cases) - same
        ratios.append(bat_s / seq_s)
        print(f"{label:8s} one at a time {seq_s:6.1f} s, batched {bat_s:6.1f} s -> ratio "
              f"{bat_s / seq_s:.2f} ({seq_s / bat_s:.2f}x); identical answers {same}/{len(cases)}")
    many.close()
    one.close()
    return 0 if ratios[0] < 1 and not differ else 1


if __name__ == "__main__":
    sys.exit(main())
