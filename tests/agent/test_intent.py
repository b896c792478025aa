"""Writes the request did not ask for (agent.intent) and lookups by id (agent.lookup)."""

from __future__ import annotations

import json
import re

import pytest

from botpsy.agent.intent import IntentCheck, forbidden, is_lookup, writes
from botpsy.agent.lookup import LookupCheck
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.tools import ToolRegistry
from botpsy.types import Message, ToolCall

CONTACTS = [{"id": 1, "name": "Priya Nair", "email": "priya@acme.example", "notes": "team lead"},
            {"id": 4, "name": "Jamie Fox", "email": "jamie@fox.example", "notes": "landlord"}]


def conversation(user: str, tool: str | None = None, rows: object = CONTACTS) -> list[Message]:
    messages = [Message(role="user", content=user)]
    if tool:
        messages += [Message(role="assistant", tool_calls=[ToolCall(name=tool, id="c1")]),
                     Message(role="tool", name=tool, tool_call_id="c1", content=json.dumps(rows),
                             source=f"tool:{tool}:c1")]
    return messages


@pytest.fixture(scope="module")
def registry(tmp_path_factory) -> ToolRegistry:
    return ToolRegistry(assistant_tools(AssistantStore(tmp_path_factory.mktemp("store"))))


@pytest.mark.parametrize(("request_text", "tool", "refused"), [
    ("Draft an email to jamie@fox.example about the boiler. Don't send anything yet.",
     "send_email", True),
    ("Do not actually email him, just draft it: jamie@fox.example", "send_email", True),
    ("Prepare a message for jamie@fox.example about rent", "send_email", True),
    ("Don't forget to email jamie@fox.example the plan", "send_email", False),
    ("Send jamie@fox.example the plan", "send_email", False),
    ("How much did the gift for Sam cost?", "add_contact", True),
    ("Show me my notes about the trip", "create_note", True),
    ("What's on tomorrow? Add a reminder to pack an hour before the first thing", "add_reminder",
     False),
    ("Could you remind me to call Mum tonight?", "add_reminder", False),
    ("Dentist tomorrow at 3pm", "create_event", False),
    # "remind me who ..." asks to be told: no reminder
    ("Remind me who Priya is", "add_reminder", True),
    ("who's the plumber again? just remind me", "add_reminder", True),
    ("Remind me to water the plants at 6pm", "add_reminder", False),
    # a new item of a kind the request never names, beside another action it asks for
    ("Remind me at 6 to call the bank", "create_event", True),
    ("Email jamie@fox.example that Tuesday works", "add_contact", True),
    ("Email jamie@fox.example that Tuesday works", "send_email", False),
    ("yoga on Friday at 6, block an hour for it", "create_event", False),
    ("todo: email Dan about the budget", "add_reminder", False),  # labelled with its kind
    # someone added to an event that exists: that event changes, no new one is made
    ("add Priya to tomorrow's standup as a guest", "create_event", True),
    ("add lunch with Priya to my calendar for Friday at noon", "create_event", False),
    ("A plumber emailed me. Add him to my contacts with his number.", "add_contact", False),
    ("remind me at 6 to call Jamie, and put his number in the reminder", "add_reminder", False),
    # what is added goes where the request says: no new item of another kind
    ("add '- [ ] book flights' to my todo file", "add_contact", True),
    ("copy the stuff from my groceries note into todo.md", "create_note", True),
    ("save the place in a new note called Restaurants", "create_note", False),
    ("add the dentist to my calendar on Friday at 3 and remind me the day before",
     "add_reminder", False),
    ("export my books to read list into a file called books.txt", "create_note", True),
])
def test_intent_of_the_request(request_text: str, tool: str, refused: bool) -> None:
    call = ToolCall(name=tool, arguments={"to": "jamie@fox.example", "subject": "s", "body": "b"}
                    if tool == "send_email" else {})
    verdict = IntentCheck()(call, conversation(request_text))
    assert (verdict is not None) is refused


