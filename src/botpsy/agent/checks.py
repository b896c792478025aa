"""A deployment's own checks of a call, and what a refused call's retry may write.

A check (``Agent(call_checks=[...])``, registered as a rule of ``agent.rules.CallRules``)
reads a proposed call and the conversation and returns why the call must not run, or None. It may return a ``Refusal`` instead of a
plain reason, naming the values a retry may write for the refused arguments, as JSON
schema keywords (a ``pattern``). Why: told in words that "end falls on Sunday, a day the
request does not name", a 135M model writes the same Sunday again (everyday requests,
docs/assistant/default-model). The retry of ``single_call`` mode is a grammar-constrained
call, so the same keywords added to the tool's schema for that retry make the refused
value impossible to write instead of merely discouraged.

A check that can tell what a request already fixes may also say so before any call
(``Anticipating.expected``): the first forced call's grammar then holds those arguments
as a refusal would hold its retry's. Why: "on Friday from 10:00 to 11:00" was first
written ``end="Sun 11:00"``, refused, and written again: a whole generation spent on
a value the request had given.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from botpsy.types import Message, ToolCall, ToolSpec

if TYPE_CHECKING:  # the rules' registry reads this module's protocols
    from botpsy.agent.rules import CallContext


@dataclass(frozen=True)
class Refusal:
    """Why a call must not run, and per argument the schema keywords its retry must obey.
    ``reason`` is said to the person as well as to the model; ``hint`` only to the model,
    after it ("list_reminders gives the ids"): ``for_model`` is what the model reads."""

    reason: str
    narrow: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # the tools that list the values the call needed: the retry is made to call one
    finders: tuple[str, ...] = ()
    # the tools that do what the request asked in place of the refused one ("a draft,
    # not a send": draft_email): the retry is made to call one of them
    instead: tuple[str, ...] = ()
    hint: str = ""
    # several refusals in one (``combine``): each one's text for the model, in order
    parts: tuple[str, ...] = ()

    @property
    def for_model(self) -> str:
        """The refusal as the model reads it: the reason with its hint (each part's)."""
        if self.parts:
            return "; and ".join(self.parts)
        return f"{self.reason}; {self.hint}" if self.hint else self.reason

    def __str__(self) -> str:
        return self.reason


# A deployment's check of a call against the conversation: why it must not run, or None.
CallCheck = Callable[[ToolCall, list[Message]], "str | Refusal | None"]

@runtime_checkable
class Anticipating(Protocol):
    """A call check that can say, before a call of a tool is made (``context``: a
    ``CallContext.before`` the call, the tool's spec and the conversation), the schema keywords
    its arguments must meet for the check to pass (empty: nothing is fixed yet). Only
    what the check would refuse may be excluded: a value it accepts must stay writable."""

    def expected(self, context: CallContext) -> Mapping[str, Mapping[str, Any]]:
        ...


@runtime_checkable
class Prerequisite(Protocol):
    """A call check that can say which item families must be looked up before a call of
    ``spec`` can be right ("remind me an hour before my dentist appointment": the
    appointment's start; ``("event",)``), and nothing once they are in view."""

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        ...


@runtime_checkable
class Repeating(Protocol):
    """A call check that can say how many calls of a tool that adds an item the request
    asks for, given what the conversation showed ("a reminder for each thing in my todo
    file": one per open entry of the file read); 0 where it has no say."""

    def times(self, context: CallContext) -> int:
        ...


@dataclass(frozen=True)
class ReadFirst:
    """An item to read in full before a call: its family, and the argument and value
    that name it to the family's reading tool (``note_id`` 5, ``path`` "a/b.txt")."""

    family: str
    argument: str
    value: Any


@runtime_checkable
class Reading(Protocol):
    """A call check that can say which items shown by a search must be read in full
    before a call of ``spec`` can be right ("send jamie my reading list from my notes":
    the note's text, of which a search shows a snippet), and nothing once they are read."""

    def reads_first(self, context: CallContext) -> tuple[ReadFirst, ...]:
        ...


# Tool name -> argument -> schema keywords, gathered from a turn's refusals.
Narrowing = dict[str, dict[str, dict[str, Any]]]


def combine(objections: list[str | Refusal]) -> Refusal | None:
    """Every check's objection to one call as one refusal (None when there is none): the
    single retry must hear them all, or it fixes one argument and keeps the other."""
    if not objections:
        return None
    refusals = [o if isinstance(o, Refusal) else Refusal(o) for o in objections]
    narrow: dict[str, dict[str, Any]] = {}
    for refusal in refusals:
        for arg, keywords in refusal.narrow.items():
            narrow.setdefault(arg, {}).update(keywords)
    finders = tuple(dict.fromkeys(f for r in refusals for f in r.finders))
    instead = tuple(dict.fromkeys(f for r in refusals for f in r.instead))
    return Refusal("; and ".join(r.reason for r in refusals), narrow, finders, instead,
                   parts=tuple(r.for_model for r in refusals))


def remember(narrowing: Narrowing, call: ToolCall, why: Refusal) -> str:
    """Keep a refusal's narrowing for ``call``'s tool; the reason as a person reads it."""
    for arg, keywords in why.narrow.items():
        narrowing.setdefault(call.name, {}).setdefault(arg, {}).update(keywords)
    return why.reason


def kept_arguments(call: ToolCall, refusal: Refusal) -> dict[str, dict[str, Any]]:
    """What the retry of a refused ``call`` keeps: every argument the refusal did not
    narrow, held to the value written (a plain value; lists and objects stay free). Why:
    refused for a 30-minute slot where the user asked for an hour, the retry of
    ``find_free_slots(date="tomorrow 14:00")`` wrote the hour and moved the date to
    today, which was refused in turn, and a turn has one retry."""
    return {arg: {"enum": [value]} for arg, value in call.arguments.items()
            if arg not in refusal.narrow and isinstance(value, str | int | float | bool)}


def said_arguments(call: ToolCall, spec: ToolSpec, said: str) -> dict[str, dict[str, Any]]:
    """What the next call of a tool keeps of a call refused for its item alone (a made-up
    id): each required text argument, other than an id, whose value the user wrote word
    for word. Why: told to "add oat milk to the groceries note", a 135M model wrote the
    text right and the note's id wrong; after the lookup it wrote the text "groceries".
    A value the user did not write is the model's and may be as made up as the id."""
    required = set((spec.parameters or {}).get("required") or [])
    folded = " ".join(said.casefold().split())

    def written(value: str) -> bool:
        words = " ".join(value.casefold().split())
        return len(words) > 1 and re.search(rf"(?<!\w){re.escape(words)}(?!\w)", folded) is not None

    return {arg: {"enum": [value]} for arg, value in call.arguments.items()
            if arg in required and not arg.endswith("_id") and isinstance(value, str)
            and written(value)}


def narrowed(spec: ToolSpec, narrowing: Narrowing) -> ToolSpec:
    """``spec`` with the turn's narrowing merged into its argument schemas (unchanged when
    there is none for it, or for an argument it does not declare). A narrowed argument
    becomes required and loses ``null`` from its types: the refused call wrote a value
    there, and leaving it out (a reminder with no day) is no fix."""
    patches = narrowing.get(spec.name)
    properties = (spec.parameters or {}).get("properties") or {}
    patches = {arg: kw for arg, kw in (patches or {}).items() if arg in properties}
    if not patches:
        return spec
    parameters = copy.deepcopy(spec.parameters)
    required = list(parameters.get("required") or [])
    for arg, keywords in patches.items():
        parameters["properties"][arg] = _non_null({**parameters["properties"][arg], **keywords})
        required += [] if arg in required else [arg]
    parameters["required"] = required
    return spec.model_copy(update={"parameters": parameters})


def bounded(spec: ToolSpec, budget_chars: int) -> ToolSpec:
    """``spec`` with every free text argument (a string with no enum, pattern or
    ``maxLength``) held to a share of ``budget_chars``. Why: a forced call whose text
    argument loops ("Thank you for your patience. I'll be here ...") runs into the token
    limit inside the call, and the turn is lost; held to a length the grammar closes the
    value and the call, and the checks then judge what it says."""
    properties = (spec.parameters or {}).get("properties") or {}
    free = [arg for arg, schema in properties.items() if isinstance(schema, dict)
            and _non_null(schema).get("type") == "string"
            and not {"enum", "pattern", "maxLength", "const"} & schema.keys()]
    if not free:
        return spec
    parameters = copy.deepcopy(spec.parameters)
    share = max(budget_chars // len(free), 16)
    for arg in free:
        parameters["properties"][arg]["maxLength"] = share
    return spec.model_copy(update={"parameters": parameters})


def determined_arguments(spec: ToolSpec) -> dict[str, Any] | None:
    """The one argument object a forced call of ``spec`` can be, or None when its schema
    leaves any choice: every property required and held to a single value (a refusal's
    narrowing plus the kept arguments). Why: such a retry's grammar admits one call, so
    asking the model for it costs a whole generation and decides nothing."""
    parameters = spec.parameters or {}
    properties = parameters.get("properties") or {}
    if not properties or set(parameters.get("required") or []) != set(properties):
        return None
    values = {arg: schema.get("enum") for arg, schema in properties.items()}
    if not all(isinstance(v, list) and len(v) == 1 for v in values.values()):
        return None
    return {arg: value[0] for arg, value in values.items()}


def _non_null(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without ``null`` in a type list (``["string", "null"]`` -> ``"string"``)."""
    types = schema.get("type")
    if not isinstance(types, list) or "null" not in types or len(types) < 2:
        return schema
    kept = [t for t in types if t != "null"]
    return {**schema, "type": kept[0] if len(kept) == 1 else kept}
