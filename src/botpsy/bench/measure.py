"""The measurements of one variant, run inside a worker process (``botpsy.bench.worker``).

Prefill and decode are timed directly on the runtime, below botpsy's chat layer,
because that is where the numbers are exact: a ``Stepper`` evaluates a prompt
from an empty KV cache and returns the greedy next token (time to first token),
then evaluates one token at a time (decode). The end-to-end turn latency goes
through botpsy's own ``FormattedChatModel`` (render -> generate -> parse), as an
assistant would, from a cold cache so every turn pays its full prompt.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from botpsy.backends.base import ChatModel
from botpsy.bench.prompts import ASSISTANT_TOOLS, FILLER_TEXT, TurnPrompt
from botpsy.bench.schema import DecodeSample, PrefillSample, RawRepeat, TurnSample
from botpsy.types import GenerationParams, Message, ParseError, ToolCall, ToolSpec

WARMUP_PROMPT_TOKENS = 64
WARMUP_DECODE_TOKENS = 8

Tick = Callable[[str], None]


class Stepper(Protocol):
    """Low-level access to a loaded model: prompt from empty cache, then token by token."""

    def prompt_tokens(self, n: int) -> list[int]:
        """``n`` token ids of filler text (BOS first)."""
        ...

    def prefill(self, tokens: list[int]) -> int:
        """Clear the cache, evaluate ``tokens``, return the greedy next token."""
        ...

    def step(self, token: int) -> int:
        """Evaluate one token after what is cached, return the greedy next token."""
        ...

    def reset(self) -> None:
        """Forget the cache and settle any background work, so the next timed step starts
        cold and alone."""
        ...

    def set_threads(self, n: int) -> None:
        """Compute with ``n`` threads from now on (the thread-scaling probe)."""
        ...


def repeat_to(ids: list[int], n: int, first: int | None) -> list[int]:
    """``first`` (BOS, when the model has one) then ``ids`` cycled to ``n`` tokens in all."""
    if not ids:
        raise ValueError("filler text tokenized to nothing")
    head = [first] if first is not None else []
    body: list[int] = []
    while len(head) + len(body) < n:
        body.extend(ids)
    return (head + body)[:n]


class LlamaStepper:
    """A ``Stepper`` over ``llama_cpp.Llama`` (``eval`` + logits of the last position)."""

    def __init__(self, llama) -> None:
        import llama_cpp

        self.llama = llama
        self._lib = llama_cpp
        self.n_vocab = llama.n_vocab()
        self._filler = llama.tokenize(FILLER_TEXT.encode("utf-8"), add_bos=False)

    def prompt_tokens(self, n: int) -> list[int]:
        bos = self.llama.token_bos()
        return repeat_to(self._filler, n, bos if bos >= 0 else None)

    def _greedy(self) -> int:
        import numpy as np

        logits = self._lib.llama_get_logits_ith(self.llama.ctx, -1)
        return int(np.ctypeslib.as_array(logits, shape=(self.n_vocab,)).argmax())

    def prefill(self, tokens: list[int]) -> int:
        self.llama.reset()
        self.llama.eval(tokens)
        return self._greedy()

    def step(self, token: int) -> int:
        self.llama.eval([token])
        return self._greedy()

    def reset(self) -> None:
        self.llama.reset()

    def set_threads(self, n: int) -> None:
        self._lib.llama_set_n_threads(self.llama.ctx, n, n)


def time_prefill(stepper: Stepper, tokens: list[int]) -> PrefillSample:
    """Time to first token for ``tokens`` from an empty cache (prefill + greedy pick)."""
    stepper.reset()  # settles what an earlier turn left running, outside the clock
    start = time.perf_counter()
    stepper.prefill(tokens)
    return PrefillSample(prompt_tokens=len(tokens), ttft_s=time.perf_counter() - start)


def time_decode(stepper: Stepper, prompt: list[int], n: int) -> DecodeSample:
    """Prefill ``prompt`` (untimed), then time ``n`` greedy single-token steps. The process's
    CPU time over the same steps shows whether the run had its cores to itself."""
    stepper.reset()
    token = stepper.prefill(prompt)
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(n):
        token = stepper.step(token)
    seconds, cpu_s = time.perf_counter() - start, time.process_time() - cpu_start
    return DecodeSample(tokens=n, seconds=seconds, n_past=len(prompt), cpu_s=cpu_s)


@dataclass
class TurnOutcome:
    """What one tool-call turn produced and how long it took."""

    latency_s: float
    calls: list[ToolCall]
    parse_errors: list[ParseError]
    stopped_at_call: bool  # True when generation was cut at the first complete call


def first_call_turn(
    model: ChatModel, messages: list[Message], tools: list[ToolSpec], params: GenerationParams
) -> TurnOutcome:
    """Stream one turn and stop at the first complete tool call.

    That is the moment an assistant can start executing, and it keeps a model
    that repeats its call until ``max_tokens`` from inflating the latency (and
    the grade of single-call requests) with tokens nobody waits for.
    """
    start = time.perf_counter()
    with contextlib.closing(iter(model.stream(messages, tools, params))) as stream:  # type: ignore[type-var]
        for event in stream:
            if event.type == "tool_call" and event.tool_call is not None:
                return TurnOutcome(time.perf_counter() - start, [event.tool_call], [], True)
            if event.type == "done" and event.completion is not None:
                done = event.completion
                return TurnOutcome(
                    time.perf_counter() - start, done.tool_calls, done.parse_errors, False
                )
    raise RuntimeError("the chat model's stream ended without a done event")


def time_turn(
    model: ChatModel, prompt: TurnPrompt, params: GenerationParams, reset: Callable[[], None]
) -> TurnSample:
    """One cold tool-call turn through the chat layer (render -> generate -> parse)."""
    reset()
    outcome = first_call_turn(model, prompt.messages(), ASSISTANT_TOOLS, params)
    return TurnSample(
        prompt_id=prompt.id,
        latency_s=outcome.latency_s,
        made_call=bool(outcome.calls),
        stopped_at_call=outcome.stopped_at_call,
    )


def warm_up(stepper: Stepper) -> None:
    """One short prefill and a few steps: first-call costs (allocations, page faults, thread
    start) must not land in the first timed repeat."""
    token = stepper.prefill(stepper.prompt_tokens(WARMUP_PROMPT_TOKENS))
    for _ in range(WARMUP_DECODE_TOKENS):
        token = stepper.step(token)


@dataclass(frozen=True)
class RepeatPlan:
    """What one repeat measures. ``threads`` > 1 adds the scaling probe: the same decode
    with one thread, which tells compute-bound from memory-bound without another run."""

    prompt_lens: list[int]
    decode_tokens: int
    turns: list[TurnPrompt]
    params: GenerationParams
    threads: int = 1


def measure_repeat(
    index: int, stepper: Stepper, chat: ChatModel | None, plan: RepeatPlan, tick: Tick
) -> RawRepeat:
    """One repeat: TTFT at every prompt length, decode after the shortest prompt (and again
    with one thread when the run uses more), then the turns."""
    repeat = RawRepeat(repeat=index)
    for length in plan.prompt_lens:
        repeat.prefill.append(time_prefill(stepper, stepper.prompt_tokens(length)))
        tick(f"prefill {length}")
    decode_prompt = stepper.prompt_tokens(min(plan.prompt_lens))
    repeat.decode = time_decode(stepper, decode_prompt, plan.decode_tokens)
    tick("decode")
    if plan.threads > 1:
        stepper.set_threads(1)
        repeat.decode_1t = time_decode(stepper, decode_prompt, plan.decode_tokens)
        stepper.set_threads(plan.threads)
        tick("decode, 1 thread")
    for prompt in plan.turns if chat is not None else []:
        repeat.turns.append(time_turn(chat, prompt, plan.params, stepper.reset))
        tick(f"turn {prompt.id}")
    return repeat