def test_look_tools_are_never_judged() -> None:
    assert writes("search_contacts") is None and writes("find_free_slots") is None
    assert IntentCheck()(ToolCall(name="read_email", arguments={"email_id": 3}),
                         conversation("Don't read it, what is it about?")) is None


def test_negation_names_the_action_it_covers() -> None:
    role = writes("send_email")
    assert role is not None
    assert forbidden(role, "Draft it but do not send it") == "do not send"
    assert forbidden(role, "Send it, do not wait") is None
    assert forbidden(role, "draft it but hold off on sending") == "hold off on sending"
    assert forbidden(role, "hold off on the draft and send it now") is None
    assert is_lookup("What's Jamie's number?") and not is_lookup("Email Jamie the plan")


def test_draft_goes_only_to_someone_the_request_names() -> None:
    check = IntentCheck(own=lambda: ["me@home.example"])
    asked = conversation("Draft a note to my landlord about the boiler", "search_contacts")
    wrong = ToolCall(name="draft_email", arguments={"to": "priya@acme.example", "subject": "s",
                                                    "body": "b"})
    refusal = check(wrong, asked)
    assert refusal is not None and "jamie@fox.example" in str(refusal)
    assert refusal.narrow == {"to": {"enum": ["jamie@fox.example"]}}
    right = wrong.model_copy(update={"arguments": {**wrong.arguments, "to": "jamie@fox.example"}})
    assert check(right, asked) is None
    mine = wrong.model_copy(update={"arguments": {**wrong.arguments, "to": "me@home.example"}})
    assert check(mine, asked) is None


def test_lookup_by_id_needs_a_shown_item_that_fits(registry: ToolRegistry) -> None:
    check = LookupCheck(registry)
    guessed = ToolCall(name="get_contact", arguments={"contact_id": 1})
    refusal = check(guessed, conversation("What's Jamie's number?"))
    assert refusal is not None and refusal.finders == ("search_contacts",)
    assert "search_contacts" in refusal.for_model
    shown = conversation("What's Jamie's number?", "search_contacts")
    refusal = check(guessed, shown)
    assert refusal is not None and refusal.narrow == {"contact_id": {"enum": [4]}}
    assert check(ToolCall(name="get_contact", arguments={"contact_id": 4}), shown) is None
    # nothing shown fits the words: any shown id may be read
    assert check(guessed, conversation("Read me the first contact", "search_contacts")) is None
    assert check(guessed, conversation("Open contact 1")) is None  # the user named it


def test_a_refused_send_names_the_draft_to_make_instead():
    from botpsy.agent.checks import Refusal
    from botpsy.agent.intent import IntentCheck
    from botpsy.types import Message, ToolCall

    said = [Message(role="user", content="Write a draft to Nora asking about Saturday. "
                                         "Do not send it.")]
    why = IntentCheck()(ToolCall(name="send_email", arguments={"to": "nora@example.org"}), said)
    assert isinstance(why, Refusal) and why.instead == ("draft_email",)
    plain = [Message(role="user", content="Don't send anything to Nora")]
    refused = IntentCheck()(ToolCall(name="send_email", arguments={"to": "nora@example.org"}),
                            plain)
    assert isinstance(refused, Refusal) and refused.instead == ()


