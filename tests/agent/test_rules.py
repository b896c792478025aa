"""The call rules' registry: declared order, kinds, modes, protocols, one provenance read."""

from __future__ import annotations

import json

import pytest

from botpsy.agent import Agent
from botpsy.agent.checks import Anticipating, Refusal
from botpsy.agent.rules import CallContext, CallRule, CallRules, RuleKind
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.assistant.runtime import assistant_call_checks
from botpsy.safety import ApproveAll
from botpsy.safety.argument_origin import ValueOrigin
from botpsy.safety.taint import TaintTracker
from botpsy.tools import ToolRegistry
from botpsy.types import Message, ToolCall, ToolSpec

from .helpers import call_text, scripted

SPEC = ToolSpec(name="add_note", description="Add a note.", parameters={
    "type": "object", "properties": {"title": {"type": "string"}, "text": {"type": "string"}},
    "required": ["title", "text"]})
CALL = ToolCall(name="add_note", arguments={"title": "Groceries", "text": "oat milk"})
SAID = [Message(role="user", content="add oat milk to the groceries note")]


def _context(call: ToolCall = CALL, messages: list[Message] = SAID) -> CallContext:
    return CallContext(call, messages, SPEC)


def _refuse(reason: str, **narrow: object):
    def check(call: ToolCall, messages: list[Message]) -> Refusal:
        return Refusal(reason, {arg: {"enum": [v]} for arg, v in narrow.items()})
    return check


def test_refusals_are_joined_in_the_declared_order() -> None:
    rules = CallRules([CallRule("b", _refuse("second")), CallRule("a", _refuse("first"))])
    assert rules.names() == ["b", "a"]
    assert rules.judge(_context()).refusal.reason == "second; and first"


def test_rule_names_must_be_distinct() -> None:
    with pytest.raises(ValueError, match="doubled"):
        CallRules([CallRule("a", _refuse("x")), CallRule("a", _refuse("y"))])


def test_a_single_call_rule_is_not_judged_in_auto_mode() -> None:
    rules = CallRules([CallRule("g", _refuse("made up"), RuleKind.item, single_call=True)])
    assert rules.judge(_context(), "auto").refusal is None
    assert rules.judge(_context(), "single_call").refusal.reason == "made up"


def test_a_value_refusal_keeps_the_other_arguments() -> None:
    judged = CallRules([CallRule("v", _refuse("wrong title", title="Shopping"))]).judge(_context())
    assert judged.kept == {"text": {"enum": ["oat milk"]}}


def test_an_item_refusal_alone_keeps_only_what_the_user_said() -> None:
    item = CallRule("i", _refuse("made-up note"), RuleKind.item)
    assert CallRules([item]).judge(_context()).kept == {"title": {"enum": ["Groceries"]},
                                                         "text": {"enum": ["oat milk"]}}
    moved = ToolCall(name="add_note", arguments={"title": "Shopping", "text": "soy milk"})
    assert CallRules([item]).judge(_context(moved)).kept == {}
    # with a value rule's objection beside it nothing is kept: neither reading holds
    both = CallRules([item, CallRule("v", _refuse("wrong"))])
    assert both.judge(_context()).kept is None


