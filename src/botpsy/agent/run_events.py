"""What an agent run returns and streams: steps, pending calls, results, events.

Pydantic models, because the web server sends them as JSON (including a pending
confirmation it must hand back to ``Agent.resume`` in a later request) and the
CLI renders them.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field

from botpsy.safety.audit import AuditDecision
from botpsy.safety.confirm import ConfirmationRequest
from botpsy.safety.policy import ScopeDecision, redact
from botpsy.safety.taint import TaintVerdict
from botpsy.tools import ToolErrorKind, ToolResult
from botpsy.types import Message, ToolCall, Usage


class StopReason(str, Enum):
    """Why a run ended."""

    answered = "answered"  # the model gave a final answer
    max_rounds = "max_rounds"  # the round budget ran out while the model kept calling tools
    loop_guard = "loop_guard"  # the model kept proposing the same call
    scope_declined = "scope_declined"  # the request is in a blocked domain: declined
    scope_handoff = "scope_handoff"  # the request is in a blocked domain: handed back to the user
    pending_confirmation = "pending_confirmation"  # calls wait for the user's decision (resume)
    model_error = "model_error"  # the model backend failed
    unreadable_call = "unreadable_call"  # the model's tool call could not be read, even when asked again


class AgentStep(BaseModel):
    """One proposed call and everything decided about it."""

    round: int
    call: ToolCall
    decision: AuditDecision
    reason: str = ""
    taint: TaintVerdict = Field(default_factory=TaintVerdict)
    scope: ScopeDecision | None = None
    result: ToolResult | None = None
    notice: str = ""  # what the final answer tells the user about this call, if anything
    writes: bool = False  # the tool can change something (a write or a side effect)
    # a failure's tools that list the values the call needed (a tool's or a check's refusal)
    finders: list[str] = Field(default_factory=list)
    instead: list[str] = Field(default_factory=list)  # a check's refusal: tools to call instead
    # a failure's category and its words for a person (no hint meant for the model):
    # the tool's (``ToolResult.detail``), the arguments' problems, or a rule's reason
    error_kind: ToolErrorKind | None = None
    detail: str = ""


def failed(step: AgentStep) -> bool:
    """Whether a call ran and failed, or was rejected as invalid, so nothing changed
    and the error can tell the model how to call again. Blocked, denied and pending
    calls are decisions, never retried."""
    if step.decision is AuditDecision.invalid:
        return True
    ran = step.decision in (AuditDecision.executed, AuditDecision.confirmed)
    return ran and step.result is not None and not step.result.ok


class PendingCall(BaseModel):
    """A call waiting for the user's yes or no (see ``Agent.resume``)."""

    call: ToolCall
    request: ConfirmationRequest
    round: int


class AgentResult(BaseModel):
    """The outcome of one user turn.

    ``messages`` is the whole conversation without the system prompt (which is
    rebuilt each turn, with the current date); ``steps`` are this turn's calls."""

    messages: list[Message]
    final_text: str
    steps: list[AgentStep] = Field(default_factory=list)
    stopped_reason: StopReason
    pending: list[PendingCall] = Field(default_factory=list)
    rounds: int = 0
    usage: Usage = Field(default_factory=Usage)
    scope: ScopeDecision | None = None
    session_id: str | None = None
    error: str | None = None


class AgentEvent(BaseModel):
    """One event of a streamed run, in order:
    ``token``/``reasoning`` text as generated, ``call`` when a call is proposed,
    ``decision`` once it is reviewed (blocked, invalid, needs confirmation or
    approved), ``result`` once it ran (or was denied), ``final`` with the result."""

    type: Literal["token", "reasoning", "call", "decision", "result", "final"]
    text: str = ""
    call: ToolCall | None = None
    step: AgentStep | None = None
    result: AgentResult | None = None


def describe_call(call: ToolCall, limit: int = 160) -> str:
    """``name(arg="value", ...)`` on one line, redacted and shortened, for people."""
    args = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in call.arguments.items())
    text = redact(f"{call.name}({args})")
    return text if len(text) <= limit else text[: limit - 2] + "\u2026)"
