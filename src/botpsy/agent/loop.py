"""The agent loop: request -> scope check -> generate -> review calls -> run -> repeat.

``Agent.run`` handles one user turn and returns an ``AgentResult``;
``Agent.stream`` yields ``AgentEvent``s (tokens, proposed calls, decisions,
results, the final result) for the CLI chat and the web server. Safety is
enforced here, not hoped for from the model:

- the request is scope-checked before the model sees it (money, personal data,
  health are declined or handed back to the user);
- every proposed call goes through ``CallPipeline`` (loop guard, validation,
  scope check of its arguments, taint-aware confirmation gate, audit);
- tool output re-enters the conversation as untrusted, attributed data;
- what was blocked or denied is stated in the final answer by the agent itself,
  so the user learns about it even when the model says nothing.

With ``confirmer=None`` a call that needs confirmation is not asked about
synchronously: the run stops with ``stopped_reason=pending_confirmation`` and
``result.pending``; ``Agent.resume(result, {call_id: True/False})`` continues.

    agent = Agent(model, registry, safety=SafetyConfig(), confirmer=DenyAll())
    result = agent.run("What's on my calendar tomorrow?")
    print(result.final_text)
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from botpsy.agent.calls import CallPipeline, Outcome, Review, agent_message
from botpsy.agent.checks import (
    Anticipating,
    CallCheck,
    Narrowing,
    Prerequisite,
    Reading,
    Repeating,
    bounded,
    determined_arguments,
    narrowed,
    remember,
)
from botpsy.agent.compact import compactions
from botpsy.agent.grounding import (
    Grounding,
    finders,
    forced_spec,
    id_arguments,
    result_objects,
    search_terms,
    shown_items,
    user_text,
    vouched_ids,
    words,
)
from botpsy.agent.guard import LoopGuard, Repeat
from botpsy.agent.intent import is_lookup, latest_request
from botpsy.agent.prompt import SystemPrompt, SystemPromptBuilder
from botpsy.agent.reply import ReplyWriter
from botpsy.agent.rules import CallContext, CallRule, CallRules, ContextRule, RuleKind
from botpsy.agent.run_events import (
    AgentEvent,
    AgentResult,
    AgentStep,
    PendingCall,
    StopReason,
    describe_call,
    failed,
)
from botpsy.agent.selection import (
    DAY_WORDS,
    Selection,
    ToolSelector,
    asks_a_question,
    commands,
    creates,
    name_family,
)
from botpsy.agent.several import next_item, times_asked
from botpsy.backends.base import ChatModel, ContextOverflowError
from botpsy.formats.spans import json_text
from botpsy.safety.answer_origin import AnswerCheck, check_answer
from botpsy.safety.audit import REQUEST_TOOL, AuditDecision, AuditEntry, AuditLog
from botpsy.safety.config import SafetyConfig, ScopeAction
from botpsy.safety.confirm import Confirmer
from botpsy.safety.policy import ScopeDecision, ScopePolicy
from botpsy.safety.taint import AGENT_SOURCE, TaintTracker
from botpsy.tools import ToolRegistry
from botpsy.types import (
    Completion,
    GenerationParams,
    Message,
    ParseError,
    ParseErrorKind,
    ToolCall,
    ToolSpec,
    Usage,
)


@dataclass
class _Turn:
    """The mutable state of one user turn (rebuilt from messages on resume)."""

    messages: list[Message]
    tools: list[ToolSpec]
    guard: LoopGuard
    pipeline: CallPipeline
    session_id: str | None
    steps: list[AgentStep] = field(default_factory=list)
    pending: list[PendingCall] = field(default_factory=list)
    first_choice: str = "auto"  # tool_choice of the turn's first generation (single_call mode)
    requested: list[frozenset[str]] = field(default_factory=list)  # Selection.requested
    looked: list[frozenset[str]] = field(default_factory=list)  # Selection.looked
    answer_from: list[frozenset[str]] = field(default_factory=list)  # Selection.answer_from
    widen: frozenset[str] = frozenset()  # Selection.widen
    # Agent._made_from, as read before the turn's first lookup satisfied it
    made_from: frozenset[str] | None = None
    forced: list[ToolSpec] | None = None  # single_call mode: the next round must call one of these
    held: list[ToolSpec] | None = None  # the tools the latest generation's grammar held it to
    # single_call mode: the tools whose failed calls had their one retry
    retried: set[str] = field(default_factory=set)
    # the third-party tool specs the turn's prompts showed: untrusted text (ToolSpec.source)
    shown: dict[str, ToolSpec] = field(default_factory=dict)
    narrowing: Narrowing = field(default_factory=dict)  # what refusals allow a retry to write
    kept: Narrowing = field(default_factory=dict)  # what the retry keeps of a refused call
    rounds: int = 0
    usage: Usage = field(default_factory=Usage)
    error: str | None = None

    @property
    def called(self) -> set[str]:
        """The tools the turn's calls named, whatever came of them."""
        return {step.call.name for step in self.steps}


def turn_start(messages: list[Message]) -> int:
    """Index of the user message that opened the current turn."""
    for index in range(len(messages) - 1, -1, -1):
        m = messages[index]
        if m.role == "user" and not (m.source or "").startswith(AGENT_SOURCE):
            return index
    raise ValueError("the conversation has no user message")


def _worked(step: AgentStep) -> bool:
    """Whether a call ran (auto-approved or confirmed) and worked."""
    return (step.decision in (AuditDecision.executed, AuditDecision.confirmed)
            and step.result is not None and step.result.ok)


def unreadable(error: ParseError) -> str:
    """The answer when the model's call could not be read: what went wrong, and that
    nothing ran (its text stays in the conversation)."""
    return (f"I could not read the tool call the model wrote ({error.kind.value}: "
            f"{error.message}), so nothing was done. Please try again or rephrase.")


def _retryable(step: AgentStep) -> bool:
    """Whether other arguments may make a failed call work (not: the item is already there)."""
    return step.result is None or step.result.retry


def all_failed(steps: list[AgentStep]) -> bool:
    """Whether every call of a round failed (see ``failed``)."""
    return bool(steps) and all(failed(s) for s in steps)


def compose_final(text: str, notices: list[str]) -> str:
    """The model's answer followed by what the agent must say itself."""
    parts = [text.strip()] if text.strip() else []
    parts += list(dict.fromkeys(n for n in notices if n))
    return "\n\n".join(parts)


