"""The personal assistant's local tools: mail, calendar, contacts, notes, reminders, files.

Everything lives in one ``AssistantStore`` (an SQLite database plus a sandboxed
files folder); ``assistant_tools(store)`` gives the tools bound to it. Tools
raise ``ToolInputError`` for bad input and leave the store unchanged.

    from botpsy.assistant import AssistantStore, assistant_tools
    with AssistantStore("/tmp/me") as store:
        tools = assistant_tools(store)
"""

from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.assistant.toolsets import assistant_tools, toolboxes, untrusted_output_tools
from botpsy.assistant.user_data import AssistantStore, Profile
from botpsy.paths import default_data_dir

__all__ = [
    "AssistantStore",
    "ErrorKind",
    "Profile",
    "ToolInputError",
    "assistant_tools",
    "default_data_dir",
    "toolboxes",
    "untrusted_output_tools",
]
