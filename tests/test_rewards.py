"""Table tests of the grader (botpsy.rewards): one row per behaviour."""

from __future__ import annotations

import doctest
import itertools

import pytest

from botpsy import rewards
from botpsy.rewards import (
    CallErrorType as E,
)
from botpsy.rewards import (
    ReferenceCall,
    RewardWeights,
    format_reward,
    references_from_bfcl,
    score_calls,
    tool_call_reward,
    value_matches,
)
from botpsy.types import ParseError, ParseErrorKind, ParseResult, ToolCall


def call(name: str, **arguments) -> ToolCall:
    return ToolCall(name=name, arguments=arguments)


def ref(name: str, **arguments) -> ReferenceCall:
    return ReferenceCall(name, {k: v if isinstance(v, list) else [v] for k, v in arguments.items()})


def test_module_doctests_pass():
    assert doctest.testmod(rewards).failed == 0


# value, acceptable value, declared type, match?
VALUE_TABLE = [
    ("Paris", "paris", None, True),
    ("New York, NY", "new york ny", None, True),  # BFCL drops spaces and ,./-_*^
    ("it's", 'it"s', None, True),  # ' and " are the same
    ("Rome", "Paris", None, False),
    (5, 5, None, True),
    (5, 5.0, None, True),  # an int is accepted for a float
    (5.0, 5, None, False),  # a float is not accepted for an int...
    (5.0, 5, {"type": "float"}, True),  # ...unless the schema declares a float
    (5.5, 5.5, None, True),
    (True, True, None, True),
    (True, 1, None, False),  # booleans never equal numbers
    (1, True, None, False),
    ("5", 5, None, False),
    (None, None, None, True),
    ([1, 2], [1, 2], None, True),
    ((1, 2), [1, 2], None, True),  # Python tuples compare as lists
    ([2, 1], [1, 2], None, False),  # lists keep their order
    ([1, 2], [1.0, 2.0], None, False),  # no int-for-float inside lists (BFCL's nested check)
    ([1.0, 2.0], [1, 2], {"type": "array", "items": {"type": "float"}}, True),
    ([1.0, 2.0], [1, 2], {"type": "array", "items": {"type": "integer"}}, False),
    (["A b"], ["ab"], None, True),  # strings in lists are normalised
    ([[1, 2]], [[1, 2]], None, True),
    ({"a": 1}, {"a": [1, 2]}, None, True),  # dict entries list their acceptable values
    ({"a": 3}, {"a": [1, 2]}, None, False),
    ({"a": 1}, {"a": [1], "b": ["", 2]}, None, True),  # "" = the key may be left out
    ({"a": 1}, {"a": [1], "b": [2]}, None, False),  # a needed key is missing
    ({"a": 1, "z": 1}, {"a": [1]}, None, False),  # an unknown key
    ({"a": 1.0}, {"a": [1]}, None, True),  # dict entries compare numbers by value
    ({"a": "X y"}, {"a": ["xy"]}, None, True),
    ({"a": "epoch"}, {"a": "epoch"}, None, True),  # a bare value is its own alternative
    ([{"k": "v"}], [{"k": ["v"]}], None, True),  # lists of dicts
    ("x", ["x"], None, False),
    ("Max_Value", "maxvalue", {"type": "integer"}, False),  # a variable name: verbatim
    ("maxValue", "maxValue", {"type": "integer"}, True),
    ("New-York", "new york", {"type": "string"}, True),
]


@pytest.mark.parametrize("value, expected, declared, match", VALUE_TABLE)
def test_value_matches(value, expected, declared, match):
    assert value_matches(value, expected, declared) is match


WEATHER = ref("get_weather", city=["Paris", "paris, fr"], unit=["", "celsius", "c"])

