"""single_call mode: a request that must find its item first looks it up, then acts
with what was found (``Agent._lookup_first``, ``Selection.looked``, the checks'
anticipation of the action after the lookup)."""

from __future__ import annotations

from datetime import UTC, datetime

from botpsy.agent import Agent, Bm25ToolSelector
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.assistant.runtime import assistant_call_checks
from botpsy.safety import ApproveAll, Confirmer, SafetyConfig
from botpsy.tools import ToolRegistry
from botpsy.types import ToolCall

from .helpers import call_text, scripted

MONDAY = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)  # 09:00 in Berlin


def _agent(store: AssistantStore, outputs: list[str]) -> Agent:
    registry = ToolRegistry(assistant_tools(store))
    return Agent(scripted(outputs), registry, safety=SafetyConfig(), confirmer=ApproveAll(),
                 tool_selector=Bm25ToolSelector(), call_mode="single_call",
                 call_checks=assistant_call_checks(store, registry))


def _store(tmp_path) -> AssistantStore:
    store = AssistantStore(tmp_path, clock=lambda: MONDAY)
    store.set_profile(timezone="Europe/Berlin")
    registry = ToolRegistry(assistant_tools(store))
    registry.execute(ToolCall(name="create_event", arguments={
        "title": "1:1 with Priya", "start": "2026-12-09T10:00", "end": "2026-12-09T10:30"}))
    registry.execute(ToolCall(name="create_event", arguments={
        "title": "Lunch with Jonas", "start": "2026-12-10T12:30", "end": "2026-12-10T13:30"}))
    return store


def _store_with_file(tmp_path, path: str, content: str) -> AssistantStore:
    """The store of ``_store`` with one file written into its folder."""
    store = _store(tmp_path)
    (store.data_dir / "files").mkdir(exist_ok=True)
    ToolRegistry(assistant_tools(store)).execute(
        ToolCall(name="write_file", arguments={"path": path, "content": content}))
    return store


def test_a_two_step_request_looks_up_and_counts_the_reminder_from_what_it_found(tmp_path):
    """The first call may only look at the calendar; the reminder after it is held to
    an hour before the meeting it found, so the one call its grammar admits is that."""
    store = _store(tmp_path)
    due = "2026-12-09T09:00"
    agent = _agent(store, [call_text("search_events", query="Priya"),
                           call_text("add_reminder", text="Meeting with Priya", due=due)])
    result = agent.run("Find my meeting with Priya and remind me an hour before it")
    assert [(s.call.name, s.decision.value) for s in result.steps] == [
        ("search_events", "executed"), ("add_reminder", "executed")]
    first, second = agent.model.backend.grammars[:2]
    assert "search_events" in first and "add_reminder" not in first
    assert due in second  # the due the request fixes, counted from the found start
    saved = store.query_one("SELECT due_at FROM reminders")
    assert saved["due_at"] == "2026-12-09T08:00:00Z"


def test_a_wrong_relative_due_is_refused_with_the_right_one(tmp_path):
    store = _store(tmp_path)
    agent = _agent(store, [call_text("search_events", query="Priya"),
                           call_text("add_reminder", text="Priya", due="2026-12-09T10:00"),
                           call_text("add_reminder", text="Priya", due="2026-12-09T09:00")])
    result = agent.run("Find my meeting with Priya and remind me an hour before it")
    assert [s.decision.value for s in result.steps] == ["executed", "invalid", "executed"]
    assert "2026-12-09T09:00" in (result.steps[1].reason or "")


def test_an_edit_looks_its_item_up_before_it_acts(tmp_path):
    """ "Lunch with Jonas moves to 13:00": update_event needs an id, so the first call
    finds the event; the update after it may only name that event."""
    store = _store(tmp_path)
    agent = _agent(store, [call_text("search_events", query="Jonas"),
                           call_text("update_event", event_id=2, start="2026-12-10T13:00",
                                     end="2026-12-10T14:00")])
    result = agent.run("Lunch with Jonas moves to 13:00")
    assert [(s.call.name, s.decision.value) for s in result.steps] == [
        ("search_events", "executed"), ("update_event", "confirmed")]
    first = agent.model.backend.grammars[0]
    assert "search_events" in first and "update_event" not in first
    assert store.query_one("SELECT starts_at FROM events WHERE id = 2")["starts_at"] == (
        "2026-12-10T12:00:00Z")