def test_a_message_goes_to_the_one_the_request_writes_to_not_another_name_in_it() -> None:
    """"let my landlord know that Jamie will be home": Jamie's card shares a word with the
    request, but the landlord is who the request writes to."""
    import json as _json

    from botpsy.types import Message as _Message
    from botpsy.types import ToolCall as _ToolCall

    cards = [{"id": 7, "name": "Jamie Lee", "email": "jamie@x.example", "notes": "Partner"},
             {"id": 8, "name": "Tom Becker", "email": "tom@x.example", "notes": "Landlord"}]
    said = [_Message(role="user", content="let my landlord know that Jamie will be home"),
            _Message(role="tool", name="search_contacts", source="tool:search_contacts",
                     content=_json.dumps(cards))]
    check = IntentCheck()
    to_jamie = _ToolCall(name="send_email", arguments={"to": "jamie@x.example", "subject": "s",
                                                       "body": "b"})
    why = check(to_jamie, said)
    assert why is not None and why.narrow == {"to": {"enum": ["tom@x.example"]}}
    to_tom = _ToolCall(name="send_email", arguments={"to": "tom@x.example", "subject": "s",
                                                     "body": "b"})
    assert check(to_tom, said) is None


@pytest.mark.parametrize(("arguments", "refused"), [
    ({"subject": "Jamie Fox", "body": "landlord"}, True),  # the card's name and notes
    ({"subject": "jamie@fox.example", "body": "The boiler is fixed"}, True),  # an address
    ({"subject": "Boiler", "body": "Jamie, the boiler is fixed."}, False),
    ({"subject": "Reading list", "body": "Piranesi, Middlemarch"}, False),
])
def test_a_message_that_only_repeats_its_recipients_card_is_no_message(
        arguments: dict, refused: bool) -> None:
    messages = conversation("send Jamie my reading list", "search_contacts", CONTACTS[1:])
    call = ToolCall(name="send_email", arguments={"to": "jamie@fox.example", **arguments})
    why = IntentCheck()(call, messages)
    assert (why is not None) is refused
    if refused:
        assert "contact card" in str(why)


@pytest.mark.parametrize(("body", "refused"), [
    ("landlady; owns flat upstairs", True),  # the card's notes, one word misspelt
    ("Friday dinner is on", False),  # the request's words
    ("See you at the flat upstairs on friday", False),
    ("Bring the spare keys", False),  # words of neither: not the card's
])
def test_a_body_mostly_of_the_card_and_none_of_the_request_is_no_message(
        body: str, refused: bool) -> None:
    card = {"id": 4, "name": "Jamie Fox", "email": "jamie@fox.example",
            "notes": "Landlord; owns the flat upstairs."}
    messages = conversation("send Jamie an email about friday's dinner", "search_contacts",
                            [card])
    call = ToolCall(name="send_email", arguments={"to": "jamie@fox.example",
                                                  "subject": "Friday dinner", "body": body})
    why = IntentCheck()(call, messages)
    assert (why is not None) is refused
    if refused:
        assert "contact card" in str(why) and "subject" not in str(why)


def test_a_subject_that_is_an_address_is_kept_out_of_the_retry() -> None:
    messages = conversation("draft jamie the boiler receipt", "search_contacts", CONTACTS[1:])
    call = ToolCall(name="draft_email", arguments={
        "to": "jamie@fox.example", "subject": "jamie@fox.example", "body": "The boiler works"})
    why = IntentCheck()(call, messages)
    pattern = why.narrow["subject"]["pattern"]
    assert re.fullmatch(pattern, "Boiler") and not re.fullmatch(pattern, "jamie@fox.example")


def test_a_junk_message_is_retried_as_the_request_dictated_it() -> None:
    messages = conversation("let my landlord know by email that Jamie will be home on Tuesday "
                            "morning", "search_contacts", CONTACTS[1:])
    call = ToolCall(name="send_email", arguments={
        "to": "jamie@fox.example", "subject": "Jamie Fox", "body": "landlord"})
    why = IntentCheck()(call, messages)
    assert why.narrow == {"subject": {"enum": ["Jamie will be home on Tuesday"]},
                          "body": {"enum": ["Jamie will be home on Tuesday morning."]}}


