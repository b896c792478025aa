"""Golden answers: every assistant tool's result, run for real on a store, in words.

The store's clock stands at Wednesday 5 March 2025, 10:00 in Berlin (conftest), so
"today" is Wed 5 Mar and "tomorrow" Thu 6 Mar. Each test runs the tool through the
registry, as the agent does, and reads what a person would read.
"""

from __future__ import annotations

import pytest

from botpsy.agent.run_events import AgentStep
from botpsy.assistant.describe import WORDS, reply_writer
from botpsy.assistant.mail import insert_email
from botpsy.assistant.toolsets import assistant_tools
from botpsy.assistant.user_data import AssistantStore
from botpsy.safety.audit import AuditDecision
from botpsy.tools import ToolRegistry
from botpsy.types import ToolCall


class Said:
    """Runs a tool on the store and says its result as the assistant's answer would."""

    def __init__(self, store: AssistantStore) -> None:
        self.registry = ToolRegistry(assistant_tools(store))
        self.writer = reply_writer(store)

    def __call__(self, tool: str, /, **arguments: object) -> str:
        call = ToolCall(id="call_1", name=tool, arguments=arguments)
        result = self.registry.execute(call)
        step = AgentStep(round=1, call=call, decision=AuditDecision.executed, result=result)
        return self.writer.describe(step)


@pytest.fixture
def said(store: AssistantStore) -> Said:
    return Said(store)


def _mail(store: AssistantStore, sender: str, subject: str, body: str, sent_at: str,
          unread: bool = True) -> int:
    with store.write() as tx:
        return insert_email(tx, folder="inbox", sender=sender, recipients=["alex@example.com"],
                            subject=subject, body=body, sent_at=sent_at, unread=unread,
                            message_id=None, created_at=sent_at)


def test_every_tool_the_assistant_exposes_has_words(store):
    assert set(WORDS) == {tool.name for tool in assistant_tools(store)}


# -- calendar ---------------------------------------------------------------------------------
def test_list_events_one_day(said):
    said("create_event", title="Dentist check-up", start="tomorrow 08:30", end="09:00",
         location="Kastanienallee 12")
    assert said("list_events", start="tomorrow", end="2025-03-06") == (
        "Tomorrow: Dentist check-up, 08:30-09:00, Kastanienallee 12.")


def test_a_day_to_its_own_midnight_is_said_as_that_day(said):
    said("create_event", title="Dentist check-up", start="tomorrow 08:30", end="09:00")
    assert said("list_events", start="2025-03-06", end="2025-03-06T00:00:00") == (
        "Tomorrow: Dentist check-up, 08:30-09:00.")


def test_list_events_over_days_names_each_day(said):
    said("create_event", title="Dentist check-up", start="tomorrow 08:30", end="09:00")
    said("create_event", title="Team offsite", start="2025-03-10", end="2025-03-11")
    assert said("list_events", start="today") == (
        "From today to Tue 11 Mar:\n"
        "- Dentist check-up, tomorrow 08:30-09:00\n"
        "- Team offsite, Mon 10 Mar to Tue 11 Mar, all day")


def test_create_event(said):
    assert said("create_event", title="Lunch with Dan", start="2025-03-07T12:00", end="13:00",
                location="Ramen Bar", attendees=["dan@example.com"]) == (
        "Added to your calendar: Lunch with Dan, Fri 7 Mar 12:00-13:00, Ramen Bar, "
        "with dan@example.com.")


def test_update_event(said):
    said("create_event", title="Lunch", start="2025-03-07T12:00", end="13:00")
    assert said("update_event", event_id=1, start="2025-03-07T12:30") == (
        "Changed in your calendar: Lunch, Fri 7 Mar 12:30-13:30.")


def test_delete_event(said):
    said("create_event", title="Lunch", start="2025-03-07T12:00", end="13:00")
    assert said("delete_event", event_id=1) == "Deleted from your calendar: Lunch, Fri 7 Mar 12:00-13:00."


def test_find_free_slots(said):
    said("create_event", title="Stand-up", start="tomorrow 09:00", end="09:30")
    said("create_event", title="Review", start="tomorrow 10:00", end="16:30")
    assert said("find_free_slots", date="tomorrow", duration_minutes=30) == (
        "Free tomorrow:\n- 09:30-10:00 (30 min)\n- 16:30-17:00 (30 min)")
    assert said("find_free_slots", date="tomorrow", duration_minutes=60) == (
        "You have no free time of 1 h or more tomorrow between 09:00 and 17:00.")