def test_an_item_already_in_view_is_not_looked_up_again(tmp_path):
    store = _store(tmp_path)
    agent = _agent(store, [call_text("search_events", query="Jonas"),
                           call_text("delete_event", event_id=2)])
    first = agent.run("When is lunch with Jonas?")
    second = agent.run("Cancel it, the lunch with Jonas is off", first.messages)
    assert [s.call.name for s in second.steps] == ["delete_event"]


def _broad_agent(store: AssistantStore, outputs: list[str], *,
                 safety: SafetyConfig | None = None, confirmer: Confirmer | None = None) -> Agent:
    from botpsy.assistant.toolsets import assistant_selector

    registry = ToolRegistry(assistant_tools(store))
    return Agent(scripted(outputs), registry, safety=safety or SafetyConfig(),
                 confirmer=confirmer or ApproveAll(), tool_selector=assistant_selector(),
                 call_mode="single_call", call_checks=assistant_call_checks(store, registry))


def test_a_questions_search_that_finds_nothing_widens_to_everything(tmp_path):
    """The notes hold no packing list, the files do: the same words are searched
    everywhere, and the file found is read (the question asks what is on it), without
    asking the model again."""
    store = _store_with_file(tmp_path, "packing_list.txt", "Hamburg weekend:\n- charger\n")
    agent = _broad_agent(store, [call_text("search_notes", query="Hamburg")])
    result = agent.run("What's on my packing list for Hamburg?")
    assert [(s.call.name, s.call.arguments) for s in result.steps] == [
        ("search_notes", {"query": "Hamburg"}), ("search_everything", {"query": "Hamburg"}),
        ("read_file", {"path": "packing_list.txt"})]
    assert len(agent.model.backend.grammars) == 1
    assert "packing_list.txt" in result.final_text and "charger" in result.final_text


def test_a_call_refused_for_its_item_keeps_what_the_user_wrote_after_the_lookup(tmp_path):
    """"Add oat milk to the groceries note": the made-up note id is refused and the
    notes searched; the append then keeps the text the user wrote."""
    store = _store(tmp_path)
    registry = ToolRegistry(assistant_tools(store))
    registry.execute(ToolCall(name="create_note", arguments={"title": "Groceries",
                                                             "body": "eggs"}))
    agent = _agent(store, [call_text("append_to_note", note_id=7, text="oat milk"),
                           call_text("search_notes", query="groceries"),
                           call_text("append_to_note", note_id=1, text="groceries")])
    result = agent.run("Add oat milk to the groceries note")
    assert result.steps[-1].call.arguments == {"note_id": 1, "text": "oat milk"}
    assert store.query_one("SELECT body FROM notes WHERE id = 1")["body"] == "eggs\noat milk"


def test_an_item_named_by_its_day_is_looked_up_by_listing_that_day(tmp_path):
    """"My 3pm on Friday got pushed to 4": Friday's events are listed; a search for the
    request's other words ("pushed") cannot find the event."""
    store = _store(tmp_path)
    agent = _broad_agent(store, [call_text("list_events", start="2026-12-11", end="2026-12-11")])
    agent.run("my 3pm on friday got pushed to 4")
    first = agent.model.backend.grammars[0]
    assert "list_events" in first and "search_events" not in first


def with_reading_list(tmp_path) -> tuple[AssistantStore, ToolRegistry]:
    """A store with the note "Reading list" and Jamie's card, and a registry over it."""
    store = _store(tmp_path)
    registry = ToolRegistry(assistant_tools(store))
    registry.execute(ToolCall(name="create_note", arguments={
        "title": "Reading list", "body": "Piranesi, Middlemarch"}))
    registry.execute(ToolCall(name="add_contact", arguments={
        "name": "Jamie Lee", "email": "jamie.lee@mailbox.example"}))
    return store, registry


def test_a_request_that_needs_two_lookups_makes_both_before_it_acts(tmp_path):
    """"Send Jamie my reading list from my notes": the note the request takes its text
    from, then the address of the one it writes to, then the note in full (no model
    call: the one note found), then the send, which carries the note."""
    store, _ = with_reading_list(tmp_path)
    agent = _broad_agent(store, [
        call_text("search_notes", query="reading list"),
        call_text("search_contacts", query="Jamie"),
        call_text("send_email", to="jamie.lee@mailbox.example", subject="Reading list",
                  body="Piranesi, Middlemarch")])
    result = agent.run("send jamie my reading list from my notes")
    assert [(s.call.name, s.decision.value) for s in result.steps] == [
        ("search_notes", "executed"), ("search_contacts", "executed"),
        ("read_note", "executed"), ("send_email", "confirmed")]
    assert result.steps[-1].call.arguments["body"] == "Piranesi, Middlemarch"
    grammars = agent.model.backend.grammars
    assert "search_notes" in grammars[0] and "send_email" not in grammars[0]
    # the contact search (one name to look for, no count asked) and the send (held to the
    # card's address and the note) are fully determined: no model call
    assert len(grammars) == 1


