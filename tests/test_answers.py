"""Final-answer grading: which tool-output facts a reference relays, and how many an answer states."""

from __future__ import annotations

import json

import pytest

from botpsy.answers import answer_facts, answer_score, fact_recall, mentions, tool_values

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
        ("On 2025-03-20.", "20", False),  # a part of a date
        ("It is 20.5 degrees.", "20", False),
        ("At 20:30.", "20", False),
        ("Event 12 at 12:00.", "12:00", True),
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


def test_an_answer_scores_its_recall_unless_it_echoes_json_or_rambles():
    facts = ["Bogota", "20"]
    assert answer_score("Bogota: 20 degrees.", facts, 19) == 1.0
    assert answer_score('  {"city": "Bogota", "t": 20}', facts, 19) == 0.0
    assert answer_score('[{"city": "Bogota"}]', facts, 19) == 0.0
    assert answer_score("{Bogota} 20", facts, 19) == 1.0  # braces, but not JSON
    long = "Bogota: 20 degrees. " * 4  # 80 characters: 2.1 times the allowed 38
    assert answer_score(long, facts, 19) == pytest.approx(38 / len(long.strip()))
    assert answer_score(long, facts, 0) == 1.0  # no reference length: no limit


def test_module_doctests_pass():
    import doctest

    from botpsy import answers

    assert doctest.testmod(answers).failed == 0