@pytest.mark.parametrize(("request_text", "body"), [
    ("Write a draft to Nora asking if Saturday climbing is still on. Do not send it.",
     "Hi, I wanted to ask if Saturday climbing is still on."),
    ("draft jonas a msg that I'll meet him at the lunch place", "I'll meet you at the lunch place."),
    ("Email Dan asking him to send the slides", "Could you send the slides?"),
    ("Get Jamie's email and send her the wifi note title", None),
    # a clause of its own that says what to say
    ("answer the dentist's reminder mail, say i'll be there monday", "I'll be there monday."),
    # "let ... know" says it with no "that"
    ("let mia's school know jamie and I will both come to the meeting on thursday",
     "Jamie and I will both come to the meeting on thursday."),
    ("let her know I'm running late", "I'm running late."),
    ("let my landlord know that Jamie will be home", "Jamie will be home."),
    ("let me know if it rains", None),
    ("find nora's email and tell her I'm running late", "I'm running late."),
    ("tell him that the slides are done", "The slides are done."),
    # what to do with the message is the user's word to the assistant, not the message's
    ("draft her a note about the rota but hold off on sending", "Hi, this is about the rota."),
    ("write him that lunch moves to 1, without sending it", "Lunch moves to 1."),
    ("send Jonas an email confirming thursday's lunch", "Hi, just confirming thursday's lunch."),
])
def test_the_message_a_request_dictates(request_text: str, body: str | None) -> None:
    from botpsy.agent.intent import said_message

    said = said_message(request_text)
    assert (said.body if said else None) == body


def test_a_dictated_message_is_held_before_the_call_and_a_which_clause_is_not_one():
    from botpsy.agent.intent import dictated
    meant = dictated("draft an email to helpdesk@northwind.example that my laptop charger is "
                     "broken and i need a new one. don't send it")
    assert meant is not None and meant.body == "My laptop charger is broken and i need a new one."
    assert dictated("send Jamie the file that I saved yesterday") is None
    assert dictated("email Dan about the slides") is None       # a topic, not the words
    assert dictated("send jamie my reading list from my notes that i made") is None


def test_the_card_that_names_the_relation_whole_is_the_recipient():
    from botpsy.agent.intent import fitting_addresses
    cards = [{"id": 7, "name": "Jamie Lee", "email": "jamie@x.example", "notes": "Partner"},
             {"id": 8, "name": "Nora Fischer", "email": "nora@x.example",
              "notes": "Climbing partner, Saturdays"}]
    messages = [Message(role="user", content="send my partner the grocery list"),
                Message(role="tool", name="search_contacts", source="tool:search_contacts:c1",
                        content=json.dumps(cards))]
    assert fitting_addresses(messages, "send my partner the grocery list") == {"jamie@x.example"}


def test_a_request_that_rules_out_every_change_makes_none():
    from botpsy.agent.intent import IntentCheck
    for request in ("who's nora again? no changes, just remind me",
                    "am i free tomorrow at 2? just checking", "dont touch anything, what's due?",
                    "write a note to Kim about the rota, but just show it here"):
        call = ToolCall(name="add_reminder", arguments={"text": "Nora", "due": "tomorrow 9:00"})
        why = IntentCheck()(call, [Message(role="user", content=request)])
        assert why is not None and "must not run" in str(why), request


@pytest.mark.parametrize(("request_text", "taken_back"), [
    ("remind me to call mom tonight... actually never mind, don't", True),
    ("add a note about the boiler. scratch that", True),
    ("remind me to call the bank, no wait, forget it", True),
    ("email Sam the minutes, actually don't", True),
    ("write me a short msg to priya saying I'm late. don't send it, just show me the text here", True),
    ("draft a reply to tom saying jamie will be home - actually forget it, I'll call him instead",
     True),
    ("remind me to buy milk, I always forget it", False),
    ("email Sam the agenda. forget the minutes, I'll send them later", False),
    ("never mind the flowers, remind me to call mom", False),
    ("remind me about the dentist, don't forget it", False),
    ("tell Sam no, don't come", False),
])
def test_a_request_taken_back_at_its_end_changes_nothing(request_text, taken_back):
    """A request the user takes back as they finish it ("... actually never mind, don't")
    asks for nothing; a "never mind" that opens a request, or a "forget" that is part of
    it, takes nothing back."""
    from botpsy.agent.intent import IntentCheck
    from botpsy.agent.selection import CHANGE_NOTHING
    assert bool(CHANGE_NOTHING.search(request_text)) is taken_back
    call = ToolCall(name="add_reminder", arguments={"text": "call mom"})
    why = IntentCheck()(call, [Message(role="user", content=request_text)])
    assert str(why or "").startswith("the request says") is taken_back