class Agent:
    """A tool-using assistant whose safety does not depend on the model.

    ``max_rounds`` (model generations per turn) defaults to ``safety.max_rounds``;
    ``tool_selector`` narrows the tools shown to the model each turn; ``call_checks``
    are the deployment's own rules for a call (``agent.rules.CallRules``, or a plain list
    of checks such as the assistant's ``DayCheck``): a call one of them objects to is
    refused as invalid, with the reason as its error, before it could run or be
    confirmed. Grounding is the first rule unless the registry places it.

    ``call_mode="single_call"`` is for models too small to decide on their own to
    call a tool or to summarise a result (SmolLM2-135M does neither unaided): when
    the selector finds tools that match the request, the model must make one call
    (``tool_choice="required"``, grammar-constrained on llama.cpp), the calls go
    through the same safety pipeline, and the agent reports their results itself
    instead of asking the model for a second round. A request that matches no tool
    (chit-chat) is answered by the model without tools, never forced into a call.
    The turn goes on with further forced calls only to finish what the request
    asked for (``_force_next_round``: a retry after a failed call, the action after
    a lookup), and a call acting on an item id the model made up is refused
    (``agent.grounding``)."""

    def __init__(
        self,
        model: ChatModel,
        registry: ToolRegistry,
        *,
        safety: SafetyConfig | None = None,
        confirmer: Confirmer | None = None,
        audit: AuditLog | None = None,
        system_prompt_builder: SystemPromptBuilder | None = None,
        max_rounds: int | None = None,
        tool_selector: ToolSelector | None = None,
        params: GenerationParams | None = None,
        call_mode: str = "auto",
        call_checks: CallRules | Sequence[CallCheck] = (),
        replies: ReplyWriter | None = None,
        read_request: Callable[[str], str] | None = None,
    ):
        if call_mode not in ("auto", "single_call"):
            raise ValueError(f"call_mode must be 'auto' or 'single_call', got {call_mode!r}")
        self.call_mode = call_mode
        self.call_rules = CallRules.of(call_checks).with_first(grounding_rule(registry))
        self.model = model
        self.registry = registry
        self.safety = safety or SafetyConfig()
        self.policy = ScopePolicy(self.safety)
        self.confirmer = confirmer
        self.audit = audit
        self.system_prompt = system_prompt_builder or SystemPrompt()
        self.max_rounds = max_rounds or self.safety.max_rounds
        self.tool_selector = tool_selector
        self.params = params or GenerationParams()
        self.replies = replies or ReplyWriter()
        # how the user's words are read before anything reads them (the assistant's
        # corrects misspelt key words: ``agent.spelling``); the scope policy reads them raw
        self.read_request = read_request

    @property
    def call_checks(self) -> list[CallCheck | ContextRule]:
        """The checks of ``call_rules``, in their order (grounding included)."""
        return self.call_rules.checks()

    # -- public API ---------------------------------------------------------------------
    def run(
        self, user_text: str, history: list[Message] | None = None, *, session_id: str | None = None
    ) -> AgentResult:
        """Handle one user turn and return its result."""
        return _final(self._start(user_text, list(history or []), session_id, stream=False))

    def stream(
        self, user_text: str, history: list[Message] | None = None, *, session_id: str | None = None
    ) -> Iterator[AgentEvent]:
        """``run`` as events; the last event is ``final`` with the AgentResult."""
        return self._start(user_text, list(history or []), session_id, stream=True)

    def resume(self, previous: AgentResult, decisions: Mapping[str, bool]) -> AgentResult:
        """Continue a turn that stopped on pending confirmations, with the user's
        decision (call id -> approve) for every pending call."""
        return _final(self._resume(previous, decisions, stream=False))

    def stream_resume(
        self, previous: AgentResult, decisions: Mapping[str, bool]
    ) -> Iterator[AgentEvent]:
        return self._resume(previous, decisions, stream=True)

    # -- turn setup -------------------------------------------------------------------------
    def _new_turn(self, messages: list[Message], session_id: str | None) -> _Turn:
        start = turn_start(messages)
        tools, matched, selection = self._select_tools(messages[start].content, messages)
        return _Turn(
            messages=messages,
            tools=tools,
            first_choice=self._first_choice(matched),
            requested=list(selection.requested) if selection else [],
            looked=list(selection.looked) if selection else [],
            answer_from=list(selection.answer_from) if selection else [],
            widen=selection.widen if selection else frozenset(),
            guard=LoopGuard.from_turn(messages[start:], self.safety.max_identical_calls),
            pipeline=CallPipeline(self.registry, self.safety, self.confirmer, self.audit,
                                  session_id),
            session_id=session_id,
        )

    def _first_choice(self, matched: bool) -> str:
        if self.call_mode != "single_call":
            return "auto"
        return "required" if matched else "none"

    def _select_tools(
        self, query: str, messages: list[Message]
    ) -> tuple[list[ToolSpec], bool, Selection | None]:
        """The tools to show; whether the request matched some of them (False only
        when a selector found nothing and fell back to every tool; without a
        selector every tool is a candidate); and the selection, which says what the
        request asks to be done and looked up (``Selection.requested``, ``.looked``)."""
        specs = self.registry.specs()
        if self.tool_selector is None:
            return specs, True, None
        used = {call.name for m in messages for call in m.tool_calls if call.name in self.registry}
        selection = self.tool_selector.choose(query, specs, always=used)
        return selection.tools, not selection.fallback, selection

    def _start(
        self, user_text: str, history: list[Message], session_id: str | None, stream: bool
    ) -> Iterator[AgentEvent]:
        read = self.read_request(user_text) if self.read_request else user_text
        messages = [*self._close_abandoned(history, session_id),
                    Message(role="user", content=read)]
        scope = self.policy.check_request(user_text)
        if scope.blocked:
            yield self._declined(messages, scope, session_id)
            return
        turn = self._new_turn(messages, session_id)
        yield from self._loop(turn, stream)

    def _close_abandoned(self, history: list[Message], session_id: str | None) -> list[Message]:
        """Answer calls that were left pending when the user wrote again instead of
        deciding: they count as denied, so every call in the conversation has a result
        right after its block (formats and OpenAI endpoints require it)."""
        answered = {m.tool_call_id for m in history if m.role == "tool"}
        closed: list[Message] = []
        waiting: list[ToolCall] = []
        for message in history:
            if message.role != "tool" and waiting:
                closed += self._deny_abandoned(waiting, session_id)
                waiting = []
            closed.append(message)
            if message.role == "assistant":
                waiting = [c for c in message.tool_calls if c.id not in answered]
        return closed + self._deny_abandoned(waiting, session_id)

    def _deny_abandoned(self, calls: list[ToolCall], session_id: str | None) -> list[Message]:
        reason = "abandoned: the user sent a new message instead of deciding"
        for call in calls:
            if self.audit is not None:
                self.audit.record(AuditEntry(
                    session_id=session_id, call_id=call.id, tool=call.name,
                    arguments=call.arguments, decision=AuditDecision.denied, reason=reason))
        return [agent_message(c, AuditDecision.denied,
                              "Not run: the user moved on without confirming it.") for c in calls]

    def _declined(
        self, messages: list[Message], scope: ScopeDecision, session_id: str | None
    ) -> AgentEvent:
        """A request outside the deployment's scope: the model is never called."""
        if self.audit is not None:
            self.audit.record(AuditEntry(
                session_id=session_id, tool=REQUEST_TOOL, decision=AuditDecision.blocked_scope,
                arguments={"text": messages[-1].content}, reason=scope.summary(),
            ))
        messages.append(Message(role="assistant", content=scope.message,
                                source=f"{AGENT_SOURCE}scope"))
        reason = (StopReason.scope_handoff if scope.action is ScopeAction.handoff
                  else StopReason.scope_declined)
        result = AgentResult(messages=messages, final_text=scope.message, stopped_reason=reason,
                             scope=scope, session_id=session_id)
        return AgentEvent(type="final", result=result)

    # -- the loop ---------------------------------------------------------------------------
    def _loop(self, turn: _Turn, stream: bool) -> Iterator[AgentEvent]:
        while turn.rounds < self.max_rounds:
            turn.rounds += 1
            completion = yield from self._generate(turn, stream)
            if completion is None:
                yield self._finish(turn, StopReason.model_error,
                                   f"The model failed: {turn.error}")
                return
            turn.messages.append(completion.to_message())
            if not completion.tool_calls:
                if self._ask_to_fix_parse(turn, completion):
                    continue
                unread = [e for e in completion.parse_errors if not e.recovered]
                if unread:  # never present a broken call as the answer
                    yield self._finish(turn, StopReason.unreadable_call, unreadable(unread[0]))
                    return
                yield self._finish(turn, StopReason.answered, self.replies.reply(
                    completion.content, turn.steps, turn.messages))
                return
            stop = yield from self._round(turn, completion.tool_calls)
            if turn.pending:
                yield self._finish(turn, StopReason.pending_confirmation, self.replies.reply(
                    completion.content, turn.steps, turn.messages))
                return
            if self.call_mode == "single_call":
                if self._force_next_round(turn):
                    continue
                yield self._finish(turn, StopReason.answered, self.replies.report(turn.steps, turn.messages))
                return
            if stop:
                yield self._finish(turn, StopReason.loop_guard, "I stopped because the same "
                                   "tool call kept being proposed; please rephrase the request.")
                return
        yield self._finish(turn, StopReason.max_rounds, f"I stopped after {self.max_rounds} "
                           "rounds of tool calls without reaching an answer.")

    def _generate(self, turn: _Turn, stream: bool) -> Iterator[AgentEvent]:
        """One model generation (streamed as token events); returns the Completion,
        or None with ``turn.error`` set when the backend failed. A prompt over the
        context window is asked again with its tool results cut down (prompt only)."""
        completion: Completion | None = None
        shorter = compactions(turn.messages, turn_start(turn.messages))
        for messages in itertools.chain([turn.messages], shorter):
            try:
                completion = yield from self._call_model(turn, messages, stream)
            except ContextOverflowError as exc:  # kept if no shorter prompt fits
                turn.error = (f"the request does not fit the model's context window (cut "
                              f"down as far as it goes, the prompt is {exc.prompt_tokens} "
                              f"tokens, the window {exc.n_ctx}); shorten it")
                continue
            except Exception as exc:  # noqa: BLE001 - any backend failure ends the turn, categorised
                turn.error = f"{type(exc).__name__}: {exc}"
                return None
            break
        else:
            return None
        if completion is None:
            turn.error = "the model stream ended without a completion"
            return None
        turn.error = None
        turn.usage = Usage(
            prompt_tokens=turn.usage.prompt_tokens + completion.usage.prompt_tokens,
            completion_tokens=turn.usage.completion_tokens + completion.usage.completion_tokens,
            cached_tokens=turn.usage.cached_tokens + completion.usage.cached_tokens,
        )
        return completion

    def _call_model(
        self, turn: _Turn, messages: list[Message], stream: bool
    ) -> Iterator[AgentEvent]:
        """Ask the model once with ``messages``; returns its Completion (None if the stream
        ended without one). Backend errors propagate to ``_generate``."""
        prompt = [Message(role="system", content=self.system_prompt()), *messages]
        params, tools, choice = self.params, turn.tools, None
        held = earlier = None
        if turn.rounds == 1 and turn.first_choice != "auto":
            choice = turn.first_choice
            if choice == "required":  # held to the same grounding, in its grammar only: a
                # narrowed schema in the prompt changed which tool the model chose
                made = self._lookup_first(turn) or self._creation_asked(turn)
                if made:  # what the request needs first: a lookup, or the one thing it adds
                    tools, earlier = made, turn.tools
                held = [self._narrow_forced(turn, spec) for spec in tools]
        elif turn.forced:
            # the first call's tools stay in the prompt where a grammar holds the call
            # (its cached start serves again); the call itself is held to turn.forced
            tools, choice, earlier = turn.forced, "required", turn.tools
            fixed = determined_arguments(tools[0]) if len(tools) == 1 else None
            if fixed is not None:  # the grammar admits this one call: no generation needed
                call = ToolCall(name=tools[0].name, arguments=fixed)
                return Completion(tool_calls=[call], finish_reason="tool_calls",
                                  model=self.model.name)
        turn.shown.update((spec.name, spec) for spec in tools if spec.source)
        turn.held = (held or tools) if choice == "required" else None
        if choice is not None:
            # one call: a weak model forced to call tends to pad with unrelated extra calls
            params = params.model_copy(update={"tool_choice": choice, "grammar_tools": held,
                                               "prompt_tools": earlier,
                                               "parallel_tool_calls": False})
        if not stream:
            return self.model.complete(prompt, tools, params)
        completion: Completion | None = None
        for event in self.model.stream(prompt, tools, params):
            if event.type == "text" and event.text:
                yield AgentEvent(type="token", text=event.text)
            elif event.type == "reasoning" and event.text:
                yield AgentEvent(type="reasoning", text=event.text)
            elif event.type == "done":
                completion = event.completion
        return completion

    def _ask_to_fix_parse(self, turn: _Turn, completion: Completion) -> bool:
        """When the model tried to call a tool but the call could not be read, tell it
        what went wrong (once per round budget) instead of ending the turn."""
        errors = [e for e in completion.parse_errors if not e.recovered]
        if not errors or turn.rounds >= self.max_rounds:
            return False
        first = errors[0]
        if first.kind is ParseErrorKind.truncated and turn.held:
            # a forced call cut off by the token limit: forced again, its free text held
            # to what fits, and without the cut-off text the model would copy back
            turn.forced = [bounded(spec, self.params.max_tokens) for spec in turn.held]
            turn.messages.pop()
        turn.messages.append(Message(
            role="user", source=f"{AGENT_SOURCE}parse_error",
            content=f"(botpsy) Your tool call could not be read ({first.kind.value}: "
            f"{first.message}). Write the call again in the exact format, or answer in text.",
        ))
        return True

    def _force_next_round(self, turn: _Turn) -> bool:
        """single_call mode: whether the turn goes on with another forced call, and
        over which tools (``turn.forced``). Two cases, both bounded by ``max_rounds``:

        - every call of the round failed (a made-up id, an unreadable date): one
          retry per tool and turn, with the error in view (so the lookup that a refused
          action was sent to, or the action after it, may be retried once too). When
          the refusal names, as data, a tool that lists the values (``finders``:
          ``search_contacts``) the retry must call that tool; when a rule's refusal
          named the values to write instead, it must call the refused
          tool again (a weak model offered every tool wanders off to another).
        - every call of the round worked, and an action the request asked for (or
          one that failed earlier in the turn) has not run yet: the model must now
          call that action, with what the round found in view. A weak model that
          looks up Jonas never sends him the email on its own.

        Every forced call goes through the same gate as the first, over tools whose
        schemas carry what the turn's refusals allow (``agent.checks.Refusal``)."""
        this_round = [s for s in turn.steps if s.round == turn.rounds]
        turn.forced = None
        if turn.rounds >= self.max_rounds:
            return False
        if all_failed(this_round):
            failed = {s.call.name for s in this_round}
            if failed <= turn.retried or not any(_retryable(s) for s in this_round):
                turn.forced = self._actions_left(turn, this_round) or None
                return self._forcing(turn)
            turn.retried |= failed
            turn.forced = (self._named_in_errors(turn, this_round) or self._instead(this_round)
                           or self._narrowed_in(turn, this_round) or turn.tools)
        else:
            turn.forced = (self._lookups_left(turn, this_round)
                           or self._reads_left(turn, this_round)
                           or self._actions_left(turn, this_round)
                           or self._next_items(turn, this_round)
                           or self._widened(turn, this_round)
                           or self._read_after(turn, this_round) or None)
        return self._forcing(turn)

    def _forcing(self, turn: _Turn) -> bool:
        """Hold ``turn.forced`` to what grounding, the checks and the turn's refusals allow;
        whether there is a forced call to make."""
        if turn.forced:
            turn.forced = [narrowed(self._narrow_forced(turn, spec), turn.kept)
                           for spec in turn.forced]
            # the next call of a tool alone keeps what its refused call held (it may come
            # after the lookup the refusal sent the turn to); a later call may be another action
            turn.kept = {name: kept for name, kept in turn.kept.items()
                         if name not in {spec.name for spec in turn.forced}}
        return turn.forced is not None

    def _creation_asked(self, turn: _Turn) -> list[ToolSpec]:
        """The shown tools of the one thing the request asks to add, when that is all it
        asks (``Selection.requested`` is one group of ``add_*``/``create_*`` tools, and the
        request is no question): the first call is held to them. Why: told to "Jot down
        that the bike lock code is 4471" or "Book a coffee with Marta", a 135M model
        offered every matching tool read a note or a contact first; adding an item needs
        no lookup, so nothing is lost by holding it to the tool that adds."""
        if len(turn.requested) != 1 or is_lookup(latest_request(turn.messages)):
            return []
        group = turn.requested[0]
        if not group or not all(creates(name) for name in group):
            return []
        return [spec for spec in turn.tools if spec.name in group]

    def _lookup_first(self, turn: _Turn) -> list[ToolSpec]:
        """The shown look tools the first call is held to when the request asks to act on
        something it must find first, and the conversation shows nothing of its kind yet:
        the tools of the clause that asks to look it up ("Find my meeting with Priya and
        remind me an hour before it": ``Selection.looked``), else the finders of the item an
        edit acts on ("Lunch with Jonas moves to 13:00": ``update_event`` needs an event
        id, ``list_events`` gives it). Why: a 135M model went straight to the action with
        a made-up day or id, which was refused, and the turn's one retry was spent on the
        lookup it had skipped. Nothing is lost: the action is forced after the lookup
        (``_actions_left``), and a model that looks first anyway meets no difference."""
        if not turn.requested:  # a question: answered from where its words say, if they do
            if not is_lookup(latest_request(turn.messages)):
                return []
            if not turn.answer_from:
                return self._question_tools(turn)
            # and every tool of those kinds that changes nothing ("When do I have a free
            # hour tomorrow?": find_free_slots, no look tool by its verb)
            looked = [group | {spec.name for spec in turn.tools if not spec.changes_state
                               and name_family(spec.name) in {name_family(n) for n in group}}
                      for group in turn.answer_from]
        else:
            looked = [*self._asked_first(turn), *turn.looked]
        # each family's finders join its group: a search the selector keeps off the
        # prompt until a request needs one (``Bm25ToolSelector(on_demand=...)``)
        groups = [set(group) | {f for name in group
                                for f in finders(name_family(name), self.registry)}
                  for group in looked]
        if turn.requested:
            # a clause needs a lookup when every tool that could do it needs one ("tell
            # him": send_email needs none, though reply_email needs the email's id)
            needs = [[self._needed_first(turn, name) for name in group]
                     for group in turn.requested]
            families = {family for group in needs if all(group) for one in group
                        for family in one}
            groups += [set(finders(family, self.registry)) for family in sorted(families)]
        # a kind is seen once a result showed one of its items (a file has a path, no id)
        seen = {family for family, _ in result_objects(turn.messages, with_id=False)}
        called = turn.called
        for group in groups:
            tools = [spec for spec in self.registry.specs() if spec.name in group
                     and name_family(spec.name) not in seen and not self._takes_id(spec.name)]
            if tools and not called & group:
                return self._searching(turn, tools)
        return []

    def _asked_first(self, turn: _Turn) -> list[frozenset[str]]:
        """Where the answers to a request's questions are (the first of ``Selection.answer_from``
        of each sentence that ends in "?"), when the request also asks for an action: the action
        acts on that answer ("whats our guest wifi network called? email it to my
        brother", "that power bill email, when's it actually due? set me a reminder 2 days
        before that"). Why: the selector reads a question as no action and leaves it out of
        what the request looks up (``Selection.looked``), so the action ran first, on
        nothing, or after a lookup of another kind (the calendar, for "2 days before")."""
        if self.tool_selector is None:
            return []
        # a polite command ("can you email Dan?") asks for the action, not about something
        questions = [s for s in QUESTION_SENTENCE.findall(latest_request(turn.messages))
                     if s.strip() and not commands(s)]
        specs = self.registry.specs()
        # the best place only: each further one is a round, and what it shows (the list of
        # reminders, for a bill's due day) is more for a small model to copy from
        answers = [answer[0] for question in questions
                   if (answer := self.tool_selector.choose(question, specs).answer_from)]
        return [self._made_from(turn) or answer if answer <= turn.widen else answer
                for answer in answers]

    def _made_from(self, turn: _Turn) -> frozenset[str]:
        """The finders of the kinds a new item the request asks for must be looked up in
        first (``checks.Prerequisite`` of the tools that add an item: the event a reminder
        is counted from, the note a new note copies), or nothing. Why: "when's the plumber
        coming? set a reminder half an hour before" names no kind, so its question was
        answered from everything, whose mail made the reminder wait for a confirmation; the
        reminder can only be counted from an event, so the calendar holds the answer. A
        message's recipient is no such kind: it is who the message is for, not what the
        question asks about."""
        if turn.made_from is None:  # read once: the lookup it asks for then satisfies it
            families = {family for group in turn.requested for name in group if creates(name)
                        for family in self._needed_first(turn, name)}
            turn.made_from = frozenset(f for family in sorted(families)
                                       for f in finders(family, self.registry))
        return turn.made_from

    def _lookups_left(self, turn: _Turn, steps: list[AgentStep]) -> list[ToolSpec]:
        """After a round whose calls all worked, in a request that acts: the next lookup it
        still needs before the action (``_lookup_first``'s groups in order, skipping those
        tried). Why: "send jamie my reading list from my notes" needs the note and then
        Jamie's address; one lookup before the action left the other to be made up."""
        if not turn.requested or not steps or not all(_worked(s) for s in steps):
            return []
        return self._lookup_first(turn)

    def _reads_left(self, turn: _Turn, steps: list[AgentStep]) -> list[ToolSpec]:
        """After a round whose calls all worked, in a request that acts: the reading tool of
        an item a check needs read in full before the action (``checks.Reading``), held to
        that item, so it runs without a model call. Why: "send jamie my reading list from
        my notes" found the note by its title; the text to send was not in view, and the
        model sent Jamie's contact card instead."""
        if not turn.requested or not steps or not all(_worked(s) for s in steps):
            return []
        actions = self.registry.specs([n for group in turn.requested for n in sorted(group)
                                       if n in self.registry])
        contexts = [CallContext.before(spec, turn.messages) for spec in actions]
        for need in (need for check in self.call_rules.serving(Reading)
                     for context in contexts for need in check.reads_first(context)):
            # the family's tool that reads an item, before one that lists a folder
            for spec in sorted(self.registry.specs(), key=lambda s: not s.name.startswith("read")):
                takes = (spec.parameters or {}).get("properties") or {}
                if (name_family(spec.name) == need.family and need.argument in takes
                        and not spec.changes_state and spec.name not in turn.called):
                    turn.kept[spec.name] = {need.argument: {"enum": [need.value]}}
                    return [spec]
        return []

    def _question_tools(self, turn: _Turn) -> list[ToolSpec]:
        """A question's first call, when its words do not say where the answer is: held
        to the shown tools that change nothing and take no id, until something is shown.
        Why: asked for "the booking code on my train ticket", a 135M model called
        get_contact(1), an id it made up; a question that creates or changes something is
        refused anyway (``agent.intent``)."""
        if any(True for _ in shown_items(turn.messages)):
            return []
        return [spec for spec in turn.tools
                if not spec.changes_state and not self._takes_id(spec.name)]

    def _searching(self, turn: _Turn, tools: list[ToolSpec]) -> list[ToolSpec]:
        """Of a family's look tools, those that list a day when the request names one ("my
        3pm on Friday got pushed to 4" is a look at Friday, not a search for "pushed"),
        those that search by words (a ``query``) when it names something to search for
        ("find my meeting with Priya"); else those that list without words ("read me my
        newest email": no word of it is in the email, and a 135M model searched the mail
        for "newest"), or all of them. A day named where no tool of the family lists by day
        says when the action is, not where the item is ("the train from my e-ticket email on
        Sunday": the inbox lists no day, and a 135M model offered every mail tool read the
        newest email, a receipt, instead of searching for the ticket)."""
        said = user_text(turn.messages)
        searching = [spec for spec in tools
                     if "query" in ((spec.parameters or {}).get("properties") or {})]
        listing = [spec for spec in tools if spec not in searching and _takes_day(spec)]
        if DAY_WORDS.search(said) and listing:  # the day's items hold it, whatever else
            return listing  # the words say
        if not searching:
            return tools
        worded = [spec for spec in searching if search_terms(said, name_family(spec.name))]
        return worded or [spec for spec in tools if spec not in searching] or tools

    def _needed_first(self, turn: _Turn, name: str) -> set[str]:
        """The item families a call of ``name`` needs looked up first: its own, for an
        edit that names its item by id; those a check says (``checks.Prerequisite``): the
        event a new item is timed from ("an hour before my dentist appointment"), the
        contact a message goes to ("let my landlord know")."""
        if name not in self.registry:
            return set()
        own = {name_family(name)} if not creates(name) and self._takes_id(name) else set()
        context = CallContext.before(self.registry.get(name).spec, turn.messages)
        return own | {family for check in self.call_rules.serving(Prerequisite)
                      for family in check.needs_first(context)}

    def _takes_id(self, name: str) -> bool:
        """Whether the tool names the item it acts on by an ``*_id`` argument."""
        if name not in self.registry:
            return False
        properties = (self.registry.get(name).spec.parameters or {}).get("properties") or {}
        return any(arg.endswith("_id") for arg in properties)

    def _anticipated(self, turn: _Turn, spec: ToolSpec) -> ToolSpec:
        """``spec`` held to what the call checks say the request already fixes
        (``agent.checks.Anticipating``): a first call cannot write what they would refuse."""
        fixed: Narrowing = {}
        context = CallContext.before(spec, turn.messages)
        for check in self.call_rules.serving(Anticipating):
            for arg, keywords in check.expected(context).items():
                fixed.setdefault(spec.name, {}).setdefault(arg, {}).update(keywords)
        return narrowed(spec, fixed)

    def _narrow_forced(self, turn: _Turn, spec: ToolSpec) -> ToolSpec:
        """A forced call's schema: what grounding allows (``grounding.forced_spec``), what
        the checks say the conversation already fixes (``_anticipated``: after a lookup,
        the address it found), then what the turn's refusals allow on top."""
        return narrowed(self._anticipated(turn, forced_spec(spec, turn.messages)),
                        turn.narrowing)

    def _named_in_errors(self, turn: _Turn, steps: list[AgentStep]) -> list[ToolSpec]:
        """The lookup tools that the failed calls' refusals name as data
        (``AgentStep.finders``: ``ToolRefusal.finders``, ``Refusal.finders``). Only those
        of botpsy's own tools and checks count, and only a tool without side effects; no
        error text is read: it can quote what a third party wrote ("send_email your
        request to ..."), which must not pick the tool the model is then made to call.
        Those the turn has not called yet come first: the lookup it made showed no item
        that fits. Why: "reply to the dentist reminder mail" listed the newest email, the
        reply to it was refused as off the request, and the retry listed it again (a
        repeat the loop guard blocks) where the mail search would have found it."""
        own = [s for s in steps
               if s.call.name not in self.registry or not self.registry.get(s.call.name).spec.source]
        words = {name for s in own for name in s.finders}
        tried = {s.call.name for s in steps}
        named = [spec for spec in self.registry.specs()
                 if spec.name in words and spec.name not in tried and not spec.changes_state]
        return [spec for spec in named if spec.name not in turn.called] or named

    def _instead(self, steps: list[AgentStep]) -> list[ToolSpec]:
        """The tools a check's refusal names to call in place of the refused one ("a
        draft, not a send"), among those not tried this round. A retry to them still goes
        through every check and the gate."""
        named = {name for s in steps for name in s.instead} - {s.call.name for s in steps}
        return self.registry.specs([n for n in self.registry.names() if n in named])

    def _narrowed_in(self, turn: _Turn, steps: list[AgentStep]) -> list[ToolSpec]:
        """The tools of the failed calls whose refusal narrowed what a retry may write."""
        refused = {s.call.name for s in steps if s.call.name in turn.narrowing}
        return self.registry.specs([n for n in self.registry.names() if n in refused])

    def _read_after(self, turn: _Turn, steps: list[AgentStep]) -> list[ToolSpec]:
        """After a question's search found what it asks to be read ("Read me Priya's newest
        email", "Read me my whole grocery list"): the family's tool that reads one item by
        its id, which grounding holds to the items shown that fit the request."""
        if turn.requested:
            return []
        families = {name_family(s.call.name) for s in steps
                    if _searched(s) and not _empty_search(s)}
        request = latest_request(turn.messages)
        if not READ_ASKED.search(request):
            cut = {name_family(s.call.name) for s in steps if _one_cut_hit(s)}
            if not (cut and asks_a_question(request)):
                return self._read_by_path(turn, families, whole_name=True)
            families = cut  # the one item found, whose shown text stops short of the answer
        by_id = [spec for spec in self.registry.specs()
                 if name_family(spec.name) in families and self._takes_id(spec.name)
                 and not spec.changes_state and spec.name not in turn.called]
        return by_id or self._read_by_path(turn, families)

    def _read_by_path(self, turn: _Turn, families: set[str], *, whole_name: bool = False
                      ) -> list[ToolSpec]:
        """The tool that reads a file a search showed, held to the shown paths whose words
        the request shares (most first): a file has a path, no id ("What's on my packing
        list for Hamburg?" found personal/packing_list.txt by one line). ``whole_name``:
        only a file the request names by every word of its name, for a question that asks
        for no reading ("whats the p95 for week 4 in the latency numbers": a search shows
        work/latency_numbers.csv by its name alone, and the answer is inside it)."""
        wanted = words(latest_request(turn.messages))
        shown = {obj["path"]: len(words(obj["path"].replace("_", " ")) & wanted)
                 for family, obj in result_objects(turn.messages, with_id=False)
                 if family in families and isinstance(obj.get("path"), str)
                 and (not whole_name or _name_words(obj["path"]) <= wanted)}
        paths = sorted((p for p, score in shown.items() if score), key=lambda p: -shown[p])
        for spec in self.registry.specs():
            takes = (spec.parameters or {}).get("properties") or {}
            if (paths and spec.name.startswith("read") and "path" in takes
                    and not spec.changes_state and spec.name not in turn.called):
                turn.kept[spec.name] = {"path": {"enum": paths[:1]}}
                return [spec]
        return []

    def _widened(self, turn: _Turn, steps: list[AgentStep]) -> list[ToolSpec]:
        """After a question's searches all found nothing: the search of everything
        (``Selection.widen``), held to the same words, so it runs without a model call.
        Why: "What's on my packing list for Hamburg?" searched the notes, and the list is a
        file; "No notes match" is a wrong answer when the store holds one."""
        if turn.requested or not steps or any(not _empty_search(s) for s in steps):
            return []
        wider = [spec for spec in self.registry.specs()
                 if spec.name in turn.widen and spec.name not in turn.called]
        for spec in wider:  # held last, over what grounding offers a forced search
            turn.kept[spec.name] = {"query": {"enum": [steps[0].call.arguments["query"]]}}
        return wider

    def _actions_left(self, turn: _Turn, steps: list[AgentStep]) -> list[ToolSpec]:
        """After a round whose calls all worked: the tools still to call. Those are
        the tools of each thing the request asked for (``Selection.requested``, one
        group per clause) that none of the turn's settled calls (ran, denied or
        blocked) has done yet, and the tools whose calls failed earlier in the turn.
        After a round that did not work and has no retry left: the things asked for
        that no call of the turn has tried yet ("Put 'Dinner with Jamie' on Saturday
        and email Jamie the plan": a refused email does not cancel the event)."""
        if not steps:
            return []
        if not all(_worked(s) for s in steps):
            untried = {n for group in turn.requested if not group & turn.called for n in group}
            return self.registry.specs([n for n in self.registry.names() if n in untried])
        settled = {s.call.name for s in turn.steps if not failed(s)}
        # a refused call whose refusal named the tool to call instead, which then ran, is
        # done ("add ... to notes/todo.md": append_to_file in place of write_file)
        replaced = {s.call.name for s in turn.steps if failed(s) and set(s.instead) & settled}
        wanted = {s.call.name for s in turn.steps if failed(s)} - settled - replaced
        for group in turn.requested:
            if not group & settled:
                wanted |= group
        return self.registry.specs([n for n in self.registry.names() if n in wanted])

    def _times_listed(self, turn: _Turn, step: AgentStep) -> int:
        """How many items of the step's tool the checks say the request asks for, from
        what the conversation showed (``checks.Repeating``: one per entry of a list read)."""
        context = CallContext.before(self.registry.get(step.call.name).spec, turn.messages)
        return max((check.times(context) for check in self.call_rules.serving(Repeating)),
                   default=0)

    def _next_items(self, turn: _Turn, steps: list[AgentStep]) -> list[ToolSpec]:
        """After a round whose calls all worked: the same action again for the next item the
        request names (``agent.several``): a new item's tool while fewer were made than
        clauses ask for ("todo: A. oh and remind me wed 7am to B"), else an action that
        named its item by id, held to the next item named (a call with no other argument,
        ``complete_reminder``, then runs without a model call).
        Why: "tick off water the plants and the latency slide one" ticked one reminder and
        the turn ended, its one action done. An item the turn's own changes made is never
        the next one (``_made``)."""
        if not turn.requested or not steps or not all(_worked(s) for s in steps):
            return []
        request = latest_request(turn.messages)
        for step in (s for s in steps if s.writes and creates(s.call.name)):
            made = sum(1 for s in turn.steps if s.call.name == step.call.name and _worked(s))
            if max(times_asked(step.call.name, request), self._times_listed(turn, step)) > made:
                # what a refusal held the item just made to is not the next item's ("todo:
                # A. oh and remind me wed 7am to B": A's retry was held to no due)
                turn.narrowing.pop(step.call.name, None)
                turn.kept.pop(step.call.name, None)
                return [self.registry.get(step.call.name).spec]
        for step in (s for s in steps if s.writes and not creates(s.call.name)):
            ids = id_arguments(step.call)
            if len(ids) != 1:
                continue
            (argument, _), = ids.items()
            done = {s.call.arguments.get(argument) for s in turn.steps
                    if s.call.name == step.call.name and _worked(s)}
            made = _made(turn.steps, name_family(step.call.name))
            item = next_item(step.call.name, request, turn.messages, done | made,
                             self.registry.names())
            if item is not None:
                turn.kept[step.call.name] = {argument: {"enum": [item]}}
                return [self.registry.get(step.call.name).spec]
        return []

    def _round(self, turn: _Turn, calls: list[ToolCall]) -> Iterator[AgentEvent]:
        """Review and settle the calls of one completion (parallel calls in order).
        Taint is judged as of the proposal, before any of these calls ran."""
        tracker = self._tracker(turn.messages, turn.shown.values())
        verdicts = [tracker.check(call, vouched_ids(call, turn.messages)) for call in calls]
        stop = False
        for call, taint in zip(calls, verdicts):
            yield AgentEvent(type="call", call=call)
            repeat = turn.guard.propose(call, sum(_worked(s) for s in turn.steps))
            review = self._ground(turn, turn.pipeline.review(call, taint, repeat), tracker)
            stop = stop or review.stop
            yield AgentEvent(type="decision", step=turn.pipeline.step(
                review, turn.rounds, review.decision, review.reason))
            outcome = turn.pipeline.settle(review, turn.rounds)
            if _worked(outcome.step):
                turn.guard.ran(call)
            yield from self._record(turn, outcome)
        return stop

    def _ground(self, turn: _Turn, review: Review, tracker: TaintTracker) -> Review:
        """A call that would run is rejected as invalid when a rule of ``call_rules``
        objects (grounding, in single_call mode: an item the model made up or one off the
        request). The registry combines every objection into one refusal and says what
        the retry keeps; every narrowing goes into the retry's schemas."""
        runs = (AuditDecision.executed, AuditDecision.needs_confirmation)
        if review.decision not in runs:
            return review
        spec = self.registry.get(review.call.name).spec
        context = CallContext(review.call, turn.messages, spec, review.taint, tracker)
        judged = self.call_rules.judge(context, self.call_mode)
        if judged.refusal is None:
            return review
        refusal = judged.refusal
        remember(turn.narrowing, review.call, refusal)
        if judged.kept is not None:
            turn.kept[review.call.name] = judged.kept
        return Review(review.call, AuditDecision.invalid, refusal.reason, review.taint,
                      feedback=f"Error: {refusal.for_model}", finders=refusal.finders,
                      instead=refusal.instead)

    def _record(self, turn: _Turn, outcome: Outcome) -> Iterator[AgentEvent]:
        turn.steps.append(outcome.step)
        if outcome.message is not None:
            turn.messages.append(outcome.message)
        if outcome.pending is not None:
            turn.pending.append(outcome.pending)
        else:
            yield AgentEvent(type="result", step=outcome.step)

    def _finish(self, turn: _Turn, reason: StopReason, text: str) -> AgentEvent:
        """The final event: the answer plus the agent's own notices."""
        checked = self._checked_answer(turn, text)
        notices = [checked.notice, *(s.notice for s in turn.steps if s.notice)]
        if reason is StopReason.pending_confirmation:
            notices.append("Waiting for your confirmation:\n" + "\n".join(
                f"- {describe_call(p.call)}" + (f" (warning: {p.request.taint.explain()})"
                                                  if p.request.taint.tainted else "")
                for p in turn.pending))
        final_text = compose_final(checked.text, notices)
        last = turn.messages[-1] if turn.messages else None
        if reason is StopReason.answered and last is not None and last.role == "assistant":
            turn.messages[-1] = last.model_copy(update={"content": final_text})
        elif reason is not StopReason.pending_confirmation:
            turn.messages.append(Message(role="assistant", content=final_text,
                                         source=f"{AGENT_SOURCE}{reason.value}"))
        result = AgentResult(
            messages=turn.messages, final_text=final_text, steps=turn.steps,
            stopped_reason=reason, pending=turn.pending, rounds=turn.rounds, usage=turn.usage,
            session_id=turn.session_id, error=turn.error,
        )
        return AgentEvent(type="final", result=result)

    def _checked_answer(self, turn: _Turn, text: str) -> AnswerCheck:
        """The answer without what it takes from instructions in untrusted output."""
        if not self.safety.answer_check:
            return AnswerCheck(text=text)
        return check_answer(text, self._tracker(turn.messages, turn.shown.values()))

    # -- resume -----------------------------------------------------------------------------
    def _resume(
        self, previous: AgentResult, decisions: Mapping[str, bool], stream: bool
    ) -> Iterator[AgentEvent]:
        pending = _check_decisions(previous, decisions)
        turn = self._new_turn(list(previous.messages), previous.session_id)
        turn.steps, turn.rounds, turn.usage = list(previous.steps), previous.rounds, previous.usage
        for item in pending:
            review = self._rereview(turn, item)
            if review.decision is not AuditDecision.needs_confirmation:
                outcome = turn.pipeline.settle(review, item.round)  # blocked/invalid/auto-approved
            elif decisions[item.call.id]:
                outcome = turn.pipeline.execute(review, item.round, AuditDecision.confirmed)
            else:
                outcome = turn.pipeline.deny(review, item.round)
            yield from self._record(turn, outcome)
        if self.call_mode == "single_call" and not self._force_next_round(turn):
            # as after any single_call round: the agent reports, the model does not ramble on
            yield self._finish(turn, StopReason.answered, self.replies.report(turn.steps, turn.messages))
            return
        yield from self._loop(turn, stream)

    def _rereview(self, turn: _Turn, item: PendingCall) -> Review:
        """Review a pending call again from the conversation itself, so a pending
        list that was stored or sent around cannot smuggle in a different call."""
        if any(m.role == "tool" and m.tool_call_id == item.call.id for m in turn.messages):
            raise ValueError(f"call {item.call.id} was already settled; it cannot run twice")
        index = _message_with_call(turn.messages, item.call.id)
        call = next(c for c in turn.messages[index].tool_calls if c.id == item.call.id)
        # the prompts of the stopped turn are gone: any third-party spec may have been shown
        third_party = [spec for spec in self.registry.specs() if spec.source]
        taint = self._tracker(turn.messages[:index], third_party)
        return turn.pipeline.review(call, taint.check(call), Repeat.fresh)

    def _tracker(self, messages: list[Message], shown: Iterable[ToolSpec]) -> TaintTracker:
        """The taint of ``messages``, plus the third-party tool specs shown beside them:
        a description can carry instructions as well as an email can."""
        tracker = TaintTracker.from_messages(messages, self.safety.taint_ngram,
                                             prove=self.safety.proven_writes)
        for spec in shown:
            tracker.add_untrusted(f"the description of {spec.name} ({spec.source})",
                                  json_text(spec.to_openai()))
        return tracker


