"""DayCheck: a call's day must be one the user named."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from botpsy.agent.rules import CallContext
from botpsy.assistant.daycheck import DayCheck, named_times
from botpsy.types import Message, ToolCall

BERLIN = ZoneInfo("Europe/Berlin")
THURSDAY = datetime(2026, 12, 3, 8, 20, tzinfo=UTC)  # Thursday 3 December, 09:20 in Berlin


@pytest.fixture
def check() -> DayCheck:
    return DayCheck(lambda: BERLIN, lambda: THURSDAY)


def _admits(keywords: dict, value: str) -> bool:
    """Whether a refusal's narrowing of an argument lets its retry write ``value``."""
    if "enum" in keywords:
        return value in keywords["enum"]
    return re.fullmatch(keywords["pattern"], value) is not None


def _said(text: str) -> list[Message]:
    return [Message(role="user", content=text)]


@pytest.mark.parametrize(
    ("request_text", "arguments", "problem"),
    [
        # the dentist: a Friday request, an end on Sunday
        ("Put a dentist appointment in my calendar on Friday from 10:00 to 11:00.",
         {"start": "Fri 10:00", "end": "Sun 11:00"}, "end 'Sun 11:00' falls on Sunday 2026-12-06"),
        ("Put a dentist appointment in my calendar on Friday from 10:00 to 11:00.",
         {"start": "Fri 10:00", "end": "11:00"}, None),  # a bare end is on the start's day
        # the lunch "tomorrow" written as today's date
        ("Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30.",
         {"start": "2026-12-03 12:30", "end": "2026-12-03 13:30"}, "start '2026-12-03 12:30'"),
        ("Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30.",
         {"start": "tomorrow 12:30", "end": "tomorrow 13:30"}, None),
        # an evening that runs past midnight is one outing, not a made-up day
        ("Party tonight from 22:00 until 2am", {"start": "today 22:00", "end": "tomorrow 2:00"},
         None),
        ("Block next Monday, December 7, for the offsite", {"start": "2026-12-07"}, None),
        # a bare time lands on today, as the calendar reads it: not the Monday asked for
        ("Schedule a call with the bank on Monday from 9:00 to 9:30.",
         {"start": "9:00", "end": "9:30"}, "start '9:00' falls on Thursday 2026-12-03"),
        ("Remind me on Friday to send the abstract", {"due": "Saturday 9:00"}, "Saturday"),
        # no day named: nothing to compare with (a moment from now: its own test below)
        ("Remind me tonight to take the laundry out", {"due": "2026-12-03 21:00"}, None),
        ("Remind me at 15:00 to stretch", {"due": "Sunday 15:00"}, None),
    ],
)
def test_a_day_must_be_one_the_request_names(
    check: DayCheck, request_text: str, arguments: dict, problem: str | None
) -> None:
    name = "add_reminder" if "due" in arguments else "create_event"
    why = check(ToolCall(name=name, arguments=arguments), _said(request_text))
    if problem is None:
        assert why is None
    else:
        assert why is not None and problem in why.reason
        assert "write the day the user said" in str(why)


@pytest.mark.parametrize(
    ("request_text", "arguments", "refused"),
    [
        # friday_agenda looked at Sunday; a week from today holds Friday and passes
        ("What's on Friday?", {"start": "Sunday"}, {"start"}),
        ("What's on Friday?", {"start": "today"}, set()),
        ("What's on Friday?", {"start": "today", "end": "Friday"}, set()),
        ("What's on Friday?", {"start": "2026-12-05", "end": "2026-12-06"}, {"start", "end"}),
        ("What do I have tomorrow?", {"start": "2026-12-08"}, {"start"}),
        # a day: find_free_slots' date is the day itself
        ("When do I have a free hour tomorrow?", {"date": "today"}, {"date"}),
        ("When do I have a free hour tomorrow?", {"date": "tomorrow"}, set()),
        ("When do I have a free hour?", {"date": "Sunday"}, set()),  # no day named
    ],
)
def test_a_lookup_must_look_at_a_day_the_request_names(
    check: DayCheck, request_text: str, arguments: dict, refused: set
) -> None:
    name = "find_free_slots" if "date" in arguments else "list_events"
    why = check(ToolCall(name=name, arguments=arguments), _said(request_text))
    assert set(why.narrow if why else {}) == refused


