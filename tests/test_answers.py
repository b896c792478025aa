"""Final-answer grading: which tool-output facts a reference relays, and how many an answer states."""

from __future__ import annotations

import json

import pytest

from botpsy.answers import answer_facts, fact_recall, mentions, tool_values

WEATHER = json.dumps({"city": "Bogota", "condition": "light rain", "temperature": 20.0})


def test_facts_are_the_tool_values_the_reference_repeats():
    note = json.dumps({"id": 168, "title": "Groceries", "body": "book a table for four"})
    assert answer_facts("Bogota: light rain, 20 degrees.", [WEATHER]) == [
        "Bogota",
        "light rain",
        "20",  # an integral float is said as an int
    ]
    assert answer_facts("I created the note Groceries.", [note]) == ["Groceries"]


def test_values_come_from_every_json_output_and_never_from_free_text_or_flags():
    outputs = [
        json.dumps({"events": [{"title": "Dentist", "all_day": True, "at": None}]}),
        "plain text: Dentist at 9",
        "not json {",
        json.dumps([{"title": "Dentist"}, {"title": "Standup", "n": 3}]),
    ]
    # "3" is one character: too short to be a fact that only a good answer states.
    assert tool_values(outputs) == ["Dentist", "Standup"]


@pytest.mark.parametrize(
    "text, fact, expected",
    [
        ("It is 20 degrees.", "20", True),
        ("On 2025-03-19.", "20", False),  # inside a longer number
        ("BOGOTA is wet", "Bogota", True),
        ("Bogotano", "Bogota", False),
        ("cost: $4.50 total", "4.50", True),
        ("see a+b here", "a+b", True),  # regex characters are literal
    ],
)
def test_a_fact_is_found_only_as_a_whole_phrase(text, fact, expected):
    assert mentions(text, fact) is expected


def test_recall_is_the_share_of_facts_stated():
    facts = ["Bogota", "light rain", "20"]
    assert fact_recall("Bogota: light rain, 20 degrees.", facts) == 1.0
    assert fact_recall("Done!", facts) == 0.0
    assert fact_recall("In Bogota it is 20.", facts) == pytest.approx(2 / 3)
    assert fact_recall("anything", []) == 1.0


def test_module_doctests_pass():
    import doctest

    from botpsy import answers

    assert doctest.testmod(answers).failed == 0