# predicted calls, reference calls, exact, error type, name, arg_names, arg_values
SCORE_TABLE = [
    ([call("get_weather", city="PARIS")], [WEATHER], True, E.ok, 1, 1, 1),
    ([call("get_weather", city="Paris", unit="c")], [WEATHER], True, E.ok, 1, 1, 1),
    ([call("get_weather", city="Rome")], [WEATHER], False, E.value_error, 1, 1, 0),
    ([call("get_weather", city=7)], [WEATHER], False, E.type_error, 1, 1, 0),
    (
        [call("get_weather", city="Paris", unit="kelvin")],
        [WEATHER],
        False,
        E.value_error,
        1,
        1,
        0.5,
    ),
    ([call("get_weather")], [WEATHER], False, E.missing_required, 1, 0, 0),
    (
        [call("get_weather", city="Paris", day="mon")],
        [WEATHER],
        False,
        E.unexpected_param,
        1,
        0.5,
        1,
    ),
    ([call("get_forecast", city="Paris")], [WEATHER], False, E.wrong_func_name, 0, 0, 0),
    ([], [WEATHER], False, E.no_call, 0, 0, 0),
    ([call("get_weather", city="Paris")], [], False, E.irrelevance_call, 0, 0, 0),
    ([], [], True, E.ok, 1, 1, 1),
    # two calls where one is expected: the right one still earns half the argument credit
    (
        [call("get_weather", city="Paris"), call("get_weather", city="Rome")],
        [WEATHER],
        False,
        E.wrong_count,
        0.5,
        0.5,
        0.5,
    ),
    # parallel calls in any order
    ([call("f", x=2), call("f", x=1)], [ref("f", x=1), ref("f", x=2)], True, E.ok, 1, 1, 1),
    ([call("g", y=1), call("f", x=1)], [ref("f", x=1), ref("g", y=1)], True, E.ok, 1, 1, 1),
    (
        [call("f", x=1), call("f", x=3)],
        [ref("f", x=1), ref("f", x=2)],
        False,
        E.value_error,
        1,
        1,
        0.5,
    ),
    ([call("f", x=1)], [ref("f", x=1), ref("g", y=1)], False, E.wrong_count, 0.5, 0.5, 0.5),
    (
        [call("f", x=1), call("h", y=1)],
        [ref("f", x=1), ref("g", y=1)],
        False,
        E.wrong_func_name,
        1 / 3,
        0.5,
        0.5,
    ),
    # a call without arguments
    ([call("now")], [ref("now")], True, E.ok, 1, 1, 1),
    ([call("now", tz="UTC")], [ref("now")], False, E.unexpected_param, 1, 0, 1),
]


@pytest.mark.parametrize(
    "predicted, reference, exact, error, name, arg_names, arg_values", SCORE_TABLE
)
def test_score_calls(predicted, reference, exact, error, name, arg_names, arg_values):
    score = score_calls(predicted, reference)
    assert (score.exact, score.error_type) == (exact, error), score.detail
    assert score.name == pytest.approx(name)
    assert score.arg_names == pytest.approx(arg_names)
    assert score.arg_values == pytest.approx(arg_values)
    assert 0.0 <= score.reward <= 1.0
    assert score.reward == pytest.approx((name + arg_names + arg_values) / 3)


def test_assignment_is_optimal_not_first_come():
    """A greedy first-match would pair f(x=1, y=2) with the first reference and lose credit."""
    refs = [ref("f", x=1, y=[""]), ref("f", x=1, y=2)]
    predicted = [call("f", x=1, y=2), call("f", x=1)]
    assert score_calls(predicted, refs).exact


@pytest.mark.parametrize("n", [1, 3, 5])
def test_permuting_parallel_calls_never_changes_the_score(n):
    refs = [ref("f", i=i, tag=f"t{i}") for i in range(n)]
    calls = [call("f", i=i, tag=f"T{i}" if i % 2 else f"wrong{i}") for i in range(n)]
    scores = {score_calls(list(p), refs) for p in itertools.permutations(calls)}
    assert len(scores) == 1


