"""botpsy's overhead over raw llama-cpp-python: the same prompt and token budget both ways.

    .venv/bin/python benchmarks/overhead.py [--repeats 7] [--max-tokens 64]

botpsy path: render the messages with the model's format, stream through
LlamaCppBackend, parse into a Completion with timings. Raw path: the same prompt
string straight to ``Llama.create_completion``. The KV cache is cleared before
every run so that both pay the full prefill. Target: ratio <= 1.05.
"""

from __future__ import annotations

import argparse
import sys

from _common import interleaved, report_ratio

from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.llamacpp import LlamaCppBackend
from botpsy.backends.model_files import default_model_path
from botpsy.formats import get_format
from botpsy.types import GenerationParams, Message


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--max-tokens", type=int, default=64)
    args = parser.parse_args()

    backend = LlamaCppBackend(default_model_path(), n_ctx=2048, n_threads=2)
    model = FormattedChatModel(backend, get_format("hermes"))
    messages = [Message(role="user", content="Write a short story about a robot who learns to paint.")]
    prompt = model.format.render(messages, None)
    params = GenerationParams(max_tokens=args.max_tokens)
    outputs: dict[str, str] = {}

    def botpsy_run() -> None:
        backend.llama.reset()
        outputs["botpsy"] = model.complete(messages, None, params).raw

    def raw_run() -> None:
        backend.llama.reset()
        result = backend.llama.create_completion(
            prompt, max_tokens=args.max_tokens, temperature=0.0, stop=model.format.stop_sequences()
        )
        outputs["raw"] = result["choices"][0]["text"]

    times = interleaved({"botpsy": botpsy_run, "raw": raw_run}, args.repeats)
    same = outputs["botpsy"] == outputs["raw"]
    print(f"identical output both ways: {same} ({len(outputs['raw'])} chars)")
    ok = report_ratio("botpsy / raw llama-cpp-python", times["botpsy"], times["raw"], 1.05)
    return 0 if ok and same else 1


if __name__ == "__main__":
    sys.exit(main())
