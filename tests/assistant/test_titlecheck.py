"""TitleCheck: a title must say what, not only when."""

from __future__ import annotations

import json

import pytest

from botpsy.agent.rules import CallContext
from botpsy.assistant.titlecheck import TitleCheck, asked_titles, says_only_when
from botpsy.types import Message, ToolCall, ToolSpec

BANK = "Schedule a call with the bank on Monday from 9:00 to 9:30."


@pytest.mark.parametrize(
    ("request_text", "titles"),
    [
        (BANK, ["call with the bank"]),
        (
            "Put a dentist appointment in my calendar on Friday from 10:00 to 11:00.",
            ["dentist appointment"],
        ),
        ("Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30.", ["lunch with Sara"]),
        ("Remind me to call Anna tomorrow at 9am", ["call Anna"]),
        ("Block next Monday, December 7, for the offsite", ["offsite"]),
        (
            "Find the babysitter's number and remind me to call her tonight",
            ["call her"],  # the lookup clause is what to find, not what to add
        ),
        # the task's own verb stays; the kind of item and a duration go
        ("Put a reminder in for Thursday 7pm: call the insurance company",
         ["call the insurance company"]),
        ("Book a coffee with Marta on Wednesday at 4pm for half an hour", ["coffee with Marta"]),
        ("Block two hours on Friday morning at 9 for deep work", ["deep work"]),
        ("Put it on Monday at 9:00", []),  # a pronoun is no title
        ("Add Monday at 9:00", []),
    ],
)
def test_asked_titles_take_off_the_verb_the_days_times_and_place(request_text, titles):
    assert asked_titles(request_text) == titles


@pytest.mark.parametrize(
    ("title", "only_when"),
    [
        ("Monday", True),
        ("9:00", True),
        ("tomorrow 9:00", True),
        ("next Friday at 9am", True),
        ("Dec 7", True),
        # a timestamp is a forced call's filler, never what to remember
        ("2026-12-07T09:00", True),
        ("2026-12-07T09:00+01:00", True),
        ("Mon 7 Dec 09:00", True),
        ("Monday meeting", False),
        ("call", False),
        ("Anna tomorrow", False),
    ],
)
def test_says_only_when(title, only_when):
    assert says_only_when(title) is only_when


def test_the_bank_call_titled_monday_is_refused_and_narrowed_to_the_request():
    call = ToolCall(
        name="create_event",
        arguments={"title": "Monday", "start": "2026-12-07T09:00", "end": "09:30"},
    )
    why = TitleCheck()(call, [Message(role="user", content=BANK)])
    assert why.reason.startswith("title 'Monday' says when, not what")
    assert why.narrow == {"title": {"enum": ["call with the bank"]}}


def test_titles_with_content_and_look_tools_pass_and_an_empty_request_does_not_narrow():
    said = [Message(role="user", content=BANK)]
    good = ToolCall(name="create_event", arguments={"title": "Bank call", "start": "Mon 9:00"})
    assert TitleCheck()(good, said) is None
    look = ToolCall(name="list_events", arguments={"title": "Monday"})
    assert TitleCheck()(look, said) is None
    bare = TitleCheck()(
        ToolCall(name="add_reminder", arguments={"text": "9:00"}),
        [Message(role="user", content="Add Monday at 9:00")],
    )
    assert bare.reason.startswith("text '9:00' says when") and bare.narrow == {}


@pytest.mark.parametrize("quoted", ["'Monday'", '"Monday"', "\u2018Monday\u2019"])
def test_a_title_the_user_gave_in_quotes_passes(quoted):
    call = ToolCall(name="create_note", arguments={"title": "Monday", "body": "laundry"})
    said = [Message(role="user", content=f"Make a note titled {quoted} that says laundry")]
    assert TitleCheck()(call, said) is None


def _listed(request: str, tool: str, rows: list[dict]) -> list[Message]:
    return [
        Message(role="user", content=request),
        Message(role="tool", name=tool, source=f"tool:{tool}:c1", content=json.dumps(rows)),
    ]


