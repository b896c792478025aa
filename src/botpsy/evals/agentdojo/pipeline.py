"""botpsy's agent and safety layer as an AgentDojo pipeline element.

AgentDojo's ``TaskSuite.run_task_with_pipeline`` builds the task's environment,
calls ``query`` with the user's prompt, then runs its own utility and security
checks on the environment and on the messages returned. Here ``query`` runs one
turn of botpsy's ``Agent`` over the suite's functions (``tools.suite_registry``),
with the safety mode's ``SafetyConfig`` and the simulated user answering its
confirmations, and returns the turn as AgentDojo messages.

Only calls that ran (approved or confirmed) are in those messages: a call the
safety layer blocked, or the user refused, was never made, so AgentDojo's checks
of the call trace do not see it. What botpsy decided for every proposed call is
kept in ``BotpsyPipeline.outcome`` for the per-task result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from typing import Any

from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
from agentdojo.functions_runtime import FunctionCall
from pydantic import BaseModel, Field

from botpsy.agent import Agent, AgentResult, Bm25ToolSelector, StopReason, SystemPrompt
from botpsy.agent.reply import ReplyWriter
from botpsy.agent.run_events import AgentStep
from botpsy.assistant.runtime import default_call_mode
from botpsy.backends.base import ChatModel
from botpsy.evals.agentdojo.tools import suite_registry
from botpsy.evals.agentdojo.traits import third_party_functions
from botpsy.evals.agentdojo.users import SimulatedUser, UserKind
from botpsy.evals.scenarios.harness import safety_config
from botpsy.evals.scenarios.trace import ConfirmationRecord
from botpsy.safety import AuditDecision, Confirmer
from botpsy.types import GenerationParams, Message

# AgentDojo's workspace and travel tasks take place on this day (get_current_day)
AGENTDOJO_NOW = datetime(2024, 5, 15, 9, 0, tzinfo=UTC)
RAN = (AuditDecision.executed, AuditDecision.confirmed)
DECLINED = (StopReason.scope_declined, StopReason.scope_handoff)



class ModelReplies(ReplyWriter):
    """AgentDojo's utility checks read what the model answered, so its text stands as it
    is; the agent's own report of the calls only fills in when the model said nothing."""

    def reply(self, text: str, steps: Sequence[AgentStep], messages: Sequence[Message] = ()) -> str:
        return text if text.strip() else self.report(steps, messages)

class SafetyMode(str, Enum):
    """``on``: the deployment defaults; ``no_scope``: the same without the scope
    policy (no blocked domains); ``off``: no scope checks and every call approved."""

    on = "on"
    no_scope = "no_scope"
    off = "off"


@dataclass(frozen=True)
class PipelineSettings:
    """What every task of a run shares."""

    safety: SafetyMode
    user: UserKind
    max_rounds: int = 24
    params: GenerationParams = field(default_factory=lambda: GenerationParams(max_tokens=256))
    call_mode: str | None = None  # None: the model's shipped default

    def config(self):
        config = safety_config(self.safety is not SafetyMode.off)
        if self.safety is SafetyMode.no_scope:
            config = config.model_copy(update={"blocked_domains": []})
        return config.model_copy(update={"max_rounds": self.max_rounds})


class StepRecord(BaseModel):
    """What botpsy decided for one proposed call."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    decision: str
    reason: str = ""
    ok: bool | None = None  # None: it did not run


class Outcome(BaseModel):
    """botpsy's side of one task: how the turn ended and every decision in it."""

    stopped_reason: str = ""
    declined: bool = False  # the scope policy declined the request before the model ran
    final_text: str = ""
    steps: list[StepRecord] = Field(default_factory=list)
    confirmations: list[ConfirmationRecord] = Field(default_factory=list)
    rounds: int = 0
    obeyed_injection: bool | None = None  # the obedient planner: it saw and followed one


def _text(content: str) -> list[dict[str, Any]]:
    return [{"type": "text", "content": content}]


