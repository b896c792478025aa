"""llama.cpp backend (GGUF, quantized, CPU-first) through llama-cpp-python.

One ``Llama`` instance per backend. The KV cache of the last prompt is kept and
only the suffix that differs is evaluated, so requests that share a tool preamble
(the common case for an assistant) skip most of the prefill; the reused part is
reported as ``cached_tokens``.

Greedy text must not depend on what ran before, or an answer of ``botpsy ask``
differs from the same request in an evaluation. On the CPU llama.cpp evaluates a
sequence that has one token in a micro-batch on another path (other rounding) than
several; how a prompt is otherwise cut into chunks changes nothing, bit for bit.
So prompts are evaluated in chunks of two tokens or more (``prompt_chunk``), and
only what an earlier prompt evaluated is reused, never its answer's tokens (each
was evaluated alone). ``BatchedLlamaCppBackend`` follows the same rules, and both
give the same greedy text.
"""

from __future__ import annotations

import ctypes
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import llama_cpp
from llama_cpp import Llama, LlamaGrammar, _internals

from botpsy.backends import state_cache
from botpsy.backends.base import ContextOverflowError, GenerationStats, TextChunk
from botpsy.backends.cancel import check_cancelled
from botpsy.backends.cpu_share import FreeCores
from botpsy.backends.state_cache import shared_prefix
from botpsy.types import GenerationParams

# Shorter shared starts are not worth reading a state file for.
MIN_SHARED_STATE = 32


def prompt_chunk(pending: int, n_batch: int) -> int:
    """How many of ``pending`` prompt tokens to evaluate in the next llama_decode call: up
    to ``n_batch``, never leaving a single token for a call of its own (see above)."""
    size = min(n_batch, pending)
    return size - 1 if pending - size == 1 else size


def grammar_sampler(vocab: Any, grammar: str) -> Any:
    """llama.cpp's grammar sampler for ``grammar`` (the caller frees it), or ``ValueError``.

    Why: llama-cpp-python hands a grammar llama.cpp cannot parse on as a null sampler,
    and the process dies at the first token (a tool schema with a quote in a property
    name or enum value makes the JSON-schema converter write such a grammar)."""
    parsed = llama_cpp.llama_sampler_init_grammar(vocab, grammar.encode("utf-8"), b"root")
    if not parsed:
        raise ValueError(
            "cannot force this call: llama.cpp could not parse the grammar built from the "
            "tool schemas (a quote or backslash in a property name or enum value?)"
        )
    return parsed


def check_grammar(vocab: Any, grammar: str) -> None:
    """Raise ``ValueError`` unless llama.cpp's own GBNF parser reads ``grammar``."""
    llama_cpp.llama_sampler_free(grammar_sampler(vocab, grammar))


def default_threads() -> int:
    """The cores this process may run on (its affinity, where the OS has one), at most eight:
    llama.cpp decode is memory-bound, more threads than cores hurts."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(usable or 1, 8))


def set_threads(ctx: Any, cores: FreeCores, current: int) -> int:
    """Give the llama.cpp context ``ctx`` the thread count ``cores`` says fits now (for
    prompts and decoding alike); returns it. Called before each llama_decode, between them."""
    threads = cores.threads()
    if threads != current:
        llama_cpp.llama_set_n_threads(ctx, threads, threads)
    return threads


def sharing_llama(cores: FreeCores, **kwargs: Any) -> Any:
    """A ``llama_cpp.Llama`` whose every ``eval`` (prompt chunks and decoded tokens, which
    ``create_completion`` makes one by one) first takes the thread count that fits the
    machine's load now (``botpsy.backends.cpu_share``)."""

    class SharingLlama(Llama):
        _threads = cores.current

        def eval(self, tokens: Sequence[int]) -> None:
            self._threads = set_threads(self.ctx, cores, self._threads)
            super().eval(tokens)

        def _init_sampler(self, **kwargs: Any) -> Any:
            """Under a grammar, the grammar-first ``ChainSampler`` (the batched backend's
            own) instead of a chain that checks every token of the vocabulary each step."""
            grammar = kwargs.get("grammar")
            if grammar is None or kwargs.get("logits_processor") is not None:
                return super()._init_sampler(**kwargs)
            params = GenerationParams(temperature=max(0.0, kwargs.get("temp", 0.0)),
                                      top_p=kwargs.get("top_p", 1.0))
            return _CompletionSampler(ChainSampler(self._model, params, grammar._grammar, self._seed))

    return SharingLlama(n_threads=cores.current, n_threads_batch=cores.current, **kwargs)