def test_an_unreadable_day_is_refused_and_narrowed_to_the_named_days(check: DayCheck) -> None:
    """friday_agenda wrote "Fri, 05/06/2025", tomorrow_agenda ``end="this weekend"``: the
    tool refused both, and the retry, told only the tool's error, wrote them again. Now the
    refusal's grammar holds the retry to the days the user named."""
    why = check(ToolCall(name="list_events", arguments={"start": "Fri, 05/06/2025"}),
                _said("What's on my calendar on Friday?"))
    assert "'Fri, 05/06/2025' is no day or time the tools can read" in why.reason
    assert _admits(why.narrow["start"], "2026-12-04")
    why = check(ToolCall(name="list_events", arguments={"start": "tomorrow", "end": "this weekend"}),
                _said("What do I have tomorrow?"))
    assert set(why.narrow) == {"end"} and _admits(why.narrow["end"], "2026-12-04")
    # an act too: an unreadable start of an event on a named day
    why = check(ToolCall(name="create_event", arguments={"start": "Fri, 05/06/2025"}),
                _said("Book the gym on Friday at 7am"))
    assert _admits(why.narrow["start"], "2026-12-04T07:00")
    # no day named: an unreadable value is left to the tool and its own error
    assert check(ToolCall(name="create_event", arguments={"start": "soonish"}),
                 _said("Book the gym")) is None


def test_named_days_are_read_as_the_tools_read_them(check: DayCheck) -> None:
    days = check.named_days("Move it from tomorrow to next Monday or March 17; not sat.")
    # a date without its year is its next showing: March 17 said in December is next year's
    assert days == {date(2026, 12, 4), date(2026, 12, 7), date(2027, 3, 17)}
    assert check.named_days("the day after tomorrow at 10") == {date(2026, 12, 5)}
    assert check.named_days("in 3 days") == set()  # not named: such requests are not checked


def test_earlier_turns_name_days_too(check: DayCheck) -> None:
    """"Actually make it 19:30" keeps the day of the first turn."""
    messages = [*_said("Add 'Team dinner' on Friday from 19:00 to 21:00."),
                Message(role="assistant", content="Done"), *_said("Actually make it 19:30")]
    call = ToolCall(name="update_event", arguments={"event_id": 1, "start": "Friday 19:30"})
    assert check(call, messages) is None


@pytest.mark.parametrize(
    ("request_text", "arguments", "allowed", "refused"),
    [
        ("Put a dentist appointment in my calendar on Friday from 10:00 to 11:00.",
         {"start": "Fri 10:00", "end": "Sun 11:00"},
         ["2026-12-04T11:00", "2026-12-04 11:00", "11:00", "11:00:00"],
         # two named times: the end is one of them
         ["2026-12-06T11:00", "Sun 11:00", "24:00", "2026-12-04", "23:59:30", "12:00"]),
        ("Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30.",
         {"start": "2026-12-03 12:30"},
         ["2026-12-04T12:30", "2026-12-04 12:30:00"],
         # a start that had a time keeps one: a bare date would make "13:30" an error
         ["2026-12-04", "2026-12-03 12:30", "12:30", "tomorrow 12:30", "2026-12-04T12:30Z"]),
        ("Block next Monday, December 7, for the offsite", {"start": "2026-12-08"},
         ["2026-12-07", "2026-12-07T09:00"], ["2026-12-08", "Monday"]),
    ],
)
def test_a_refusal_narrows_the_refused_argument_to_the_named_days(
    check: DayCheck, request_text: str, arguments: dict, allowed: list, refused: list
) -> None:
    """The retry's grammar gets a pattern: only the named days (an end also a bare time)."""
    why = check(ToolCall(name="create_event", arguments=arguments), _said(request_text))
    ((arg, keywords),) = why.narrow.items()
    assert arg == ("end" if "end" in arguments else "start")
    pattern = re.compile(keywords["pattern"])
    assert [v for v in allowed if not pattern.search(v)] == []
    assert [v for v in refused if pattern.search(v)] == []


