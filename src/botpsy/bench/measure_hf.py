"""The same low-level measurements on a transformers model (fp32 / bf16), for comparison.

A user choosing a runtime wants to see what llama.cpp buys them over running
the same weights in PyTorch; this ``Stepper`` lets the worker time prefill and
decode on a ``transformers`` causal LM exactly as it does on llama.cpp: prompt
from an empty cache (only the last position's logits computed, as llama.cpp
does), then one token at a time through the KV cache.
"""

from __future__ import annotations

import threading

from botpsy.bench.measure import repeat_to
from botpsy.bench.prompts import FILLER_TEXT


class TorchStepper:
    """A ``Stepper`` over a transformers causal LM and its tokenizer."""

    def __init__(self, model, tokenizer) -> None:
        import torch

        self.model = model
        self.tokenizer = tokenizer
        self._torch = torch
        self._cache = None
        self._threads = set(threading.enumerate())  # everything running before any generation
        self._filler = tokenizer(FILLER_TEXT, add_special_tokens=False)["input_ids"]

    def prompt_tokens(self, n: int) -> list[int]:
        return repeat_to(self._filler, n, self.tokenizer.bos_token_id)

    def _forward(self, ids: list[int], cache) -> int:
        torch = self._torch
        with torch.inference_mode():
            out = self.model(
                input_ids=torch.tensor([ids]),
                past_key_values=cache,
                use_cache=True,
                logits_to_keep=1,
            )
        self._cache = out.past_key_values
        return int(out.logits[0, -1].argmax())

    def prefill(self, tokens: list[int]) -> int:
        return self._forward(tokens, None)

    def step(self, token: int) -> int:
        return self._forward([token], self._cache)

    def reset(self) -> None:
        self._cache = None
        join_new_threads(self._threads)

    def set_threads(self, n: int) -> None:
        self._torch.set_num_threads(n)


def join_new_threads(known: set[threading.Thread], timeout_s: float = 120.0) -> None:
    """Join the threads started since ``known`` was taken, then remember them.

    ``TransformersBackend`` generates in a background thread; a consumer that stops
    reading early (as the turn test does) does not stop that thread, which would
    then compete for the CPU with the next measurement. Threads that were already
    running (tqdm's monitor, for one) are never waited for.
    """
    for thread in threading.enumerate():
        if thread not in known:
            thread.join(timeout_s)
            known.add(thread)


def weight_bytes(model) -> int:
    """Bytes of the model's parameters in memory (tied embeddings counted once, as
    ``parameters()`` yields a shared tensor once): what one decode step streams."""
    return sum(p.numel() * p.element_size() for p in model.parameters())


def kv_bytes_per_position(model) -> int:
    """K+V bytes one cached position holds over all layers, in the model's dtype."""
    config = model.config
    n_head = config.num_attention_heads
    n_head_kv = getattr(config, "num_key_value_heads", None) or n_head
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // n_head
    element = next(model.parameters()).element_size()
    return 2 * config.num_hidden_layers * n_head_kv * head_dim * element