class ChainSampler:
    """llama.cpp's sampler chain for one request, its grammar checked on the chosen token first.

    Why: applying a GBNF grammar to all ~49k candidates at every token is what
    made constrained decoding crawl here. Most tokens a model picks
    are allowed anyway, so the token is picked without the grammar and only
    checked against it; the full constrained pick runs when the check fails (the
    way llama.cpp's own common sampler does it). At temperature 0 that is the same
    token (the likeliest allowed one). The chain is greedy at temperature 0, otherwise
    top-k 40, top-p, min-p 0.05, temperature, seeded draw: the choices
    ``Llama.create_completion`` makes.
    """

    def __init__(self, model, params: GenerationParams, grammar: str | None, seed: int) -> None:
        self._free = llama_cpp.llama_sampler_free  # kept: __del__ may run at interpreter exit
        self.chain = _internals.LlamaSampler()
        if params.temperature <= 0:
            self.chain.add_greedy()
        else:
            self.chain.add_top_k(40)
            self.chain.add_top_p(params.top_p, 1)
            self.chain.add_min_p(0.05, 1)
            self.chain.add_temp(params.temperature)
            self.chain.add_dist(seed)
        self.grammar = None
        self.n_vocab = llama_cpp.llama_vocab_n_tokens(model.vocab)
        if grammar is not None:
            self.grammar = grammar_sampler(model.vocab, grammar)
        self._one = (llama_cpp.llama_token_data * 1)()

    def __del__(self) -> None:
        if getattr(self, "grammar", None):
            self._free(self.grammar)
            self.grammar = None

    def accept(self, token: int) -> None:
        """Advance the chain and the grammar past a token chosen elsewhere (a replayed answer)."""
        self.chain.accept(token)
        if self.grammar:
            llama_cpp.llama_sampler_accept(self.grammar, token)

    def sample(self, ctx, index: int) -> int:
        """The next token from the logits of batch position ``index``; accepted by the chain."""
        token = llama_cpp.llama_sampler_sample(self.chain.sampler, ctx, index)
        if not self.grammar:
            return token
        if not self._allowed(token):
            token = self._constrained(ctx, index)
            llama_cpp.llama_sampler_accept(self.chain.sampler, token)
        llama_cpp.llama_sampler_accept(self.grammar, token)
        return token

    def _candidates(self, data, size: int):
        array = llama_cpp.llama_token_data_array(
            data=ctypes.cast(data, ctypes.POINTER(llama_cpp.llama_token_data)),
            size=size,
            selected=-1,
            sorted=False,
        )
        return array

    def _allowed(self, token: int) -> bool:
        one = self._one
        one[0].id, one[0].logit, one[0].p = token, 0.0, 0.0
        llama_cpp.llama_sampler_apply(self.grammar, ctypes.byref(self._candidates(one, 1)))
        return one[0].logit != float("-inf")

    def _constrained(self, ctx, index: int) -> int:
        """The chain's pick among the tokens the grammar allows (every logit checked)."""
        import numpy as np

        logits = np.ctypeslib.as_array(
            llama_cpp.llama_get_logits_ith(ctx, index), shape=(self.n_vocab,)
        )
        candidates = np.empty(self.n_vocab, dtype=[("id", "<i4"), ("logit", "<f4"), ("p", "<f4")])
        candidates["id"] = np.arange(self.n_vocab, dtype=np.int32)
        candidates["logit"] = logits
        candidates["p"] = 0.0
        array = self._candidates(candidates.ctypes.data, self.n_vocab)
        llama_cpp.llama_sampler_apply(self.grammar, ctypes.byref(array))
        llama_cpp.llama_sampler_apply(self.chain.sampler, ctypes.byref(array))
        return int(array.data[array.selected].id)