def grounding_rule(registry: ToolRegistry) -> CallRule:
    """Grounding as the registry's rule: an item rule, judged in single_call mode."""
    return CallRule("grounding", Grounding(registry), RuleKind.item, single_call=True,
                    serves=())


# A question that asks for an item's content, not whether it exists: "read me ...", "what
# does it say", "what's on my list"; and one that asks what one item it names by its kind
# holds ("what risks are listed in the q3 roadmap file?": a search shows one line of it).
READ_ASKED = re.compile(r"^\W*(?:please\s+)?(?:read|open)\b|\bwhat does\b.*\bsay\b|\bwhole\b"
                        r"|\bwhat(?:'s|\u2019s| is| are)\s+(?:on|in)\s+(?:my|the)\s+(?:[\w'-]+\s+){0,2}?"
                        r"(?:list|file|note)\b"
                        r"|^\W*(?:what|which)\b[^?]*\b(?:in|on)\s+(?:my|the|our)\s+(?:[\w'-]+\s+){1,3}?"
                        r"(?:list|file|note|doc|document)\W*$", re.IGNORECASE)


# A sentence that asks something: up to its question mark, after a sentence's end or the start.
QUESTION_SENTENCE = re.compile(r"(?:^|(?<=[.!?]))\s*([^.!?]+\?)")


