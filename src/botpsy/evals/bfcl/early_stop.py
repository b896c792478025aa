"""Stop a single-turn answer early once more tokens would not change it.

Why: on a 2-core CPU, decoding is the part of a BFCL run that a model controls.
A model that does not call tools writes prose until ``max_tokens`` (SmolLM2
writes code examples), and a model forced into calls by a grammar can repeat one
call until ``max_tokens``. Lowering ``max_tokens`` would also cut the long
answers of models that do call tools (BFCL's parallel answers take up to ~440
tokens in the hermes format), so instead each case is first asked with small
budgets (the *probes*: 64 then 192 tokens under free decoding; 128 then 256
when calls are forced, since a forced answer is calls from its first token and
only a second call decides anything there). When a probe is cut short, its text
is judged:

- ``text``: no call and no reasoning has begun (nor a call opener at its very
  end): the answer is prose. This is the one rule that is a cap, not a
  certainty: a model must begin its calls within the first probe. A text that
  begins as prose and never writes the format's call opener is prose too when
  the parser found call-like JSON in it (SmolLM2 explains "a JSON function" in
  code blocks up to the token limit, on a share of simple_python):
  such blocks are not calls in the format, only the parser's bare-JSON rescue
  looks at them. Text that begins with JSON or code (a model writing bare
  calls, as xLAM does) keeps waiting for its calls to close.
- ``repeated_call``: the same call (name and arguments) was made ``repeats``
  times: a decoding loop, already wrong. Checked on BFCL v4's non-live and live
  answers: a few accept one call twice (``parallel_158`` asks for it), and one,
  ``parallel_180``, accepts the same call four times when its optional argument
  is left out (the one answer this rule could misjudge); no other accepts one
  call three times.
- ``too_many_calls``: a second complete call in a category whose answers are one
  call (simple, multiple): BFCL's checker counts it as ``wrong_count``.
- ``call_in_irrelevance``: a complete call in a category where any call is wrong.

Otherwise the case is asked again with the next budget, and finally with the
full ``max_tokens``; the prompt is then already in the KV cache, so a retry
costs only the decoding. Probes are used only when decoding is reproducible
(temperature 0, or a fixed seed): a fresh sample after a probe would bias the
answers towards text.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from enum import Enum

from botpsy.backends.base import ChatModel
from botpsy.types import Completion, GenerationParams, Message, ToolSpec


class StopReason(str, Enum):
    """Why an answer was kept although it was cut by a probe budget."""

    text = "text"
    repeated_call = "repeated_call"
    too_many_calls = "too_many_calls"
    call_in_irrelevance = "call_in_irrelevance"


@dataclass(frozen=True)
class EarlyStop:
    """The probe budgets (tokens, increasing) and the rules that end an answer early."""

    probes: tuple[int, ...] = (64, 192)
    repeats: int = 3  # identical calls that make a loop
    max_calls: int | None = None  # 1 where answers are one call; None: any number
    any_call_decides: bool = False  # True for irrelevance: the first call fixes the verdict

    def __post_init__(self) -> None:
        if any(b <= 0 for b in self.probes) or list(self.probes) != sorted(set(self.probes)):
            raise ValueError(f"probes must be increasing positive budgets, got {self.probes}")
        if self.repeats < 2:
            raise ValueError(f"repeats must be at least 2, got {self.repeats}")


def default_policy(tool_choice: str) -> EarlyStop:
    """The probes for free (``auto``) or forced (``required``) calls."""
    return EarlyStop(probes=(128, 256) if tool_choice == "required" else (64, 192))


@dataclass
class Answer:
    """The completion kept for a case, why it was stopped early (if it was), and how
    many times the model was asked for it."""

    completion: Completion
    stopped: StopReason | None = None
    passes: int = 1


def _cut(completion: Completion, budget: int) -> bool:
    """Did generation end because the budget ran out? (A parsed call makes the finish
    reason "tool_calls" even then, so the token count decides.)"""
    return completion.finish_reason == "length" or completion.usage.completion_tokens >= budget


def _ends_in_opener(raw: str, opener: str) -> bool:
    """The text ends with the beginning of a call opener (``<tool_`` of ``<tool_call>``)."""
    return bool(opener) and any(raw.endswith(opener[:n]) for n in range(1, len(opener) + 1))


def _call_key(name: str, arguments: dict) -> str:
    return json.dumps([name, arguments], sort_keys=True, default=str)


def stop_reason(completion: Completion, policy: EarlyStop, opener: str = "") -> StopReason | None:
    """Whether a cut answer is already decided (see the module docstring), and why."""
    calls = completion.tool_calls
    if calls:
        if policy.any_call_decides:
            return StopReason.call_in_irrelevance
        if policy.max_calls is not None and len(calls) > policy.max_calls:
            return StopReason.too_many_calls
        counts = Counter(_call_key(c.name, c.arguments) for c in calls)
        return StopReason.repeated_call if max(counts.values()) >= policy.repeats else None
    if completion.reasoning is not None or _ends_in_opener(completion.raw, opener):
        return None
    if completion.parse_errors and not _prose_without_opener(completion.raw, opener):
        return None
    return StopReason.text


def _prose_without_opener(raw: str, opener: str) -> bool:
    """The text starts with words and the format's call opener appears nowhere in it."""
    start = raw.lstrip()[:1]
    return bool(opener) and opener not in raw and start.isalnum()


def reproducible(params: GenerationParams) -> bool:
    """Asking twice gives the same tokens: greedy decoding or a fixed seed."""
    return params.temperature == 0 or params.seed is not None


def ask(
    model: ChatModel,
    messages: list[Message],
    tools: list[ToolSpec],
    params: GenerationParams,
    policy: EarlyStop | None,
) -> Answer:
    """The model's answer, asked with the probe budgets first when ``policy`` is set."""
    if policy is None or not reproducible(params):
        return Answer(model.complete(messages, tools, params))
    budgets = [b for b in policy.probes if b < params.max_tokens]
    opener = model.format.call_prefix() if hasattr(model, "format") else ""
    for passes, budget in enumerate(budgets, 1):
        probe = params.model_copy(update={"max_tokens": budget})
        completion = model.complete(messages, tools, probe)
        if not _cut(completion, budget):
            return Answer(completion, None, passes)
        reason = stop_reason(completion, policy, opener)
        if reason is not None:
            return Answer(completion, reason, passes)
    return Answer(model.complete(messages, tools, params), None, len(budgets) + 1)