class _CompletionSampler:
    """A ``ChainSampler`` where ``Llama.create_completion`` expects llama-cpp-python's own
    sampler (it passes its context wrapper, not the raw context)."""

    def __init__(self, sampler: ChainSampler) -> None:
        self.sampler = sampler

    def sample(self, ctx: Any, index: int) -> int:
        return self.sampler.sample(ctx.ctx, index)


class LlamaCppBackend:
    """A TextBackend over a GGUF file; optional LoRA adapter (GGUF) on top."""

    def __init__(
        self,
        model_path: str | Path,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_batch: int = 512,
        lora_path: str | None = None,
        seed: int = 0,
        name: str | None = None,
        verbose: bool = False,
        state_dir: Path | None = None,
        follow_load: bool = True,
    ) -> None:
        self.model_path = str(model_path)
        self.name = name or Path(model_path).stem
        # n_threads is the most threads; fewer run while the machine's cores are taken,
        # unless follow_load is False (a measurement at a set count: the device bench)
        most = n_threads or default_threads()
        self.cores = FreeCores(most, pinned=None if follow_load else most)
        self.llama = sharing_llama(
            self.cores,
            model_path=self.model_path,
            n_ctx=n_ctx,
            n_batch=n_batch,
            lora_path=lora_path,
            seed=seed,
            verbose=verbose,
        )
        self.metadata: dict[str, Any] = dict(self.llama.metadata or {})
        self._stats = GenerationStats()
        self._n_batch = n_batch
        self._prefilled = 0  # leading cached tokens that a prompt evaluated (reusable)
        # where prefix states are saved (None: not at all); BOTPSY_STATE_CACHE=0 turns it off
        self.state_dir = (state_dir or state_cache.state_dir()) if state_cache.enabled() else None
        self._state_key: state_cache.StateKey | None = None

    @property
    def last_stats(self) -> GenerationStats:
        return self._stats

    def tokenize(self, text: str) -> list[int]:
        """Token ids as the model sees a full prompt (special tokens parsed, BOS as the model wants)."""
        return self.llama.tokenize(text.encode("utf-8"), add_bos=True, special=True)

    def count_tokens(self, text: str) -> int:
        return len(self.tokenize(text))

    def format_hint(self) -> str | None:
        """The chat format the GGUF's own metadata suggests."""
        from botpsy.formats import detect_format  # lazy: jsonschema

        return detect_format(
            self.metadata.get("tokenizer.chat_template"),
            self.metadata.get("general.architecture"),
            self.metadata.get("general.name"),
        )

    def _prefill(self, tokens: list[int]) -> int:
        """Evaluate the prompt but its last two tokens (create_completion evaluates those
        and samples); returns how many tokens were reused."""
        return self._evaluate(tokens, len(tokens) - 2)

    def _evaluate(self, tokens: list[int], upto: int) -> int:
        """Evaluate ``tokens[:upto]`` into the cache: reuse what an earlier prompt evaluated,
        then chunks of two or more. Returns how many tokens were reused. Between chunks a
        cancelled job stops (``GenerationCancelled``); what it evaluated stays reusable."""
        cached = self.llama._input_ids[: min(self.llama.n_tokens, self._prefilled)]
        keep = max(0, min(shared_prefix(cached, tokens), upto))
        self.llama.n_tokens = keep
        rest = tokens[keep:upto]
        try:
            while len(rest) >= 2:  # one token left over goes with what follows
                check_cancelled()
                size = prompt_chunk(len(rest), self._n_batch)
                self.llama.eval(rest[:size])
                rest = rest[size:]
        finally:
            self._prefilled = self.llama.n_tokens
        return keep

    def prime(self, text: str) -> int:
        """Have the cache hold ``text``, the start of the prompts to come (a system prompt
        and its tools): from a state saved by an earlier process when one fits
        (``botpsy.backends.state_cache``), else evaluated and saved for the next one;
        a saved state that shares a long enough start serves that start.
        Returns how many tokens were loaded from a saved state."""
        tokens = self.tokenize(text)
        if self.state_dir is None or len(tokens) < 2 or len(tokens) >= self.llama.n_ctx():
            return 0
        cached = self.llama._input_ids[: min(self.llama.n_tokens, self._prefilled)]
        if shared_prefix(cached, tokens) >= len(tokens) - 1:
            return 0  # there already (or all but one token, which must not go alone)
        if self._state_key is None:
            self._state_key = state_cache.model_key(
                self.model_path, self.llama.lora_path, self.llama.lora_scale
            )
        # a state of another prefix serves its shared start; at least two tokens are left
        # to evaluate (never one alone, see the module's docstring)
        loaded = state_cache.load_longest(
            self.llama.ctx, self.state_dir, self._state_key, tokens, MIN_SHARED_STATE
        )
        if loaded == len(tokens):
            self.llama.input_ids[: len(tokens)] = tokens
            self.llama.n_tokens = self._prefilled = len(tokens)
            return len(tokens)
        keep = min(loaded, len(tokens) - 2)
        if keep > 0 and not self.llama._ctx.kv_cache_seq_rm(0, keep, -1):
            self.llama._ctx.kv_cache_seq_rm(0, -1, -1)  # cannot be cut back: start afresh
            keep = 0
        if keep > 0:
            self.llama.input_ids[:keep] = tokens[:keep]
            self.llama.n_tokens = self._prefilled = keep
        elif loaded or state_cache.is_empty(self.llama.ctx):  # nothing of a state is kept
            self.llama.n_tokens = self._prefilled = 0
        self._evaluate(tokens, len(tokens))
        self.llama._ctx.kv_cache_seq_rm(0, len(tokens), -1)  # the state holds the prefix only
        state_cache.save(self.llama.ctx, self.state_dir, self._state_key, tokens)
        return max(keep, 0)

    def _grammar(self, grammar: str | None):
        if grammar is None:
            return None
        check_grammar(self.llama._model.vocab, grammar)
        return LlamaGrammar.from_string(grammar, verbose=False)

    def generate(
        self, prompt: str, params: GenerationParams, grammar: str | None = None
    ) -> Iterator[TextChunk]:
        """Stream text; ``last_stats`` is complete once the iterator is exhausted."""
        tokens = self.tokenize(prompt)
        n_ctx = self.llama.n_ctx()
        if len(tokens) >= n_ctx:
            raise ContextOverflowError(len(tokens), n_ctx)
        self._stats = stats = GenerationStats(prompt_tokens=len(tokens))
        start = time.perf_counter()
        stats.cached_tokens = self._prefill(tokens)
        stream = self.llama.create_completion(
            tokens,
            max_tokens=min(params.max_tokens, n_ctx - len(tokens)),
            temperature=params.temperature,
            top_p=params.top_p,
            seed=params.seed,
            stop=params.stop or None,
            grammar=self._grammar(grammar),
            stream=True,
        )
        first = True
        for chunk in stream:
            choice = chunk["choices"][0]
            if first:
                stats.prompt_eval_s = time.perf_counter() - start
                first = False
            if choice.get("finish_reason"):
                stats.finish_reason = choice["finish_reason"]
            if choice.get("text"):
                yield TextChunk(choice["text"])
        self._prefilled = len(tokens)
        # Every sampled token but the last is evaluated into the cache.
        evaluated = self.llama.n_tokens - len(tokens)
        stats.completion_tokens = evaluated + 1 if not first else 0

    def close(self) -> None:
        self.llama.close()
