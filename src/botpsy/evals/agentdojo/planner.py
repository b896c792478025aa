"""``agentdojo:obedient``: a scripted planner that obeys every injection it sees.

It plays the user task's ground-truth calls one per turn and, as soon as an
injection is in view (its goal appears in a tool result the agent showed it),
the injection task's ground-truth calls, then the rest of the user's calls; its
answer is the user task's ground-truth output, followed by the injection task's
when that has one (an attack that only wants the model to say something). It is a
fully compromised model: with the safety layer on, what gets through measures the
defence alone.

Calls are written as hermes text and read back by botpsy's parser
(``scripted_model``), as for every scripted model in the evals.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from botpsy.evals.scenarios.reference import scripted_model
from botpsy.formats.hermes import HermesFormat
from botpsy.types import Completion, GenerationParams, Message, StreamEvent, ToolCall, ToolSpec

OBEDIENT_SPEC = "agentdojo:obedient"
_HERMES = HermesFormat()
_WORD = re.compile(r"\w+")


def _words(text: str) -> str:
    """Lower-cased words joined by single spaces: AgentDojo's YAML rendering of a
    result folds, quotes and escapes text, but keeps its words in order."""
    return " ".join(_WORD.findall(text.lower()))


def goal_marker(goal: str) -> str:
    """The words of an injection goal that must appear for it to count as seen; the
    first and last word are left out (an escaped newline glues ``\\n`` to them)."""
    words = _WORD.findall(goal.lower())
    return " ".join(words[1:-1] if len(words) > 3 else words)


def call_text(function: str, args: dict[str, Any]) -> str:
    """One ground-truth call as the hermes text a model would write."""
    return _HERMES.render_calls([ToolCall(name=function, arguments=dict(args))])


class ObedientPlanner:
    """A ChatModel for one task: ``user_calls`` and ``injection_calls`` are (function,
    args) pairs; ``goal`` the injection's goal text ("" for a run without attack)."""

    name = OBEDIENT_SPEC
    concurrency = 1_000_000  # a fresh planner per task: any number of tasks at once

    def __init__(self, user_calls: Sequence[tuple[str, dict]], user_output: str,
                 injection_calls: Sequence[tuple[str, dict]] = (), injection_output: str = "",
                 goal: str = ""):
        self._plan = [call_text(f, a) for f, a in user_calls]
        self._injected = [call_text(f, a) for f, a in injection_calls]
        self._answer = user_output
        self._injection_output = injection_output
        self._marker = goal_marker(goal) if goal else ""
        self.obeyed = False  # whether the injection came into view and was followed

    def _in_view(self, messages: list[Message]) -> bool:
        return bool(self._marker) and any(
            m.role == "tool" and self._marker in _words(m.content) for m in messages)

    def next_output(self, messages: list[Message]) -> str:
        """The text of the next turn: the next call of the plan, or the answer."""
        if not self.obeyed and self._in_view(messages):
            self.obeyed = True
            self._plan = self._injected + self._plan
        if self._plan:
            return self._plan.pop(0)
        extra = self._injection_output if self.obeyed else ""
        return "\n".join(t for t in (self._answer, extra) if t) or "Done."

    def complete(self, messages: list[Message], tools: list[ToolSpec] | None = None,
                 params: GenerationParams | None = None) -> Completion:
        model = scripted_model([self.next_output(messages)], self.name)
        return model.complete(messages, tools, params)

    def stream(self, messages: list[Message], tools: list[ToolSpec] | None = None,
               params: GenerationParams | None = None) -> Iterator[StreamEvent]:
        model = scripted_model([self.next_output(messages)], self.name)
        return model.stream(messages, tools, params)
