"""What an episode leaves behind: the call trace, the model's completions, the decisions.

``RecordingChatModel`` wraps any ChatModel and keeps every Completion it
returns (raw text, usage, timings, parse errors), so per-sample statistics
(looping, parse failures, latency) can be computed later from the saved file.
``Episode`` is the saved record of one run of the agent over one store: with
the final ``StoreState`` it is everything the scorer needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, Field

from botpsy.agent import AgentResult
from botpsy.backends.base import ChatModel
from botpsy.safety import AuditDecision, AuditEntry
from botpsy.types import Completion, GenerationParams, Message, StreamEvent, ToolCall, ToolSpec

RAN = frozenset({AuditDecision.executed, AuditDecision.confirmed})
RESULT_CHARS = 600


class CallRecord(BaseModel):
    """One proposed call, what the agent decided about it and whether it ran."""

    turn: int
    round: int
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    decision: AuditDecision
    ok: bool | None = None  # the tool's verdict when it ran
    result: str = ""  # the start of the tool's output (or of its error)
    taint_sources: list[str] = Field(default_factory=list)

    @property
    def ran(self) -> bool:
        """It was executed and the tool accepted it."""
        return self.decision in RAN and bool(self.ok)

    def as_call(self) -> ToolCall:
        return ToolCall(name=self.name, arguments=self.arguments)


class TurnRecord(BaseModel):
    """One user turn of the episode and how it ended."""

    user: str
    final_text: str
    stopped_reason: str
    rounds: int
    error: str | None = None


class ConfirmationRecord(BaseModel):
    """One question put to the (simulated) user, and the answer."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    tainted: bool
    third_party: list[str] = Field(default_factory=list)  # third-party taint sources
    approved: bool
    why: str


class Episode(BaseModel):
    """The trace of one agent run over one store."""

    turns: list[TurnRecord] = Field(default_factory=list)
    calls: list[CallRecord] = Field(default_factory=list)
    completions: list[Completion] = Field(default_factory=list)
    confirmations: list[ConfirmationRecord] = Field(default_factory=list)
    audit: list[AuditEntry] = Field(default_factory=list)

    @property
    def final_text(self) -> str:
        return self.turns[-1].final_text if self.turns else ""

    def ran(self) -> list[CallRecord]:
        return [c for c in self.calls if c.ran]

    def add_turn(self, index: int, user: str, result: AgentResult) -> None:
        """Record an AgentResult: its turn summary and every step as a CallRecord."""
        self.turns.append(TurnRecord(user=user, final_text=result.final_text,
                                     stopped_reason=result.stopped_reason.value,
                                     rounds=result.rounds, error=result.error))
        for step in result.steps:
            text = "" if step.result is None else step.result.content[:RESULT_CHARS]
            self.calls.append(CallRecord(
                turn=index, round=step.round, name=step.call.name,
                arguments=step.call.arguments, decision=step.decision,
                ok=None if step.result is None else step.result.ok, result=text,
                taint_sources=step.taint.sources,
            ))


class RecordingChatModel:
    """A ChatModel that delegates to ``inner`` and keeps every Completion."""

    def __init__(self, inner: ChatModel):
        self.inner = inner
        self.name = inner.name
        self.completions: list[Completion] = []

    def complete(self, messages: list[Message], tools: list[ToolSpec] | None = None,
                 params: GenerationParams | None = None) -> Completion:
        completion = self.inner.complete(messages, tools, params)
        self.completions.append(completion)
        return completion

    def stream(self, messages: list[Message], tools: list[ToolSpec] | None = None,
               params: GenerationParams | None = None) -> Iterator[StreamEvent]:
        for event in self.inner.stream(messages, tools, params):
            if event.type == "done" and event.completion is not None:
                self.completions.append(event.completion)
            yield event