def test_large_parallel_groups_use_greedy_assignment_and_stay_exact():
    refs = [ref("f", i=i) for i in range(14)]
    calls = [call("f", i=i) for i in reversed(range(14))]
    assert score_calls(calls, refs).exact


def test_parse_error_is_reported_first_but_exactness_is_kept():
    score = score_calls([call("now")], [ref("now")], parse_ok=False)
    assert (score.format_ok, score.exact, score.error_type) == (False, True, E.parse_error)


@pytest.mark.parametrize(
    "weights, expected",
    [
        (RewardWeights(), (1 + 1 + 0) / 3),
        (RewardWeights(name=0, arg_names=0, arg_values=1), 0.0),
        (RewardWeights(name=1, arg_names=0, arg_values=0), 1.0),
        (RewardWeights(exact=1, name=0, arg_names=0, arg_values=0), 0.0),
        (RewardWeights(format=1, name=0, arg_names=0, arg_values=0), 1.0),
    ],
)
def test_weights_zero_means_log_only(weights, expected):
    score = score_calls([call("get_weather", city="Rome")], [WEATHER], weights=weights)
    assert score.reward == pytest.approx(expected)
    assert (score.name, score.arg_names, score.arg_values) == (1.0, 1.0, 0.0)


@pytest.mark.parametrize("bad", [{"name": -1.0}, {"name": 0, "arg_names": 0, "arg_values": 0}])
def test_bad_weights_are_refused(bad):
    with pytest.raises(ValueError):
        RewardWeights(**bad)


def test_tool_call_reward_is_the_score_reward():
    predicted = [call("get_weather", city="Paris", unit="f")]
    assert tool_call_reward(predicted, [WEATHER]) == score_calls(predicted, [WEATHER]).reward


@pytest.mark.parametrize(
    "errors, expected",
    [
        ([], 1.0),
        ([ParseError(kind=ParseErrorKind.unclosed_tag, message="x", recovered=True)], 0.5),
        ([ParseError(kind=ParseErrorKind.invalid_json, message="x")], 0.0),
    ],
)
def test_format_reward(errors, expected):
    assert format_reward(ParseResult(errors=errors)) == expected


def test_references_from_bfcl_without_docs():
    refs = references_from_bfcl([{"f": {"x": [1], "y": ["", "a"]}}, {"g": {}}])
    assert refs == [ReferenceCall("f", {"x": [1], "y": ["", "a"]}), ReferenceCall("g", {})]


def test_references_from_bfcl_with_docs_follows_the_schema():
    doc = {
        "name": "f",
        "parameters": {
            "type": "dict",
            "properties": {
                "x": {"type": "float"},
                "y": {"type": "string"},
                "z": {"type": "integer"},
            },
            "required": ["x", "y", "z"],
        },
    }
    (reference,) = references_from_bfcl(
        [{"f": {"x": [2], "y": ["", "a"], "extra": ["", 1]}}], [doc]
    )
    assert {k: v["type"] for k, v in reference.schemas.items()} == {
        "x": "float",
        "y": "string",
        "z": "integer",
    }
    assert reference.arguments["z"] == []  # required by the schema, absent from the answer
    assert "extra" not in reference.arguments  # undeclared and optional: never acceptable
    # BFCL's checker can never pass this answer; neither can the grader
    assert score_calls([call("f", x=2.0, y="a", z=1)], [reference]).error_type is (
        E.unexpected_param
    )
    assert score_calls([call("f", x=2.0, y="a")], [reference]).error_type is E.missing_required
    # "" does not excuse a parameter the schema requires
    assert score_calls([call("f", x=2.0)], [reference]).error_type is E.missing_required
    assert score_calls([call("f", x=2.0, y="a", z="q", extra=1)], [reference]).error_type is (
        E.unexpected_param
    )


@pytest.mark.parametrize("bad", [[{"f": {}, "g": {}}], ["f(x=1)"], [{"f": [1]}]])
def test_references_from_bfcl_rejects_malformed_answers(bad):
    with pytest.raises(ValueError):
        references_from_bfcl(bad)
