"""validate_arguments: every error kind and every coercion, as tables."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import pytest
from pydantic import BaseModel, field_validator

from botpsy.tools import ArgumentErrorKind, Tool, ValidationResult, tool, validate_arguments
from botpsy.types import ToolSpec

K = ArgumentErrorKind

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "n": {"type": "integer", "minimum": 1, "maximum": 10, "description": "How many."},
        "x": {"type": "number", "exclusiveMinimum": 0},
        "b": {"type": "boolean"},
        "s": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 5},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "opts": {"type": "object", "properties": {"k": {"type": "integer"}}, "required": ["k"]},
        "closed": {"type": "object", "properties": {"a": {"type": "string"}},
                   "additionalProperties": False},
        "when": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
        "pri": {"type": "string", "enum": ["low", "high"]},
        "maybe": {"type": ["integer", "null"]},
        "pt": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
               "minItems": 2, "maxItems": 2},
        "addr": {"anyOf": [
            {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            {"type": "null"},
        ]},
        "uniq": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
        "anything": {},
    },
    "required": ["n"],
}


@pytest.mark.parametrize(
    ("args", "expected", "note"),
    [
        ({"n": "5"}, {"n": 5}, "argument 'n': \"5\" -> 5 (string to integer)"),
        ({"n": " 7 "}, {"n": 7}, "argument 'n': \" 7 \" -> 7 (string to integer)"),
        ({"n": 5.0}, {"n": 5}, "argument 'n': 5.0 -> 5 (number to integer)"),
        ({"n": 1, "x": "2.5"}, {"n": 1, "x": 2.5},
         "argument 'x': \"2.5\" -> 2.5 (string to number)"),
        ({"n": 1, "x": 5}, {"n": 1, "x": 5.0}, "argument 'x': 5 -> 5.0 (integer to number)"),
        ({"n": 1, "x": "5"}, {"n": 1, "x": 5.0}, "argument 'x': \"5\" -> 5.0 (string to number)"),
        ({"n": 1, "b": "true"}, {"n": 1, "b": True},
         "argument 'b': \"true\" -> true (string to boolean)"),
        ({"n": 1, "b": "False"}, {"n": 1, "b": False},
         "argument 'b': \"False\" -> false (string to boolean)"),
        ({"n": 1, "tags": '["a", "b"]'}, {"n": 1, "tags": ["a", "b"]},
         "argument 'tags': \"[\\\"a\\\", \\\"b\\\"]\" -> [\"a\", \"b\"] (string to array)"),
        ({"n": 1, "opts": '{"k": 3}'}, {"n": 1, "opts": {"k": 3}},
         "argument 'opts': \"{\\\"k\\\": 3}\" -> {\"k\": 3} (string to object)"),
        ({"n": 1, "opts": {"k": "3"}}, {"n": 1, "opts": {"k": 3}},
         "argument 'opts.k': \"3\" -> 3 (string to integer)"),
        ({"n": 1, "maybe": "7"}, {"n": 1, "maybe": 7},
         "argument 'maybe': \"7\" -> 7 (string to integer)"),
        ({"n": 1, "pt": ["1", 2]}, {"n": 1, "pt": [1.0, 2.0]},
         "argument 'pt[0]': \"1\" -> 1.0 (string to number)"),
    ],
)
def test_unambiguous_coercions_are_applied_and_reported(
    args: dict[str, Any], expected: dict[str, Any], note: str
) -> None:
    result = validate_arguments(SCHEMA, args)
    assert result.ok, result.errors
    assert result.arguments == expected
    if "x" in expected:  # 5 == 5.0 in Python: check the type as well
        assert type(result.arguments["x"]) is float
    assert note in result.coercions


def test_valid_arguments_pass_untouched() -> None:
    args = {"n": 3, "x": 0.5, "s": "abc", "tags": ["a"], "when": "2025-01-31T09:00:00",
            "day": "2025-01-31", "pri": "low", "maybe": None, "addr": None,
            "anything": {"deep": [1]}}
    result = validate_arguments(SCHEMA, args)
    assert result == ValidationResult(ok=True, arguments=args)


@pytest.mark.parametrize(
    ("args", "kind", "argument", "message"),
    [
        ({}, K.missing_required, "n", "missing required argument 'n' (an integer: How many.)"),
        ({"n": 1, "opts": {}}, K.missing_required, "opts.k",
         "missing required argument 'k' in argument 'opts' (an integer)"),
        ({"n": 1, "m": 2}, K.unknown_argument, "m",
         "unknown argument 'm' (valid arguments: n, x, b, s, tags, opts, closed, when,"),
        ({"n": 1, "colsed": {}}, K.unknown_argument, "colsed",
         "unknown argument 'colsed' (did you mean 'closed'? valid arguments: n,"),
        ({"n": 1, "closed": {"a": "x", "b": 1}}, K.unknown_argument, "closed.b",
         "unknown argument 'b' in argument 'closed' (valid arguments: a)"),
        ({"n": "five"}, K.type_error, "n", "argument 'n' must be an integer, got \"five\""),
        ({"n": 5.5}, K.type_error, "n", "argument 'n' must be an integer, got 5.5"),
        ({"n": True}, K.type_error, "n", "argument 'n' must be an integer, got true"),
        ({"n": "1e3"}, K.type_error, "n", "argument 'n' must be an integer"),
        ({"n": 1, "x": "nan"}, K.type_error, "x", "argument 'x' must be a number, got \"nan\""),
        ({"n": 1, "b": 1}, K.type_error, "b", "argument 'b' must be true or false, got 1"),
        ({"n": 1, "b": "yes"}, K.type_error, "b", "argument 'b' must be true or false"),
        ({"n": 1, "tags": "a"}, K.type_error, "tags", "argument 'tags' must be a list of strings"),
        ({"n": 1, "tags": ["a", 2]}, K.type_error, "tags[1]",
         "argument 'tags[1]' must be a string"),
        ({"n": 1, "when": 42}, K.type_error, "when",
         "argument 'when' must be an ISO 8601 date-time string (e.g. 2025-01-31T09:00:00), got 42"),
        ({"n": 1, "addr": "Paris"}, K.type_error, "addr",
         "argument 'addr' must be an object with keys 'city' or null"),
        ({"n": 1, "addr": {"city": 3}}, K.type_error, "addr.city",
         "argument 'addr.city' must be a string, got 3"),
        ({"n": 0}, K.value_error, "n", "argument 'n' must be >= 1, got 0"),
        ({"n": 11}, K.value_error, "n", "argument 'n' must be <= 10, got 11"),
        ({"n": 1, "x": 0}, K.value_error, "x", "argument 'x' must be > 0"),
        ({"n": 1, "s": "ABC"}, K.value_error, "s", "argument 's' must match the pattern ^[a-z]+$"),
        ({"n": 1, "s": "abcdef"}, K.value_error, "s", "must be at most 5 characters long"),
        ({"n": 1, "tags": ["a", "b", "c", "d"]}, K.value_error, "tags",
         "must have at most 3 items"),
        ({"n": 1, "pt": [1.0]}, K.value_error, "pt", "argument 'pt' must have at least 2 items"),
        ({"n": 1, "pri": "mid"}, K.value_error, "pri",
         "argument 'pri' must be one of \"low\", \"high\", got \"mid\""),
        ({"n": 1, "when": "tomorrow"}, K.value_error, "when",
         "must be an ISO 8601 date-time string"),
        ({"n": 1, "day": "2025-13-01"}, K.value_error, "day",
         "argument 'day' must be an ISO 8601 date string (YYYY-MM-DD)"),
        ({"n": 1, "uniq": [1, 1]}, K.value_error, "uniq", "must not contain duplicates"),
    ],
)
def test_each_error_kind(args: dict[str, Any], kind: K, argument: str, message: str) -> None:
    result = validate_arguments(SCHEMA, args)
    assert not result.ok
    assert [(e.kind, e.argument) for e in result.errors] == [(kind, argument)]
    assert message in result.errors[0].message
    assert result.arguments == args  # nothing the model wrote is lost


@pytest.mark.parametrize("args", [[1, 2], "not json", 42, None, '["a"]'])
def test_not_an_object(args: Any) -> None:
    result = validate_arguments(SCHEMA, args)
    assert [e.kind for e in result.errors] == [K.not_an_object]
    assert "must be a JSON object" in result.errors[0].message


def test_arguments_given_as_a_json_string_are_parsed() -> None:
    result = validate_arguments(SCHEMA, '{"n": "4"}')
    assert result.ok and result.arguments == {"n": 4}
    assert result.coercions[0] == "the arguments: JSON string -> object"


def test_several_errors_are_all_reported_missing_first() -> None:
    result = validate_arguments(SCHEMA, {"pri": "mid", "x": "a lot", "extra": 1})
    kinds = [e.kind for e in result.errors]
    assert kinds[:2] == [K.missing_required, K.unknown_argument]
    assert set(kinds[2:]) == {K.type_error, K.value_error}
    feedback = result.feedback("count_things")
    assert feedback.startswith("Invalid arguments for count_things: missing required argument 'n'")
    assert feedback.count(";") >= 3


def test_schema_allowing_extra_arguments_accepts_them() -> None:
    schema = {"type": "object", "properties": {}, "additionalProperties": True}
    assert validate_arguments(schema, {"anything": 1}).ok


def test_accepts_a_toolspec() -> None:
    spec = ToolSpec(name="t", parameters={"type": "object", "properties": {"q": {"type": "string"}},
                                         "required": ["q"]})
    assert validate_arguments(spec, {"q": "x"}).ok
    assert not validate_arguments(spec, {}).ok


def test_rejects_a_target_that_is_no_schema() -> None:
    with pytest.raises(TypeError, match="schema dict, ToolSpec or Tool"):
        validate_arguments(42, {})  # type: ignore[arg-type]


class Window(BaseModel):
    start: dt.time
    end: dt.time

    @field_validator("end")
    @classmethod
    def _after_start(cls, end: dt.time, info: Any) -> dt.time:
        if end <= info.data["start"]:
            raise ValueError("end must be after start")
        return end


@tool
def book(room: Literal["a", "b"], window: Window, when: dt.date) -> str:
    """Book a room."""
    return f"{room} {when} {window.start}-{window.end}"


def test_python_tool_runs_its_pydantic_validators_too() -> None:
    good = {"room": "a", "window": {"start": "09:00", "end": "10:00"}, "when": "2025-02-01"}
    assert book.validate(good).ok
    bad = {**good, "window": {"start": "10:00", "end": "09:00"}}
    result = validate_arguments(book, bad)
    assert [(e.kind, e.argument) for e in result.errors] == [(K.value_error, "window.end")]
    assert "end must be after start" in result.errors[0].message


def test_tool_validation_uses_the_tool_schema() -> None:
    assert isinstance(book, Tool)
    result = book.validate({"room": "c", "window": {"start": "09:00", "end": "10:00"},
                            "when": "2025-02-01"})
    assert [e.kind for e in result.errors] == [K.value_error]
