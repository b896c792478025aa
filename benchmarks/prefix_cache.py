"""KV-cache reuse across requests that share the tool preamble.

    .venv/bin/python benchmarks/prefix_cache.py [--repeats 5]

Every assistant request starts with the same system prompt and tool schemas
(about 1.5k tokens for the full toolbox). The llama.cpp backend keeps the KV cache
of the previous prompt, so a second request only evaluates its new suffix. Cold:
cache cleared before the request; warm: the previous request shared the preamble
but had a different user turn. Target: warm / cold time to first token <= 0.2.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile

from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.llamacpp import LlamaCppBackend
from botpsy.backends.model_files import default_model_path
from botpsy.formats import get_format
from botpsy.types import GenerationParams, Message

QUESTIONS = [
    "What is on my calendar tomorrow?",
    "Remind me to buy milk at 6pm.",
    "Did Anna email me about the budget?",
    "Find my notes about the garden.",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--preamble", type=int, default=1500, help="tool preamble size in tokens")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        every = [t.spec for t in assistant_tools(AssistantStore(tmp))]
    backend = LlamaCppBackend(default_model_path(), n_ctx=4096, n_threads=2)
    model = FormattedChatModel(backend, get_format("hermes"))
    system = Message(role="system", content="You are a helpful on-device assistant.")
    params = GenerationParams(max_tokens=1)

    def preamble_tokens(specs) -> int:
        return backend.count_tokens(model.format.render([system], specs, add_generation_prompt=False))

    # The first tools of the toolbox up to a ~1.5k-token preamble (the setting).
    count = next((n for n in range(1, len(every) + 1) if preamble_tokens(every[:n]) >= args.preamble), len(every))
    specs = every[:count]
    preamble = preamble_tokens(specs)
    print(f"tool preamble: {len(specs)} tools, {preamble} tokens")

    cold, warm, cached = [], [], []
    for i in range(args.repeats):
        question = QUESTIONS[i % len(QUESTIONS)]
        other = QUESTIONS[(i + 1) % len(QUESTIONS)]
        backend.llama.reset()
        first = model.complete([system, Message(role="user", content=question)], specs, params)
        second = model.complete([system, Message(role="user", content=other)], specs, params)
        cold.append(first.timings.ttft_s)
        warm.append(second.timings.ttft_s)
        cached.append(second.usage.cached_tokens)
    ratio = statistics.median(warm) / statistics.median(cold)
    print(
        f"time to first token: cold {statistics.median(cold) * 1000:.0f} ms, warm "
        f"{statistics.median(warm) * 1000:.0f} ms ({statistics.median(cached):.0f} tokens reused) "
        f"-> ratio {ratio:.3f} (target <= 0.2) {'OK' if ratio <= 0.2 else 'MISSED'}"
    )
    return 0 if ratio <= 0.2 else 1


if __name__ == "__main__":
    sys.exit(main())
