"""Exact JSON schemas generated from Python type hints."""

from __future__ import annotations

import datetime as dt
import enum
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Optional

import pytest
from pydantic import BaseModel, Field

from botpsy.tools import Tool, clean_schema


class Color(enum.Enum):
    red = "red"
    green = "green"


class Level(enum.IntEnum):
    low = 1
    high = 2


class Address(BaseModel):
    """A postal address."""

    city: str = Field(description="City name.")
    zip: str | None = None


class Contact(BaseModel):
    name: str
    address: Address
    tags: list[str] = []


@dataclass
class Point:
    x: float
    y: float


class Node(BaseModel):
    children: list[Node] = []


def _param(annotation: Any, default: Any = ...) -> dict[str, Any]:
    """The schema of a single parameter ``x`` annotated ``annotation``."""
    if default is ...:
        def fn(x):
            return x
    else:
        def fn(x=default):
            return x
    fn.__annotations__ = {"x": annotation}
    return Tool.from_function(fn, name="f").parameters["properties"]["x"]


ADDRESS = {
    "type": "object",
    "description": "A postal address.",
    "properties": {
        "city": {"type": "string", "description": "City name."},
        "zip": {"type": ["string", "null"], "default": None},
    },
    "required": ["city"],
}


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (str, {"type": "string"}),
        (int, {"type": "integer"}),
        (float, {"type": "number"}),
        (bool, {"type": "boolean"}),
        (type(None), {"type": "null"}),
        (Optional[int], {  # noqa: UP045 - the old spelling must work too
            "type": ["integer", "null"]}),
        (str | None, {"type": ["string", "null"]}),
        (Literal["low", "high"], {"type": "string", "enum": ["low", "high"]}),
        (Literal[1, 2], {"type": "integer", "enum": [1, 2]}),
        (Literal["low", "high"] | None,
         {"type": ["string", "null"], "enum": ["low", "high", None]}),
        (Color, {"type": "string", "enum": ["red", "green"]}),
        (Level, {"type": "integer", "enum": [1, 2]}),
        (list[int], {"type": "array", "items": {"type": "integer"}}),
        (list, {"type": "array"}),
        (list[Color], {"type": "array", "items": {"type": "string", "enum": ["red", "green"]}}),
        (set[str], {"type": "array", "items": {"type": "string"}, "uniqueItems": True}),
        (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
        (
            tuple[float, float],
            {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
             "maxItems": 2, "minItems": 2},
        ),
        (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
        (dict, {"type": "object"}),
        (Any, {}),
        (dt.datetime, {"type": "string", "format": "date-time"}),
        (dt.date, {"type": "string", "format": "date"}),
        (Address, ADDRESS),
        (Address | None, {**ADDRESS, "type": ["object", "null"]}),
        (
            Point,
            {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
             "required": ["x", "y"]},
        ),
        (Annotated[str, "The subject line."],
         {"type": "string", "description": "The subject line."}),
        (Annotated[int, Field(description="How many.", ge=1, le=10)],
         {"type": "integer", "description": "How many.", "maximum": 10, "minimum": 1}),
    ],
    ids=lambda v: repr(v)[:40],
)
def test_schema_of_each_supported_type(annotation: Any, expected: dict[str, Any]) -> None:
    assert _param(annotation) == expected


def test_nested_models_are_inlined_without_refs_or_titles() -> None:
    schema = _param(list[Contact])
    assert schema == {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "address": ADDRESS,
                "tags": {"type": "array", "items": {"type": "string"}, "default": []},
            },
            "required": ["name", "address"],
        },
    }
    assert "$ref" not in str(schema) and "title" not in str(schema)


def test_property_named_title_is_kept() -> None:
    class Note(BaseModel):
        title: str

    assert _param(Note)["properties"] == {"title": {"type": "string"}}


def test_defaults_make_parameters_optional_and_are_recorded() -> None:
    def fn(a: int, b: int = 3, c: str | None = None, d: Color = Color.green) -> None:
        """Doc."""

    params = Tool.from_function(fn).parameters
    assert params["required"] == ["a"]
    assert params["properties"]["b"] == {"type": "integer", "default": 3}
    assert params["properties"]["c"] == {"type": ["string", "null"], "default": None}
    assert params["properties"]["d"] == {"type": "string", "enum": ["red", "green"],
                                         "default": "green"}


def test_field_default_with_description() -> None:
    def fn(limit: int = Field(10, description="Most results to return.", ge=1)) -> None:
        """Doc."""

    params = Tool.from_function(fn).parameters
    assert params["properties"]["limit"] == {
        "type": "integer", "description": "Most results to return.", "default": 10, "minimum": 1,
    }
    assert params["required"] == []


def test_function_without_parameters_has_an_empty_object_schema() -> None:
    def now() -> str:
        """The time."""
        return "noon"

    assert Tool.from_function(now).parameters == {
        "type": "object", "properties": {}, "required": [],
    }


def _untyped(x):
    return x


def _callable_param(x: Callable[[int], int]) -> None: ...


def _var_kwargs(**kwargs: int) -> None: ...


def _positional_only(x: int, /) -> None: ...


def _recursive(tree: Node) -> None: ...


@pytest.mark.parametrize(
    ("fn", "words"),
    [
        (_untyped, "parameter 'x' of tool '_untyped' has no type annotation"),
        (_callable_param, "parameter 'x' of tool '_callable_param'"),
        (_var_kwargs, "parameter 'kwargs'"),
        (_positional_only, "positional-only"),
        (_recursive, "recursive type 'Node'"),
    ],
)
def test_unsupported_annotations_raise_type_error_naming_the_parameter(
    fn: Callable[..., Any], words: str
) -> None:
    with pytest.raises(TypeError, match=words.replace("(", r"\(")):
        Tool.from_function(fn)


def test_docstring_naming_an_unknown_parameter_warns() -> None:
    def fn(a: int) -> None:
        """Doc.

        Args:
            a: Real.
            b: Not a parameter.
        """

    with pytest.warns(UserWarning, match=r"unknown parameter\(s\) \['b'\]"):
        Tool.from_function(fn)


def test_parameter_names_that_shadow_pydantic_attributes_work() -> None:
    def fn(json: str, copy: bool = False, model_name: str = "m") -> str:
        """Doc."""
        return f"{json}{copy}{model_name}"

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        made = Tool.from_function(fn)
    assert list(made.parameters["properties"]) == ["json", "copy", "model_name"]
    assert made.invoke({"json": "x"}) == "xFalsem"


def test_clean_schema_keeps_external_refs_and_flattens_only_simple_unions() -> None:
    raw = {
        "title": "T",
        "type": "object",
        "properties": {
            "ext": {"$ref": "https://example.org/schema.json", "title": "Ext"},
            "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        },
    }
    assert clean_schema(raw) == {
        "type": "object",
        "properties": {
            "ext": {"$ref": "https://example.org/schema.json"},
            "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        },
    }


def test_leading_underscore_parameters_keep_their_names() -> None:
    def fly(_from: str, to: str, _seats: int = Field(1, description="Seats to book.")) -> str:
        """Book a flight.

        Args:
            _from: Departure city.
            _seats: Overridden by the Field description.
        """
        return f"{_from}->{to} x{_seats}"

    made = Tool.from_function(fly)
    assert made.parameters == {
        "type": "object",
        "properties": {
            "_from": {"type": "string", "description": "Departure city."},
            "to": {"type": "string"},
            "_seats": {"type": "integer", "description": "Seats to book.", "default": 1},
        },
        "required": ["_from", "to"],
    }
    assert made.invoke({"_from": "Paris", "to": "Rome"}) == "Paris->Rome x1"