# -- reminders ----------------------------------------------------------------------------------
def test_add_reminder(said):
    assert said("add_reminder", text="call Anna", due="tomorrow 9am") == (
        "Added a reminder: call Anna, Thu 6 Mar at 09:00.")
    assert said("add_reminder", text="buy stamps") == "Added a to-do: buy stamps."


def test_list_reminders(said):
    assert said("list_reminders") == "You have no reminders."
    said("add_reminder", text="call Anna", due="tomorrow 9am")
    said("add_reminder", text="buy stamps")
    assert said("list_reminders") == (
        "You have 2 reminders:\n- call Anna, tomorrow at 09:00\n- buy stamps")


def test_complete_reminder(said):
    said("add_reminder", text="call Anna", due="tomorrow 9am")
    assert said("complete_reminder", reminder_id=1) == "Marked as done: call Anna."


# -- mail -----------------------------------------------------------------------------------------
@pytest.fixture
def inbox(store):
    _mail(store, "Priya Shah <priya@example.com>", "Q3 roadmap", "Could you bring the numbers?",
          "2025-03-05T07:12:00Z")
    _mail(store, "Jamie Lee <jamie@example.com>", "Plumber coming Wednesday",
          "The plumber comes Wednesday between 8 and 10.", "2025-03-04T16:05:00Z", unread=False)
    return store


def test_list_inbox(said, inbox):
    assert said("list_inbox") == (
        "Your inbox, newest first:\n"
        "- Priya Shah: \u201cQ3 roadmap\u201d, today 08:12, unread\n"
        "- Jamie Lee: \u201cPlumber coming Wednesday\u201d, yesterday 17:05")
    assert said("list_inbox", unread_only=True) == (
        "1 unread email: Priya Shah: \u201cQ3 roadmap\u201d, today 08:12, unread.")
    # a list as long as its limit is no count of them all
    assert said("list_inbox", unread_only=True, limit=1) == (
        "The 1 newest unread email (there may be more): Priya Shah: \u201cQ3 roadmap\u201d, "
        "today 08:12, unread.")


def test_search_mail(said, inbox):
    assert said("search_mail", query="plumber") == (
        "1 email matches \u201cplumber\u201d: Jamie Lee: \u201cPlumber coming Wednesday\u201d, "
        "yesterday 17:05 \u2014 The plumber comes Wednesday between 8 and 10.")
    assert said("search_mail", query="invoice") == "No emails match \u201cinvoice\u201d."


def test_read_email(said, inbox):
    assert said("read_email", email_id=1) == (
        "From Priya Shah <priya@example.com>, today at 08:12: \u201cQ3 roadmap\u201d\n\n"
        "Could you bring the numbers?")


def test_draft_email(said):
    assert said("draft_email", to="sam@example.com", subject="Slides", body="Draft") == (
        "Saved a draft to sam@example.com: \u201cSlides\u201d.")


def test_send_email(said):
    assert said("send_email", to="sam@example.com", subject="Running late", body="10 min") == (
        "Sent an email to sam@example.com: \u201cRunning late\u201d.")


def test_reply_email(said, inbox):
    assert said("reply_email", email_id=1, body="Sure.") == (
        "Sent your reply to Priya Shah <priya@example.com>: \u201cRe: Q3 roadmap\u201d.")


def test_trash_email(said, inbox):
    assert said("trash_email", email_id=2) == (
        "Moved to the trash: \u201cPlumber coming Wednesday\u201d from Jamie Lee.")


# -- contacts -------------------------------------------------------------------------------------
def test_add_contact(said):
    assert said("add_contact", name="Jonas Weber", email="jonas@example.com",
                phone="+49 30 5550 1244") == (
        "Added to your contacts: Jonas Weber, jonas@example.com, +49 30 5550 1244.")


def test_search_contacts(said):
    said("add_contact", name="Jonas Weber", email="jonas@example.com")
    assert said("search_contacts", query="jonas") == (
        "Contacts matching \u201cjonas\u201d: Jonas Weber, jonas@example.com.")
    assert said("search_contacts", query="zed") == "No contacts match \u201czed\u201d."


def test_get_contact(said):
    said("add_contact", name="Jonas Weber", phone="+49 30 5550 1244", notes="Works with Dan")
    assert said("get_contact", contact_id=1) == (
        "Jonas Weber, +49 30 5550 1244. Notes: Works with Dan.")


# -- notes ----------------------------------------------------------------------------------------
def test_create_note(said):
    assert said("create_note", title="Gift ideas", body="binoculars") == (
        "Saved a note: \u201cGift ideas\u201d.")


def test_search_notes(said):
    said("create_note", title="Gift ideas", body="Binoculars for Dad")
    assert said("search_notes", query="binoculars") == (
        "Notes matching \u201cbinoculars\u201d: \u201cGift ideas\u201d: [Binoculars] for Dad.")
    assert said("search_notes", query="piano") == "No notes match \u201cpiano\u201d."


