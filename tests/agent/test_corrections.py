"""self_corrected: a time the user corrects at the end of a request is read as corrected."""

from __future__ import annotations

import pytest

from botpsy.agent.corrections import self_corrected
from botpsy.agent.spelling import read_request


@pytest.mark.parametrize(("written", "read"), [
    ("remind me to ring mom tonight at 8... no wait, make that 7",
     "remind me to ring mom tonight at 7"),
    ("call with dan at 3pm, make it 4", "call with dan at 4pm"),  # the half of the day kept
    ("dentist at 10:30 tomorrow - sorry, 11:00", "dentist at 11:00 tomorrow"),
    ("meeting at 5. no, 6pm", "meeting at 6pm"),
    ("book a table at 7pm, actually make that 6", "book a table at 6pm"),
])
def test_a_corrected_time_replaces_the_one_it_corrects(written, read):
    assert self_corrected(written) == read


@pytest.mark.parametrize("written", [
    "remind me to take 2 pills at 9",                 # no correction
    "remind me to call mom, no wait, forget it",      # taken back, not corrected
    "no wait, 7",                                     # nothing before it to correct
    "move the 3pm call, no wait, the 4pm one",        # not a bare time at the end
])
def test_anything_else_is_left_as_written(written):
    assert self_corrected(written) == written


def test_the_request_reader_reads_the_correction():
    assert read_request("remind me to ring mom tonight at 8... no wait, make that 7") == (
        "remind me to ring mom tonight at 7")


@pytest.mark.parametrize(("request_text", "read"), [
    # a day and a time corrected: both replace the earlier ones ("instead" goes with them)
    (("set a reminder for friday 5pm to book the train tickets... actually no, make it saturday "
      "at 10am instead"), "set a reminder saturday at 10am to book the train tickets"),
    # a day alone, "same time": the time stays
    ("remind me to buy wrapping paper on the 18th at 6pm - no wait, the 17th, same time",
     "remind me to buy wrapping paper the 17th at 6pm"),
    # a turn back that says more than when is left as written
    ("remind me to call Anna tomorrow at 9, no wait, actually forget it",
     "remind me to call Anna tomorrow at 9, no wait, actually forget it"),
    ("remind me at 5 to call Dan - no wait, call Tom instead",
     "remind me at 5 to call Dan - no wait, call Tom instead"),
])
def test_a_day_corrected_at_the_end_is_read_in_place(request_text: str, read: str) -> None:
    """The 135M model read "make it saturday at 10am instead" as a change of an event and
    moved the user's bouldering."""
    assert self_corrected(request_text) == read
