"""Run the real Agent over a prepared store and record everything it did.

Shared by the scenario and the injection evals. Two safety modes:

- ``on``: the deployment defaults (``SafetyConfig()``: money, personal data
  and health blocked; calls scope-checked; taint-gated confirmation) with the
  ``SimulatedUser`` answering confirmations (it approves what the task's ``call``
  milestones ask for, and a write that would meet one of its ``record`` milestones);
- ``off``: what a naive agent does: no blocked domains, no argument checks, no
  intent checks (``agent.intent``, ``agent.lookup``) and every confirmation
  approved (so taint has no effect).

The model is wrapped in a ``RecordingChatModel`` and the audit log lives next
to the store, so the episode keeps completions, decisions and audit rows.

The Agent's call mode is the model's shipped default (``default_call_mode``)
unless a run asks for one (``CallMode``), so a trained model can be compared in
both modes; the mode actually used is saved with each run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from botpsy.agent import Agent, SystemPrompt, ToolSelector
from botpsy.agent.spelling import read_request
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.assistant.describe import reply_writer
from botpsy.assistant.runtime import assistant_call_checks, default_call_mode
from botpsy.assistant.toolsets import assistant_selector
from botpsy.backends.base import ChatModel, check_concurrency
from botpsy.backends.model_files import load_chat_model
from botpsy.evals.call_mode import CallMode, check_call_mode
from botpsy.evals.scenarios.checks import Matcher
from botpsy.evals.scenarios.schema import CallCheck, RecordCheck
from botpsy.evals.scenarios.trace import Episode, RecordingChatModel
from botpsy.evals.scenarios.users import RecordingApprover, RecordPreview, SimulatedUser
from botpsy.evals.scenarios.world import EVAL_NOW
from botpsy.safety import AuditLog, SafetyConfig
from botpsy.tools import ToolRegistry
from botpsy.types import GenerationParams

REFERENCE_SPEC = "reference"
# A model for one episode: given the task (scenario or injection case) and the
# resolved references of its store.
ModelFactory = Callable[[Any, Mapping[str, int]], ChatModel]
ModelSource = str | ChatModel | ModelFactory


def resolve_call_mode(model_name: str, call_mode: CallMode | str | None) -> str:
    """The mode an episode runs in: the one asked for, else the model's shipped default."""
    chosen = check_call_mode(call_mode)
    return chosen.value if chosen is not None else default_call_mode(model_name)


def safety_config(on: bool) -> SafetyConfig:
    """The deployment defaults, or everything off."""
    if on:
        return SafetyConfig()
    return SafetyConfig(blocked_domains=[], check_call_arguments=False, answer_check=False)


def model_factory(model: ModelSource, reference: ModelFactory | None = None,
                  parallel: int = 1) -> ModelFactory:
    """One way to get each episode's model from a spec, a ChatModel or a factory.

    A spec is loaded once (``botpsy.backends.model_files.load_chat_model``), to serve
    ``parallel`` episodes at once; a ChatModel must serve them already. The spec
    ``reference`` uses ``reference`` (the replayed reference solutions); a factory
    is trusted to make a model per episode."""
    if isinstance(model, str):
        if model == REFERENCE_SPEC:
            if reference is None:
                raise ValueError("this eval has no reference model")
            return reference

        loaded = load_chat_model(model, parallel=parallel)
        return lambda task, refs: loaded
    if isinstance(model, ChatModel):
        check_concurrency(model, parallel)
        return lambda task, refs: model
    if callable(model):
        return model
    raise TypeError(f"model must be a spec, a ChatModel or a factory, not {type(model).__name__}")


def run_episode(
    model: ChatModel,
    store: AssistantStore,
    turns: list[str],
    *,
    safety: bool,
    expected: list[CallCheck],
    matcher: Matcher,
    params: GenerationParams,
    audit_path: Path,
    tool_selector: ToolSelector | None = None,
    call_mode: CallMode | str | None = None,
    records: list[RecordCheck] | None = None,
) -> Episode:
    """Run every user turn through a fresh Agent and return the recorded episode.

    Defaults evaluate the assistant as it ships: the model's default ``call_mode``
    and the BM25 tool selector (``tool_selector`` None), so the prompt and the
    forced-call decision are the ones a user gets. ``records``: the task's record
    milestones, which the simulated user approves a write for (``RecordPreview``)."""
    recorder = RecordingChatModel(model)
    preview = RecordPreview(store, records or [], matcher)
    confirmer = (SimulatedUser(expected, matcher, preview) if safety
                 else RecordingApprover())
    audit = AuditLog(audit_path)
    registry = ToolRegistry(assistant_tools(store))
    agent = Agent(
        recorder, registry, safety=safety_config(safety),
        confirmer=confirmer, audit=audit, params=params,
        tool_selector=tool_selector or assistant_selector(),
        call_mode=resolve_call_mode(model.name, call_mode),
        system_prompt_builder=SystemPrompt.from_profile(store.profile, clock=lambda: EVAL_NOW),
        call_checks=assistant_call_checks(store, registry, intent=safety),
        replies=reply_writer(store),
        read_request=read_request,
    )
    episode = Episode()
    history = []
    for index, text in enumerate(turns):
        result = agent.run(text, history)
        episode.add_turn(index, text, result)
        history = result.messages
    episode.completions = recorder.completions
    episode.confirmations = confirmer.records
    episode.audit = audit.entries(limit=None)
    return episode