REMINDERS = [{"id": 2, "text": "Order Dad's binoculars with Sam", "due": None}]


def test_a_new_item_that_copies_a_listed_one_is_refused_and_narrowed():
    """reminder_on_friday: the model listed the reminders and added the first one again."""
    request = "Remind me on Friday to send the conference talk abstract."
    call = ToolCall(
        name="add_reminder",
        arguments={"text": "Order Dad's binoculars with Sam", "due": "2026-12-04T09:00"},
    )
    why = TitleCheck()(call, _listed(request, "list_reminders", REMINDERS))
    assert "copies an item a lookup showed" in why.reason
    assert why.narrow == {"text": {"enum": ["send the conference talk abstract"]}}


def test_copies_that_the_request_names_or_another_family_showed_pass():
    call = ToolCall(name="add_reminder", arguments={"text": "Order Dad's binoculars with Sam"})
    # the request names it: a second reminder of the same thing is what was asked
    asked = _listed("Remind me again about Dad's binoculars", "list_reminders", REMINDERS)
    assert TitleCheck()(call, asked) is None
    # a file's lines are the source of new reminders ("a reminder for each item in todo.md")
    todo = _listed(
        "Add a reminder for each item in notes/todo.md",
        "search_files",
        [{"id": 1, "text": "Order Dad's binoculars with Sam"}],
    )
    assert TitleCheck()(call, todo) is None
    # a change to a listed item may keep its title
    done = ToolCall(
        name="complete_reminder", arguments={"reminder_id": 2, "text": REMINDERS[0]["text"]}
    )
    assert TitleCheck()(done, _listed("Tick it off", "list_reminders", REMINDERS)) is None


ANNA = "Remind me to call Anna tomorrow at 9am"


@pytest.mark.parametrize(
    ("text", "due"),
    [("Anna tomorrow at 9am", "tomorrow 9:00"), ("call Anna tomorrow at 9am", "2026-12-07T09:00")],
)
def test_a_title_ending_in_the_requests_time_that_the_due_holds_is_narrowed(text, due):
    """The README's first request: the model wrote "Anna tomorrow at 9am" with the due set,
    so the reminder read the time twice and lost the call."""
    call = ToolCall(name="add_reminder", arguments={"text": text, "due": due})
    why = TitleCheck()(call, [Message(role="user", content=ANNA)])
    assert "repeats the request's day or time" in why.reason
    assert why.narrow == {"text": {"enum": ["call Anna"]}}


@pytest.mark.parametrize(
    ("request_text", "arguments"),
    [
        (ANNA, {"text": "call Anna", "due": "tomorrow 9:00"}),  # nothing said twice
        # no time argument set, and no parameter table saying the tool takes one
        (ANNA, {"text": "Anna tomorrow at 9am"}),
        # a time that is part of what, or one the due does not hold
        (
            "Remind me tomorrow at 9am about the 10am meeting",
            {"text": "10am meeting", "due": "tomorrow 9:00"},
        ),
        (
            "Remind me tomorrow at 9am about the meeting at 10am",
            {"text": "meeting at 10am", "due": "tomorrow 9:00"},
        ),
        # a time the request never said is the day check's business, not this one's
        (ANNA, {"text": "call Anna at 10am", "due": "tomorrow 9:00"}),
        # no asked title to narrow to: kept rather than refused without a way out
        ("Add Monday at 9:00", {"text": "standup Monday at 9:00", "due": "Monday 9:00"}),
    ],
)
def test_titles_whose_time_is_not_said_twice_pass(request_text, arguments):
    call = ToolCall(name="add_reminder", arguments=arguments)
    assert TitleCheck()(call, [Message(role="user", content=request_text)]) is None


def test_an_event_title_repeating_its_day_is_narrowed_to_the_asked_title():
    said = "Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30."
    call = ToolCall(
        name="create_event",
        arguments={"title": "Lunch with Sara tomorrow", "start": "tomorrow 12:30", "end": "13:30"},
    )
    why = TitleCheck()(call, [Message(role="user", content=said)])
    assert why.narrow == {"title": {"enum": ["lunch with Sara"]}}