def test_a_question_that_asks_to_read_reads_what_its_search_found(tmp_path):
    """"Read me my whole grocery list": the search finds the note, the note is read."""
    store = _store(tmp_path)
    registry = ToolRegistry(assistant_tools(store))
    registry.execute(ToolCall(name="create_note", arguments={
        "title": "Groceries", "body": "milk, eggs, spinach"}))
    agent = _broad_agent(store, [call_text("search_notes", query="grocery"),
                                 call_text("read_note", note_id=1)])
    result = agent.run("Read me my whole grocery list.")
    assert [s.call.name for s in result.steps] == ["search_notes", "read_note"]
    assert "spinach" in result.final_text


def _ticket_mail(tmp_path, body: str):
    """A store holding one train ticket mail with ``body``."""
    from botpsy.assistant.mail import insert_email

    store = _store(tmp_path)
    with store.write() as tx:
        insert_email(tx, folder="inbox", sender="Rail <tickets@rail.example>",
                     recipients=["alex@example.com"], subject="Your e-ticket to Hamburg",
                     body=body, sent_at="2026-12-03T15:44:00Z", unread=False,
                     message_id=None, created_at="2026-12-03T15:44:00Z")
    return store


def test_a_question_whose_one_hit_is_cut_short_reads_that_item(tmp_path):
    """"which coach + seat am i on the hamburg train": the ticket mail's snippet stopped
    before the seat; the one mail found is read in full."""
    store = _ticket_mail(tmp_path, "Booking code QX7L2M. Train ICE 1007, departs Berlin Hbf "
                                   "08:34, arrives Hamburg Hbf 10:18, coach 12, seat 45.")
    agent = _broad_agent(store, [call_text("search_mail", query="hamburg"),
                                 call_text("read_email", email_id=1)])
    result = agent.run("which coach + seat am i on the hamburg train")
    assert [s.call.name for s in result.steps] == ["search_mail", "read_email"]
    assert "seat 45" in result.final_text


def test_a_hit_shown_whole_is_not_read_again(tmp_path):
    store = _ticket_mail(tmp_path, "Coach 12, seat 45.")
    agent = _broad_agent(store, [call_text("search_mail", query="hamburg")])
    result = agent.run("which coach + seat am i on the hamburg train")
    assert [s.call.name for s in result.steps] == ["search_mail"]


def test_a_question_a_new_item_is_counted_from_is_answered_from_that_kind(tmp_path):
    """"when's the plumber coming? set a reminder half an hour before": the question names
    no kind, but the reminder can only be counted from an event, so the calendar is
    searched, not everything (whose mail about the plumber would make the reminder wait
    for a confirmation)."""
    from botpsy.assistant.mail import insert_email

    store = _store(tmp_path)
    registry = ToolRegistry(assistant_tools(store))
    registry.execute(ToolCall(name="create_event", arguments={
        "title": "Plumber visit", "start": "2026-12-09T08:00", "end": "2026-12-09T10:00"}))
    with store.write() as tx:
        insert_email(tx, folder="inbox", sender="Jamie <jamie@example.com>",
                     recipients=["alex@example.com"], subject="Plumber coming Wednesday",
                     body="The plumber comes between 8 and 10.", sent_at="2026-12-05T11:31:00Z",
                     unread=False, message_id=None, created_at="2026-12-05T11:31:00Z")
    agent = _broad_agent(store, [call_text("search_events", query="plumber"),
                                 call_text("add_reminder", text="plumber", due="2026-12-09T07:30")])
    result = agent.run("when's the plumber coming? set a reminder half an hour before")
    assert [(s.call.name, s.decision.value) for s in result.steps] == [
        ("search_events", "executed"), ("add_reminder", "executed")]
    assert not any("search_everything" in g for g in agent.model.backend.grammars)


