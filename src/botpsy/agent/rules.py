"""The rules a proposed call must pass, in one registry with a declared order.

A rule reads a proposed call and says why it must not run (``agent.checks.Refusal``),
or nothing. Each rule declares its kind:

- an **item rule** asks whether the item the call acts on is the request's (a made-up
  or off-request id: ``agent.grounding``, ``agent.lookup``);
- a **value rule** asks whether the call's values are the request's (the day, the
  address, the duration, the title ...).

The kind decides what the one retry of a refused call keeps (``CallRules.judge``): after
a value rule's refusal that named what to change, every other argument as written
(``checks.kept_arguments``); after an item rule's refusal alone, only what the user's
own words gave the call (``checks.said_arguments``: a call on a made-up id is no call to
keep). A rule may also serve the optional protocols of ``agent.checks``
(``Anticipating``, ``Prerequisite``, ``Reading``): the loop asks the registry for the
rules that serve one (``CallRules.serving``) and probes nothing else.

The provenance of a call is read once (``CallContext``): the conversation, the latest
request, the user's words, the items results showed, and the taint tracker's verdict and
argument traces; a rule that implements ``ContextRule.judge`` reads it from there, a
plain ``(call, messages)`` callable still works.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any, Protocol, TypeVar, runtime_checkable

from botpsy.agent.checks import (
    Anticipating,
    CallCheck,
    Prerequisite,
    Reading,
    Refusal,
    combine,
    kept_arguments,
    said_arguments,
)
from botpsy.agent.grounding import Item, shown_items, user_text
from botpsy.agent.intent import latest_request
from botpsy.safety.argument_origin import ArgumentTrace
from botpsy.safety.taint import TaintTracker, TaintVerdict
from botpsy.types import Message, ToolCall, ToolSpec

T = TypeVar("T")
# The optional protocols a rule may serve besides judging a call (``agent.checks``).
PROTOCOLS: tuple[type, ...] = (Anticipating, Prerequisite, Reading)


@dataclass(frozen=True)
class CallContext:
    """One proposed call and what every rule reads of its provenance, each part read
    once and only when a rule asks for it. ``taint``: the tracker's verdict on the call
    as of its proposal (None where no tracker judged it); ``tracker``: that tracker,
    whose traces say where each argument value came from."""

    call: ToolCall
    messages: list[Message]
    spec: ToolSpec | None = None
    taint: TaintVerdict | None = None
    tracker: TaintTracker | None = field(default=None, repr=False, compare=False)

    @cached_property
    def request(self) -> str:
        """The user's latest message of their own."""
        return latest_request(self.messages)

    @cached_property
    def said(self) -> str:
        """Everything the user wrote in the conversation."""
        return user_text(self.messages)

    @cached_property
    def shown(self) -> tuple[Item, ...]:
        """The items the conversation's tool results showed."""
        return tuple(shown_items(self.messages))

    @cached_property
    def traces(self) -> tuple[ArgumentTrace, ...]:
        """Where each distinctive argument value came from (the taint tracker's reading;
        empty without a tracker)."""
        return tuple(self.tracker.trace(self.call)) if self.tracker is not None else ()


@runtime_checkable
class ContextRule(Protocol):
    """A rule that reads a call's ``CallContext`` instead of re-reading the conversation."""

    def judge(self, context: CallContext) -> str | Refusal | None:
        ...


class RuleKind(str, Enum):
    """What a rule judges of a call (see the module docstring)."""

    item = "item"  # is the item the call acts on the request's?
    value = "value"  # are the call's values the request's?


@dataclass(frozen=True)
class CallRule:
    """One named rule of the registry. ``single_call``: judged only in the agent's
    single_call mode (grounding: a model that decides for itself is not held to the
    items shown). ``serves``: the optional protocols (``PROTOCOLS``) the loop may ask
    of it; declared, it must be exactly those the check implements, so a method added
    to a check without its declaration (or the reverse) fails where the rules are
    built; left out (a plain list of checks), it is read off the check."""

    name: str
    check: CallCheck | ContextRule
    kind: RuleKind = RuleKind.value
    single_call: bool = False
    serves: tuple[type, ...] | None = None

    def __post_init__(self) -> None:
        implemented = tuple(p for p in PROTOCOLS if isinstance(self.check, p))
        if self.serves is None:
            object.__setattr__(self, "serves", implemented)
        elif set(self.serves) != set(implemented):
            raise ValueError(
                f"call rule {self.name!r} declares {_names(self.serves)} but its check "
                f"implements {_names(implemented)}")

    def judge(self, context: CallContext) -> str | Refusal | None:
        """The rule's objection to the call, or None."""
        if isinstance(self.check, ContextRule):
            return self.check.judge(context)
        return self.check(context.call, context.messages)


@dataclass(frozen=True)
class Judgement:
    """The registry's verdict on one call: the combined refusal (None: it may run), and
    what the retry keeps of the refused call (None: the turn's earlier keeping stands)."""

    refusal: Refusal | None = None
    kept: dict[str, dict[str, Any]] | None = None


class CallRules:
    """The call rules of a deployment, judged in the order given (their refusals are
    joined in that order into the one error the model reads)."""

    def __init__(self, rules: Iterable[CallRule] = ()):
        self._rules = list(rules)
        names = [rule.name for rule in self._rules]
        doubled = sorted({n for n in names if names.count(n) > 1})
        if doubled:
            raise ValueError(f"call rules need distinct names; doubled: {doubled}")

    @classmethod
    def of(cls, checks: CallRules | Sequence[CallCheck]) -> CallRules:
        """``checks`` as a registry: a plain list becomes value rules in its order, each
        named by its class (or function) and position."""
        if isinstance(checks, CallRules):
            return checks
        return cls(CallRule(f"{i}:{getattr(c, '__name__', type(c).__name__)}", c)
                   for i, c in enumerate(checks))

    def with_first(self, rule: CallRule) -> CallRules:
        """This registry with ``rule`` first, unless one of its name is already in it."""
        if rule.name in self.names():
            return self
        return CallRules([rule, *self._rules])

    def __iter__(self) -> Iterator[CallRule]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    def names(self) -> list[str]:
        return [rule.name for rule in self._rules]

    def checks(self) -> list[CallCheck | ContextRule]:
        """The rules' checks, in order."""
        return [rule.check for rule in self._rules]

    def serving(self, protocol: type[T]) -> list[T]:
        """The checks that implement an optional protocol (``checks.Anticipating``,
        ``Prerequisite``, ``Reading``), in order."""
        return [rule.check for rule in self._rules if protocol in (rule.serves or ())]

    def judge(self, context: CallContext, mode: str = "auto") -> Judgement:
        """Every rule's objection to the call as one refusal, and the retry's kept
        arguments by the kinds of the rules that objected (module docstring)."""
        objections = [(rule, why) for rule in self._rules
                      if (mode == "single_call" or not rule.single_call)
                      and (why := rule.judge(context))]
        found = combine([why for _, why in objections])
        if found is None:
            return Judgement()
        kinds = {rule.kind for rule, _ in objections}
        kept = None
        if found.narrow and RuleKind.item not in kinds:
            kept = kept_arguments(context.call, found)
        elif kinds == {RuleKind.item} and context.spec is not None:
            kept = said_arguments(context.call, context.spec, context.said)
        return Judgement(found, kept)


def _names(protocols: Iterable[type]) -> list[str]:
    return [p.__name__ for p in protocols]