def test_a_title_holding_the_time_the_call_left_out_is_refused_with_the_day_checks_refusal():
    """reminders_two_turns: "stretch today at 15:00" with no due. The day check asked for
    the due; the retry kept the text, which this check then refused with no retry left.
    Knowing that add_reminder takes a due, both objections reach the one retry together."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from botpsy.agent.checks import combine
    from botpsy.assistant.daycheck import DayCheck

    takes = {"add_reminder": {"text", "due"}, "create_note": {"title", "body"}}
    tz = ZoneInfo("Europe/Berlin")
    now = datetime(2026, 12, 3, 8, 20, tzinfo=tz)
    said = [Message(role="user", content="Remind me to stretch today at 15:00.")]
    call = ToolCall(name="add_reminder", arguments={"text": "stretch today at 15:00"})
    checks = [
        DayCheck(lambda: tz, lambda: now, lambda n: takes.get(n, ())),
        TitleCheck(lambda n: takes.get(n, ())),
    ]
    why = combine([w for w in (check(call, said) for check in checks) if w])
    assert set(why.narrow) == {"due", "text"}
    assert why.narrow["text"] == {"enum": ["stretch"]}
    # a tool without a time argument keeps a title that says when
    note = ToolCall(name="create_note", arguments={"title": "stretch today at 15:00"})
    assert checks[1](note, said) is None


def test_a_title_that_only_names_the_act_or_the_kind_is_refused():
    """"Book a coffee with Marta" was stored as an event titled "book"; "Put a reminder in
    for Thursday 7pm: call the insurance company" as the reminder "reminder in"."""
    said = [Message(role="user",
                    content="Book a coffee with Marta on Wednesday at 4pm for half an hour")]
    why = TitleCheck()(ToolCall(name="create_event", arguments={
        "title": "book", "start": "2026-12-09T16:00", "end": "2026-12-09T16:30"}), said)
    assert why is not None and why.narrow == {"title": {"enum": ["coffee with Marta"]}}
    fine = ToolCall(name="create_event", arguments={"title": "Coffee with Marta"})
    assert TitleCheck()(fine, said) is None


@pytest.mark.parametrize(("request_text", "titles"), [
    ("Add Piranesi to my books to read", ["Piranesi"]),  # the list is where, not what
    ("remind me the evening before bouldering at 9pm to pack my climbing shoes",
     ["pack my climbing shoes"]),  # when, then the task
    ("Remind me to talk to Sam", ["talk to Sam"]),
])
def test_what_is_asked_for_leaves_out_the_list_and_the_moment(request_text, titles):
    assert asked_titles(request_text) == titles


def test_a_text_that_copies_the_title_of_what_a_lookup_showed_is_refused():
    books = _listed("Add Piranesi to my books to read", "search_notes",
                    [{"id": 5, "title": "Books to read", "snippet": "Books to [read]"}])
    append = ToolCall(name="append_to_note", arguments={"note_id": 5, "text": "Books to read"})
    why = TitleCheck()(append, books)
    assert why is not None and why.narrow == {"text": {"enum": ["Piranesi"]}}
    assert TitleCheck()(ToolCall(name="append_to_note",
                                 arguments={"note_id": 5, "text": "Piranesi"}), books) is None
    event = _listed("remind me the evening before bouldering at 9pm to pack my climbing shoes",
                    "list_events", [{"id": 3, "title": "Bouldering with Nora",
                                     "start": "2026-12-12T18:00+01:00"}])
    copied = ToolCall(name="add_reminder", arguments={"text": "Bouldering with Nora",
                                                      "due": "2026-12-11T21:00"})
    assert TitleCheck()(copied, event).narrow == {"text": {"enum": ["pack my climbing shoes"]}}


