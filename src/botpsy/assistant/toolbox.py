"""Toolbox: a group of tools bound to one ``AssistantStore``.

Tools need the store, so they are methods: a ``Toolbox`` subclass marks the
methods a model may call with ``@exposed`` and ``tools()`` turns the bound
methods into registry ``Tool``s (schema from type hints, descriptions from the
docstring). ``side_effect`` marks calls whose effect leaves the device or
replaces/removes existing data (sending mail, trashing, changing or deleting
events, completing a reminder, writing files), and new contacts (the mail tools
and the address check trust their addresses): the agent asks before running
them. Other purely additive local writes (a note, a reminder, a draft) are not
marked.
``untrusted_output`` marks tools that return third-party text (mail bodies,
files, notes pasted from the web) so the safety layer can taint it.
A method ``preview_<tool>`` (same arguments) says in words what a call would act
on ("a reply to bob@… about “Lunch”"): a confirmation of ``reply_email(2, …)``
must show whom the mail goes to, not only an id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from botpsy.tools import Tool

if TYPE_CHECKING:
    from botpsy.assistant.store import AssistantStore

F = TypeVar("F", bound=Callable[..., Any])
_MARK = "__botpsy_tool_traits__"


@dataclass(frozen=True)
class ToolTraits:
    """How a tool behaves, beyond its schema."""

    side_effect: bool = False
    untrusted_output: bool = False


def exposed(*, side_effect: bool = False, untrusted_output: bool = False) -> Callable[[F], F]:
    """Mark a Toolbox method as a tool the model may call."""

    def mark(fn: F) -> F:
        setattr(fn, _MARK, ToolTraits(side_effect, untrusted_output))
        return fn

    return mark


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
            tool = Tool.from_function(getattr(self, name), side_effect=marks.side_effect)
            tool.preview = getattr(self, f"preview_{name}", None)
            tools.append(tool)
        return tools