def test_read_note(said):
    said("create_note", title="Gift ideas", body="Binoculars for Dad")
    assert said("read_note", note_id=1) == (
        "\u201cGift ideas\u201d (last changed today at 10:00):\n\nBinoculars for Dad")


def test_append_to_note(said):
    said("create_note", title="Gift ideas", body="Binoculars")
    assert said("append_to_note", note_id=1, text="A scarf") == (
        "Added to the note \u201cGift ideas\u201d.")


# -- files ----------------------------------------------------------------------------------------
def test_write_file(said):
    assert said("write_file", path="notes/todo.md", content="buy milk\n") == (
        "Created notes/todo.md (9 bytes).")
    assert said("write_file", path="notes/todo.md", content="x" * 2500) == (
        "Replaced notes/todo.md (2.5 kB).")
    # a short file written over is shown as it now reads
    assert said("write_file", path="notes/todo.md", content="- [x] buy milk\n- [ ] eggs\n") == (
        "Replaced notes/todo.md (26 bytes); it now reads:\n\n- [x] buy milk\n- [ ] eggs")


def test_list_files(said):
    assert said("list_files") == "Your files folder is empty."
    said("write_file", path="notes/todo.md", content="buy milk\n")
    said("write_file", path="plan.txt", content="step one\n")
    assert said("list_files") == "In your files folder:\n- notes/\n- plan.txt, 9 bytes"


def test_read_file(said):
    said("write_file", path="plan.txt", content="step one\n")
    assert said("read_file", path="plan.txt") == "plan.txt (9 bytes):\n\nstep one"


def test_search_files(said):
    said("write_file", path="plan.txt", content="intro\nstep one\n")
    assert said("search_files", query="step") == (
        "Files matching \u201cstep\u201d: plan.txt, line 2: step one.")
    assert said("search_files", query="plan") == (
        "Files matching \u201cplan\u201d: plan.txt (its name).")


def test_a_task_lines_box_is_said_in_words(said):
    said("write_file", path="todo.md", content="- [x] car service\n- [ ] renew passport\n")
    assert said("search_files", query="car") == (
        "Files matching \u201ccar\u201d: todo.md, line 1: car service (ticked off: done).")
    assert "renew passport (not done yet)" in said("search_files", query="passport")


def test_a_tables_header_hit_shows_the_rows_under_it(said):
    said("write_file", path="latency.csv", content="week,p50_ms,p95_ms\n1,82,310\n2,71,198\n")
    assert said("search_files", query="p95") == (
        "Files matching \u201cp95\u201d: latency.csv, line 1: week,p50_ms,p95_ms\n  1,82,310\n"
        "  2,71,198.")


# -- empty, long, errors, time zone ---------------------------------------------------------------
def test_an_empty_result_is_said_plainly(said):
    assert said("list_events", start="tomorrow", end="tomorrow") == (
        "You have nothing on your calendar tomorrow.")
    assert said("list_inbox", unread_only=True) == "You have no unread emails."
    assert said("list_reminders", include_done=True) == "You have no reminders, open or done."


def test_a_long_list_is_cut_with_a_count_of_the_rest(said):
    for hour in range(9, 21):
        said("add_reminder", text=f"task {hour}", due=f"tomorrow {hour}:00")
    text = said("list_reminders")
    lines = text.splitlines()
    assert lines[0] == "You have 12 reminders:"
    assert lines[1:9] == [f"- task {h}, tomorrow at {h:02d}:00" for h in range(9, 17)]
    assert lines[9:] == ["\u2026and 4 more."]


def test_errors_are_sentences_without_json_or_tool_hints(said):
    assert said("delete_event", event_id=99) == "I could not delete the event: no event with id 99."
    assert said("add_reminder", text="x", due="2025-03-01T09:00") == (
        "I could not add the reminder: due Sat 1 Mar at 09:00 is in the past (now Wed 5 Mar at "
        "10:00); give a later time, e.g. 'tomorrow 9:00'.")
    assert said("read_email") == (
        "I could not read the email: the model's call was incomplete or wrong (missing required "
        "argument 'email_id').")


def test_times_are_said_in_the_users_zone(store):
    said = Said(store)
    said("create_event", title="Call with Tokyo", start="tomorrow 20:00", end="20:30")
    store.set_profile(timezone="Asia/Tokyo")  # 8 hours ahead of Berlin in March
    assert said("list_events", start="2025-03-07", end="2025-03-07") == (
        "Fri 7 Mar: Call with Tokyo, 04:00-04:30.")  # Thursday evening in Berlin