def test_the_words_after_the_colon_are_the_reply():
    from botpsy.agent.intent import dictated
    meant = dictated("reply to the dentist reminder mail: monday 8:30 works, see you then")
    assert meant is not None and meant.body == "Monday 8:30 works, see you then."
    assert dictated("remind me at 8:30: call the plumber") is None  # no message


def test_the_words_after_tell_him_are_the_message():
    """"email sam@... and tell him im in on the binoculars": the model answered a mail of
    Sam's with its own words instead."""
    from botpsy.agent.intent import dictated
    meant = dictated("email sam@x.example and tell him im in on the binoculars")
    assert meant is not None and meant.body == "Im in on the binoculars."
    assert dictated("email dan and tell him about the meeting") is None  # a topic, not words


def test_the_words_after_a_spaced_dash_are_the_reply():
    """"reply to priya's mail about moving our 1:1 - wednesday 2pm is fine by me": the
    model wrote Priya's own question back as the body (the "1:1" is no colon mark)."""
    from botpsy.agent.intent import dictated
    meant = dictated("reply to priya's mail about moving our 1:1 - wednesday 2pm is fine by me")
    assert meant is not None and meant.body == "Wednesday 2pm is fine by me."
    assert dictated("remind me at 9 - call dan") is None  # no message


@pytest.mark.parametrize(("request_text", "text", "refused"), [
    ("add oat milk and bananas to the groceries", "bananas", True),
    ("add oat milk and bananas to the groceries", "- oat milk\n- bananas", False),
    ("Add Dune to my books to read", "Books", True),
    ("Add Dune to my books to read", "Dune", False),
    # words of the model's own are no part of what the user adds
    ("Add Dune to my books to read", "Dune by Frank Herbert", True),
    ("Add Dune to my books to read", "- [ ] Dune", False),
    ("take the risks from the roadmap file and add it to my ideas note", "risks: hiring", False),
])
def test_an_append_to_a_kept_list_holds_what_the_request_adds(
        request_text: str, text: str, refused: bool) -> None:
    call = ToolCall(name="append_to_note", arguments={"note_id": 2, "text": text})
    verdict = IntentCheck()(call, conversation(request_text))
    assert (verdict is not None) is refused
    if refused:
        assert verdict.narrow["text"]["enum"][0] in request_text


def test_a_relation_fits_the_card_that_names_it_in_another_word():
    """"let mum know ...": the card says "Mom."."""
    from botpsy.agent.intent import fitting_addresses
    card = {"id": 5, "name": "Linda Morgan", "email": "linda@home.example", "notes": "Mom."}
    other = {"id": 6, "name": "Sam Morgan", "email": "sam@home.example", "notes": "Brother."}
    messages = [Message(role="user", content="let mum know dinner is at 6"),
                Message(role="tool", name="search_contacts", source="tool:search_contacts:c1",
                        content=json.dumps([card, other]))]
    assert fitting_addresses(messages, "let mum know dinner is at 6") == {"linda@home.example"}


