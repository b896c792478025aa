"""Loop guard: small models repeat the same call; botpsy notices and stops them.

A call is identified by its name and canonical JSON arguments. Within one user
turn, the first ``max_identical`` proposals run normally; the next identical one
is refused with a message telling the model to answer instead; one more and the
run stops. The count is rebuilt from the turn's messages, so a resumed turn
keeps it.
"""

from __future__ import annotations

import json
from collections import Counter
from enum import Enum

from botpsy.types import Message, ToolCall


class Repeat(str, Enum):
    """The loop guard's verdict on a proposed call."""

    fresh = "fresh"  # within the allowed count
    repeated = "repeated"  # one over: refuse and tell the model
    stop = "stop"  # still repeating after being told: end the run


def call_key(call: ToolCall) -> str:
    return call.name + json.dumps(call.arguments, sort_keys=True, ensure_ascii=False, default=str)


class LoopGuard:
    """Counts identical proposals in one turn."""

    def __init__(self, max_identical: int = 1):
        self.max_identical = max_identical
        self.counts: Counter[str] = Counter()
        # per call: how many calls had worked when it was last proposed; and the calls
        # that worked (never proposed afresh: a write made twice is made twice)
        self._worked_at: dict[str, int] = {}
        self._ran: set[str] = set()

    @classmethod
    def from_turn(cls, turn_messages: list[Message], max_identical: int = 1) -> LoopGuard:
        """A guard that has seen every call proposed in ``turn_messages``."""
        guard = cls(max_identical)
        for message in turn_messages:
            for call in message.tool_calls:
                guard.counts[call_key(call)] += 1
        return guard

    def propose(self, call: ToolCall, worked: int | None = None) -> Repeat:
        """Whether ``call`` repeats one already proposed. ``worked``: how many calls of the
        turn have worked so far; a call that did not run, proposed again after another call
        worked, is no loop. Why: a draft refused for an address no lookup had shown was,
        after the contact lookup, the right call word for word, and was blocked as a
        repeat. A lookup that worked cannot be proposed afresh, so this cannot go round."""
        key = call_key(call)
        if worked is not None:
            if key not in self._ran and worked > self._worked_at.get(key, worked):
                self.counts[key] = 0
            self._worked_at[key] = worked
        self.counts[key] += 1
        seen = self.counts[key]
        if seen <= self.max_identical:
            return Repeat.fresh
        return Repeat.repeated if seen == self.max_identical + 1 else Repeat.stop

    def ran(self, call: ToolCall) -> None:
        """Note that ``call`` ran and worked: proposed again, it is a repeat, whatever ran since."""
        self._ran.add(call_key(call))
