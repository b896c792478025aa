"""Turn timing and accuracy grading through the real chat layer on scripted model output."""

from __future__ import annotations

import json

import pytest

from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.scripted import ScriptedBackend
from botpsy.bench.accuracy import (
    AccuracyItem,
    grade,
    load_subset,
    run_accuracy,
    spread_indices,
    summarize,
)
from botpsy.bench.measure import TurnOutcome, first_call_turn, repeat_to, time_turn
from botpsy.bench.prompts import ASSISTANT_TOOLS, TURN_PROMPTS
from botpsy.bench.schema import AccuracyCase
from botpsy.formats import get_format
from botpsy.rewards import ReferenceCall
from botpsy.types import GenerationParams, ToolCall

CALL = '<tool_call>\n{"name": "weather_forecast", "arguments": {"city": "Lisbon", "days": 3}}\n</tool_call>'
PARAMS = GenerationParams(max_tokens=64, tool_choice="auto")


def chat(*outputs: str) -> FormattedChatModel:
    return FormattedChatModel(ScriptedBackend(list(outputs), chunk_size=3), get_format("hermes"))


@pytest.mark.parametrize(
    ("ids", "n", "first", "expected"),
    [
        ([5, 6, 7], 5, 1, [1, 5, 6, 7, 5]),
        ([5, 6], 3, None, [5, 6, 5]),
        ([5, 6, 7], 1, 1, [1]),
        ([9], 4, 2, [2, 9, 9, 9]),
    ],
)
def test_repeat_to(ids, n, first, expected):
    assert repeat_to(ids, n, first) == expected


def test_repeat_to_needs_some_text():
    with pytest.raises(ValueError):
        repeat_to([], 4, 1)


def test_turn_stops_at_the_first_complete_call():
    # The model repeats its call (SmolLM2 does under a call grammar); the turn ends at the first.
    outcome = first_call_turn(
        chat(CALL + "\n" + CALL + '\n<tool_call>\n{"na'),
        TURN_PROMPTS[0].messages(),
        ASSISTANT_TOOLS,
        PARAMS,
    )
    assert outcome.stopped_at_call
    assert [(c.name, c.arguments) for c in outcome.calls] == [
        ("weather_forecast", {"city": "Lisbon", "days": 3})
    ]
    assert outcome.latency_s > 0


def test_turn_without_a_call_runs_to_the_end():
    outcome = first_call_turn(
        chat("It will be sunny, I think."), TURN_PROMPTS[0].messages(), ASSISTANT_TOOLS, PARAMS
    )
    assert not outcome.stopped_at_call and outcome.calls == []


def test_time_turn_resets_the_cache_first():
    resets = []
    sample = time_turn(chat(CALL), TURN_PROMPTS[0], PARAMS, lambda: resets.append(True))
    assert resets == [True]
    assert sample.prompt_id == "weather" and sample.made_call and sample.stopped_at_call


@pytest.mark.parametrize(
    ("total", "n", "expected"),
    [(400, 4, [0, 100, 200, 300]), (10, 3, [0, 3, 6]), (3, 5, [0, 1, 2]), (10, 0, []), (0, 3, [])],
)
def test_spread_indices(total, n, expected):
    assert spread_indices(total, n) == expected


def test_subset_is_fixed_and_graded_by_the_reward_module():
    items = load_subset(3)
    assert [item.id for item in items] == [
        "simple_python_0",
        "simple_python_133",
        "simple_python_266",
    ]
    assert all(item.references and item.tools and item.messages for item in items)
    assert [item.id for item in load_subset(3)] == [
        item.id for item in items
    ]  # same cases every time


def test_grading_right_wrong_and_missing_calls():
    item = AccuracyItem("x", [], [], [ReferenceCall("math.factorial", {"number": [5]})])
    right = grade(
        item, TurnOutcome(0.1, [ToolCall(name="math.factorial", arguments={"number": 5})], [], True)
    )
    wrong = grade(
        item, TurnOutcome(0.1, [ToolCall(name="math.factorial", arguments={"number": 6})], [], True)
    )
    none = grade(item, TurnOutcome(0.1, [], [], False))
    assert (right.exact, right.error_type) == (True, "ok")
    assert (wrong.exact, wrong.error_type) == (False, "value_error") and 0 < wrong.reward < 1
    assert (none.exact, none.error_type, none.reward) == (False, "no_call", 0.0)


def test_summarize_counts_errors():
    cases = [
        AccuracyCase(id="a", exact=True, reward=1.0, error_type="ok"),
        AccuracyCase(id="b", exact=False, reward=0.5, error_type="value_error"),
        AccuracyCase(id="c", exact=False, reward=0.0, error_type="no_call"),
        AccuracyCase(id="d", exact=False, reward=0.5, error_type="value_error"),
    ]
    result = summarize(cases)
    assert result.accuracy == 0.25 and result.mean_reward == 0.5
    assert result.errors == {"value_error": 2, "no_call": 1}


def test_run_accuracy_end_to_end_on_scripted_answers():
    items = load_subset(2)
    answers = []
    for item in items:
        ref = item.references[0]
        args = {k: v[0] for k, v in ref.arguments.items() if v and v[0] != ""}
        call = json.dumps({"name": ref.name, "arguments": args})
        answers.append(f"<tool_call>\n{call}\n</tool_call>")
    answers[1] = "I cannot help with that."
    result = run_accuracy(chat(*answers), items, PARAMS)
    assert result.n == 2 and result.accuracy == 0.5
    assert [c.exact for c in result.cases] == [True, False]


def test_only_threads_started_later_are_waited_for():
    import threading
    import time

    from botpsy.bench.measure_hf import join_new_threads

    release = threading.Event()
    old = threading.Thread(target=release.wait, daemon=True)  # like tqdm's monitor: never ends
    old.start()
    known = set(threading.enumerate())
    new = threading.Thread(target=time.sleep, args=(0.2,), daemon=True)  # a leftover generation
    new.start()
    start = time.perf_counter()
    join_new_threads(known, timeout_s=5)
    assert not new.is_alive() and old.is_alive() and new in known
    assert time.perf_counter() - start < 4
    release.set()