def test_a_wrong_start_and_its_end_on_the_same_wrong_day_are_both_narrowed(
    check: DayCheck,
) -> None:
    """The lunch "tomorrow" on the description's 2025 example date: fixing the start alone
    left the retry's end on 2025 (an hour after a wrong start is no overnight)."""
    arguments = {"start": "2025-03-04T12:30", "end": "2025-03-04T13:30"}
    why = check(ToolCall(name="create_event", arguments=arguments),
                _said("Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30."))
    assert why is not None and set(why.narrow) == {"start", "end"}
    assert "start '2025-03-04T12:30' falls on Tuesday 2025-03-04 and end" in why.reason
    assert _admits(why.narrow["end"], "2026-12-04T13:30")


def test_the_bank_call_on_a_bare_time_is_narrowed_to_monday_at_the_named_times(
    check: DayCheck,
) -> None:
    why = check(ToolCall(name="create_event", arguments={"start": "9:00", "end": "10:00"}),
                _said("Schedule a call with the bank on Monday from 9:00 to 9:30."))
    start, end = (re.compile(why.narrow[arg]["pattern"]) for arg in ("start", "end"))
    assert start.search("2026-12-07T09:00") and start.search("2026-12-07 09:30")
    assert not start.search("2026-12-07T00:00") and not start.search("2026-12-07")
    # two named times: the end is one of them too
    assert end.search("09:30") and end.search("2026-12-07T09:30")
    assert not end.search("2026-12-03T09:30") and not end.search("10:00")
    one_time = check(ToolCall(name="create_event", arguments={"start": "9:00", "end": "10:00"}),
                     _said("Call with the bank on Monday at 9:00 for an hour."))
    assert _admits(one_time.narrow["end"], "2026-12-07T10:00")  # a duration


def test_a_day_without_a_time_gets_the_named_time_except_for_a_date(check: DayCheck) -> None:
    """The README's reminder: "today" for "tomorrow at 9am" narrows ``due`` to Friday at
    9:00 (Friday alone would lose the time); a ``date`` argument stays a day."""
    asked = _said("Remind me to call Anna tomorrow at 9am")
    why = check(ToolCall(name="add_reminder", arguments={"text": "Anna", "due": "today"}), asked)
    # one day at one time: the retry's one value (no model needed for it)
    assert why.narrow["due"] == {"enum": ["2026-12-04T09:00"]}
    booked = check(ToolCall(name="create_booking", arguments={"date": "today"}),
                   _said("Book a table for tomorrow at 9am"))
    assert _admits(booked.narrow["date"], "2026-12-04")


def test_named_times_are_the_extracted_times_as_clock_text() -> None:
    """The times themselves are ``extract.times``' (tests/test_extract.py)."""
    assert named_times("from 9:00 to 9:30, or at 5") == {"09:00", "09:30", "17:00"}


