"""render_assistant -> parse gives the message back, for every format and every JSON type."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botpsy.formats import FORMATS, get_format
from botpsy.tools.jsonvalues import json_type
from botpsy.types import Message, ToolCall, ToolSpec

from .strategies import CALLS, PROSE

ALL_TYPES = {
    "text": "two\nlines, \"double\" and 'single' quotes, café, 日本, 🎉, <b>tag</b> & \\ slash",
    "count": 42,
    "negative": -7,
    "ratio": 0.25,
    "big": 12345678901234,
    "flag": True,
    "off": False,
    "nothing": None,
    "items": [1, "two", [3.5], {"k": None}],
    "nested": {"a": {"b": [True, {"c": "d"}]}, "empty": {}, "none": []},
    "numeric_string": "42",
    "empty": "",
    "markup": "ends </tool_call> and </parameter> and <|im_end|> and \\u003c",
}


def specs_for(calls: list[ToolCall]) -> list[ToolSpec]:
    """Schemas whose types match the calls' values (qwen35 reads types from them)."""
    specs: dict[str, ToolSpec] = {}
    for call in calls:
        known = specs[call.name].parameters["properties"] if call.name in specs else {}
        properties = {key: {"type": json_type(value)} for key, value in call.arguments.items()}
        specs[call.name] = ToolSpec(
            name=call.name, parameters={"type": "object", "properties": {**known, **properties}}
        )
    return list(specs.values())


def round_trip(fmt_name: str, message: Message) -> Message:
    fmt = get_format(fmt_name)
    text = fmt.render_assistant(message)
    result = fmt.parse(text, specs_for(message.tool_calls))
    assert result.errors == [], text
    return Message(
        role="assistant",
        content=result.content,
        reasoning=result.reasoning,
        tool_calls=result.tool_calls,
    )


def same(message: Message, back: Message) -> None:
    assert back.content == message.content
    assert back.reasoning == message.reasoning
    assert [(c.name, c.arguments) for c in back.tool_calls] == [
        (c.name, c.arguments) for c in message.tool_calls
    ]


@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
@pytest.mark.parametrize(
    "message",
    [
        Message(
            role="assistant",
            content="",
            tool_calls=[ToolCall(name="everything", arguments=ALL_TYPES)],
        ),
        Message(
            role="assistant",
            content="Checking both cities.",
            reasoning="Two cities, two calls.",
            tool_calls=[
                ToolCall(name="get_weather", arguments={"city": "Paris"}),
                ToolCall(name="get_weather", arguments={"city": "Oslo", "days": 3}),
            ],
        ),
        Message(
            role="assistant", content="Paris is sunny today.", reasoning="The tool said sunny."
        ),
        Message(role="assistant", content="Hello!"),
        Message(role="assistant", content="", reasoning="", tool_calls=[ToolCall(name="get_time")]),
    ],
    ids=["all-types", "two-calls-reasoning", "answer-reasoning", "plain", "no-arguments"],
)
def test_round_trip(fmt_name: str, message: Message):
    same(message, round_trip(fmt_name, message))


def test_pythonic_round_trips_non_identifier_argument_names():
    call = ToolCall(name="lookup", arguments={"user-id": 3, "class": "a", "ok": True})
    text = get_format("pythonic").render_assistant(Message(role="assistant", tool_calls=[call]))
    assert text == '[lookup(ok=True, **{"user-id": 3, "class": "a"})]<|im_end|>'
    assert get_format("pythonic").parse(text).tool_calls[0].arguments == call.arguments


def test_pythonic_refuses_names_python_cannot_call():
    message = Message(role="assistant", tool_calls=[ToolCall(name="get-weather")])
    with pytest.raises(ValueError, match="dotted identifier"):
        get_format("pythonic").render_assistant(message)


def test_qwen35_without_schema_reads_json_looking_strings_as_json():
    """The one ambiguity of the XML format: documented, and lifted by passing tools."""
    fmt = get_format("qwen35")
    text = fmt.render_assistant(
        Message(role="assistant", tool_calls=[ToolCall(name="f", arguments={"code": "42"})])
    )
    assert fmt.parse(text).tool_calls[0].arguments == {"code": 42}
    spec = ToolSpec(
        name="f", parameters={"type": "object", "properties": {"code": {"type": "string"}}}
    )
    assert fmt.parse(text, [spec]).tool_calls[0].arguments == {"code": "42"}


def test_render_assistant_needs_an_assistant_message():
    with pytest.raises(ValueError, match="assistant"):
        get_format("hermes").render_assistant(Message(role="user", content="hi"))


@settings(max_examples=60, deadline=None)
@given(
    fmt_name=st.sampled_from(sorted(FORMATS)),
    calls=CALLS,
    content=st.none() | PROSE,
    reasoning=st.none() | PROSE,
)
def test_round_trip_property(fmt_name: str, calls: list[ToolCall], content: Any, reasoning: Any):
    message = Message(
        role="assistant", content=content or "", reasoning=reasoning, tool_calls=calls
    )
    same(message, round_trip(fmt_name, message))