def test_a_question_about_a_file_named_by_its_words_reads_it(tmp_path):
    """"whats the p95 for week 4 in the latency numbers": nothing in the calendar, and
    the search of everything shows work/latency_numbers.csv by its name alone; the file
    the question names by every word of its name is read, so the answer holds the value.
    A file named by some of its words is not read."""
    store = _store_with_file(tmp_path, "work/latency_numbers.csv", "week,p95_ms\n1,240\n4,198\n")
    agent = _broad_agent(store, [call_text("search_events", query="latency numbers")])
    result = agent.run("whats the p95 for week 4 in the latency numbers")
    assert [s.call.name for s in result.steps][-2:] == ["search_everything", "read_file"]
    assert "198" in result.final_text
    agent = _broad_agent(store, [call_text("search_events", query="latency")])
    result = agent.run("whats the latency like")
    assert "read_file" not in [s.call.name for s in result.steps]


def test_a_question_about_what_a_named_file_holds_reads_the_file(tmp_path):
    """"What risks are listed in the q3 roadmap file?": the search shows the file by the
    one line that holds the word ("## Risks"); the file is then read, and the answer says
    what is listed under it."""
    store = _store_with_file(tmp_path, "work/roadmap_q3.md", "# Q3 roadmap\n\n## Risks\n- hiring is slow\n")
    agent = _broad_agent(store, [call_text("search_files", query="risks"),
                                 call_text("read_file", path="work/roadmap_q3.md")])
    result = agent.run("what risks are listed in the q3 roadmap file?")
    assert [s.call.name for s in result.steps] == ["search_files", "read_file"]
    assert "hiring" in result.final_text


def test_an_action_that_cannot_be_retried_leaves_the_others_to_run(tmp_path):
    """The email's body only repeats Jamie's card and is refused twice; the event the
    request also asked for is still added."""
    store = _store(tmp_path)
    registry = ToolRegistry(assistant_tools(store))
    registry.execute(ToolCall(name="add_contact", arguments={
        "name": "Jamie Lee", "email": "jamie.lee@mailbox.example", "notes": "Partner"}))
    junk = call_text("send_email", to="jamie.lee@mailbox.example", subject="Jamie Lee",
                     body="Partner")
    agent = _broad_agent(store, [
        call_text("search_contacts", query="Jamie"), junk, junk,
        call_text("create_event", title="Dinner with Jamie", start="2026-12-12T19:30",
                  end="2026-12-12T22:00")])
    result = agent.run("Put 'Dinner with Jamie' on Saturday from 19:30 to 22:00 and email "
                       "Jamie the plan.")
    assert result.steps[-1].call.name == "create_event"
    assert result.steps[-1].decision.value == "executed"


def test_a_question_with_no_word_to_search_for_lists_instead(tmp_path):
    """"Read me my newest email": no word of it is in the email (a 135M model searched
    the mail for "newest" and found nothing); the inbox is listed instead."""
    store = _store(tmp_path)
    agent = _broad_agent(store, [call_text("list_inbox", limit=1)])
    agent.run("how many unread mails have i got? don't open them")
    first = agent.model.backend.grammars[0]
    assert "list_inbox" in first and "search_mail" not in first


def test_a_day_the_mail_cannot_be_listed_by_leaves_the_lookup_a_search(tmp_path):
    """ "on Sunday" is when the train is: no mail tool lists by day, so the first call is
    held to the mail search by the request's words, not to reading the newest email."""
    store = _store(tmp_path)
    agent = _agent(store, [call_text("search_mail", query="e-ticket")])
    agent.run("I'm taking the train from my e-ticket email on Sunday, put it in my calendar")
    first = agent.model.backend.grammars[0]
    assert "search_mail" in first and "list_inbox" not in first


def test_a_question_the_action_acts_on_is_looked_up_first(tmp_path):
    """ "that power bill email, when's it due? set me a reminder 2 days before that": the
    question's answer is in the mail, so the first call searches the mail, not the calendar
    that "before that" would otherwise send the lookup to."""
    from botpsy.assistant.toolsets import assistant_selector

    store = _store(tmp_path)
    registry = ToolRegistry(assistant_tools(store))
    agent = Agent(scripted([call_text("search_mail", query="power bill")]), registry,
                  safety=SafetyConfig(), confirmer=ApproveAll(),
                  tool_selector=assistant_selector(), call_mode="single_call",
                  call_checks=assistant_call_checks(store, registry))
    agent.run("that power bill email, when's it actually due? set me a reminder 2 days "
              "before that")
    first = agent.model.backend.grammars[0]
    assert "search_mail" in first and "search_events" not in first
    assert "add_reminder" not in first