def test_a_new_item_the_request_dates_must_get_its_day() -> None:
    """note_then_reminder: "remind me Saturday at 11" added a reminder with no due."""
    takes = {"add_reminder": {"text", "due"}, "create_note": {"title", "body"},
             "update_event": {"event_id", "start", "location"}}
    check = DayCheck(lambda: BERLIN, lambda: THURSDAY, lambda name: takes.get(name, ()))
    said = _said("Save a note 'Photo prints' and remind me Saturday at 11am to pick them up")
    why = check(ToolCall(name="add_reminder", arguments={"text": "Photo prints"}), said)
    assert "the call gives no due" in why.reason
    assert _admits(why.narrow["due"], "2026-12-05T11:00")
    assert check(ToolCall(name="add_reminder", arguments={"text": "x", "due": None}), said)
    # a day given, a tool that takes none, or a change to an item: not this rule's
    assert check(ToolCall(name="add_reminder", arguments={"text": "x", "due": "Saturday 11:00"}),
                 said) is None
    assert check(ToolCall(name="create_note", arguments={"title": "Photo prints"}), said) is None
    assert check(ToolCall(name="update_event", arguments={"event_id": 3, "location": "Room 2"}),
                 _said("Move Friday's review to Room 2")) is None
    # no day named, or no parameter table: nothing to ask for
    assert check(ToolCall(name="add_reminder", arguments={"text": "x"}), _said("Remind me")) is None
    plain = DayCheck(lambda: BERLIN, lambda: THURSDAY)
    assert plain(ToolCall(name="add_reminder", arguments={"text": "x"}), said) is None


@pytest.mark.parametrize(
    ("due", "problem"),
    [("today", "due 'today' is at no time of day, not a time the request names (15:00)"),
     ("2026-12-03T09:00", "due '2026-12-03T09:00' is at 09:00, not a time the request names"),
     ("today 15:00", None), ("2026-12-03T15:00", None)],
)
def test_a_new_item_on_the_named_day_takes_the_named_time(check: DayCheck, due, problem) -> None:
    """scenario reminders_two_turns: "stretch today at 15:00" added with ``due="today"``."""
    said = _said("Remind me to stretch today at 15:00.")
    found = check(ToolCall(name="add_reminder", arguments={"text": "stretch", "due": due}), said)
    if problem is None:
        assert found is None
    else:
        assert problem in found.reason and "write the day and time the user said" in found.reason
        assert _admits(found.narrow["due"], "2026-12-03T15:00")
        assert not _admits(found.narrow["due"], "2026-12-03T09:00")


def test_only_the_latest_request_names_the_time_of_a_new_item(check: DayCheck) -> None:
    """An earlier turn's 15:00 was another reminder's; a lookup is no new item."""
    said = [*_said("Remind me to stretch today at 15:00."), Message(role="assistant", content="Done."),
            Message(role="user", content="Also remind me today to water the plants.")]
    assert check(ToolCall(name="add_reminder", arguments={"text": "water", "due": "today 18:00"}),
                 said) is None
    assert check(ToolCall(name="list_events", arguments={"start": "today"}), said) is None


def _spec(name: str, *args: str):
    from botpsy.types import ToolSpec

    return ToolSpec(name=name, description="", parameters={
        "type": "object", "properties": {a: {"type": "string"} for a in args}})


def test_a_new_item_is_held_to_the_named_day_and_times_before_its_first_call(check):
    said = _said("Put a dentist appointment in my calendar on Friday from 10:00 to 11:00.")
    held = check.expected(CallContext.before(_spec("create_event", "title", "start", "end"), said))
    assert set(held) == {"start", "end"}  # the title is the model's to write
    assert _admits(held["start"], "2026-12-04T10:00") and _admits(held["start"], "2026-12-04 11:00")
    assert not _admits(held["start"], "2026-12-06T10:00")  # Sunday: the check refuses it
    assert not _admits(held["start"], "2026-12-04T12:00")  # a time the request does not name
    assert _admits(held["end"], "2026-12-04T11:00") and _admits(held["end"], "11:00")
    assert not _admits(held["end"], "2026-12-06T11:00") and not _admits(held["end"], "12:00")