def test_the_attendees_of_the_event_a_request_names_are_its_recipients():
    """"who's invited to the roadmap review? email them ...": the addresses sit in a list."""
    from botpsy.agent.intent import IntentCheck, fitting_addresses
    review = {"id": 6, "title": "Q3 roadmap review", "start": "2026-12-08T14:00+01:00",
              "attendees": ["Ann Lee <ann@work.example>", "Bo Berg <bo@work.example>"]}
    standup = {"id": 2, "title": "Team standup", "attendees": ["cy@work.example"]}
    request = "who's invited to tomorrow's roadmap review? email them that i'm late"
    messages = [Message(role="user", content=request),
                Message(role="tool", name="list_events", source="tool:list_events:c1",
                        content=json.dumps([standup, review]))]
    assert fitting_addresses(messages, request) == {"ann@work.example", "bo@work.example"}
    call = ToolCall(name="send_email", arguments={"to": "ann@work.example, bo@work.example",
                                                  "subject": "Late", "body": "I'm late."})
    assert IntentCheck()(call, messages) is None
    call.arguments["to"] = "cy@work.example"
    assert IntentCheck()(call, messages) is not None
    # "them" is everyone the review holds: the first alone is sent back with both
    call.arguments["to"] = "ann@work.example"
    partial = IntentCheck()(call, messages)
    assert partial is not None and "bo@work.example" in str(partial)
    assert partial.narrow["to"]["enum"] == ["ann@work.example, bo@work.example"]
    call.arguments["to"] = "ann@work.example, bo@work.example"
    assert IntentCheck()(call, messages) is None
    named = [Message(role="user", content="who's at the roadmap review? email ann i'm late"),
             messages[1]]
    call.arguments["to"] = "ann@work.example"
    assert IntentCheck()(call, named) is None


@pytest.mark.parametrize("request_text", [
    "look at my todo file and make a reminder for each thing not done yet, tomorrow 9am",
    "whatever's on my reminder list for saturday, block an hour for it at 9 that morning",
])
def test_items_made_from_what_a_lookup_shows_wait_for_the_lookup(request_text: str) -> None:
    tool = "create_event" if "block" in request_text else "add_reminder"
    call = ToolCall(name=tool, arguments={"text": "whatever"})
    refused = IntentCheck()(call, conversation(request_text))
    assert refused is not None and "no lookup has run yet" in str(refused)
    looked = conversation(request_text, "read_file", {"path": "todo.md", "content": "- slides"})
    assert IntentCheck()(call, looked) is None
    failed = [*conversation(request_text),
              Message(role="tool", name=tool, tool_call_id="c0", content="Error: refused")]
    assert IntentCheck()(call, failed) is not None  # a refusal is no lookup


def test_an_item_said_to_be_changed_now_is_not_made_anew() -> None:
    call = ToolCall(name="create_event", arguments={"title": "sunday dinner"})
    refused = IntentCheck()(call, conversation("sunday dinner at mum's is at 7 now, and put "
                                               "jamie on it too"))
    assert refused is not None and "change that one" in str(refused)
    assert IntentCheck()(call, conversation("dinner with mum on sunday at 7")) is None


def test_a_clause_that_says_what_to_say_dictates_the_message() -> None:
    """"answer the dentist's reminder mail, say i'll be there monday": the reply quoted the
    dentist's mail back to them."""
    from botpsy.agent.intent import dictated

    assert dictated("answer the dentist's reminder mail, say i'll be there monday").body == (
        "I'll be there monday.")
    assert dictated("what did she say about lunch") is None


def test_a_refused_item_made_elsewhere_is_retried_where_the_request_puts_it() -> None:
    """"copy the stuff from my groceries note into todo.md": the 135M model made a new note;
    the refusal names the tools that add to a file, or make a new note when one is asked."""
    def adders(family: str, new: bool) -> tuple[str, ...]:
        return (f"create_{family}",) if new else (f"append_to_{family}",)

    check = IntentCheck(adders=adders)
    copied = check(ToolCall(name="create_note", arguments={"title": "t", "body": "b"}),
                   conversation("copy the stuff from my groceries note into todo.md"))
    assert copied is not None and copied.instead == ("append_to_file",)
    saved = check(ToolCall(name="add_reminder", arguments={"text": "t"}),
                  conversation("grab her number and stick it in a new note called Climbing"))
    assert saved is not None and saved.instead == ("create_note",)


