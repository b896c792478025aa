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
