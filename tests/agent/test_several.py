"""Several items named for one action each get a call (``agent.several``,
``Agent._next_items``); a part that asks for another action, or fits no single item,
makes none."""

from __future__ import annotations

from datetime import UTC, datetime

from botpsy.agent import Agent, Bm25ToolSelector
from botpsy.agent.several import item_parts, next_item, times_asked
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.assistant.runtime import assistant_call_checks
from botpsy.safety import ApproveAll, SafetyConfig
from botpsy.tools import ToolRegistry
from botpsy.types import Message, ToolCall

from .helpers import call_text, scripted

MONDAY = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)
ACTS = ["complete_reminder", "delete_event", "send_email", "add_reminder", "trash_email"]


def _store(tmp_path) -> AssistantStore:
    store = AssistantStore(tmp_path, clock=lambda: MONDAY)
    store.set_profile(timezone="Europe/Berlin")
    registry = ToolRegistry(assistant_tools(store))
    for text in ("Renew the passport", "Water the plants", "Add latency slide for Dan"):
        registry.execute(ToolCall(name="add_reminder", arguments={"text": text}))
    return store


def _agent(store: AssistantStore, outputs: list[str]) -> Agent:
    registry = ToolRegistry(assistant_tools(store))
    return Agent(scripted(outputs), registry, safety=SafetyConfig(), confirmer=ApproveAll(),
                 tool_selector=Bm25ToolSelector(), call_mode="single_call",
                 call_checks=assistant_call_checks(store, registry))


def _listed(*items: tuple[int, str]) -> list[Message]:
    body = ",".join(f'{{"id":{i},"text":"{text}","done":false}}' for i, text in items)
    return [Message(role="user", content="(request)"),
            Message(role="tool", name="list_reminders", tool_call_id="c1",
                    source="tool:list_reminders:c1", content=f"[{body}]")]


def test_the_parts_are_the_action_clause_and_the_verbless_ones_after_it():
    assert item_parts("tick off water the plants and the latency slide one",
                      "complete_reminder", ACTS) == ["tick off water the plants",
                                                     "the latency slide one"]
    # a clause that asks for another action ends the item list
    assert item_parts("cancel the standup and email Dan about it", "delete_event", ACTS) == [
        "cancel the standup"]


def test_the_next_item_is_the_one_a_part_fits_that_was_not_acted_on():
    messages = _listed((1, "Renew the passport"), (2, "Water the plants"),
                       (3, "Add latency slide for Dan"))
    request = "tick off water the plants and the latency slide one"
    assert next_item("complete_reminder", request, messages, {3}, ACTS) == 2
    assert next_item("complete_reminder", request, messages, {2, 3}, ACTS) is None
    # one item named: nothing more
    assert next_item("complete_reminder", "tick off water the plants", messages, {2},
                     ACTS) is None


def test_a_part_that_fits_several_items_names_none():
    messages = _listed((1, "Water the plants"), (2, "Water the garden"),
                       (3, "Add latency slide for Dan"))
    request = "tick off the latency slide one and the watering"
    assert next_item("complete_reminder", request, messages, {3}, ACTS) is None


def test_tick_off_two_items_makes_two_calls(tmp_path):
    """The model ticks one; the agent ticks the other named item itself (its call is
    fully determined), and both are done."""
    store = _store(tmp_path)
    agent = _agent(store, [call_text("list_reminders"),
                           call_text("complete_reminder", reminder_id=3)])
    result = agent.run("tick off water the plants and the latency slide one")
    assert [(s.call.name, s.call.arguments.get("reminder_id")) for s in result.steps] == [
        ("list_reminders", None), ("complete_reminder", 3), ("complete_reminder", 2)]
    done = {r["text"] for r in store.query("SELECT text FROM reminders WHERE done = 1")}
    assert done == {"Water the plants", "Add latency slide for Dan"}


def test_one_item_named_makes_one_call(tmp_path):
    store = _store(tmp_path)
    agent = _agent(store, [call_text("list_reminders"),
                           call_text("complete_reminder", reminder_id=2)])
    result = agent.run("I watered the plants, tick that off")
    assert [s.call.name for s in result.steps] == ["list_reminders", "complete_reminder"]
    assert result.rounds == 2 and result.stopped_reason.value == "answered"
    assert len(store.query("SELECT id FROM reminders WHERE done = 1")) == 1