def test_one_day_at_one_time_and_an_evening_past_midnight(check):
    held = check.expected(CallContext.before(_spec("add_reminder", "text", "due"),
                          _said("Remind me to call Anna tomorrow at 9am")))
    assert _admits(held["due"], "2026-12-04T09:00") and not _admits(held["due"], "2026-12-04")
    party = check.expected(CallContext.before(_spec("create_event", "title", "start", "end"),
                           _said("Party tonight from 22:00 until 2am")))
    assert _admits(party["start"], "2026-12-03T22:00")
    assert _admits(party["end"], "2026-12-04T02:00")  # the check lets it run past midnight


def test_a_span_holds_the_start_to_its_start_and_the_end_to_its_end(check):
    """ "block thursday 2-4pm" was written 16:00-17:00: the span's end read as the start."""
    held = check.expected(CallContext.before(_spec("create_event", "title", "start", "end"),
                          _said("block friday 2-4pm for deep work")))
    assert _admits(held["start"], "2026-12-04T14:00")
    assert not _admits(held["start"], "2026-12-04T16:00")
    assert _admits(held["end"], "2026-12-04T16:00") and not _admits(held["end"], "17:00")
    refused = check(ToolCall(name="create_event", arguments={
        "title": "deep work", "start": "2026-12-04T16:00", "end": "2026-12-04T17:00"}),
        _said("block friday 2-4pm for deep work"))
    assert refused is not None and "16:00" in refused.reason


def test_a_weekday_of_next_week_is_that_week_s_day(check):
    """ "tuesday next week 2-3pm" said on a Monday was made for the next day."""
    said = _said("put a budget sync in my calendar, friday next week 2-4pm")
    held = check.expected(CallContext.before(_spec("create_event", "title", "start", "end"), said))
    assert _admits(held["start"], "2026-12-11T14:00")
    assert not _admits(held["start"], "2026-12-04T14:00")


def test_a_time_without_a_day_is_its_next_showing(check):
    """ "at 8 remind me to ..." at 09:20 made a reminder with no due at all."""
    said = _said("at 8 remind me to print the train tickets")
    assert check.expected(CallContext.before(_spec("add_reminder", "text", "due"), said)) == {
        "due": {"enum": ["2026-12-04T08:00"]}}
    takes = DayCheck(lambda: BERLIN, lambda: THURSDAY, lambda name: {"text", "due"})
    refused = takes(ToolCall(name="add_reminder", arguments={"text": "print the tickets"}), said)
    assert refused is not None and refused.narrow == {"due": {"enum": ["2026-12-04T08:00"]}}
    later = _said("remind me at 15:00 to stretch")
    assert check.expected(CallContext.before(_spec("add_reminder", "text", "due"), later)) == {
        "due": {"enum": ["2026-12-03T15:00"]}}
    # counted from another item: its own check's, not the time named
    assert check.expected(CallContext.before(_spec("add_reminder", "text", "due"),
                          _said("remind me 30 minutes before my 3pm call"))) == {}


def test_a_bare_hour_tonight_is_in_the_evening(check):
    held = check.expected(CallContext.before(_spec("add_reminder", "text", "due"),
                          _said("remind me to call mum tonight at 7")))
    assert _admits(held["due"], "2026-12-03T19:00")
    assert not _admits(held["due"], "2026-12-03T07:00")


@pytest.mark.parametrize(("name", "text"), [
    ("create_event", "lunch with Priya, put it in"),  # no day named
    ("update_event", "Move the dentist to Friday at 10:00"),  # adds nothing: its own checks
    ("list_events", "What did I have on the calendar last week?"),  # the past: not held
])
def test_nothing_is_held_where_the_request_fixes_nothing_for_a_new_item(check, name, text):
    assert check.expected(CallContext.before(_spec(name, "start", "end"), _said(text))) == {}


