"""The assembled toolset: names, schemas a model can read, side-effect marks, registry use."""

from __future__ import annotations

from botpsy.assistant import assistant_tools, untrusted_output_tools
from botpsy.assistant.store import AssistantStore
from botpsy.tools import ToolRegistry
from botpsy.types import ToolCall

EXPECTED = {
    "list_inbox",
    "search_mail",
    "read_email",
    "draft_email",
    "send_email",
    "reply_email",
    "trash_email",
    "list_events",
    "create_event",
    "update_event",
    "delete_event",
    "find_free_slots",
    "search_contacts",
    "get_contact",
    "add_contact",
    "create_note",
    "search_notes",
    "read_note",
    "append_to_note",
    "add_reminder",
    "list_reminders",
    "complete_reminder",
    "list_files",
    "read_file",
    "write_file",
    "search_files",
}
SIDE_EFFECTS = {
    "send_email",
    "add_contact",
    "complete_reminder",
    "reply_email",
    "trash_email",
    "update_event",
    "delete_event",
    "write_file",
}


def test_every_tool_is_there_once_with_a_documented_schema(store: AssistantStore) -> None:
    tools = assistant_tools(store)
    names = [t.name for t in tools]
    assert sorted(names) == sorted(EXPECTED)
    for tool in tools:
        assert tool.description and len(tool.description) < 120, tool.name
        for name, schema in tool.parameters["properties"].items():
            assert schema.get("description"), f"{tool.name}.{name} has no description"


def test_side_effects_are_marked(store: AssistantStore) -> None:
    marked = {t.name for t in assistant_tools(store) if t.side_effect}
    assert marked == SIDE_EFFECTS


def test_untrusted_output_tools_are_the_readers_of_third_party_text() -> None:
    assert untrusted_output_tools() == {
        "list_inbox",
        "search_mail",
        "read_email",
        "search_notes",
        "read_note",
        "read_file",
        "search_files",
    }


def test_registry_runs_a_model_call_and_reports_bad_input(store: AssistantStore) -> None:
    registry = ToolRegistry(assistant_tools(store))
    created = registry.execute(
        ToolCall(
            name="create_event",
            arguments={"title": "Dentist", "start": "tomorrow 8:30", "end": "tomorrow 9:00"},
        )
    )
    assert created.ok
    assert '"start":"2025-03-06T08:30+01:00"' in created.content
    assert "location" not in created.content  # empty fields are left out
    bad = registry.execute(
        ToolCall(name="add_reminder", arguments={"text": "x", "due": "blursday"})
    )
    assert not bad.ok and "could not read 'blursday'" in bad.content
