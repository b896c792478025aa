"""One proposed call through the safety pipeline: review, then confirm and run.

Order matters and is the same for every call:

1. loop guard: an identical call already proposed this turn is refused;
2. lookup and validation: unknown tools and bad arguments go back to the model
   as tool results so it can fix the call (a person is never asked to approve
   a call that cannot run);
3. scope: the argument text is checked like a request (a card number in an
   email body is blocked);
4. confirmation gate (``safety.confirm``): once untrusted data is in view every
   write needs a person; side effects need one unless auto-approved AND untainted;
5. execution: what the call writes records the call's origin (a stranger's when it
   was tainted, ``safety.provenance``); the result comes back as attributed data
   (``source=tool:NAME:ID``) carrying the origin of its items.

Every decision is written to the audit log. ``CallPipeline.review`` does 1-4
without side effects, so the agent can stream the decision before anything runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from botpsy.agent.guard import Repeat
from botpsy.agent.run_events import AgentStep, PendingCall, describe_call
from botpsy.safety.audit import AuditDecision, AuditEntry, AuditLog
from botpsy.safety.config import SafetyConfig, ScopeAction
from botpsy.safety.confirm import ConfirmationRequest, Confirmer, confirmation_gate
from botpsy.safety.policy import ScopeDecision, ScopePolicy
from botpsy.safety.provenance import origin_for, writing_as
from botpsy.safety.taint import AGENT_SOURCE, TaintVerdict
from botpsy.tools import ToolErrorKind, ToolRegistry, ToolResult
from botpsy.types import Message, ToolCall, tool_source


@dataclass
class Review:
    """The verdict on a call before anything runs."""

    call: ToolCall  # with repaired arguments when validation repaired them
    decision: AuditDecision  # executed = approved to run now
    reason: str
    taint: TaintVerdict
    feedback: str = ""  # what the model reads back when the call does not run
    scope: ScopeDecision | None = None
    request: ConfirmationRequest | None = None
    stop: bool = False  # the loop guard says: end the run
    finders: tuple[str, ...] = ()  # a check's refusal: the tools that list valid values
    instead: tuple[str, ...] = ()  # a check's refusal: the tools to call in its place
    error_kind: ToolErrorKind | None = None  # why an invalid call is invalid (AgentStep)
    detail: str = ""  # an invalid call's problem in words for a person (AgentStep)


@dataclass
class Outcome:
    """What became of a reviewed call: the step, the tool message for the model
    (None while pending), and the pending entry when the caller must decide."""

    step: AgentStep
    message: Message | None
    pending: PendingCall | None = None


def tool_message(result: ToolResult) -> Message:
    """A tool result as attributed data for the conversation: labelled untrusted in the
    prompt (the model reads every result as data, not instructions); what the taint
    tracker trusts is decided by its ``provenance`` (the user's own items only)."""
    return result.to_message().model_copy(
        update={"untrusted": True, "source": tool_source(result.name, result.call_id)}
    )


def agent_message(call: ToolCall, decision: AuditDecision, text: str) -> Message:
    """The agent's own answer in place of a tool result (blocked, invalid, denied)."""
    return Message(role="tool", content=text, tool_call_id=call.id, name=call.name,
                   source=f"{AGENT_SOURCE}{decision.value}")


class CallPipeline:
    """The safety pipeline for the calls of one run."""

    def __init__(
        self,
        registry: ToolRegistry,
        config: SafetyConfig,
        confirmer: Confirmer | None,
        audit: AuditLog | None,
        session_id: str | None,
    ):
        self.registry = registry
        self.config = config
        self.policy = ScopePolicy(config)
        self.confirmer = confirmer
        self.audit = audit
        self.session_id = session_id

    # -- review -----------------------------------------------------------------------
    def review(self, call: ToolCall, taint: TaintVerdict, repeat: Repeat) -> Review:
        """Steps 1-4 of the module docstring, without running anything."""
        if repeat is not Repeat.fresh:
            return Review(call, AuditDecision.blocked_loop, "identical call repeated", taint,
                          feedback="Error: this exact call was already made in this turn; its "
                          "result is above. Do not repeat it: answer the user, or change the "
                          "arguments.", stop=repeat is Repeat.stop)
        if call.name not in self.registry:
            failed = self.registry.execute(call)  # the registry's message names close tools
            return Review(call, AuditDecision.invalid, failed.error or "unknown tool", taint,
                          feedback=failed.content, error_kind=ToolErrorKind.unknown_tool)
        tool = self.registry.get(call.name)
        verdict = tool.validate(call.arguments)
        if not verdict.ok:
            return Review(call, AuditDecision.invalid, verdict.feedback(call.name), taint,
                          feedback="Error: " + verdict.feedback(call.name),
                          error_kind=ToolErrorKind.invalid_arguments, detail=verdict.problems())
        call = call.model_copy(update={"arguments": verdict.arguments})
        scope = self.policy.check_call(call, side_effect=tool.side_effect)
        if scope.blocked:
            return Review(call, AuditDecision.blocked_scope, scope.summary(), taint, scope=scope,
                          feedback=f"Blocked by the safety policy, not run: {scope.message} "
                          "Tell the user; do not retry.")
        gate = confirmation_gate(call.name, tool.side_effect, taint, self.config,
                                 writes=tool.writes)
        if not gate.needs_confirmation:
            return Review(call, AuditDecision.executed, " ".join(gate.reasons), taint, scope=scope)
        request = ConfirmationRequest(call=call, tool_description=tool.description,
                                      target=tool.target(call.arguments), reasons=gate.reasons,
                                      taint=taint)
        return Review(call, AuditDecision.needs_confirmation, " ".join(gate.reasons), taint,
                      scope=scope, request=request)

    # -- outcome ----------------------------------------------------------------------
    def settle(self, review: Review, round_: int) -> Outcome:
        """Confirm (or defer) and run a reviewed call; audit every decision."""
        if review.decision is AuditDecision.executed:
            return self.execute(review, round_, AuditDecision.executed)
        if review.decision is not AuditDecision.needs_confirmation:
            return self._refused(review, round_)
        assert review.request is not None
        self._audit(review, round_, AuditDecision.needs_confirmation, review.reason)
        if self.confirmer is None:
            step = self.step(review, round_, AuditDecision.needs_confirmation, review.reason)
            return Outcome(step, None, PendingCall(call=review.call, request=review.request,
                                                   round=round_))
        if self.confirmer.confirm(review.request):
            return self.execute(review, round_, AuditDecision.confirmed)
        return self.deny(review, round_, self.confirmer.denial_reason)

    def deny(self, review: Review, round_: int, why: str = "") -> Outcome:
        """Record a refused confirmation and tell both the model and the user."""
        why = why or "you did not confirm it"
        notice = f"I did not run {describe_call(review.call)}: {why}."
        if review.taint.tainted:
            notice += " " + review.taint.explain()
        step = self.step(review, round_, AuditDecision.denied, why, notice=notice)
        self._audit(review, round_, AuditDecision.denied, why)
        text = f"Not run: the user did not confirm this call ({why}). Do not retry it."
        return Outcome(step, agent_message(review.call, AuditDecision.denied, text))

    def _refused(self, review: Review, round_: int) -> Outcome:
        notice = ""
        if review.decision is AuditDecision.blocked_scope and review.scope is not None:
            notice = review.scope.message
            if review.scope.action is ScopeAction.handoff:
                notice += f" The call was: {describe_call(review.call, limit=400)}"
        step = self.step(review, round_, review.decision, review.reason, notice=notice)
        self._audit(review, round_, review.decision, review.reason)
        return Outcome(step, agent_message(review.call, review.decision, review.feedback))

    def execute(self, review: Review, round_: int, decision: AuditDecision) -> Outcome:
        """Run the call (approved or confirmed): its audit row is written (pending) and
        synced before it runs, and completed with its result after; what it writes is a
        stranger's when untrusted data was in view."""
        row = self._audit(review, round_, decision, review.reason, begin=True)
        with writing_as(origin_for(review.taint.tainted and not review.taint.proven)):
            result = self.registry.execute(review.call)
        if row is not None and self.audit is not None:
            self.audit.complete(row, result)
        step = self.step(review, round_, decision, review.reason, result=result)
        return Outcome(step, tool_message(result))

    def step(self, review: Review, round_: int, decision: AuditDecision, reason: str,
             *, result: ToolResult | None = None, notice: str = "") -> AgentStep:
        """The step record of a reviewed call (also used to stream a decision early)."""
        writes = review.call.name in self.registry and \
            self.registry.get(review.call.name).spec.changes_state
        finders = list(review.finders) or (result.finders if result is not None else [])
        failure = result is not None and not result.ok
        return AgentStep(round=round_, call=review.call, decision=decision, reason=reason,
                         taint=review.taint, scope=review.scope, result=result, notice=notice,
                         writes=writes, finders=finders, instead=list(review.instead),
                         error_kind=review.error_kind or (result.error_kind if failure else None),
                         detail=review.detail or (result.detail if failure else ""))

    def _audit(self, review: Review, round_: int, decision: AuditDecision, reason: str,
               *, begin: bool = False) -> AuditEntry | None:
        """Record a decision (``begin``: a call about to run, to complete after)."""
        if self.audit is None:
            return None
        entry = AuditEntry.of_call(
            review.call, decision, reason, session_id=self.session_id, round_=round_,
            taint_sources=review.taint.sources, evidence=review.taint.findings,
        )
        return self.audit.begin(entry) if begin else self.audit.record(entry)