def test_times_asked_counts_clauses_that_ask_for_a_new_item_of_the_kind():
    assert times_asked("add_reminder", "todo: new batteries for the smoke alarm. oh and "
                       "remind me wed 7am to take the bins out") == 2
    assert times_asked("add_reminder", "remind me at 5 to call mum and remind me at 7 to "
                       "call dad") == 2
    # "and" inside what to remind of, and "the reminder" being made: one each
    assert times_asked("add_reminder", "remind me to buy milk and eggs") == 1
    assert times_asked("add_reminder", "remind me thursday 6pm to call my brother, and put "
                       "his number in the reminder") == 1
    assert times_asked("create_note", "jot down a note and create another note") == 2


def test_two_reminders_asked_make_two_calls(tmp_path):
    """The first reminder made, the turn goes on with the same tool for the second one."""
    store = _store(tmp_path)
    agent = _agent(store, [call_text("add_reminder", text="call mum", due="2026-12-07T17:00"),
                           call_text("add_reminder", text="call dad", due="2026-12-07T19:00")])
    result = agent.run("remind me at 5pm to call mum and remind me at 7pm to call dad")
    assert [(s.call.name, s.decision.value) for s in result.steps] == [
        ("add_reminder", "executed"), ("add_reminder", "executed")]
    texts = {r["text"] for r in store.query("SELECT text FROM reminders WHERE done = 0")}
    assert {"call mum", "call dad"} <= texts


def test_one_reminder_asked_makes_one_call(tmp_path):
    store = _store(tmp_path)
    agent = _agent(store, [call_text("add_reminder", text="buy milk and eggs",
                                     due="2026-12-07T17:00")])
    result = agent.run("remind me at 5pm to buy milk and eggs")
    assert [s.call.name for s in result.steps] == ["add_reminder"]
    assert result.rounds == 1 and result.stopped_reason.value == "answered"


def test_the_reply_the_turn_sent_is_no_next_item_to_reply_to(tmp_path):
    """"reply to the dentist reminder mail: monday 8:30 works, see you then": the dictated
    words read as a second part, which the sent reply fitted best, and it was replied to."""
    from botpsy.assistant.mail import insert_email

    store = _store(tmp_path)
    with store.write() as tx:
        mail = insert_email(tx, folder="inbox", sender="Praxis <praxis@dental.example>",
                            recipients=["alex@example.com"], subject="Appointment reminder",
                            body="Your check-up is next Monday at 08:30.",
                            sent_at="2026-12-07T06:10:00Z", unread=True, message_id=None,
                            created_at="2026-12-07T06:10:00Z")
    agent = _agent(store, [call_text("search_mail", query="dentist reminder"),
                           call_text("reply_email", email_id=mail,
                                     body="Monday 8:30 works, see you then."),
                           call_text("reply_email", email_id=mail + 1, body="again")])
    result = agent.run("reply to the dentist reminder mail: monday 8:30 works, see you then")
    assert [s.call.name for s in result.steps].count("reply_email") == 1
    assert len(store.query("SELECT id FROM emails WHERE folder = 'sent'")) == 1


def test_each_of_two_reminders_gets_the_day_of_its_own_clause(tmp_path):
    """"todo: new batteries for the smoke alarm. oh and remind me wed 7am to take the bins
    out": the first reminder's due is refused and held to none; the second is not held to
    the first one's retry, and gets Wednesday 07:00."""
    store = _store(tmp_path)
    agent = _agent(store, [
        call_text("add_reminder", text="new batteries for the smoke alarm", due="wed 7:00"),
        call_text("add_reminder", text="new batteries for the smoke alarm", due=None),
        call_text("add_reminder", text="take the bins out", due="2026-12-09T07:00")])
    result = agent.run("todo: new batteries for the smoke alarm. oh and remind me wed 7am to "
                       "take the bins out")
    assert [(s.call.name, s.decision.value) for s in result.steps] == [
        ("add_reminder", "invalid"), ("add_reminder", "executed"), ("add_reminder", "executed")]
    dues = {r["text"]: r["due_at"] for r in store.query(
        "SELECT text, due_at FROM reminders WHERE text LIKE '%smoke%' OR text LIKE '%bins%'")}
    assert dues["new batteries for the smoke alarm"] is None
    assert dues["take the bins out"] is not None
    last = agent.model.backend.grammars[-1]  # the second reminder's: its own day, not none
    assert "2026-12-09" in last and "due-kv ::= \"\\\"due\\\"\" space \":\" space null" not in last