def test_a_lookup_is_held_to_the_named_day(check):
    """Today is Thursday 2026-12-03 in these tests: "Friday" is tomorrow."""
    held = check.expected(CallContext.before(_spec("list_events", "start", "end"), _said("What's on Friday?")))
    assert _admits(held["start"], "2026-12-04") and _admits(held["start"], "2026-12-04T00:00")
    assert not _admits(held["start"], "2026-12-03")  # from today: more than was asked
    assert not _admits(held["start"], "2025-03-04")  # a range that misses Friday: refused
    assert _admits(held["end"], "2026-12-04") and not _admits(held["end"], "2026-12-10")
    # whole days: a range cut at a made-up time of day misses what the request is about
    assert not _admits(held["start"], "2026-12-04T09:00")
    assert not _admits(held["end"], "2026-12-04T15:00")


def test_a_lookup_cut_at_a_time_the_request_does_not_name_looks_at_the_whole_day(check):
    said = _said("make friday dinner at mum's start at 5 instead of 6")
    cut = ToolCall(name="list_events", arguments={"start": "2026-12-04T00:00",
                                                  "end": "2026-12-04T15:00"})
    refused = check(cut, said)
    assert refused is not None and "end '2026-12-04T15:00'" in refused.reason
    assert _admits(refused.narrow["end"], "2026-12-04")
    assert not _admits(refused.narrow["end"], "2026-12-04T15:00")
    whole = ToolCall(name="list_events", arguments={"start": "2026-12-04", "end": "2026-12-04"})
    assert check(whole, said) is None
    # a time the request names is its own to look at
    at_five = ToolCall(name="list_events", arguments={"start": "2026-12-04T17:00",
                                                      "end": "2026-12-04"})
    assert check(at_five, said) is None


def test_a_lookup_for_what_is_coming_starts_today(check):
    held = check.expected(CallContext.before(_spec("list_events", "start", "end"),
                          _said("Find my meeting with Priya and remind me an hour before it")))
    assert _admits(held["start"], "2026-12-03") and not _admits(held["start"], "2025-03-04")
    assert _admits(held["end"], "2027-01-31") and not _admits(held["end"], "2025-03-15")
    refused = check(ToolCall(name="list_events", arguments={"start": "2025-03-04",
                                                            "end": "2025-03-15"}),
                    _said("Find my meeting with Priya and remind me an hour before it"))
    assert refused is not None and "in the past" in refused.reason
    asked_back = _said("Did I meet Priya last week?")
    assert check(ToolCall(name="list_events", arguments={"start": "2026-11-23"}), asked_back) is None


def test_a_date_without_its_year_is_its_next_showing(check: DayCheck) -> None:
    """"jan 12" said in December is next January's, "on the 23rd" this month's and "on the
    2nd" after it next month's; a request about the past and a full date keep the day."""
    assert check.named_days("dentist cleaning jan 12 at 10:15, stick it in the calendar") == {
        date(2027, 1, 12)}
    assert check.named_days("remind me on the 23rd at 5pm to pick up the turkey") == {
        date(2026, 12, 23)}
    assert check.named_days("pay the rent by the 2nd") == {date(2027, 1, 2)}
    assert check.named_days("what did I have on jan 12?") == {date(2026, 1, 12)}
    assert check.named_days("move it to 2026-01-12") == {date(2026, 1, 12)}
    assert check.named_days("delete the 3rd email") == set()


def test_a_day_of_the_month_a_time_follows_is_a_day(check: DayCheck) -> None:
    """"remind me the 18th at 8pm to wrap dads present": without "on", the 18th was not
    read, and the reminder went on today at 20:00."""
    assert check.named_days("remind me the 18th at 8pm to wrap dads present") == {
        date(2026, 12, 18)}
    assert check.named_days("the 2nd, 9am: dentist") == {date(2027, 1, 2)}
    assert check.named_days("forward the 3rd email at 9am") == set()