def _takes_day(spec: ToolSpec) -> bool:
    """Whether a tool lists items by day (a ``start`` or ``date`` argument)."""
    properties = (spec.parameters or {}).get("properties") or {}
    return bool({"start", "date", "day"} & set(properties))


def _made(steps: list[AgentStep], family: str) -> set[int]:
    """The ids of the items of ``family`` the turn's own changes returned (a reply sent):
    never a next item the request names. Why: after "reply to the dentist reminder mail:
    monday 8:30 works, see you then", the sent reply fitted the dictated words best, and
    was replied to in turn."""
    made = set()
    for step in steps:
        data = (step.result.data if step.writes and step.result is not None
                and name_family(step.call.name) == family else None)
        ident = data.get("id") if isinstance(data, dict) else getattr(data, "id", None)
        if _worked(step) and isinstance(ident, int) and not isinstance(ident, bool):
            made.add(ident)
    return made


def _name_words(path: str) -> frozenset[str]:
    """The words of a file's name without its folder and ending ("work/latency_numbers.csv"
    -> latency, numbers); none for a name of no words, which no request names."""
    name = posixpath.splitext(posixpath.basename(path))[0]
    return words(re.sub(r"[_.-]+", " ", name)) or frozenset({"\0"})


def _searched(step: AgentStep) -> bool:
    """Whether a call searched by words (a ``query``) and the search ran."""
    query = step.call.arguments.get("query")
    return (isinstance(query, str) and bool(query.strip()) and step.result is not None
            and step.result.ok)


