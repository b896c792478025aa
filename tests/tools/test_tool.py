"""Tool construction: the decorator, Python functions, OpenAI specs."""

from __future__ import annotations

import asyncio
import datetime as dt
import enum
import inspect
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from botpsy.tools import Tool, tool
from botpsy.types import ToolSpec


class Priority(enum.Enum):
    low = "low"
    high = "high"


class Place(BaseModel):
    city: str
    country: str = "FR"


@tool
def add_reminder(text: str, due: str | None = None,
                 priority: Literal["low", "high"] = "low") -> dict[str, Any]:
    """Add a reminder.

    Args:
        text: What to be reminded of.
        due: ISO 8601 date-time.
    """
    return {"text": text, "due": due, "priority": priority}


@tool(name="mail.send", side_effect=True, description="Send an email now.")
def send_mail(to: str, body: str) -> str:
    """Docstring summary that the explicit description replaces."""
    return f"sent to {to}"


@tool
async def fetch_weather(city: str) -> str:
    """Today's weather in a city."""
    await asyncio.sleep(0)
    return f"sunny in {city}"


def test_decorator_returns_a_tool_that_is_still_the_function() -> None:
    assert isinstance(add_reminder, Tool)
    assert add_reminder("milk") == {"text": "milk", "due": None, "priority": "low"}
    assert add_reminder("milk", priority="high")["priority"] == "high"
    assert add_reminder.__name__ == "add_reminder"
    assert add_reminder.__doc__.startswith("Add a reminder.")
    assert list(inspect.signature(add_reminder).parameters) == ["text", "due", "priority"]


def test_decorator_builds_the_spec() -> None:
    assert add_reminder.spec == ToolSpec(
        name="add_reminder",
        description="Add a reminder.",
        parameters={
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "What to be reminded of."},
                "due": {"type": ["string", "null"], "description": "ISO 8601 date-time.",
                        "default": None},
                "priority": {"type": "string", "enum": ["low", "high"], "default": "low"},
            },
            "required": ["text"],
        },
    )
    assert not add_reminder.side_effect


def test_decorator_options() -> None:
    assert send_mail.name == "mail.send"
    assert send_mail.description == "Send an email now."
    assert send_mail.side_effect and send_mail.spec.side_effect
    assert send_mail(to="a@b.c", body="hi") == "sent to a@b.c"


def test_async_tool_stays_a_coroutine_function() -> None:
    assert fetch_weather.is_async
    assert asyncio.run(fetch_weather("Lyon")) == "sunny in Lyon"


def test_invoke_converts_json_arguments_to_declared_python_types() -> None:
    seen: dict[str, Any] = {}

    def plan(place: Place, when: dt.datetime, level: Priority, span: tuple[int, int],
             tags: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        """Plan a trip."""
        seen.update(place=place, when=when, level=level, span=span, tags=tags)

    Tool.from_function(plan).invoke({"place": {"city": "Lyon"}, "when": "2025-03-01T08:30:00",
                                     "level": "high", "span": [1, 3], "tags": ["a", "a"]})
    assert seen == {"place": Place(city="Lyon", country="FR"),
                    "when": dt.datetime(2025, 3, 1, 8, 30), "level": Priority.high,
                    "span": (1, 3), "tags": {"a"}}


def test_calling_a_schema_only_tool_is_a_clear_error() -> None:
    spec_only = Tool.from_openai({"name": "lookup", "parameters": {"type": "object"}})
    with pytest.raises(TypeError, match="tool 'lookup' has a schema but no implementation"):
        spec_only()
    assert repr(spec_only) == "<Tool lookup (schema only)>"
    assert repr(send_mail) == "<Tool mail.send side_effect>"


OPENAI_WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a location.",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "City and country, e.g. Paris, FR"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location"],
            "additionalProperties": False,
        },
        "strict": True,
    },
}


def test_from_openai_wrapped_and_bare_forms_agree() -> None:
    wrapped = Tool.from_openai(OPENAI_WEATHER)
    bare = Tool.from_openai(OPENAI_WEATHER["function"])
    assert wrapped.spec == bare.spec
    assert wrapped.spec.to_openai()["function"]["parameters"] == (
        OPENAI_WEATHER["function"]["parameters"]
    )
    assert wrapped.description == "Current weather for a location."


def test_from_openai_with_a_function_runs_it() -> None:
    def weather(location: str, unit: str = "celsius") -> str:
        return f"{location}:{unit}"

    made = Tool.from_openai(OPENAI_WEATHER, fn=weather, side_effect=True)
    assert made.side_effect
    assert made.invoke({"location": "Oslo"}) == "Oslo:celsius"
    assert not made.validate({"location": "Oslo", "unit": "kelvin"}).ok


def test_from_openai_without_parameters_takes_no_arguments() -> None:
    made = Tool.from_openai({"name": "now", "description": "The time."})
    assert made.parameters == {"type": "object", "properties": {}}
    assert made.validate({}).ok
    assert not made.validate({"tz": "UTC"}).ok


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"type": "function", "function": "get_weather"}, "needs a 'function' object"),
        ({"description": "no name"}, "tool name must be a non-empty string"),
        ({"name": "two words"}, "without spaces"),
        ({"name": "f", "parameters": {"type": "array"}}, "must be a JSON schema of type 'object'"),
        ({"name": "f", "parameters": {"type": "object", "properties": {"x": {"type": "text"}}}},
         "not a valid JSON schema"),
        (["not", "a", "dict"], "must be an object"),
    ],
)
def test_from_openai_rejects_bad_specs(spec: Any, message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        Tool.from_openai(spec)


def test_from_function_rejects_non_callables() -> None:
    with pytest.raises(TypeError, match="needs a callable"):
        Tool.from_function("not a function")  # type: ignore[arg-type]


def test_bound_methods_become_tools_without_self() -> None:
    class Notes:
        def __init__(self) -> None:
            self.items: list[str] = []

        def add(self, text: str) -> int:
            """Add a note; returns how many notes there are."""
            self.items.append(text)
            return len(self.items)

    notes = Notes()
    made = Tool.from_function(notes.add, name="notes.add")
    assert list(made.parameters["properties"]) == ["text"]
    assert made.invoke({"text": "x"}) == 1 and notes.items == ["x"]


def test_a_schema_nested_absurdly_deep_is_a_value_error_not_a_crash() -> None:
    # An MCP server or a tools file is not the HTTP API: its schemas meet no depth limit first.
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(600):
        schema = {"type": "object", "properties": {"a": schema}}
    with pytest.raises(ValueError, match="nested too deeply"):
        Tool.from_openai({"type": "function", "function": {"name": "f", "parameters": schema}})