def test_each_of_several_new_items_takes_the_day_of_its_own_clause(check: DayCheck) -> None:
    """"todo: new batteries for the smoke alarm. oh and remind me wed 7am to take the bins
    out": the 135M model gave both reminders Wednesday 7am. The batteries' clause names no
    time: its due is refused and held to none; the bins' is held to Wednesday 07:00."""
    from botpsy.types import ToolSpec

    said = _said("todo: new batteries for the smoke alarm. oh and remind me wed 7am to take "
                 "the bins out")
    batteries = ToolCall(name="add_reminder", arguments={"text": "New batteries for the smoke "
                                                                 "alarm", "due": "2026-12-09T07:00"})
    why = check(batteries, said)
    assert why is not None and why.narrow == {"due": {"type": "null"}}
    assert check(ToolCall(name="add_reminder", arguments={
        "text": "New batteries for the smoke alarm", "due": None}), said) is None
    bins = ToolCall(name="add_reminder", arguments={"text": "take the bins out",
                                                    "due": "2026-12-09T07:00"})
    assert check(bins, said) is None
    wrong = check(ToolCall(name="add_reminder", arguments={"text": "take the bins out",
                                                           "due": "2026-12-10T07:00"}), said)
    assert wrong is not None and _admits(wrong.narrow["due"], "2026-12-09T07:00")
    # before the first call nothing is held (which item it makes is the model's); once one
    # was made, the other's clause holds the next
    spec = ToolSpec(name="add_reminder", description="", parameters={
        "type": "object", "properties": {"text": {"type": "string"},
                                         "due": {"type": ["string", "null"]}}})
    assert check.expected(CallContext.before(spec, said)) == {}
    made = [*said, Message(role="tool", name="add_reminder", source="tool:add_reminder", content=(
        '{"id": 8, "text": "New batteries for the smoke alarm", "due": null, "done": false}'))]
    assert _admits(check.expected(CallContext.before(spec, made))["due"], "2026-12-09T07:00")
    made = [*said, Message(role="tool", name="add_reminder", source="tool:add_reminder", content=(
        '{"id": 8, "text": "take the bins out", "due": "2026-12-09T07:00", "done": false}'))]
    assert check.expected(CallContext.before(spec, made)) == {"due": {"type": "null"}}


def test_a_new_item_timed_from_a_found_mails_due_day(check: DayCheck) -> None:
    """"that power bill email, remind me 2 days before its due": no event to look up once
    the mail that states the due day was found; the due is counted from it."""
    import json

    from botpsy.types import ToolSpec

    spec = ToolSpec(name="add_reminder", description="", parameters={
        "type": "object", "properties": {"text": {"type": "string"},
                                         "due": {"type": ["string", "null"]}}})
    said = _said("that power bill email, remind me 2 days before its due")
    assert check.needs_first(CallContext.before(spec, said)) == ("event",)
    bill = {"id": 17, "subject": "Your electricity bill is ready", "date": "2026-12-04T19:12+01:00",
            "snippet": "Your bill for last month is EUR 64.20, due in 14 days."}
    found = [*said, Message(role="tool", name="search_mail", source="tool:search_mail",
                            content=json.dumps([bill]))]
    assert check.needs_first(CallContext.before(spec, found)) == ()
    assert check.expected(CallContext.before(spec, found)) == {"due": {"enum": ["2026-12-16T09:00"]}}


def test_a_new_item_timed_from_an_item_no_lookup_found_is_not_made_up(check: DayCheck) -> None:
    """"remind me an hour before the benefits enrollment closes": the calendar search found
    nothing, and the 135M model wrote the due "tomorrow 9:00"."""
    said = "remind me an hour before the benefits enrollment closes"
    searched = [*_said(said), Message(role="tool", name="search_events",
                                      source="tool:search_events", content="[]")]
    call = ToolCall(name="add_reminder", arguments={"text": "benefits", "due": "tomorrow 9:00"})
    refusal = check(call, searched)
    assert refusal is not None and "made up" in refusal.reason
    assert check(call, _said(said)) is None  # no lookup yet: that comes first (needs_first)
    # a time of its own the request names is the user's
    own = "remind me at 5pm, an hour before the party"
    timed = [*_said(own), searched[-1]]
    refused = check(ToolCall(name="add_reminder", arguments={"text": "party", "due": "17:00"}), timed)
    assert refused is None or "made up" not in refused.reason