def _one_cut_hit(step: AgentStep) -> bool:
    """Whether a search found one item and showed its text cut short ("… arrives Hamburg
    Hbf 10:18,…"): asked "which coach and seat am I on the hamburg train", the answer was
    in the part of the ticket mail the snippet left out, and the turn ended on the snippet."""
    if not _searched(step) or not isinstance(step.result.data, list) or len(step.result.data) != 1:
        return False
    item = step.result.data[0]
    snippet = item.get("snippet") if isinstance(item, dict) else getattr(item, "snippet", None)
    return isinstance(snippet, str) and snippet.rstrip().endswith(("\u2026", "..."))


def _empty_search(step: AgentStep) -> bool:
    """Whether a call searched by words (a ``query``) and found nothing."""
    return _searched(step) and step.result.data in ([], {}, None)


def _check_decisions(previous: AgentResult, decisions: Mapping[str, bool]) -> list[PendingCall]:
    if previous.stopped_reason is not StopReason.pending_confirmation or not previous.pending:
        raise ValueError("this result has no pending calls to resume")
    ids = [p.call.id for p in previous.pending]
    missing = [i for i in ids if i not in decisions]
    unknown = [i for i in decisions if i not in ids]
    if missing or unknown:
        raise ValueError(f"decisions must cover exactly the pending calls {ids}; "
                         f"missing {missing}, unknown {unknown}")
    return list(previous.pending)


def _message_with_call(messages: list[Message], call_id: str) -> int:
    for index in range(len(messages) - 1, -1, -1):
        if any(c.id == call_id for c in messages[index].tool_calls):
            return index
    raise ValueError(f"pending call {call_id} is not in the conversation")


def _final(events: Iterator[AgentEvent]) -> AgentResult:
    result = None
    for event in events:
        if event.type == "final":
            result = event.result
    if result is None:  # every path ends with a final event; this guards refactors
        raise RuntimeError("agent run ended without a result")
    return result
