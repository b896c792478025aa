"""The assembled personal assistant: store + tools + agent + audit + sessions.

The CLI (``ask``, ``chat``), the server and the evaluations all need the same
wiring, so it lives here once: ``open_assistant(model, data_dir=...)`` returns an
``Assistant`` whose ``agent`` is ready to run a turn over the user's store.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from botpsy.agent import Agent, SessionStore, SystemPrompt
from botpsy.agent.checks import Anticipating, Prerequisite, Reading, Repeating
from botpsy.agent.grounding import finders
from botpsy.agent.intent import APPEND_VERB, IntentCheck
from botpsy.agent.lookup import LookupCheck
from botpsy.agent.loop import grounding_rule
from botpsy.agent.rules import CallRule, CallRules, RuleKind
from botpsy.agent.selection import creates, name_family
from botpsy.agent.session import SESSIONS_DB
from botpsy.agent.spelling import read_request
from botpsy.assistant.addresscheck import AddressCheck
from botpsy.assistant.attendeecheck import AttendeeCheck
from botpsy.assistant.carrycheck import CarryCheck
from botpsy.assistant.cellcheck import CellCheck
from botpsy.assistant.daycheck import DayCheck
from botpsy.assistant.describe import reply_writer
from botpsy.assistant.durationcheck import DurationCheck
from botpsy.assistant.eachcheck import EachCheck
from botpsy.assistant.eventfacts import EventFactsCheck
from botpsy.assistant.includecheck import IncludeCheck
from botpsy.assistant.movecheck import MoveCheck
from botpsy.assistant.namecheck import NameCheck
from botpsy.assistant.pathcheck import PathCheck
from botpsy.assistant.phonecheck import PhoneCheck
from botpsy.assistant.placecheck import PlaceCheck
from botpsy.assistant.referencecheck import ReferenceCheck
from botpsy.assistant.subjectcheck import SubjectCheck
from botpsy.assistant.tickcheck import TickCheck
from botpsy.assistant.titlecheck import TitleCheck
from botpsy.assistant.toolsets import assistant_selector, assistant_tools
from botpsy.assistant.user_data import AssistantStore
from botpsy.assistant.windowcheck import WindowCheck
from botpsy.backends.base import ChatModel
from botpsy.paths import default_data_dir
from botpsy.safety.audit import AuditLog, AuditLogError
from botpsy.safety.cli import AUDIT_DB
from botpsy.safety.config import SafetyConfig
from botpsy.safety.confirm import Confirmer
from botpsy.tools import Tool, ToolRegistry
from botpsy.types import GenerationParams, ToolSpec

# Models too small to decide well on their own to call a tool get forced calls when the
# request matches some tools (see Agent's ``call_mode``). Plain SmolLM2 calls no tool
# unaided; botpsy-smol calls, but solves more scenarios when made to than in auto mode
# (the figures: docs/baselines/scenarios-botpsy-smol and ``botpsy eval scenarios``).
FIRST_CALL_MODELS = frozenset({"smollm2", "SmolLM2-135M-Instruct.Q4_1", "botpsy-smol"})


def default_call_mode(model_name: str) -> str:
    """``single_call`` for the embedded SmolLM2 models, plain or with the shipped adapter
    (``FIRST_CALL_MODELS``) and on any requantization of them (``botpsy-smol:q8_0``), else
    ``auto``."""
    return "single_call" if model_name.partition(":")[0] in FIRST_CALL_MODELS else "auto"


@dataclass
class Assistant:
    """Everything one assistant deployment holds open."""

    store: AssistantStore
    registry: ToolRegistry
    agent: Agent
    audit: AuditLog
    sessions: SessionStore

    def close(self) -> None:
        self.store.close()


def assistant_call_checks(store: AssistantStore, registry: ToolRegistry, *,
                          intent: bool = True) -> CallRules:
    """The assistant's rules for a call (``Agent(call_checks=...)``, ``agent.rules``),
    shared by every place that builds its agent so evals score what ships. ``registry`` is
    the agent's: the DayCheck and TitleCheck read which time arguments a tool takes from it.
    ``intent``: also refuse writes the request did not ask for and lookups of items it did
    not name (``agent.intent``, ``agent.lookup``); off only for the evals' naive agent
    (safety off), which shows what happens without any guard.

    The order is the order in which their refusals are joined into the one error the
    model reads, and it stays the order measured: grounding first (a made-up id makes
    the call's other values moot, and its refusal sends the retry to a lookup); then the
    values of the call as the request gives them: when (day, duration), to whom
    (address, phone), what (title, an item per listed entry) and where (place), the moved
    event, what must be included (a contact's field, a table's cells) or carried;
    then whether the request asked for the call at all (intent) and for a looked-up item
    (lookup)."""

    def spec_of(name: str) -> ToolSpec | None:
        return registry.get(name).spec if name in registry else None

    def takes(name: str) -> Collection[str]:
        spec = spec_of(name)
        return ((spec.parameters or {}).get("properties") or {}) if spec else ()

    def adders(family: str, new: bool) -> tuple[str, ...]:
        """The tools that add to items of a family: those that make one when a new one is
        asked for, else those that add to one that exists ("append_to_file": never one
        that writes it over), else those that make one."""
        own = [n for n in registry.names() if name_family(n) == family]
        making = tuple(n for n in own if creates(n))
        appending = tuple(n for n in own if n.split("_", 1)[0] == APPEND_VERB)
        return making if new else appending or making

    days = DayCheck(lambda: store.tz, store.now, takes)
    ahead, first = (Anticipating,), (Anticipating, Prerequisite)
    rules = [
        grounding_rule(registry),
        CallRule("day", days, serves=first),
        CallRule("duration", DurationCheck(lambda: store.tz, store.now), serves=()),
        CallRule("window", WindowCheck(spec_of), serves=ahead),
        CallRule("address", AddressCheck(lambda: [store.profile.email]), serves=first),
        CallRule("phone", PhoneCheck(), serves=ahead),
        CallRule("name", NameCheck(), serves=ahead),
        CallRule("title", TitleCheck(takes), serves=ahead),
        CallRule("subject", SubjectCheck(), serves=ahead),
        CallRule("place", PlaceCheck(spec_of), serves=ahead),
        CallRule("attendees", AttendeeCheck(), serves=ahead),
        CallRule("each", EachCheck(spec_of, lambda family: finders(family, registry)),
                 serves=(Anticipating, Prerequisite, Reading, Repeating)),
        CallRule("move", MoveCheck(lambda: store.tz, store.now, days), serves=ahead),
        CallRule("include", IncludeCheck(spec_of), serves=first),
        CallRule("reference", ReferenceCheck(spec_of), serves=first),
        CallRule("cells", CellCheck(spec_of), serves=first),
        CallRule("event facts", EventFactsCheck(days, spec_of), serves=first),
        CallRule("carry", CarryCheck(spec_of, lambda family: finders(family, registry)), serves=(Anticipating, Prerequisite, Reading)),
        CallRule("path", PathCheck(spec_of), serves=first),
        CallRule("tick", TickCheck(spec_of), serves=(Anticipating, Prerequisite, Reading))]
    if intent:
        rules += [CallRule("intent", IntentCheck(lambda: [store.profile.email], adders),
                           serves=ahead),
                  CallRule("lookup", LookupCheck(registry), RuleKind.item, serves=())]
    return CallRules(rules)


class StoreError(ValueError):
    """The data folder cannot hold the assistant's store (a file in its place, a
    database that is not botpsy's): nothing was read or written."""


def open_assistant(
    model: ChatModel,
    *,
    data_dir: str | Path | None = None,
    safety: SafetyConfig | None = None,
    confirmer: Confirmer | None = None,
    call_mode: str | None = None,
    select_tools: bool = True,
    params: GenerationParams | None = None,
    extra_tools: list[Tool] | None = None,
    store: AssistantStore | None = None,
) -> Assistant:
    """Open (creating if needed) the store in ``data_dir`` and build the agent over it.

    ``confirmer=None`` makes side-effecting calls come back as pending (server);
    ``select_tools`` sends only the tools relevant to each request (prompt tokens
    are the scarce resource of a small on-device model); ``extra_tools`` (e.g. from
    MCP servers) join the assistant's own."""
    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    try:
        if store is None:
            store = AssistantStore(folder)
        audit = AuditLog(store.data_dir / AUDIT_DB)
        sessions = SessionStore(store.data_dir / SESSIONS_DB)
    except (sqlite3.DatabaseError, OSError, AuditLogError) as exc:
        raise StoreError(
            f"cannot open the assistant's data in {store.data_dir if store else folder}: {exc}"
        ) from None
    registry = ToolRegistry([*assistant_tools(store), *(extra_tools or [])])

    def system_prompt() -> str:  # re-read per turn: the profile may change while serving
        return SystemPrompt.from_profile(store.profile, clock=store.now)()

    agent = Agent(
        model,
        registry,
        safety=safety or SafetyConfig(),
        confirmer=confirmer,
        audit=audit,
        system_prompt_builder=system_prompt,
        tool_selector=assistant_selector() if select_tools else None,
        params=params or GenerationParams(max_tokens=256),
        call_mode=call_mode or default_call_mode(model.name),
        call_checks=assistant_call_checks(store, registry),
        replies=reply_writer(store),
        read_request=read_request,
    )
    return Assistant(store, registry, agent, audit, sessions)
