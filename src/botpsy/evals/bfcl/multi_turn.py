"""Multi-turn BFCL conversations, driven turn by turn as BFCL's own runner does.

Per turn: the user's messages are added (on a turn that brings held-out
functions, those are added to the tools and BFCL's "I have updated some more
functions" message is sent); then the model is asked again and again, each set
of calls it makes is executed against bfcl-eval's simulated APIs (file system,
trading bot, travel booking...) and the results are fed back as tool messages,
until it answers without a call. After BFCL's step limit the conversation is
force-terminated, which the checker then scores as a failure.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from botpsy.backends.base import ChatModel
from botpsy.evals.bfcl import upstream
from botpsy.evals.bfcl.convert import (
    DecodeError,
    bfcl_result,
    checker_tag,
    decode_execute,
    to_messages,
    tool_specs,
)
from botpsy.evals.bfcl.dataset import TestCase
from botpsy.evals.bfcl.results import Mode, ResultRecord
from botpsy.types import GenerationParams, Message, ToolCall, new_call_id


@dataclass
class _Trace:
    """Per turn, per step: what BFCL records (results, tokens, latency) plus our raw text."""

    result: list[list[Any]] = field(default_factory=list)
    raw: list[list[str]] = field(default_factory=list)
    input_tokens: list[list[int]] = field(default_factory=list)
    output_tokens: list[list[int]] = field(default_factory=list)
    latency: list[list[float]] = field(default_factory=list)
    parse_errors: list[Any] = field(default_factory=list)

    def new_turn(self) -> None:
        for series in (self.result, self.raw, self.input_tokens, self.output_tokens, self.latency):
            series.append([])


@dataclass
class _Conversation:
    case: TestCase
    mode: Mode
    tag: str
    messages: list[Message] = field(default_factory=list)
    functions: list[dict[str, Any]] = field(default_factory=list)

    def execute(self, calls: list[str]) -> list[str]:
        entry = self.case.entry
        results, _ = upstream.execute_multi_turn_func_call(
            calls,
            entry.get("initial_config", {}),
            entry["involved_classes"],
            self.tag,
            self.case.id,
            long_context="long_context" in self.case.id or "composite" in self.case.id,
            is_evaL_run=False,
        )
        return results


def _tool_messages(calls: list[str], results: list[str], made: list[ToolCall]) -> list[Message]:
    """Tool results, paired with the model's call ids when they line up one to one."""
    ids = [c.id for c in made] if len(made) == len(calls) else [new_call_id() for _ in calls]
    return [
        Message(role="tool", content=str(result), tool_call_id=call_id, name=call.split("(")[0])
        for call, result, call_id in zip(calls, results, ids)
    ]


def _run_turn(
    model: ChatModel, conv: _Conversation, trace: _Trace, params: GenerationParams
) -> bool:
    """Model steps until it stops calling; False when BFCL's step limit forced an end.

    A forced tool choice ("required") applies to the first step only: forcing the
    steps after tool results too would leave the model no way to end the turn.
    """
    tools = tool_specs(conv.functions)
    free = params.model_copy(update={"tool_choice": "auto"})
    for step in range(1, upstream.MAXIMUM_STEP_LIMIT + 2):
        start = time.perf_counter()
        completion = model.complete(conv.messages, tools, params if step == 1 else free)
        trace.latency[-1].append(time.perf_counter() - start)
        trace.result[-1].append(bfcl_result(completion, conv.mode))
        trace.raw[-1].append(completion.raw)
        trace.input_tokens[-1].append(completion.usage.prompt_tokens)
        trace.output_tokens[-1].append(completion.usage.completion_tokens)
        trace.parse_errors.extend(e.model_dump(mode="json") for e in completion.parse_errors)
        conv.messages.append(completion.to_message())
        try:
            calls = decode_execute(trace.result[-1][-1], conv.mode)
        except DecodeError:
            return True  # text, not calls: the turn is over
        if upstream.is_empty_execute_response(calls):
            return True
        results = conv.execute(calls)
        conv.messages.extend(_tool_messages(calls, results, completion.tool_calls))
    return False


def _drive(model: ChatModel, conv: _Conversation, trace: _Trace, params: GenerationParams) -> None:
    held_out: dict[str, list[dict[str, Any]]] = conv.case.entry.get("missed_function", {})
    conv.execute([])  # create the API instances from the case's initial state
    for index, turn in enumerate(conv.case.turns):
        if str(index) in held_out:
            conv.functions.extend(held_out[str(index)])
            turn = [{"role": "user", "content": upstream.ADDITIONAL_FUNCTION_PROMPT}]
        conv.messages.extend(to_messages(turn))
        trace.new_turn()
        if not _run_turn(model, conv, trace, params):
            return  # force-terminated: BFCL stops the whole conversation


def run_conversation(
    model: ChatModel, case: TestCase, mode: Mode, params: GenerationParams
) -> ResultRecord:
    """Drive one multi-turn case; the record holds one list of step results per turn.

    If the model fails mid-way (say, the conversation outgrows its context), the
    turns so far are kept in the record beside the error, for debugging.
    """
    conv = _Conversation(case, mode, checker_tag(model.name), functions=list(case.functions))
    classes = case.entry["involved_classes"]
    trace = _Trace()
    error = None
    upstream.forget_instances(conv.tag, case.id, classes)
    try:
        _drive(model, conv, trace, params)
    except Exception as exc:  # noqa: BLE001 - recorded; the run goes on with the next case
        error = f"{type(exc).__name__}: {exc}"
    finally:
        upstream.forget_instances(conv.tag, case.id, classes)
    return ResultRecord(
        id=case.id,
        result=trace.result,
        mode=mode,
        input_token_count=trace.input_tokens,
        output_token_count=trace.output_tokens,
        latency=trace.latency,
        raw=trace.raw,
        parse_errors=trace.parse_errors,
        inference_error=error,
    )
