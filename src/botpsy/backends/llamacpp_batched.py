"""llama.cpp with several requests decoded together (continuous batching).

Why: on a small CPU a single request leaves most of the machine idle while it
decodes. One decoding step of a 135M model costs about as much for eight
sequences as for one (the weights are read once per step), so an evaluation
that asks hundreds of independent questions goes much faster when its requests
share each ``llama_decode`` call (``benchmarks/batched.py`` measures by how much).

How: one llama.cpp context holds ``parallel`` sequences (one KV cache each).
Callers in any number of threads call ``generate`` as usual; a scheduler thread
owns the context, gives each request a free sequence (the one whose cache shares
the longest prefix with its prompt, so a repeated prompt or a shared tool
preamble is not evaluated again), and alternates two kinds of ``llama_decode``
call: one token of every decoding sequence, and a chunk of one sequence's
prompt. Sampling is llama.cpp's own sampler chain per request (grammar, greedy
or temperature), as in ``LlamaCppBackend``.

Why the two kinds are kept apart: greedy answers must not depend on what else
was running, or two runs of one evaluation disagree (some scenarios' first
replies did). On the CPU, llama.cpp computes attention for a sequence that has
one token in a micro-batch on another path than for several, with other
rounding; position by position the results are otherwise the same however a
prompt is cut into chunks or which request filled a reused prefix (checked bit
for bit). With non-unified caches llama.cpp splits a batch into micro-batches of
equal tokens per sequence, so a prompt sharing a batch with decoding sequences
had one of its tokens evaluated alone, and which token depended on the timing.
So a prompt token is never evaluated alone in its sequence (chunks of two or
more, one prompt per call), and a prefix is reused only as far as prompts filled
it (a decoded token was evaluated alone and would read differently when a later
request evaluates it as part of its prompt). A decoded token is always evaluated
alone, whoever else decodes beside it. Greedy text is then the same at any
``parallel``, in any order, from run to run.
"""

from __future__ import annotations

import ctypes
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import llama_cpp
from llama_cpp import _internals

from botpsy.backends.base import ContextOverflowError, GenerationStats, TextChunk
from botpsy.backends.llamacpp import (
    ChainSampler,
    LlamaCppBackend,
    prompt_chunk,
    set_threads,
)
from botpsy.backends.state_cache import shared_prefix
from botpsy.types import GenerationParams

_HELPER_CTX = 512  # the Llama object's own context: used for nothing but loading


@dataclass
class _Request:
    """One generate() call as the scheduler sees it."""

    tokens: list[int]
    params: GenerationParams
    grammar: str | None
    out: queue.Queue = field(default_factory=queue.Queue)  # TextChunk | GenerationStats | Exception
    cancelled: threading.Event = field(default_factory=threading.Event)


@dataclass
class _Slot:
    """One sequence of the context and the request it is serving."""

    seq: int
    cached: list[int] = field(default_factory=list)  # tokens whose KV is in this sequence
    prefilled: int = 0  # the leading cached tokens evaluated as prompt (reusable exactly)
    request: _Request | None = None
    pending: list[int] = field(default_factory=list)  # prompt tokens still to evaluate
    next_token: int | None = None  # sampled, not yet evaluated
    generated: list[int] = field(default_factory=list)
    sent: int = 0  # characters of the completion already streamed
    sampler: object = None
    stats: GenerationStats = field(default_factory=GenerationStats)
    max_tokens: int = 0
    start: float = 0.0
    last_used: int = 0
    cut: _Request | None = None  # the last request, when it stopped at max_tokens (resumable)


def _same_greedy_request(old: _Request | None, new: _Request) -> bool:
    """Whether ``new`` asks exactly what ``old`` asked, greedily: its text must then begin
    with ``old``'s, so decoding can go on where ``old`` stopped."""
    return (
        old is not None
        and old.tokens == new.tokens
        and old.grammar == new.grammar
        and old.params.temperature <= 0
        and new.params.temperature <= 0
        and old.params.stop == new.params.stop
        and new.params.max_tokens > old.params.max_tokens
    )


def _held_back(text: str, stops: list[str]) -> int:
    """How many trailing characters could be the start of a stop string (not sent yet)."""
    longest = 0
    for stop in stops:
        for k in range(min(len(stop) - 1, len(text)), longest, -1):
            if text.endswith(stop[:k]):
                longest = k
                break
    return longest


