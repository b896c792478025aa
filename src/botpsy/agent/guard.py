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

    @classmethod
    def from_turn(cls, turn_messages: list[Message], max_identical: int = 1) -> LoopGuard:
        """A guard that has seen every call proposed in ``turn_messages``."""
        guard = cls(max_identical)
        for message in turn_messages:
            for call in message.tool_calls:
                guard.counts[call_key(call)] += 1
        return guard

    def propose(self, call: ToolCall) -> Repeat:
        key = call_key(call)
        self.counts[key] += 1
        seen = self.counts[key]
        if seen <= self.max_identical:
            return Repeat.fresh
        return Repeat.repeated if seen == self.max_identical + 1 else Repeat.stop
