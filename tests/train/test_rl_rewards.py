"""RL reward functions: partial-credit tool reward, format reward, soft overlong punishment."""

from __future__ import annotations

import json

import pytest

from botpsy.formats import get_format
from botpsy.rewards import ReferenceCall
from botpsy.train.rl_rewards import (
    FinalAnswerReward,
    FormatReward,
    OverlongPenalty,
    ToolCallReward,
    soft_overlong_penalty,
)
from botpsy.train.sample import reference_to_json


@pytest.mark.parametrize(
    "length, expected", [(0, 0.0), (24, 0.0), (26, -0.25), (28, -0.5), (32, -1.0), (40, -1.0)]
)
def test_soft_overlong_penalty(length, expected):
    assert soft_overlong_penalty(length, 32, 8) == pytest.approx(expected)


def test_overlong_penalty_needs_a_sane_window():
    with pytest.raises(ValueError, match="overlong cache"):
        OverlongPenalty(32, 0)
    assert OverlongPenalty(32, 8)(completion_ids=[[1] * 10, [1] * 30]) == [
        0.0,
        pytest.approx(-0.75),
    ]


REFS = json.dumps(
    [reference_to_json(ReferenceCall("get_weather", {"city": ["Paris"], "unit": ["", "celsius"]}))]
)


def _call(args: dict) -> str:
    return f"<tool_call>\n{json.dumps({'name': 'get_weather', 'arguments': args})}\n</tool_call>"


def test_tool_call_reward_gives_partial_credit():
    reward = ToolCallReward(get_format("hermes"))
    exact, wrong_value, wrong_tool, text = reward(
        completions=[
            _call({"city": "Paris"}),
            _call({"city": "Rome"}),
            '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>',
            "It is sunny.",
        ],
        references=[REFS] * 4,
    )
    assert exact == 1.0
    assert 0.0 < wrong_value < exact
    assert wrong_tool < wrong_value
    assert text == 0.0
    assert reward(completions=["No tool fits."], references=["[]"]) == [
        1.0
    ]  # irrelevance: no call is right


def test_an_empty_or_broken_answer_earns_nothing_where_no_call_is_due():
    # BFCL counts any call-free output as right on irrelevance; RL must not pay an
    # empty or unreadable completion what a decline earns
    tool, fmt = ToolCallReward(get_format("hermes")), FormatReward(get_format("hermes"))
    broken = '<tool_call>\n{"name": "get_weather", "arguments": {"city": '
    assert tool(completions=["", broken, "No tool fits."], references=["[]"] * 3) == [
        0.0, 0.0, 1.0]
    assert fmt(completions=["", "No tool fits."]) == [0.0, 1.0]


def test_format_reward_tracks_repairs():
    fmt = FormatReward(get_format("hermes"))
    clean, broken = fmt(
        completions=[
            _call({"city": "Paris"}),
            '<tool_call>\n{"name": "get_weather", "arguments": {"city": ',
        ]
    )
    assert clean == 1.0 and broken < 1.0


def test_final_answer_reward_pays_for_relaying_the_tool_facts():
    reward = FinalAnswerReward(get_format("hermes"))
    facts = json.dumps(["Bogota", "light rain", "20"])
    full, partial, vague, called, no_facts = reward(
        completions=[
            "Bogota: light rain, 20 degrees.",
            "It is 20 degrees.",
            "Done!",
            _call({"city": "Bogota"}),  # a call where an answer is due
            "Anything.",
        ],
        facts=[facts] * 4 + ["[]"],
    )
    assert (full, vague, called, no_facts) == (1.0, 0.0, 0.0, None)
    assert partial == pytest.approx(1 / 3)
    # Rows without a facts column (data from before the column existed) have no say.
    assert reward(completions=["Done!"]) == [None]


def test_final_answer_reward_pays_nothing_for_an_echo_and_less_for_rambling():
    reward = FinalAnswerReward(get_format("hermes"))
    facts = json.dumps(["Bogota", "20"])
    reference = "Bogota: 20 degrees."
    echo, ramble, brief = reward(
        completions=[
            '{"city": "Bogota", "temperature": 20}',
            "Bogota: 20 degrees. " + "It may change later in the day. " * 4,
            reference,
        ],
        facts=[facts] * 3,
        reference_chars=[len(reference)] * 3,
    )
    assert echo == 0.0 and brief == 1.0
    assert 0.0 < ramble < 0.5