class BatchedLlamaCppBackend(LlamaCppBackend):
    """A TextBackend whose ``generate`` may be called from ``parallel`` threads at once.

    Requests beyond ``parallel`` wait for a free sequence. ``n_ctx`` is the
    context of each sequence. ``last_stats`` is per calling thread.
    """

    def __init__(
        self,
        model_path: str | Path,
        *,
        parallel: int = 8,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_batch: int = 512,
        lora_path: str | None = None,
        seed: int = 0,
        name: str | None = None,
        verbose: bool = False,
    ) -> None:
        if parallel < 1:
            raise ValueError(f"parallel must be at least 1, got {parallel}")
        super().__init__(
            model_path,
            n_ctx=_HELPER_CTX,
            n_threads=n_threads,
            n_batch=min(n_batch, _HELPER_CTX),
            lora_path=lora_path,
            seed=seed,
            name=name,
            verbose=verbose,
        )
        self.concurrency = parallel
        self._seed = seed
        self._n_batch = n_batch
        self._ctx = self._make_context(parallel, n_ctx, n_batch, verbose)
        self._threads = self.cores.current  # what the context was made with
        self.n_ctx_seq = llama_cpp.llama_n_ctx_seq(self._ctx.ctx)
        self._batch = llama_cpp.llama_batch_init(n_batch, 0, 1)
        self._slots = [_Slot(seq) for seq in range(parallel)]
        self._queue: queue.Queue[_Request | None] = queue.Queue()
        self._local = threading.local()
        self._clock = 0
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="llamacpp-batch", daemon=True)
        self._thread.start()

    def _make_context(self, parallel: int, n_ctx: int, n_batch: int, verbose: bool):
        """A context of ``parallel`` separate KV caches of ``n_ctx`` tokens each, with the
        adapter of the helper Llama (if any) applied to it too."""
        params = llama_cpp.llama_context_params.from_buffer_copy(self.llama.context_params)
        params.n_ctx = parallel * n_ctx
        params.n_seq_max = parallel
        params.kv_unified = False  # each sequence attends over its own cache only (faster than one unified cache)
        params.n_batch = params.n_ubatch = n_batch
        ctx = _internals.LlamaContext(model=self.llama._model, params=params, verbose=verbose)
        adapter = getattr(self.llama, "_lora_adapter", None)
        if adapter is not None:
            adapters = (llama_cpp.llama_adapter_lora_p_ctypes * 1)(adapter)
            scales = (ctypes.c_float * 1)(self.llama.lora_scale)
            if llama_cpp.llama_set_adapters_lora(ctx.ctx, adapters, 1, scales):
                raise RuntimeError(f"could not apply the LoRA adapter {self.llama.lora_path}")
        return ctx

    # --- caller side ---------------------------------------------------------

    def prime(self, text: str) -> int:
        """Nothing to do: each request's sequence reuses the longest prefix already evaluated
        in any slot, and the helper context that ``LlamaCppBackend.prime`` would fill is not
        the one that decodes."""
        return 0

    @property
    def last_stats(self) -> GenerationStats:
        return getattr(self._local, "stats", GenerationStats())

    def generate(
        self, prompt: str, params: GenerationParams, grammar: str | None = None
    ) -> Iterator[TextChunk]:
        """Stream text for ``prompt``; safe to call from several threads at once."""
        if self._closed:
            raise RuntimeError("the backend is closed")
        tokens = self.tokenize(prompt)
        if len(tokens) >= self.n_ctx_seq:
            raise ContextOverflowError(len(tokens), self.n_ctx_seq)
        self._local.stats = GenerationStats(prompt_tokens=len(tokens))
        request = _Request(tokens, params, grammar)
        self._queue.put(request)
        try:
            while True:
                item = request.out.get()
                if isinstance(item, TextChunk):
                    yield item
                elif isinstance(item, GenerationStats):
                    self._local.stats = item
                    return
                else:
                    raise item
        finally:
            request.cancelled.set()  # a consumer that stops early frees its sequence

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._queue.put(None)
        self._thread.join(timeout=30)
        llama_cpp.llama_batch_free(self._batch)
        self._ctx.close()
        super().close()

    # --- scheduler side ------------------------------------------------------

    def _run(self) -> None:
        while not self._closed:
            if not self._admit():
                break
            if not any(slot.request for slot in self._slots):
                continue
            try:
                self._step()
            except Exception as exc:  # noqa: BLE001 - handed to every caller, the loop goes on
                self._fail_all(exc)
        self._fail_all(RuntimeError("the backend was closed"))
        while not self._queue.empty():
            request = self._queue.get_nowait()
            if request is not None:
                request.out.put(RuntimeError("the backend was closed"))

    def _admit(self) -> bool:
        """Give waiting requests free sequences; blocks while nothing runs. False on close."""
        busy = any(slot.request for slot in self._slots)
        while any(slot.request is None for slot in self._slots):
            try:
                request = self._queue.get(block=not busy)
            except queue.Empty:
                return True
            if request is None:
                return False
            if request.cancelled.is_set():
                continue
            self._start(request)
            busy = True
        return True

    def _pick_slot(self, tokens: list[int]) -> _Slot:
        """The free sequence sharing the longest prefix with ``tokens``; on ties one whose cut
        answer nobody may resume, then the least recently used."""
        free = [slot for slot in self._slots if slot.request is None]
        return max(
            free, key=lambda s: (shared_prefix(s.cached, tokens), s.cut is None, -s.last_used)
        )

    def _start(self, request: _Request) -> None:
        slot = self._pick_slot(request.tokens)
        if _same_greedy_request(slot.cut, request) and self._resume(slot, request):
            return
        self._assign(slot, request)

    def _assign(self, slot: _Slot, request: _Request) -> None:
        """Serve ``request`` from ``slot``, keeping the cached prefix it shares."""
        # at least two prompt tokens are left to evaluate (never one alone), and only
        # tokens a prompt filled are reused
        shared = min(shared_prefix(slot.cached, request.tokens), slot.prefilled)
        keep = max(0, min(shared, len(request.tokens) - 2))
        memory = llama_cpp.llama_get_memory(self._ctx.ctx)
        if not llama_cpp.llama_memory_seq_rm(memory, slot.seq, keep, -1):
            llama_cpp.llama_memory_seq_rm(memory, slot.seq, -1, -1)
            keep = 0
        slot.cached = request.tokens[:keep]
        slot.prefilled = keep
        slot.pending = request.tokens[keep:]
        slot.generated = []
        self._begin(
            slot, request, GenerationStats(prompt_tokens=len(request.tokens), cached_tokens=keep)
        )

    def _begin(self, slot: _Slot, request: _Request, stats: GenerationStats) -> None:
        """What every request sets on its slot, whether it starts afresh or resumes."""
        self._clock += 1
        slot.request, slot.last_used, slot.cut = request, self._clock, None
        slot.next_token, slot.sent = None, 0
        slot.sampler = self._sampler(request)
        slot.stats = stats
        slot.max_tokens = max(
            1, min(request.params.max_tokens, self.n_ctx_seq - len(request.tokens))
        )
        slot.start = time.perf_counter()

    def _resume(self, slot: _Slot, request: _Request) -> bool:
        """Go on from the answer ``slot`` cut at max_tokens for the same greedy request.

        Why: a caller that probes with a small budget and asks again with a larger
        one (BFCL's early stop) would otherwise decode the same tokens twice. The
        tokens already made are replayed into the sampler (so a grammar is where
        it was) and sent at once; decoding continues from the last one.
        """
        generated = slot.generated
        if not generated or slot.cached != request.tokens + generated[:-1]:
            return False
        slot.pending = []
        self._begin(
            slot,
            request,
            GenerationStats(
                prompt_tokens=len(request.tokens),
                cached_tokens=len(request.tokens) - 1,
                completion_tokens=len(generated),
                prompt_eval_s=0.0,
            ),
        )
        for token in generated:
            slot.sampler.accept(token)
        self._after_token(slot, generated[-1], appended=True)
        return True

    def _sampler(self, request: _Request) -> ChainSampler:
        seed = request.params.seed if request.params.seed is not None else self._seed + self._clock
        return ChainSampler(self.llama._model, request.params, request.grammar, seed)

    def _step(self) -> None:
        """One llama_decode over the decoding sequences' next tokens, then one over a chunk
        of a waiting prompt; each followed by sampling where logits came out."""
        for fill in (self._fill_decoding, self._fill_prompt):
            self._batch.n_tokens = 0
            outputs = fill()
            if not self._batch.n_tokens:
                continue
            self._threads = set_threads(self._ctx.ctx, self.cores, self._threads)
            code = llama_cpp.llama_decode(self._ctx.ctx, self._batch)
            if code != 0:
                raise RuntimeError(
                    f"llama_decode failed with code {code} (KV cache full or bad batch)"
                )
            for index, slot in outputs:
                self._sample(slot, index)

    def _add(self, slot: _Slot, token: int, logits: bool) -> int:
        batch = self._batch
        i = batch.n_tokens
        batch.token[i] = token
        batch.pos[i] = len(slot.cached)
        batch.n_seq_id[i] = 1
        batch.seq_id[i][0] = slot.seq
        batch.logits[i] = logits
        batch.n_tokens = i + 1
        slot.cached.append(token)
        return i

    def _fill_decoding(self) -> list[tuple[int, _Slot]]:
        """One token of each decoding sequence (each evaluated alone in its sequence)."""
        outputs = []
        for slot in self._slots:
            if slot.request is not None and slot.next_token is not None:
                outputs.append((self._add(slot, slot.next_token, True), slot))
                slot.next_token = None
        return outputs

    def _fill_prompt(self) -> list[tuple[int, _Slot]]:
        """The next chunk of the prompt that has waited longest: up to ``n_batch`` tokens,
        never leaving one token for a chunk of its own."""
        waiting = [s for s in self._slots if s.request is not None and s.pending]
        if not waiting:
            return []
        slot = min(waiting, key=lambda s: s.last_used)
        size = prompt_chunk(len(slot.pending), self._n_batch)
        chunk, slot.pending = slot.pending[:size], slot.pending[size:]
        for token in chunk[:-1]:
            self._add(slot, token, False)
        index = self._add(slot, chunk[-1], not slot.pending)
        slot.prefilled = len(slot.cached)
        return [] if slot.pending else [(index, slot)]

    def _sample(self, slot: _Slot, index: int) -> None:
        request = slot.request
        if request.cancelled.is_set():
            slot.request = None
            return
        token = slot.sampler.sample(self._ctx.ctx, index)
        if slot.stats.prompt_eval_s is None:
            slot.stats.prompt_eval_s = time.perf_counter() - slot.start
        slot.stats.completion_tokens += 1
        if llama_cpp.llama_vocab_is_eog(self.llama._model.vocab, token):
            self._finish(slot, "stop")
            return
        self._after_token(slot, token)

    def _after_token(self, slot: _Slot, token: int, appended: bool = False) -> None:
        """Add a sampled token to the answer: send what text is safe, or finish."""
        request = slot.request
        if not appended:
            slot.generated.append(token)
        text = self.llama.detokenize(slot.generated, prev_tokens=request.tokens).decode(
            "utf-8", errors="ignore"
        )
        stops = [s for s in request.params.stop if s]
        cut = min((text.find(s) for s in stops if s in text), default=-1)
        if cut >= 0:
            self._emit(slot, text[:cut])
            self._finish(slot, "stop")
        elif len(slot.generated) >= slot.max_tokens:
            self._emit(slot, text)
            self._finish(slot, "length")
            slot.cut = request
        else:
            self._emit(slot, text[: len(text) - _held_back(text, stops)])
            slot.next_token = token

    def _emit(self, slot: _Slot, text: str) -> None:
        if len(text) > slot.sent:
            slot.request.out.put(TextChunk(text[slot.sent :]))
            slot.sent = len(text)

    def _finish(self, slot: _Slot, reason: str) -> None:
        slot.stats.finish_reason = reason
        slot.request.out.put(slot.stats)
        slot.request = None

    def _fail_all(self, exc: Exception) -> None:
        """Hand an error to every running request and forget their sequences."""
        memory = llama_cpp.llama_get_memory(self._ctx.ctx)
        for slot in self._slots:
            if slot.request is not None:
                slot.request.out.put(exc)
                slot.request = None
            llama_cpp.llama_memory_seq_rm(memory, slot.seq, -1, -1)
            slot.cached, slot.pending, slot.next_token = [], [], None
            slot.prefilled = 0
