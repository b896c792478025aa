"""single_call mode: one forced, grammar-constrained call, then the agent reports."""

from __future__ import annotations

import pytest

from botpsy.agent import Agent, Bm25ToolSelector, StopReason
from botpsy.safety import ApproveAll, DenyAll, SafetyConfig

from .helpers import World, call_text, scripted, small_registry


def _agent(outputs: list[str], world: World) -> Agent:
    return Agent(scripted(outputs), small_registry(world), safety=SafetyConfig(),
                 confirmer=ApproveAll(), tool_selector=Bm25ToolSelector(), call_mode="single_call")


def test_matching_request_forces_one_call_and_reports_result():
    world = World()
    agent = _agent([call_text("get_weather", city="Oslo")], world)
    result = agent.run("What's the weather in Oslo?")
    backend = agent.model.backend
    assert result.stopped_reason is StopReason.answered
    assert result.rounds == 1 and backend.remaining == 0  # no second generation
    grammar = backend.grammars[0]
    assert grammar is not None and "get_weather" in grammar
    assert "call)*" not in grammar.splitlines()[0]  # one call only
    assert result.final_text.startswith("Done:") and "Oslo: 12 C, light rain" in result.final_text


def test_chit_chat_is_not_forced_and_sees_no_tools():
    agent = _agent(["Hello! How can I help?"], World())
    result = agent.run("hi there")
    backend = agent.model.backend
    assert backend.grammars == [None]
    assert "<tools>" not in backend.prompts[0]
    assert result.final_text == "Hello! How can I help?"


def test_forced_side_effect_still_goes_through_the_gate():
    world = World()
    agent = Agent(scripted([call_text("send_email", to="sam.lee@example.com", subject="Hi", body="Late")]),
                  small_registry(world), safety=SafetyConfig(), confirmer=None,
                  tool_selector=Bm25ToolSelector(), call_mode="single_call")
    result = agent.run("Email Sam that I am late")
    assert result.stopped_reason is StopReason.pending_confirmation
    assert world.sent == []


def test_unknown_call_mode_is_rejected():
    with pytest.raises(ValueError, match="call_mode"):
        Agent(scripted([]), small_registry(World()), call_mode="always")


def test_a_failed_call_gets_one_forced_retry_with_the_error_in_view():
    world = World()
    agent = _agent([call_text("read_email", email_id=42), call_text("read_email", email_id=7)], world)
    result = agent.run("Read the email about the quarterly numbers")
    backend = agent.model.backend
    assert result.rounds == 2 and backend.remaining == 0
    assert backend.grammars[1] is not None  # the retry is forced too
    assert "no email with id 42" in backend.prompts[1]  # the model sees why the first failed
    assert [s.result.ok for s in result.steps] == [False, True]
    assert result.final_text.startswith("Done:") and "quarterly numbers" in result.final_text


def test_only_one_retry_and_the_failure_is_reported():
    agent = _agent([call_text("read_email", email_id=42), call_text("read_email", email_id=43),
                    call_text("read_email", email_id=44)], World())
    result = agent.run("Read the email about the quarterly numbers")
    assert result.rounds == 2 and agent.model.backend.remaining == 1
    assert result.final_text.startswith("I could not do it:")
    assert "no email with id 42" in result.final_text and "no email with id 43" in result.final_text


def test_a_denied_call_is_not_retried():
    world = World()
    agent = Agent(scripted([call_text("send_email", to="sam.lee@example.com", subject="Hi", body="Late"),
                            call_text("send_email", to="sam.lee@example.com", subject="Hi", body="x")]),
                  small_registry(world), safety=SafetyConfig(), confirmer=DenyAll(),
                  tool_selector=Bm25ToolSelector(), call_mode="single_call")
    result = agent.run("Email Sam that I am late")
    assert result.rounds == 1 and agent.model.backend.remaining == 1 and world.sent == []