def test_a_title_the_request_names_in_quotes_is_the_new_items_title():
    from botpsy.assistant.titlecheck import TitleCheck, named_title
    assert named_title("a new note called 'a' and another called 'b'") == "a"
    assert named_title("add 'call the bank' to todo.md") is None
    note = ToolSpec(name="create_note", description="d", parameters={
        "type": "object", "properties": {"title": {"type": "string"}, "body": {"type": "string"}}})
    messages = [Message(role="user", content="copy it into a new note called 'for sam'")]
    assert TitleCheck().expected(CallContext.before(note, messages)) == {"title": {"enum": ["for sam"]}}
    wrong = ToolCall(name="create_note", arguments={"title": "Gift Ideas", "body": "x"})
    assert TitleCheck()(wrong, messages).narrow == {"title": {"enum": ["for sam"]}}


def test_the_text_given_after_a_new_notes_name_is_its_body():
    """"new note 'xmas cards' -> aunt rosa, the webers next door, mrs klein from the bakery":
    the 135M model kept one of the three names."""
    from botpsy.assistant.titlecheck import TitleCheck
    note = ToolSpec(name="create_note", description="d", parameters={
        "type": "object", "properties": {"title": {"type": "string"}, "body": {"type": "string"}}})

    def held(request: str) -> dict:
        return TitleCheck().expected(CallContext.before(note, [Message(role="user", content=request)]))
    assert held("new note 'xmas cards' -> aunt rosa, the webers next door, mrs klein") == {
        "title": {"enum": ["xmas cards"]},
        "body": {"enum": ["aunt rosa, the webers next door, mrs klein"]}}
    assert held("jot down a note called paint colours: hall warm white, bath blue.") == {
        "title": {"enum": ["paint colours"]}, "body": {"enum": ["hall warm white, bath blue"]}}
    assert held("make a note called hamburg with those things") == {}
    # a spaced dash marks the text as a colon does: the model wrote "papiers" for "passport"
    assert held("make a note titled 'Vienna packing' - passport, plug adapter, warm gloves") == {
        "title": {"enum": ["Vienna packing"]},
        "body": {"enum": ["passport, plug adapter, warm gloves"]}}
    assert held("quick note: mia is shoe size 31 now. oh and remind me to buy socks") == {
        "body": {"enum": ["mia is shoe size 31 now"]}}
    draft = ToolSpec(name="draft_email", description="d", parameters={
        "type": "object", "properties": {"to": {"type": "string"}, "body": {"type": "string"}}})
    asked = [Message(role="user", content="quick note: mia is shoe size 31 now")]
    assert TitleCheck().expected(CallContext.before(draft, asked)) == {}


def test_an_unquoted_name_that_ends_the_request_is_the_new_items_title():
    """"save the place in a new note called Restaurants": the 135M model titled the note
    with the request's tail, and another with the contact's name."""
    from botpsy.assistant.titlecheck import named_title
    assert named_title("save the place in a new note called Restaurants") == "Restaurants"
    assert named_title("grab her number and stick it in a new note called Climbing") == "Climbing"
    assert named_title("make a note called hamburg with those things") is None
    assert named_title("put it in my notes called for later, thanks") is None


def test_a_reminder_timed_from_an_event_names_no_text_of_its_own():
    from botpsy.assistant.titlecheck import asked_titles
    assert asked_titles("when is the parent teacher thing? set me a reminder an hour before it") == []
    # a bare "before" that ends the clause says when too
    assert asked_titles("when's the plumber coming? set a reminder half an hour before") == []
    assert asked_titles("remind me to pack the day before") == ["pack the day before"]
    assert asked_titles("remind me an hour before my dentist appointment to bring the card") == [
        "bring the card"]


def test_after_one_of_several_items_the_next_is_one_not_made_yet():
    request = "todo: new batteries for the smoke alarm. oh and remind me wed 7am to take the bins out"
    reminder = ToolSpec(name="add_reminder", description="d", parameters={
        "type": "object", "properties": {"text": {"type": "string"}, "due": {"type": "string"}}})
    first = [Message(role="user", content=request)]
    assert TitleCheck().expected(CallContext.before(reminder, first)) == {}  # nothing made yet
    made = _listed(request, "add_reminder",
                   {"id": 8, "text": "new batteries for the smoke alarm", "done": False})
    assert TitleCheck().expected(CallContext.before(reminder, made)) == {
        "text": {"enum": ["take the bins out"]}}