def test_a_new_item_said_to_last_all_day_is_held_to_whole_days(check: DayCheck) -> None:
    """"mark dec 24 to 26 as xmas at mums, all day" was booked from 14:00 to 16:00."""
    from botpsy.types import ToolSpec

    spec = ToolSpec(name="create_event", description="", parameters={
        "type": "object", "properties": {"title": {"type": "string"}, "start": {"type": "string"},
                                         "end": {"type": "string"}}})
    held = check.expected(CallContext.before(spec, _said("mark dec 24 to 26 as xmas at mums, all day")))
    assert _admits(held["start"], "2026-12-24") and not _admits(held["start"], "2026-12-24T14:00")
    assert _admits(held["end"], "2026-12-25") and not _admits(held["end"], "2026-12-24T16:00")


def test_a_new_item_whose_request_says_no_time_gets_no_due(check: DayCheck) -> None:
    """"add a todo, no date: fix the bike light": the 135M model gave it tomorrow 9:00. A
    request that says no time at all leaves the due out, before the call and in a refused
    call's retry; one that says a rough time ("next week") is not held."""
    from botpsy.types import ToolSpec

    spec = ToolSpec(name="add_reminder", description="", parameters={
        "type": "object", "properties": {"text": {"type": "string"},
                                         "due": {"type": ["string", "null"]}}})
    for request in ("add a todo, no date: fix the bike light", "remind me to call the bank"):
        said = _said(request)
        guessed = ToolCall(name="add_reminder", arguments={"text": "x", "due": "tomorrow 9:00"})
        why = check(guessed, said)
        assert why is not None and why.narrow == {"due": {"type": "null"}}
        assert check(ToolCall(name="add_reminder", arguments={"text": "x", "due": None}),
                     said) is None
        assert check.expected(CallContext.before(spec, said)) == {"due": {"type": "null"}}
    # a found item may say when: "read work/vendor_call.md and remind me about the next call"
    found = [*_said("read work/vendor_call.md and remind me about the next call"),
             Message(role="tool", name="read_file", source="tool:read_file:c1",
                     content='{"path": "work/vendor_call.md", "content": "next call: Thursday 11:00"}')]
    assert check(ToolCall(name="add_reminder", arguments={"text": "x", "due": "thursday 11:00"}),
                 found) is None
    assert check.expected(CallContext.before(spec, found)) == {}
    rough = _said("remind me next week to call the bank")
    assert check(ToolCall(name="add_reminder", arguments={"text": "x", "due": "2026-12-10"}),
                 rough) is None
    assert check.expected(CallContext.before(spec, rough)) == {}


def test_a_new_item_counted_from_now_is_due_then(check: DayCheck) -> None:
    """"remind me in 2 hours to take the laundry out": the 135M model wrote the tool
    description's example day of 2025. The due is now plus the length, before the call and
    in a refused call's retry."""
    from botpsy.types import ToolSpec

    spec = ToolSpec(name="add_reminder", description="", parameters={
        "type": "object", "properties": {"text": {"type": "string"},
                                         "due": {"type": ["string", "null"]}}})
    said = _said("remind me in 2 hours to take the laundry out")
    assert check.expected(CallContext.before(spec, said)) == {"due": {"enum": ["2026-12-03T11:20"]}}
    wrong = check(ToolCall(name="add_reminder", arguments={"text": "take the laundry out",
                                                           "due": "2025-03-04T09:00"}), said)
    assert wrong is not None and wrong.narrow == {"due": {"enum": ["2026-12-03T11:20"]}}
    assert check(ToolCall(name="add_reminder", arguments={"text": "take the laundry out",
                                                          "due": "2026-12-03T11:20"}), said) is None
