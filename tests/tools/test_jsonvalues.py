"""Plain-English descriptions of schemas and argument paths (the words in error messages)."""

from __future__ import annotations

from typing import Any

import pytest

from botpsy.tools.jsonvalues import allowed_types, describe, json_type, path_text


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ({"type": "string"}, "a string"),
        ({"type": "integer"}, "an integer"),
        ({"type": ["number", "null"]}, "a number or null"),
        ({"type": "string", "format": "date"}, "an ISO 8601 date string (YYYY-MM-DD)"),
        ({"type": "string", "enum": ["a", "b"]}, 'one of "a", "b"'),
        ({"const": 3}, "exactly 3"),
        ({"type": "array", "items": {"type": "integer"}}, "a list of integers"),
        ({"type": "array", "items": {"type": "string", "format": "date-time"}},
         "a list whose items are each an ISO 8601 date-time string (e.g. 2025-01-31T09:00:00)"),
        ({"type": "array", "items": {"type": "string", "enum": ["x"]}},
         'a list whose items are each one of "x"'),
        ({"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}]},
         "a list of 2 items (a number, a string)"),
        ({"type": "object", "properties": {"a": {}, "b": {}}}, "an object with keys 'a', 'b'"),
        ({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}, "an integer or true or false"),
        ({}, "any value"),
        (True, "any value"),
    ],
)
def test_describe(schema: Any, words: str) -> None:
    assert describe(schema) == words


def test_path_text() -> None:
    assert path_text(["items", 0, "name"]) == "items[0].name"
    assert path_text([]) == ""


@pytest.mark.parametrize(
    ("value", "kind"),
    [(None, "null"), (True, "boolean"), (1, "integer"), (1.0, "number"), ("", "string"),
     ((), "array"), ({}, "object")],
)
def test_json_type(value: Any, kind: str) -> None:
    assert json_type(value) == kind


def test_allowed_types_from_unions() -> None:
    schema = {"anyOf": [{"type": "integer"}, {"type": ["string", "null"]}]}
    assert allowed_types(schema) == ["integer", "string", "null"]
    assert allowed_types({"description": "anything"}) == []