def test_a_text_that_holds_only_part_of_the_quoted_item_is_narrowed_to_the_quote():
    request = "put 'call the insurance about the bike' on my to do list for tomorrow at 3pm"
    messages = [Message(role="user", content=request)]
    part = ToolCall(name="add_reminder", arguments={"text": "about the bike",
                                                    "due": "2026-12-08T15:00"})
    why = TitleCheck()(part, messages)
    assert why is not None and why.narrow == {
        "text": {"enum": ["call the insurance about the bike"]}}
    whole = ToolCall(name="add_reminder", arguments={"text": "call the insurance about the bike",
                                                     "due": "2026-12-08T15:00"})
    assert TitleCheck()(whole, messages) is None


@pytest.mark.parametrize(("request_text", "said"), [
    ("quick note: mia is shoe size 31 now and jacket size 128",
     "mia is shoe size 31 now and jacket size 128"),
    ("new note 'xmas cards' -> aunt rosa, the webers, mrs klein", "aunt rosa, the webers, mrs klein"),
    ("note: call mom. oh and remind me to buy milk", "call mom"),
    ("Jot down that the bike lock code is 4471", None),
])
def test_what_a_labelled_note_says_is_its_body_whole(request_text: str, said: str | None):
    split = ToolCall(name="create_note", arguments={"body": "x"})
    if said is None:
        assert TitleCheck()(split, [Message(role="user", content=request_text)]) is None
        return
    split = ToolCall(name="create_note", arguments={"body": said.rsplit(" ", 1)[0]})
    why = TitleCheck()(split, [Message(role="user", content=request_text)])
    assert why is not None and why.narrow == {"body": {"enum": [said]}}
    whole = ToolCall(name="create_note", arguments={"body": said})
    assert TitleCheck()(whole, [Message(role="user", content=request_text)]) is None


def test_a_day_of_the_month_is_no_part_of_what_the_item_says():
    """"remind me on the 28th at 6pm to cancel it" asked for the text "on the to cancel it"."""
    from botpsy.assistant.titlecheck import asked_titles
    assert asked_titles("remind me on the 28th at 6pm to cancel it") == ["cancel it"]
    assert asked_titles("dinner with mom on the 3rd") == ["dinner with mom"]


def test_it_in_a_title_is_what_the_turns_search_looked_for():
    """"how much did cloudbox charge me? remind me on the 28th at 6pm to cancel it": the
    135M model wrote the text "payments", a word of the mail it found."""
    from botpsy.agent.rules import CallContext
    from botpsy.assistant.titlecheck import TitleCheck
    from botpsy.types import Message, ToolCall, ToolSpec
    spec = ToolSpec(name="add_reminder", description="d", parameters={"type": "object", "properties": {
        "text": {"type": "string"}, "due": {"type": "string"}}})
    request = "how much did cloudbox charge me? remind me on the 28th at 6pm to cancel it"
    searched = [Message(role="user", content=request),
                Message(role="assistant", tool_calls=[ToolCall(name="search_everything",
                                                               arguments={"query": "cloudbox"})]),
                Message(role="tool", name="search_everything", content="{}")]
    assert TitleCheck().expected(CallContext.before(spec, searched)) == {
        "text": {"enum": ["cancel cloudbox"]}}
    # no search yet, or one for words the request does not hold: nothing to say
    assert TitleCheck().expected(CallContext.before(spec, searched[:1])) == {}


def test_a_quoted_name_after_a_new_items_kind_is_its_title():
    """"start a note 'Designer contacts' with ..." titled the note with the whole request."""
    from botpsy.assistant.titlecheck import named_title
    assert named_title("start a note 'Designer contacts' with Marta's phone number in it") == (
        "Designer contacts")
