"""All of the assistant's toolboxes, bound to one store, as registry Tools.

``assistant_tools(store)`` is what the agent, the server and the evals register;
``untrusted_output_tools()`` names the tools whose results carry third-party
text, for the safety layer's taint tracking.
"""

from __future__ import annotations

from botpsy.agent.selection import Bm25ToolSelector
from botpsy.assistant.calendar import CalendarToolbox
from botpsy.assistant.contacts import ContactsToolbox
from botpsy.assistant.everything import EverythingToolbox
from botpsy.assistant.files import FilesToolbox
from botpsy.assistant.mail import MailToolbox
from botpsy.assistant.notes import NotesToolbox
from botpsy.assistant.reminders import RemindersToolbox
from botpsy.assistant.toolbox import Toolbox
from botpsy.assistant.user_data import AssistantStore
from botpsy.tools import Tool

TOOLBOX_TYPES: tuple[type[Toolbox], ...] = (
    MailToolbox,
    CalendarToolbox,
    ContactsToolbox,
    NotesToolbox,
    RemindersToolbox,
    FilesToolbox,
    EverythingToolbox,
)


# Searches over every kind of item (``Bm25ToolSelector(broad=...)``): never ranked
# among the families, offered to a question that no family matches.
BROAD_TOOLS = ("search_everything",)
# Never shown by ranking (``Bm25ToolSelector(on_demand=...)``): offered by the agent when a
# request must find its item first.
ON_DEMAND_TOOLS = ("search_events",)


def assistant_selector() -> Bm25ToolSelector:
    """The tool selector the assistant ships with, over its broad and on-demand tools:
    one definition for the runtime, the evals, the synthetic data and the tests."""
    return Bm25ToolSelector(broad=BROAD_TOOLS, on_demand=ON_DEMAND_TOOLS)


def toolboxes(store: AssistantStore) -> list[Toolbox]:
    """One toolbox of each domain, all bound to ``store``."""
    return [kind(store) for kind in TOOLBOX_TYPES]


def assistant_tools(store: AssistantStore) -> list[Tool]:
    """Every assistant tool, bound to ``store``."""
    return [tool for box in toolboxes(store) for tool in box.tools()]


def untrusted_output_tools() -> frozenset[str]:
    """Names of the tools whose output is third-party content (mail, files, notes)."""
    return frozenset(
        name
        for kind in TOOLBOX_TYPES
        for name, traits in kind.traits().items()
        if traits.untrusted_output
    )
