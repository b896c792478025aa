"""Parsers never raise and always return typed results, whatever the model wrote."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from botpsy.formats import FORMATS, get_format
from botpsy.types import ParseError, ParseErrorKind, ParseResult, ToolCall

from .samples import TOOLS
from .strategies import ODD_TEXT


def check_typed(result: ParseResult, text: str) -> None:
    assert isinstance(result, ParseResult)
    assert isinstance(result.content, str)
    assert result.reasoning is None or isinstance(result.reasoning, str)
    for call in result.tool_calls:
        assert isinstance(call, ToolCall) and isinstance(call.name, str) and call.name
        assert isinstance(call.arguments, dict)
    for error in result.errors:
        assert isinstance(error, ParseError) and isinstance(error.kind, ParseErrorKind)
        if not error.recovered:  # an unrecovered call keeps its text
            assert error.raw in text


@settings(max_examples=200, deadline=None)
@given(fmt_name=st.sampled_from(sorted(FORMATS)), text=ODD_TEXT, with_tools=st.booleans())
def test_parse_never_raises(fmt_name: str, text: str, with_tools: bool):
    check_typed(get_format(fmt_name).parse(text, TOOLS if with_tools else None), text)


@settings(max_examples=60, deadline=None)
@given(
    fmt_name=st.sampled_from(sorted(FORMATS)),
    text=st.text(alphabet="{}[]()\"'\\<>/:,=\n ab_", max_size=120),
)
def test_bracket_soup_never_raises(fmt_name: str, text: str):
    check_typed(get_format(fmt_name).parse(text), text)


def test_deep_nesting_does_not_crash():
    for fmt_name in FORMATS:
        for text in (
            "[" * 5000,
            "{" * 5000,
            "<tool_call>" + "[" * 5000 + "</tool_call>",
            "[f(a=" + "[" * 3000 + "1" + "]" * 3000 + ")]",
        ):
            check_typed(get_format(fmt_name).parse(text), text)
