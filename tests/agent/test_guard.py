"""The loop guard: an identical call is a repeat, unless it did not run and something new
worked since (``LoopGuard.propose``)."""

from __future__ import annotations

from botpsy.agent.guard import LoopGuard, Repeat
from botpsy.types import ToolCall

DRAFT = ToolCall(name="draft_email", arguments={"to": "jonas@x.example", "body": "hi"})
LOOKUP = ToolCall(name="search_contacts", arguments={"query": "jonas"})


def test_an_identical_call_is_a_repeat_then_a_stop():
    guard = LoopGuard()
    assert [guard.propose(DRAFT) for _ in range(3)] == [Repeat.fresh, Repeat.repeated, Repeat.stop]


def test_a_refused_call_is_fresh_again_after_a_lookup_worked():
    guard = LoopGuard()
    assert guard.propose(DRAFT, worked=0) is Repeat.fresh  # refused: no address shown yet
    assert guard.propose(LOOKUP, worked=0) is Repeat.fresh
    guard.ran(LOOKUP)
    assert guard.propose(DRAFT, worked=1) is Repeat.fresh  # the lookup showed the address
    assert guard.propose(DRAFT, worked=1) is Repeat.repeated  # nothing new since


def test_a_call_that_worked_is_a_repeat_whatever_ran_since():
    guard = LoopGuard()
    assert guard.propose(DRAFT, worked=0) is Repeat.fresh
    guard.ran(DRAFT)
    assert guard.propose(LOOKUP, worked=1) is Repeat.fresh
    guard.ran(LOOKUP)
    assert guard.propose(DRAFT, worked=2) is Repeat.repeated  # a write made twice is a loop
    assert guard.propose(LOOKUP, worked=2) is Repeat.repeated
