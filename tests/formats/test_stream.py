"""The stream parser: held-back tags, events that match the final parse, any chunking."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botpsy.formats import FORMATS, get_format
from botpsy.types import ParseResult, StreamEvent

from .samples import TOOLS
from .strategies import ODD_TEXT

CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'


def run(fmt_name: str, chunks: list[str]) -> tuple[list[StreamEvent], ParseResult]:
    parser = get_format(fmt_name).stream_parser(TOOLS)
    events = [event for chunk in chunks for event in parser.feed(chunk)]
    events += parser.flush()
    return events, parser.finish()


def texts(events: list[StreamEvent], kind: str) -> str:
    return "".join(e.text for e in events if e.type == kind)


def without_ids(result: ParseResult) -> dict:
    dumped = result.model_dump()
    for call in dumped["tool_calls"]:
        call.pop("id")
    return dumped


def test_partial_tag_is_held_back_until_it_is_known():
    parser = get_format("hermes").stream_parser()
    assert [e.text for e in parser.feed("Let me check. <tool_")] == ["Let me check."]
    assert parser.feed('call>\n{"name": "get_weather", ') == []
    events = parser.feed('"arguments": {"city": "Paris"}}\n</tool_call>')
    assert [e.type for e in events] == ["tool_call"]
    assert events[0].tool_call.arguments == {"city": "Paris"}


def test_a_false_alarm_is_released_as_text():
    parser = get_format("hermes").stream_parser()
    assert [e.text for e in parser.feed("use <tool")] == ["use"]
    assert [e.text for e in parser.feed("box> now")] == [" <toolbox> now"]


def test_bare_json_call_is_not_shown_as_text():
    events, result = run(
        "hermes", ["Sure. ", '{"na', 'me": "get_weather", "argu', 'ments": {"city": "Paris"}}']
    )
    assert texts(events, "text") == "Sure."
    assert [e.tool_call.name for e in events if e.type == "tool_call"] == ["get_weather"]
    assert result.content == "Sure."


def test_reasoning_streams_as_reasoning():
    events, result = run(
        "qwen35", ["<thi", "nk>\nThe user", " wants Paris.\n</th", "ink>\n\nSunny."]
    )
    assert texts(events, "reasoning") == "The user wants Paris."
    assert texts(events, "text") == "Sunny."
    assert result.reasoning == "The user wants Paris." and result.content == "Sunny."


def test_flush_releases_what_was_held_at_the_end():
    parser = get_format("hermes").stream_parser()
    assert [e.text for e in parser.feed("Price is <")] == ["Price is"]
    assert [e.text for e in parser.flush()] == [" <"]
    assert parser.finish().content == "Price is <"


def test_feed_after_finish_is_an_error():
    parser = get_format("pythonic").stream_parser()
    parser.feed("[f(a=1)]")
    parser.finish()
    with pytest.raises(RuntimeError, match="finish"):
        parser.feed("more")


def test_tool_call_events_carry_the_final_calls():
    events, result = run("hermes", [CALL[:20], CALL[20:], "\n" + CALL])
    assert [e.tool_call for e in events if e.type == "tool_call"] == result.tool_calls
    assert len(result.tool_calls) == 2


def chunked(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


def opened_by_prompt(text: str) -> bool:
    """``</think>`` before any ``<think>``: the one case a stream cannot show right away."""
    close = text.find("</think>")
    return close >= 0 and not (0 <= text.find("<think>") < close)


@settings(max_examples=150, deadline=None)
@given(
    fmt_name=st.sampled_from(sorted(FORMATS)),
    text=ODD_TEXT,
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12),
)
def test_any_chunking_gives_the_full_parse(fmt_name: str, text: str, cuts: list[int]):
    events, result = run(fmt_name, chunked(text, cuts))
    assert without_ids(result) == without_ids(get_format(fmt_name).parse(text, TOOLS))
    assert [e.tool_call for e in events if e.type == "tool_call"] == result.tool_calls
    if not opened_by_prompt(text):
        assert texts(events, "text") == result.content
        assert texts(events, "reasoning") == (result.reasoning or "")


@settings(max_examples=40, deadline=None)
@given(fmt_name=st.sampled_from(sorted(FORMATS)), text=ODD_TEXT)
def test_one_character_at_a_time(fmt_name: str, text: str):
    _events, result = run(fmt_name, list(text))
    assert without_ids(result) == without_ids(get_format(fmt_name).parse(text, TOOLS))


def test_a_call_streamed_before_a_coming_tag_is_kept():
    """Streamed a character at a time, the "<" of a coming <tool_call> was read as part of
    the bare call before it, and the call was lost."""
    text = 'get_weather(city="Rome")<tool_call>'
    _events, result = run("pythonic", list(text))
    assert without_ids(result) == without_ids(get_format("pythonic").parse(text, TOOLS))
    assert [c.name for c in result.tool_calls] == ["get_weather"]


def test_a_fenced_call_streamed_a_character_at_a_time_keeps_its_fence():
    text = '```json\nget_weather(city="Rome")'
    _events, result = run("pythonic", list(text))
    assert without_ids(result) == without_ids(get_format("pythonic").parse(text, TOOLS))
