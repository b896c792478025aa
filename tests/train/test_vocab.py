"""Value sources: relative days are passed as the assistant's date parser reads them."""

from __future__ import annotations

import random
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from botpsy.assistant.timeutil import parse_when
from botpsy.train.vocab import (
    RELATIVE_SHARE,
    REMINDER_TEXTS,
    day_phrase,
    event_span,
    moment_phrase,
    reminder_text,
)

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2025, 3, 3, 10, 0, tzinfo=BERLIN)  # a Monday


def _parse(value: str) -> datetime:
    return parse_when(value, tz=BERLIN, now=NOW).value


@pytest.mark.parametrize("source", [day_phrase, moment_phrase])
def test_every_drawn_day_is_one_the_assistant_tools_can_resolve(source):
    rng = random.Random(0)
    draws = [source(rng) for _ in range(400)]
    relative = [d for d in draws if not d.value[:1].isdigit()]
    assert abs(len(relative) / len(draws) - RELATIVE_SHARE) < 0.08
    for drawn in draws:
        _parse(drawn.value)  # raises on a form the tools would reject
        # The surface carries its preposition, so templates read "... {day}." for both kinds.
        assert drawn.surface.startswith(("on ", "today", "tomorrow", "next "))


def test_a_relative_day_is_passed_as_said():
    rng = random.Random(1)
    seen = set()
    for _ in range(200):
        drawn = moment_phrase(rng)
        if drawn.value[:1].isdigit():
            continue
        day_words = drawn.value.rsplit(" ", 1)[0]
        assert day_words.lower() in drawn.surface.lower()
        seen.add(day_words.split()[0])
    assert {"today", "tomorrow", "next"} <= seen and seen & {"Monday", "Friday"}


def test_moment_values_are_the_said_time_in_24_hours():
    assert _parse("tomorrow 15:00") == datetime(2025, 3, 4, 15, 0, tzinfo=BERLIN)
    rng = random.Random(2)
    for _ in range(100):
        drawn = moment_phrase(rng)
        said_time = drawn.surface.rsplit(" at ", 1)[1]
        assert _parse(drawn.value).time() == _parse(f"today {said_time}").time()


def test_an_event_span_ends_after_it_starts_on_the_same_day():
    rng = random.Random(3)
    for _ in range(200):
        start, end = (_parse(v) for v in event_span(rng).value)
        assert start.date() == end.date() and start < end


def test_reminder_texts_mix_fixed_chores_with_errands_for_people():
    """Half fixed chores, half errands naming a person or a thing, so "remind me to call
    <name>" is in the data and the vocabulary is not twelve phrases."""
    rng = random.Random(0)
    drawn = [reminder_text(rng) for _ in range(400)]
    assert all(v.surface == v.value for v in drawn)
    fixed = sum(v.value in REMINDER_TEXTS for v in drawn)
    assert 150 < fixed < 250
    assert any(v.value.startswith("call ") and v.value not in REMINDER_TEXTS for v in drawn)
    assert len({v.value for v in drawn}) > 100