class _Counting:
    """A context rule: reads the user's words from the context it is handed."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def judge(self, context: CallContext) -> Refusal | None:
        self.seen.append(context.said)
        return None


def test_context_rules_share_one_reading_of_the_conversation(monkeypatch) -> None:
    import botpsy.agent.rules as rules_module

    reads: list[int] = []
    real = rules_module.user_text
    monkeypatch.setattr(rules_module, "user_text", lambda m: reads.append(1) or real(m))
    first, second = _Counting(), _Counting()
    CallRules([CallRule("a", first), CallRule("b", second)]).judge(_context())
    assert first.seen == second.seen == [SAID[0].content]
    assert len(reads) == 1


def test_the_loop_finds_a_protocol_through_the_registry(tmp_path) -> None:
    class Fixed:
        def __call__(self, call: ToolCall, messages: list[Message]) -> None:
            return None

        def expected(self, context: CallContext) -> dict:
            return {"title": {"enum": ["Groceries"]}}

    rules = CallRules.of([Fixed(), _refuse("never")])
    assert [type(c).__name__ for c in rules.serving(Anticipating)] == ["Fixed"]
    registry = ToolRegistry(assistant_tools(AssistantStore(tmp_path)))
    agent = Agent(scripted([]), registry, call_checks=[Fixed()])
    assert agent.call_rules.names()[0] == "grounding"  # a plain list gets grounding first
    assert len(agent.call_checks) == 2


def test_the_assistant_declares_its_order(tmp_path) -> None:
    store = AssistantStore(tmp_path)
    registry = ToolRegistry(assistant_tools(store))
    rules = assistant_call_checks(store, registry)
    assert rules.names() == ["grounding", "day", "duration", "window", "address", "phone", "name",
                             "title", "subject", "place", "attendees", "each", "move", "include",
                             "reference",
                             "cells", "event facts", "carry", "path", "tick", "intent", "lookup"]
    assert {r.name for r in rules if r.kind is RuleKind.item} == {"grounding", "lookup"}
    agent = Agent(scripted([]), registry, call_checks=rules)
    assert agent.call_rules is rules  # grounding already placed: not added twice
    naive = assistant_call_checks(store, registry, intent=False)
    assert "intent" not in naive.names()


def test_grounding_reads_the_shown_items_from_the_context(tmp_path) -> None:
    registry = ToolRegistry(assistant_tools(AssistantStore(tmp_path)))
    rows = [{"id": 5, "text": "Water the plants"}]
    messages = [Message(role="user", content="I've watered the plants, tick it off"),
                Message(role="assistant", tool_calls=[ToolCall(name="list_reminders", id="c1")]),
                Message(role="tool", name="list_reminders", tool_call_id="c1",
                        content=json.dumps(rows), source="tool:list_reminders:c1")]
    rules = assistant_call_checks(AssistantStore(tmp_path / "b"), registry)
    right = ToolCall(name="complete_reminder", arguments={"reminder_id": 5})
    wrong = ToolCall(name="complete_reminder", arguments={"reminder_id": 9})
    spec = registry.get("complete_reminder").spec
    assert rules.judge(CallContext(right, messages, spec), "single_call").refusal is None
    judged = rules.judge(CallContext(wrong, messages, spec), "single_call")
    assert "not an id that a lookup" in judged.refusal.reason


def test_the_hint_is_read_by_the_model_and_never_said_to_the_person(tmp_path) -> None:
    """A made-up id: the model reads which tool lists the ids, the person reads why the
    call did not run; the person's words come from the refusal's fields, not its text."""
    store = AssistantStore(tmp_path)
    registry = ToolRegistry(assistant_tools(store))
    agent = Agent(scripted([call_text("complete_reminder", reminder_id=9),
                            call_text("complete_reminder", reminder_id=9)]),
                  registry, call_mode="single_call", confirmer=ApproveAll())
    result = agent.run("Tick off the dentist reminder")
    refused = result.steps[0]
    assert refused.finders == ["list_reminders"]
    model_read = [m.content for m in result.messages if m.role == "tool"]
    assert "list_reminders gives the ids" in model_read[0]
    assert "gives the ids" not in refused.reason
    assert "gives the" not in result.final_text


def test_a_tools_hint_is_the_models_alone(tmp_path) -> None:
    registry = ToolRegistry(assistant_tools(AssistantStore(tmp_path)))
    result = registry.execute(ToolCall(name="delete_event", arguments={"event_id": 99}))
    assert result.content.endswith("no event with id 99; list_events gives the ids")
    assert result.detail == "no event with id 99" and result.finders == ["list_events"]


def test_a_rule_declares_exactly_the_protocols_its_check_serves() -> None:
    class Ahead:
        def __call__(self, call: ToolCall, messages: list[Message]) -> None:
            return None

        def expected(self, context: CallContext) -> dict:
            return {}

    assert CallRule("a", Ahead()).serves == (Anticipating,)  # read off a plain check
    assert CallRule("a", Ahead(), serves=(Anticipating,)).serves == (Anticipating,)
    with pytest.raises(ValueError, match="declares"):
        CallRule("a", Ahead(), serves=())  # a method the declaration leaves out
    with pytest.raises(ValueError, match="declares"):
        CallRule("a", _refuse("x"), serves=(Anticipating,))  # one the check lacks


def test_the_context_carries_the_taint_trackers_reading_of_the_values() -> None:
    messages = [Message(role="user", content="first message"),
                Message(role="assistant", content="ok"),
                Message(role="user", content="email dana@example.com the plan")]
    call = ToolCall(name="send_email", arguments={"to": "dana@example.com", "body": "plan"})
    tracker = TaintTracker.from_messages(messages)
    context = CallContext(call, messages, taint=tracker.check(call), tracker=tracker)
    assert context.request == "email dana@example.com the plan"
    assert context.said.startswith("first message")
    assert {t.path: t.origin for t in context.traces}["to"] is ValueOrigin.user
    assert not context.taint.tainted
    assert CallContext(call, messages).traces == ()  # no tracker, no reading
