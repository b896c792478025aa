"""The reference model: replays a task's reference solution through the real stack.

Each solution step becomes the raw text a hermes-format model would write
(``<tool_call>`` JSON for calls, plain text for answers), served by a
``ScriptedBackend`` through ``FormattedChatModel``, so the replay goes through
the same parser, agent loop, safety layer and toolboxes as any model. A
scenario whose reference replay fails its own milestones is a broken scenario.
"""

from __future__ import annotations

from collections.abc import Mapping

from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.scripted import ScriptedBackend
from botpsy.evals.scenarios.schema import CallSpec, Scenario, SolutionStep
from botpsy.evals.scenarios.world import substitute_refs
from botpsy.formats import get_format
from botpsy.formats.hermes import HermesFormat
from botpsy.types import ToolCall

_HERMES = HermesFormat()


def call_text(calls: list[CallSpec], refs: Mapping[str, int]) -> str:
    """The hermes text of one step's calls, references replaced by ids."""
    return _HERMES.render_calls([
        ToolCall(name=c.tool, arguments=substitute_refs(dict(c.args), dict(refs))) for c in calls
    ])


def step_text(step: SolutionStep, refs: Mapping[str, int]) -> str:
    return call_text(step.calls, refs) if step.calls else str(step.say)


def scripted_model(outputs: list[str], name: str) -> FormattedChatModel:
    """A hermes ChatModel that answers with ``outputs`` in order."""
    return FormattedChatModel(ScriptedBackend(outputs), get_format("hermes"), name=name)


def reference_model(scenario: Scenario, refs: Mapping[str, int]) -> FormattedChatModel:
    """A ChatModel that plays ``scenario``'s reference solution."""
    return scripted_model([step_text(s, refs) for s in scenario.solution], "reference")
