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
request, the user's words, the items and objects results showed, the typed values (addresses,
phone numbers ...) the user wrote or a result showed, and the taint tracker's verdict and
argument traces. Every rule of the assistant implements ``ContextRule.judge`` and reads them
from there (``ContextCheck`` keeps it callable as a plain ``(call, messages)`` check, which
still works as a rule too); the optional protocols read the context of the call about to be
written (``CallContext.before``), built once per tool for every rule that serves them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
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
    Repeating,
    combine,
    kept_arguments,
    said_arguments,
)
from botpsy.agent.grounding import Item, items_of, result_objects, user_text
from botpsy.agent.intent import latest_request
from botpsy.safety.argument_origin import ArgumentTrace
from botpsy.safety.taint import TaintTracker, TaintVerdict
from botpsy.types import Message, ToolCall, ToolSpec

T = TypeVar("T")
# The optional protocols a rule may serve besides judging a call (``agent.checks``).
PROTOCOLS: tuple[type, ...] = (Anticipating, Prerequisite, Reading, Repeating)


def _content(message: Message) -> str:
    return message.content


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

    @classmethod
    def before(cls, spec: ToolSpec, messages: list[Message]) -> CallContext:
        """The context of a call of ``spec``'s tool about to be written (no arguments
        yet): what the optional protocols (``expected``, ``needs_first`` ...) read."""
        return cls(ToolCall(name=spec.name), messages, spec)

    @property
    def tool(self) -> ToolSpec:
        """The spec of the tool called: every context the loop builds has it, and so does
        one ``before`` a call."""
        if self.spec is None:
            raise ValueError(f"no spec in the context of {self.call.name!r}")
        return self.spec

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
        return tuple(items_of(self.id_objects))  # the results are read once

    @cached_property
    def objects(self) -> tuple[tuple[str, dict], ...]:
        """Every JSON object the conversation's tool results showed, with the family of the
        tool that showed it (ids or not: a file listing's entries, a contact's card)."""
        return tuple(result_objects(self.messages, with_id=False))

    @cached_property
    def id_objects(self) -> tuple[tuple[str, dict], ...]:
        """Those of ``objects`` that are the store's items (with an integer ``id``)."""
        return tuple(result_objects(self.messages))

    @cached_property
    def results(self) -> tuple[Message, ...]:
        """The conversation's tool results, in order."""
        return tuple(m for m in self.messages if m.role == "tool")

    def shown_values(self, find: Callable[[str], Iterable[str]],
                     key: Callable[[str], Hashable] = str.lower, own: Iterable[str] = (),
                     read: Callable[[Message], str] = _content) -> list[str]:
        """Every value of one kind (``find``: an extractor of ``botpsy.extract`` giving the
        values as written) the conversation holds, each once by ``key``: the user's words
        first, then the user's ``own`` (the profile's, which the messages do not carry),
        then what ``read`` takes of each tool result (all of it by default). What a call
        may rightly write of that kind; a value outside it is made up."""
        found: dict[Hashable, str] = {}
        results = " ".join(read(m) for m in self.results)
        for value in [*find(self.said), *own, *find(results)]:
            if value:
                found.setdefault(key(value), value)
        return list(found.values())

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


class ContextCheck:
    """Base of a rule that judges a ``CallContext``, callable as a plain ``CallCheck``
    too: ``check(call, messages)`` reads the context of that call alone (no spec, no
    taint), so one judgement serves the registry, the tests and any caller."""

    def judge(self, context: CallContext) -> str | Refusal | None:
        raise NotImplementedError

    def __call__(self, call: ToolCall, messages: list[Message]) -> str | Refusal | None:
        return self.judge(CallContext(call, messages))


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