def agentdojo_messages(result: AgentResult, prompt: str) -> list[dict[str, Any]]:
    """The turn as AgentDojo chat messages: the user's prompt, the calls that ran with
    their results, and the final answer last."""
    ran = {s.call.id: s for s in result.steps if s.decision in RAN}
    calls: dict[str, Any] = {}
    out: list[dict[str, Any]] = [{"role": "user", "content": _text(prompt)}]
    for m in result.messages:
        if m.role == "assistant" and m.tool_calls:
            made = [FunctionCall(function=c.name, args=dict(c.arguments), id=c.id)
                    for c in m.tool_calls if c.id in ran]
            calls.update((c.id, c) for c in made)
            if made:
                out.append({"role": "assistant", "content": _text(m.content), "tool_calls": made})
        elif m.role == "tool" and m.tool_call_id in calls:
            step = ran[m.tool_call_id]
            failed = step.result is not None and not step.result.ok  # by field, not by its text
            out.append({"role": "tool", "content": _text(m.content), "tool_call_id": m.tool_call_id,
                        "tool_call": calls[m.tool_call_id], "error": m.content if failed else None})
    out.append({"role": "assistant", "content": _text(result.final_text), "tool_calls": None})
    return out


def outcome_of(result: AgentResult, records: Sequence[ConfirmationRecord]) -> Outcome:
    steps = [StepRecord(tool=s.call.name, arguments=s.call.arguments, decision=s.decision.value,
                        reason=s.reason, ok=None if s.result is None else s.result.ok)
             for s in result.steps]
    return Outcome(stopped_reason=result.stopped_reason.value,
                   declined=result.stopped_reason in DECLINED,
                   final_text=result.final_text, steps=steps, confirmations=list(records),
                   rounds=result.rounds)


class _Approver(Confirmer):
    """Safety off: every confirmation is approved unread (and recorded)."""

    def __init__(self) -> None:
        self.records: list[ConfirmationRecord] = []

    def confirm(self, request) -> bool:
        self.records.append(ConfirmationRecord(
            tool=request.call.name, arguments=request.call.arguments,
            tainted=request.taint.tainted, approved=True, why="safety off: approve all"))
        return True


class BotpsyPipeline(BasePipelineElement):
    """One task's pipeline: ``model`` makes the ChatModel when the task starts (the
    obedient planner needs the task's ground truth, computed on its environment)."""

    def __init__(self, name: str, suite: Any, settings: PipelineSettings,
                 model: Callable[[Any], ChatModel], selector: Bm25ToolSelector | None = None):
        self.name = name
        self.selector = selector or Bm25ToolSelector()  # shared by a run: its index is kept
        self.suite = suite
        self.settings = settings
        self.make_model = model
        self.outcome: Outcome | None = None
        self.messages: list[dict[str, Any]] = []  # the last query's, in AgentDojo's format

    def _confirmer(self, functions: list[str]):
        if self.settings.safety is SafetyMode.off:
            return _Approver()
        return SimulatedUser(self.settings.user,
                             third_party_functions(self.suite.name, functions))

    def query(self, query: str, runtime: Any, env: Any = None, messages: Sequence = (),
              extra_args: dict | None = None):
        model = self.make_model(env)
        registry = suite_registry(self.suite, runtime, env)
        confirmer = self._confirmer(registry.names())
        agent = Agent(model, registry, safety=self.settings.config(), confirmer=confirmer,
                      params=self.settings.params, tool_selector=self.selector,
                      call_mode=self.settings.call_mode or default_call_mode(model.name),
                      system_prompt_builder=SystemPrompt(clock=lambda: AGENTDOJO_NOW),
                      replies=ModelReplies())
        result = agent.run(query)
        self.outcome = outcome_of(result, confirmer.records)
        if hasattr(model, "obeyed"):
            self.outcome.obeyed_injection = model.obeyed
        self.messages = agentdojo_messages(result, query)
        return query, runtime, env, [*messages, *self.messages], extra_args or {}
