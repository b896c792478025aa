"""The answer a person reads after a turn of the assistant (``agent.reply``): the model's
own reply when it is grounded prose, otherwise the tools' results in words; failures as
sentences; blocked, denied and pending calls still said."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from botpsy.agent import StopReason
from botpsy.assistant import AssistantStore
from botpsy.assistant.runtime import open_assistant
from botpsy.safety import DenyAll

from .helpers import call_text, scripted

NOW = datetime(2025, 3, 5, 9, 0, tzinfo=UTC)  # Wednesday 10:00 in Berlin
DENTIST = call_text("list_events", start="tomorrow", end="tomorrow")


@pytest.fixture
def store(tmp_path):
    with AssistantStore(tmp_path / "data", clock=lambda: NOW) as opened:
        opened.set_profile(name="Alex Morgan", email="alex@example.com", timezone="Europe/Berlin")
        with opened.write() as tx:
            tx.execute("INSERT INTO events (uid, title, starts_at, ends_at, all_day, location, "
                       "attendees, created_at) VALUES ('u1', 'Dentist check-up', "
                       "'2025-03-06T07:30:00Z', '2025-03-06T08:00:00Z', 0, 'Kastanienallee 12', "
                       "'[]', '2025-03-01T00:00:00Z')")
        yield opened


def _ask(store, outputs: list[str], request: str, **kwargs):
    assistant = open_assistant(scripted(outputs), store=store, call_mode="auto", **kwargs)
    return assistant.agent.run(request)


def test_a_json_echo_is_replaced_by_the_result_in_words(store):
    echo = '[{"id":1,"title":"Dentist check-up","start":"2025-03-06T08:30+01:00"}]'
    result = _ask(store, [DENTIST, echo], "What's on my calendar tomorrow?")
    assert result.final_text == "Tomorrow: Dentist check-up, 08:30-09:00, Kastanienallee 12."


def test_a_grounded_reply_of_the_model_is_kept(store):
    reply = "Your dentist check-up is tomorrow at 8:30, at Kastanienallee 12."
    result = _ask(store, [DENTIST, reply], "What's on my calendar tomorrow?")
    assert result.final_text == reply


@pytest.mark.parametrize("reply", [
    "Your dentist check-up is tomorrow at 10:15.",  # a time no result gave
    "Done.",  # says nothing the results say
    'Done: list_events(start="tomorrow") -> 1 event',  # call syntax
])
def test_an_ungrounded_reply_is_replaced(store, reply):
    result = _ask(store, [DENTIST, reply], "What's on my calendar tomorrow?")
    assert result.final_text == "Tomorrow: Dentist check-up, 08:30-09:00, Kastanienallee 12."


def test_after_an_empty_result_the_reply_must_say_so(store):
    ask = call_text("list_reminders")
    kept = _ask(store, [ask, "You don't have any reminders right now."], "My reminders?")
    assert kept.final_text == "You don't have any reminders right now."
    replaced = _ask(store, [ask, "Here are your reminders."], "My reminders?")
    assert replaced.final_text == "You have no reminders."


def test_a_write_is_confirmed_with_its_absolute_day(store):
    result = _ask(store, [call_text("add_reminder", text="call Anna", due="tomorrow 9am"), "Done!"],
                  "Remind me to call Anna tomorrow at 9am")
    assert result.final_text == "Added a reminder: call Anna, Thu 6 Mar at 09:00."


def test_a_failure_is_a_sentence_even_when_the_model_says_done(store):
    result = _ask(store, [call_text("read_email", email_id=42), "Done, here it is."],
                  "Read email 42")
    assert result.final_text == "I could not read the email: no email with id 42."


def test_a_message_that_was_not_sent_is_shown(store):
    """ "... don't send it, just show me the text here": the refused send's words are the
    answer; nothing was sent."""
    request = "write sam@example.com a short msg that I'm 5 min late. don't send it, just show me the text here"
    result = _ask(store, [call_text("send_email", to="sam@example.com", subject="Late",
                                    body="I'm 5 min late to standup."), "Sent!"], request)
    assert "I could not send the email" in result.final_text
    assert "The message: \u201cI'm 5 min late to standup.\u201d" in result.final_text
    assert store.query_one("SELECT count(*) AS n FROM emails WHERE folder = 'sent'")["n"] == 0


def test_a_pending_call_is_said_in_words(store):
    result = _ask(store, [call_text("send_email", to="sam@example.com", subject="Late",
                                    body="Ten minutes late")], "Tell sam@example.com I am late")
    assert result.stopped_reason is StopReason.pending_confirmation
    assert result.final_text.startswith("Waiting for your confirmation:")
    assert '"subject"' not in result.final_text and "{" not in result.final_text


def test_a_denied_call_is_said_and_the_models_claim_dropped(store):
    result = _ask(store, [call_text("send_email", to="sam@example.com", subject="Late",
                                    body="Ten minutes late"), "I sent it."],
                  "Tell sam@example.com I am late", confirmer=DenyAll())
    assert "I sent it" not in result.final_text
    assert result.final_text.startswith("I did not run send_email(")


def test_chit_chat_is_left_as_the_model_wrote_it(store):
    assert _ask(store, ["Hello! How can I help?"], "hi").final_text == "Hello! How can I help?"


def test_the_lookup_that_led_to_a_change_is_left_out_of_the_report(store):
    assistant = open_assistant(scripted([call_text("list_reminders"),
                                         call_text("add_reminder", text="call Anna",
                                                   due="2025-03-06T09:00")]),
                               store=store, call_mode="single_call")
    result = assistant.agent.run("Remind me to call Anna tomorrow at 9am")
    assert [s.call.name for s in result.steps] == ["list_reminders", "add_reminder"]
    assert [s.writes for s in result.steps] == [False, True]
    assert result.final_text == "Added a reminder: call Anna, Thu 6 Mar at 09:00."


def test_a_question_that_also_changes_something_keeps_its_lookup(store):
    assistant = open_assistant(scripted([DENTIST, call_text("add_reminder", text="floss",
                                                            due="2025-03-06T07:00")]),
                               store=store, call_mode="single_call")
    result = assistant.agent.run("What's on my calendar tomorrow? And remind me to floss at 8")
    assert "Dentist check-up" in result.final_text and "floss" in result.final_text


def test_a_message_kept_in_the_chat_is_shown_in_the_users_words(store):
    """"... just show it here, don't send or save anything": the model tried to save it as
    a file, the write was refused, and the answer held no message."""
    request = ("write me a quick msg for my landlord that someone will be home tuesday "
               "morning. just show it here, don't send or save anything")
    saved = call_text("write_file", path="landlord.txt", content="someone will be home")
    result = _ask(store, [saved, "ok"], request)
    assert not any(s.writes and s.result is not None and s.result.ok for s in result.steps)
    assert "\u201cSomeone will be home tuesday morning.\u201d" in result.final_text


def test_a_refusal_made_good_by_the_tool_it_named_instead_is_not_reported():
    """"add ... to notes/todo.md": a write_file refused for append_to_file, which then ran,
    is no failure to tell the user about."""
    from botpsy.agent.reply import ReplyWriter
    from botpsy.agent.run_events import AgentStep
    from botpsy.safety.audit import AuditDecision
    from botpsy.tools.registry import ToolResult
    from botpsy.types import ToolCall
    refused = AgentStep(round=1, call=ToolCall(name="write_file", arguments={"path": "a.md"}),
                        decision=AuditDecision.invalid, reason="adds to it",
                        instead=["append_to_file"], writes=True)
    added = AgentStep(round=2, call=ToolCall(name="append_to_file", arguments={"path": "a.md"}),
                      decision=AuditDecision.executed, writes=True,
                      result=ToolResult(call_id="c2", name="append_to_file", ok=True,
                                        content='{"path": "a.md"}', data={"path": "a.md"}))
    text = ReplyWriter().report([refused, added])
    assert "could not" not in text