@pytest.mark.parametrize(("place", "line", "junk"), [
    # after a search that showed a file holding an instruction, the 135M model appended
    # "all done"
    ("my todo file", "- [ ] book flights", "all done"),
    # the file named by its name, with no "my" before it, holds the appended line as well
    ("todo.md", "- [ ] water the plants", "plants"),
    ("notes/todo.md", "- [ ] water the plants", "plants"),
    ("my todo.md", "- [ ] water the plants", "plants"),
])
def test_a_line_appended_to_a_file_is_what_the_request_adds(place, line, junk) -> None:
    """"add '- [ ] book flights' to my todo file", "add '...' to todo.md": the line
    appended is the one the request adds."""
    request = conversation(f"add '{line}' to {place}")
    wrong = ToolCall(name="append_to_file", arguments={"path": "notes/todo.md", "text": junk})
    why = IntentCheck()(wrong, request)
    assert why is not None and why.narrow == {"text": {"enum": [line]}}
    kept = ToolCall(name="append_to_file", arguments={"path": "notes/todo.md", "text": line})
    assert IntentCheck()(kept, request) is None


def test_a_draft_only_to_be_shown_is_neither_saved_nor_sent():
    """"draft a reply ..., but only show it here, don't send": a draft kept in the mail
    store is a change the request ruled out."""
    from botpsy.agent.intent import IntentCheck
    request = "draft a reply to kim@x.example saying the rota is fine, but only show it here"
    call = ToolCall(name="draft_email", arguments={"to": "kim@x.example", "body": "fine"})
    why = IntentCheck()(call, [Message(role="user", content=request)])
    assert why is not None and "only show it here" in str(why)
    kept = "draft a reply to kim@x.example saying the rota is fine, don't send it yet"
    assert IntentCheck()(call, [Message(role="user", content=kept)]) is None


def test_a_question_then_a_message_asked_for_lets_a_reply_run():
    """"what's Sam's email? tell him I'm in": a reply is the message the request asks for."""
    from botpsy.agent.intent import IntentCheck
    request = "whats Sam's email? tell him I'm in for the trip"
    call = ToolCall(name="reply_email", arguments={"email_id": 12, "body": "I'm in for the trip"})
    why = IntentCheck()(call, [Message(role="user", content=request)])
    assert why is None or "asks a question" not in str(why)
    asked = IntentCheck()(call, [Message(role="user", content="whats Sam's email?")])
    assert asked is not None and "asks a question" in str(asked)


def test_an_answer_word_after_reply_opens_the_reply_turned_to_its_reader():
    """"nora asked about climbing sat - reply yes and she can pick me up at 9:30": the model
    wrote Nora's own question back as the body."""
    from botpsy.agent.intent import dictated
    meant = dictated("nora asked about climbing sat - reply yes and she can pick me up at 9:30")
    assert meant is not None and meant.body == "Yes and you can pick me up at 9:30."
    meant = dictated("reply yes, he's right about the rollback")
    assert meant is not None and meant.body == "Yes, you're right about the rollback."
    assert dictated("answer no to the survey mail") is None  # what to answer, not the words
    assert dictated("reply yes") is None                     # one word holds no message


def test_an_item_taken_from_elsewhere_is_no_text_to_append_as_said() -> None:
    """"add the booking code from my train ticket to my packing list file": the code is
    looked up (``ReferenceCheck``), so the appended line need not hold the request's words."""
    call = ToolCall(name="append_to_file", arguments={"path": "p.txt", "text": "booking code QX7L2M"})
    assert IntentCheck()(call, conversation(
        "add the booking code from my train ticket to my packing list file")) is None
