"""The assembled toolset: names, schemas a model can read, side-effect marks, registry use."""

from __future__ import annotations

from botpsy.assistant import assistant_tools, untrusted_output_tools
from botpsy.assistant.user_data import AssistantStore
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
    "search_events",
    "search_everything",
    "read_file",
    "write_file",
    "append_to_file",
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
        "search_everything",  # it finds mail, notes and files too
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


def test_confirmations_say_what_an_id_call_acts_on(store: AssistantStore) -> None:
    # reply_email(2, ...) alone hides whom the mail goes to; the preview names it
    from botpsy.agent.calls import CallPipeline
    from botpsy.agent.guard import Repeat
    from botpsy.assistant.mail import insert_email
    from botpsy.safety import SafetyConfig
    from botpsy.safety.taint import TaintVerdict

    with store.write() as tx:
        email = insert_email(tx, folder="inbox", sender="Bob <bob@evil.example>",
                             recipients=["alex@example.com"], subject="Lunch Friday?", body="x",
                             sent_at="2025-03-03T10:00:00Z", unread=True, message_id=None,
                             created_at="2025-03-03T10:00:00Z")
    (store.files_root / "todo.txt").write_text("milk")
    pipeline = CallPipeline(ToolRegistry(assistant_tools(store)), SafetyConfig(), None, None, None)

    def target(name: str, **arguments: object) -> str:
        review = pipeline.review(ToolCall(name=name, arguments=arguments), TaintVerdict(),
                                 Repeat.fresh)
        return review.request.target

    assert target("reply_email", email_id=email, body="Yes") == (
        "a reply to Bob <bob@evil.example> about \u201cLunch Friday?\u201d, quoting that email")
    assert "Lunch Friday?" in target("trash_email", email_id=email)
    assert target("write_file", path="todo.txt", content="x") == "replaces todo.txt (4 bytes now)"
    assert target("reply_email", email_id=99, body="Yes") == ""  # the call itself will say why
