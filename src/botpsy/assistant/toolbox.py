"""Toolbox: a group of tools bound to one ``AssistantStore``.

Tools need the store, so they are methods: a ``Toolbox`` subclass marks the
methods a model may call with ``@exposed`` and ``tools()`` turns the bound
methods into registry ``Tool``s (schema from type hints, descriptions from the
docstring). Every tool declares ``writes``: whether it changes stored state at all (a
new note, a reminder, a draft, an appended line, every side effect). Once
untrusted data is in view, a write needs the user's confirmation, whatever else
is true of it (``safety.confirm``). ``side_effect`` marks the writes whose effect
leaves the device or replaces/removes existing data (sending mail, trashing,
changing or deleting events, completing a reminder, writing files), and new
contacts (the mail tools and the address check trust their addresses): the agent
asks before running them even when nothing untrusted was read.
``untrusted_output`` marks tools that may return third-party text (mail bodies,
files, notes pasted from the web). What a result really held is decided per item:
each returned ``Record`` carries its item's ``origin``, and ``provenance_of`` turns
them into the result's ``Provenance``, so listing the user's own reminders leaves
the turn untainted while a stranger's invitation taints it.
A method ``preview_<tool>`` (same arguments) says in words what a call would act
on ("a reply to bob@… about “Lunch”"): a confirmation of ``reply_email(2, …)``
must show whom the mail goes to, not only an id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from botpsy.assistant.errors import ToolInputError
from botpsy.assistant.records import Record
from botpsy.tools import Tool
from botpsy.types import Origin, Provenance

if TYPE_CHECKING:
    from botpsy.assistant.user_data import AssistantStore

F = TypeVar("F", bound=Callable[..., Any])
_MARK = "__botpsy_tool_traits__"


@dataclass(frozen=True)
class ToolTraits:
    """How a tool behaves, beyond its schema."""

    writes: bool
    side_effect: bool = False
    untrusted_output: bool = False

    def __post_init__(self) -> None:
        if self.side_effect and not self.writes:
            raise ValueError("a side effect changes state: declare writes=True")


def exposed(
    *, writes: bool, side_effect: bool = False, untrusted_output: bool = False
) -> Callable[[F], F]:
    """Mark a Toolbox method as a tool the model may call; ``writes`` has no default, so
    every tool says whether it changes stored state."""
    traits = ToolTraits(writes, side_effect, untrusted_output)

    def mark(fn: F) -> F:
        setattr(fn, _MARK, traits)
        return fn

    return mark


def _items(value: Any) -> list[Record | None]:
    """The records in a tool's return value (nested ones too); None for anything that
    is not a record (a bare string: nobody vouches for it)."""
    if isinstance(value, Record):  # its own fields are its text; nested records count too
        values = [getattr(value, name) for name in type(value).model_fields]
        nested = [v for v in values for v in (v if isinstance(v, (list, tuple)) else [v])
                  if isinstance(v, Record)]
        return [value, *(item for v in nested for item in _items(v))]
    if isinstance(value, (list, tuple)):
        return [item for v in value for item in _items(v)]
    return [None]


def provenance_of(value: Any) -> Provenance:
    """Trusted when every record in ``value`` is the user's own (an empty list is);
    otherwise the third-party items, in words. A ``ToolInputError`` (the tool refusing
    the call: "no reminder 7; list_reminders gives the ids") is botpsy's own words about
    the call's arguments, as trusted as the call was; any other exception may quote
    anything, so it is not."""
    if isinstance(value, ToolInputError):
        return Provenance(trusted=True)
    items = _items(value)
    strangers = [r for r in items if r is None or r.origin is not Origin.user]
    labels = [r.item_label() if r is not None else "a result of unknown origin"
              for r in strangers]
    return Provenance(trusted=not strangers, items=list(dict.fromkeys(labels)))


class Toolbox:
    """Base of the per-domain toolboxes; subclasses set ``domain`` and expose methods."""

    domain: ClassVar[str] = ""

    def __init__(self, store: AssistantStore) -> None:
        self.store = store

    @classmethod
    def traits(cls) -> dict[str, ToolTraits]:
        """Tool name -> traits, in the order the methods are defined."""
        found: dict[str, ToolTraits] = {}
        for klass in reversed(cls.__mro__):
            for name, member in vars(klass).items():
                if (marks := getattr(member, _MARK, None)) is not None:
                    found[name] = marks
        return found

    def tools(self) -> list[Tool]:
        """The exposed methods, bound to this toolbox's store, as registry Tools (with
        their ``preview_<name>`` method, if any, as ``Tool.preview``)."""
        tools = []
        for name, marks in self.traits().items():
            tool = Tool.from_function(getattr(self, name), side_effect=marks.side_effect,
                                      writes=marks.writes)
            tool.preview = getattr(self, f"preview_{name}", None)
            tool.provenance = provenance_of
            tools.append(tool)
        return tools
