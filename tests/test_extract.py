"""The typed extractors: days, times, lengths, offsets, addresses, phone numbers, ids."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from botpsy.extract import (
    WHEN_NAME,
    WHEN_WORDS,
    DayWord,
    Found,
    Kind,
    at_times,
    day_phrases,
    day_word,
    digits,
    durations,
    emails,
    from_now,
    given_text,
    ids,
    is_clock_time,
    is_day_of_month,
    offsets,
    phone_numbers,
    times,
    values,
    when_phrases,
    when_tail,
)

LUKAS = "Save a new contact: Lukas Brandt, lukas.brandt@mailbox.example, +49 151 5550 330."


def _spans_hold_their_text(text: str, found: list[Found]) -> bool:
    return all(text[f.span[0]:f.span[1]] == f.text for f in found)


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("Add a haircut on Saturday at 15:00 for 45 minutes at Salon Mitte.", [45]),
        ("Set up a 30-minute call with Jonas tomorrow at 15:00", [30]),
        ("Put it in my calendar for two hours.", [120]),
        ("When do I have a free hour tomorrow?", [60]),
        ("Book 1.5 hours for the review, or half an hour if it's short", [90, 30]),
        ("Block an hour and a half for lunch", [90]),
        ("find me a free half hour thursday morning", [30]),  # "half hour", "half-hour" too
        ("a half-hour call with Jonas", [30]),
        ("A six-hour drive, then ninety minutes", [360, 90]),
        # lengths that say when, not how long
        ("In 2 hours remind me to take the laundry out.", []),
        ("Remind me 15 minutes before to leave.", []),
        ("Ping me every hour", []),
        # a bare "h" is a clock time in much of Europe ("14h"), no length
        ("Lunch at 12h", []),
    ],
)
def test_the_lengths_a_text_names(text: str, minutes: list[int]) -> None:
    found = durations(text)
    assert [f.value for f in found] == [timedelta(minutes=m) for m in minutes]
    assert all(f.kind is Kind.duration for f in found) and _spans_hold_their_text(text, found)


def test_values_keeps_each_value_once_in_order() -> None:
    found = durations("an hour, two hours, then an hour")
    assert list(values(found)) == [timedelta(hours=1), timedelta(hours=2)]


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("remind me an hour before it", -timedelta(hours=1)),
        ("30 min before the meeting", -timedelta(minutes=30)),
        ("half an hour prior to the call", -timedelta(minutes=30)),
        ("2 days ahead of it", -timedelta(days=2)),
        ("a week after the trip", timedelta(weeks=1)),
    ],
)
def test_an_offset_from_another_item_is_signed(text: str, offset: timedelta) -> None:
    (found,) = offsets(text)
    assert found.kind is Kind.offset and found.value == offset
    assert _spans_hold_their_text(text, [found])


def test_a_length_is_no_offset() -> None:
    assert offsets("block two hours for lunch") == []


@pytest.mark.parametrize(
    ("text", "clocks"),
    [("from 9:00 to 9:30", [time(9), time(9, 30)]), ("tomorrow at 9am", [time(9)]),
     ("dinner at 7.30 pm", [time(19, 30)]), ("in 2 hours, room 12", []),
     ("12pm or 12am", [time(12), time(0)]),
     # a bare hour: 1-6 in the afternoon or evening, 7-12 in the morning or at noon
     ("a reminder at 5 today", [time(17)]), ("at 9 tomorrow", [time(9)]),
     ("lunch at 12", [time(12)]), ("a table at 5 people", []),
     # a part of the day beside a bare hour says which half it means
     ("call mum tonight at 7", [time(19)]), ("this evening at 8", [time(20)]),
     ("at 7 tomorrow evening", [time(19)]), ("at 5 in the morning", [time(5)]),
     ("tonight at 7:30", [time(19, 30)]), ("3:30 call", [time(3, 30)]),
     ("meeting at 9, then dinner in the evening", [time(9)]),  # another clause's part
     # a span names its start and its end
     ("block thursday 2-4pm", [time(14), time(16)]), ("2 to 4pm", [time(14), time(16)]),
     ("11-1pm lunch", [time(11), time(13)]), ("14-16h", [time(14), time(16)]),
     ("from 9 to 5", [time(9), time(17)]), ("9:30-11am", [time(9, 30), time(11)]),
     ("from 2 to 4 people", []), ("2-4 hours", []), ("on 2025-03-04", []),
     # a bare span is the clock's beside a day, and nothing without one
     ("block tue the 15th 9-11 for deep work", [time(9), time(11)]), ("items 2-4", [])],
)
def test_the_times_a_text_names(text: str, clocks: list[time]) -> None:
    found = times(text)
    assert [f.value for f in found] == clocks
    assert _spans_hold_their_text(text, found)


def test_day_phrases_are_found_and_left_for_the_store_to_date() -> None:
    text = "Move it from next Monday to March 17, or the 2nd of April, or 2025-03-18 tonight"
    found = day_phrases(text)
    assert [f.text for f in found] == ["next Monday", "March 17", "2nd of April", "2025-03-18",
                                       "tonight"]
    assert all(f.kind is Kind.day and f.value is None for f in found)
    assert _spans_hold_their_text(text, found)
    # abbreviated weekdays are words too ("sat", "sun"), and yesterday is no day held to
    assert day_phrases("I sat in the sun yesterday") == []
    assert day_phrases("the sun is out at 9, I sat down on the sun deck") == []
    # ... unless a time, "this", "next" or "on" makes them days; "fri" is no other word
    text = "fri at 8, this wed 4pm, remind me wed 7am, see you on sat, sun 10am, next tues"
    assert [f.text for f in day_phrases(text)] == ["fri", "this wed", "wed", "sat", "sun",
                                                    "next tues"]
    # a weekday with its date is the date: "tue the 15th" was read as the coming Tuesday
    text = "block tue the 15th 9-11, or friday, 11th, or mon 14 dec, not friday and saturday"
    found = day_phrases(text)
    assert [f.text for f in found] == ["15th", "11th", "14 dec", "friday", "saturday"]
    assert _spans_hold_their_text(text, found)


def test_emails_are_whole_addresses_unless_a_cut_one_is_asked_for() -> None:
    text = "Write to Lena@Hoffmann.example, not lena@hoffmann or me @ home"
    assert [f.value for f in emails(text)] == ["lena@hoffmann.example"]
    assert [f.text for f in emails(text, partial=True)] == ["Lena@Hoffmann.example",
                                                            "lena@hoffmann"]
    assert _spans_hold_their_text(text, emails(text, partial=True))


def test_phone_numbers_are_read_as_written_and_told_apart_by_their_digits() -> None:
    (lukas,) = phone_numbers(LUKAS)
    assert (lukas.kind, lukas.text, lukas.value) == (Kind.phone, "+49 151 5550 330",
                                                      "491515550330")
    assert _spans_hold_their_text(LUKAS, [lukas])
    assert [f.text for f in phone_numbers("call (030) 123-4567 or 030 1234567")] == [
        "(030) 123-4567"]
    # dates, times, years and short counts are no phone numbers
    assert phone_numbers("on 2025-03-04 at 14:00, room 12, 2025, 45 minutes") == []
    assert digits("+49 (151) 555-0") == "491515550"


def test_ids_are_numbers_a_word_names_as_an_items() -> None:
    text = "Delete event 14 and reminder #3, note no. 7; not the 14:00 one at room 12"
    found = ids(text)
    assert [f.value for f in found] == [14, 3, 7]
    assert all(f.kind is Kind.id for f in found) and _spans_hold_their_text(text, found)


@pytest.mark.parametrize(
    ("text", "clock"),
    [("19:00", True), (" at 7 P.M. ", True), ("noon", True), ("at midnight", True),
     ("7", False), ("tomorrow 9:00", False), ("2025-03-04", False)],
)
def test_a_clock_time_and_nothing_else(text: str, clock: bool) -> None:
    assert is_clock_time(text) is clock


def test_at_times_take_the_hour_as_written() -> None:
    text = "the evening before at 8pm, or at 8, or at 8.30, not at 25"
    assert [f.value for f in at_times(text)] == [time(20), time(8), time(8, 30)]
    assert _spans_hold_their_text(text, at_times(text))


@pytest.mark.parametrize(
    ("text", "number", "day"),
    [("on june 13 at noon", "13", True), ("the 13th of june", "13", True),
     ("am 13. juni", "13", True), ("el 13 de junio", "13", True),
     ("delete file 13 please", "13", False), ("13 people in may", "13", False)],
)
def test_a_number_beside_a_month_of_any_language_is_a_day(text: str, number: str,
                                                            day: bool) -> None:
    start = text.index(number)
    assert is_day_of_month(text, start, start + len(number)) is day


def test_when_phrases_and_the_run_that_ends_a_title() -> None:
    text = "Call the bank on Monday from 9:00 to 9:30 for an hour"
    assert [f.text for f in when_phrases(text)] == ["on Monday", "from 9:00", "to 9:30",
                                                    "for an hour"]
    tail = when_tail("Anna tomorrow at 9am.")
    assert tail is not None and tail.kind is Kind.when and tail.text == " tomorrow at 9am."
    assert when_tail("Game night") is None
    assert {"tomorrow", "noon", "morning"} <= WHEN_WORDS and WHEN_NAME.match("Friday")


@pytest.mark.parametrize(
    ("value", "read", "day"),
    [("tomorrow at 9:00", DayWord(1, None, False, "9:00"), date(2026, 12, 4)),
     ("next thursday 3pm", DayWord(None, 3, True, "3pm"), date(2026, 12, 10)),
     ("Thursday", DayWord(None, 3, False, ""), date(2026, 12, 3)),
     ("fri, noon", DayWord(None, 4, False, "noon"), date(2026, 12, 4)),
     ("weds 16:00", DayWord(None, 2, False, "16:00"), date(2026, 12, 9)),  # as people write it
     ("thur", DayWord(None, 3, False, ""), date(2026, 12, 3)),
     ("yesterday", DayWord(-1, None, False, ""), date(2026, 12, 2)),
     # the weekday of the week after this one, whatever today is
     ("tuesday next week 2pm", DayWord(None, 1, False, "2pm", True), date(2026, 12, 8)),
     ("thu of next week", DayWord(None, 3, False, "", True), date(2026, 12, 10)),
     ("next week on friday", DayWord(None, 4, False, "", True), date(2026, 12, 11))],
)
def test_a_value_that_starts_with_a_day_word(value: str, read: DayWord, day: date) -> None:
    found = day_word(value)
    assert found is not None and found.value == read
    assert found.value.on(date(2026, 12, 3)) == day  # a Thursday


def test_a_value_that_is_no_day_word_or_no_time_from_now() -> None:
    assert day_word("on tomorrow") is None and day_word("2026-12-04") is None
    assert from_now("in 2 hours").value == timedelta(hours=2)
    assert from_now("in 90 min").value == timedelta(minutes=90)
    assert from_now("in 2 hours please") is None and from_now("2 hours") is None


def test_file_names_are_a_typed_extraction_without_web_addresses():
    from botpsy.extract import Kind, file_names
    text = "add a line to todo.md, see example.com and todo.md again"
    found = file_names(text)
    assert [(f.kind, f.value) for f in found] == [(Kind.file, "todo.md")]
    assert text[found[0].span[0]:found[0].span[1]] == "todo.md"


def test_titles_are_the_quoted_names_of_items_made_and_nothing_else_quoted():
    from botpsy.extract import is_quoted, titles
    text = "copy my gift ideas into a new note called 'for sam - dad bday'"
    (found,) = titles(text)
    assert (found.kind, found.value) == (Kind.title, "for sam - dad bday")
    assert text[found.span[0]:found.span[1]] == "for sam - dad bday"
    assert [f.value for f in titles("new note 'xmas cards' -> aunt rosa")] == ["xmas cards"]
    assert [f.value for f in titles("an event titled \u201cOffsite\u201d")] == ["Offsite"]
    assert titles("add 'call the bank' to todo.md") == []
    assert [f.value for f in titles("stick it in a new note called Climbing")] == ["Climbing"]
    assert titles("make a note called hamburg with those things") == []
    assert is_quoted("Monday", "a note titled 'monday' please")
    assert not is_quoted("Monday", "a note for monday")


@pytest.mark.parametrize(("text", "said"), [
    ("remind me next week to call the bank", True), ("remind me in 2 hours", True),
    ("set a reminder for that day", True), ("remind me the evening before", True),
    ("add a todo, no date: fix the bike light", False), ("remind me to call the bank", False),
    ("todo: descale the coffee machine", False)])
def test_whether_a_text_says_when_at_all(text: str, said: bool) -> None:
    from botpsy.extract import says_when
    assert says_when(text) is said


@pytest.mark.parametrize(("text", "moved"), [
    ("push it back an hour", timedelta(hours=1)),
    ("delay the standup by 2 hours", timedelta(hours=2)),
    ("move it 30 minutes later", timedelta(minutes=30)),
    ("bring it forward by 15 min", -timedelta(minutes=15)),
    ("half an hour earlier please", -timedelta(minutes=30)),
    ("push the dentist check-up back an hour", timedelta(hours=1)),
])
def test_a_move_by_a_length_is_a_shift_and_no_length(text, moved):
    from botpsy.extract import shifts
    assert [f.value for f in shifts(text)] == [moved]
    assert durations(text) == []


def test_a_length_beside_no_move_is_no_shift():
    from botpsy.extract import shifts
    for text in ("book a 30 minute call", "make it an hour longer", "a 45 minute delay",
                 "remind me 2 hours before"):
        assert shifts(text) == []


def test_a_time_of_day_said_as_a_word() -> None:
    """"remind me tomorrow at noon": the due was held to tomorrow at any time."""
    from botpsy.extract import times

    assert [f.value for f in times("remind me tomorrow at noon to ring the dentist")] == [
        time(12, 0)]
    assert [f.value for f in times("from 22:00 until midnight")] == [time(22, 0), time(0, 0)]


def test_the_new_name_a_request_gives_what_it_renames() -> None:
    from botpsy.extract import new_name
    assert new_name("rename the quarterly review to Q4 all-hands") == "Q4 all-hands"
    assert new_name('rename it to "Offsite 2027".') == "Offsite 2027"
    assert new_name("rename the file to x.txt and email it") == "x.txt"
    assert new_name("move the review to Friday") is None


@pytest.mark.parametrize(("request_text", "text"), [
    ("quick note: mia is shoe size 31 now and jacket size 128",
     "mia is shoe size 31 now and jacket size 128"),
    ("new note 'xmas cards' -> aunt rosa, the webers, mrs klein", "aunt rosa, the webers, mrs klein"),
    ("note: call mom. oh and remind me to buy milk", "call mom"),
    ("jot down a note called paint colours: hall warm white, bath blue.", "hall warm white, bath blue"),
    ("new note 'xmas cards' -> aunt rosa. oh and remind me to post them", "aunt rosa"),
    ("note - gate code for the party is 1234 (ask dad)", "gate code for the party is 1234 (ask dad)"),
    ("Jot down that the bike lock code is 4471", None),
    ("what does my note about the bike say?", None),
    # after a quoted title, "with" and what the note holds, to the sentence's end
    ("create a note titled 'Packing for Lisbon' with passport, sunscreen and the adapter? Thanks!",
     "passport, sunscreen and the adapter"),
    # a thing taken from elsewhere is looked up, not written as said
    ("start a note called 'Invoices' with the invoice number from marta's email in it", None),
    ("make a note called 'Mia' with her shoe size in it", None),
])
def test_the_text_a_request_gives_a_new_note_is_read_whole(request_text: str, text: str | None):
    """Named ("a note called X: ...") and labelled ("quick note: ...") forms alike, cut
    before a sentence that asks for something else."""
    assert given_text(request_text) == text


@pytest.mark.parametrize(("text", "phrase"), [
    ("Remind me to call Anna on 2 Jan 2030 at 9am", "2 Jan 2030"),
    ("book it for January 2, 2030", "January 2, 2030"),
    ("on the 2nd of march 2027.", "2nd of march 2027"),
    ("dentist jan 12 at 10:15", "jan 12"),
    ("jan 5 2030.5 km run", "jan 5"),
])
def test_a_date_written_with_its_year_keeps_it(text: str, phrase: str) -> None:
    """The year is part of the day named: without it "2 Jan 2030" was read as the next
    2 January, and a call with the right date was refused as a day the request does not name."""
    assert [f.text for f in day_phrases(text)] == [phrase]


def test_a_place_keeps_its_number_but_not_a_time_after_it() -> None:
    """"dinner at Luigi's 7pm": the time is no part of the place ("at Pier 7" keeps its
    number), or the place check held the location to "Luigi's 7pm"."""
    from botpsy.extract import places
    assert [p.value for p in places("team sync at Google Meet 3pm")] == ["Google Meet"]
    assert [p.value for p in places("dinner at Luigi's 7pm friday")] == ["Luigi's"]
    assert [p.value for p in places("haircut at Salon Kiez 14:30")] == ["Salon Kiez"]
    assert [p.value for p in places("meet at Pier 7 tomorrow")] == ["Pier 7"]


@pytest.mark.parametrize(("text", "found"), [
    ("flat viewing this sat 3pm-4pm, Oderberger Str 5. stick it in the calendar",
     ["Oderberger Str 5"]),
    ("party at Kastanienallee 12 on sat", ["Kastanienallee 12"]),
    ("I live on Main Street", []),           # no number: no address
    ("book 2 rooms for 5 people", []),
])
def test_a_street_address_is_a_place_without_at(text, found) -> None:
    """A street and its number need no "at": the flat viewing was booked with no location."""
    from botpsy.extract import places
    assert [p.value for p in places(text)] == found


def test_a_word_that_describes_a_file_does_not_name_it() -> None:
    from botpsy.extract import file_word
    assert file_word("summarize the whole file") is None
    assert file_word("what's in the attached file?") is None
    assert file_word("add milk to my todo file") == "todo"


def test_a_meal_or_bedtime_says_when() -> None:
    """"remind me at lunch to call mum" asks for a time, if a rough one: its due is left to
    the model, not held empty."""
    from botpsy.extract import says_when
    assert says_when("remind me at lunch to call mum")
    assert says_when("remind me at bedtime to take the bins out")
    assert not says_when("remind me to call mum")
