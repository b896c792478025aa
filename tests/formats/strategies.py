"""Hypothesis strategies for the format tests: JSON values, calls, and odd model text."""

from __future__ import annotations

import keyword

from hypothesis import strategies as st

from botpsy.types import ToolCall

# Identifiers a Python call can use (the pythonic format refuses keywords such as ``if``).
NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n)
)
# Prose that cannot itself look like markup or a call (brackets, braces, tags).
PROSE = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 .,!?'\-]{0,40}[A-Za-z0-9.!?]", fullmatch=True)

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
ARGUMENTS = st.dictionaries(NAMES, JSON_VALUES, max_size=5)
# One call per tool name: a tool's parameters have one type each, as in a real schema.
CALLS = st.lists(
    st.builds(ToolCall, name=NAMES, arguments=ARGUMENTS),
    max_size=3,
    unique_by=lambda call: call.name,
)

# Pieces of real and broken calls, for text built from fragments.
FRAGMENTS = [
    "<tool_call>",
    "</tool_call>",
    "<tool_call>\n",
    "\n</tool_call>",
    "<think>",
    "</think>",
    "<|im_end|>",
    "<|endoftext|>",
    "<function=get_weather>",
    "</function>",
    "<parameter=city>",
    "</parameter>",
    "\nParis\n",
    '{"name": "get_weather", "arguments": {"city": "Paris"}}',
    '{"name": ',
    '"get_weather"',
    ', "arguments": ',
    '{"city": "Oslo"',
    "}",
    "{",
    "[",
    "]",
    "```json\n",
    "```",
    "\n",
    " ",
    "'",
    '"',
    ",",
    'get_weather(city="Rome")',
    "[get_weather(",
    "city=",
    ")",
    "True",
    "null",
    "Sure, ",
    "I will check.",
    "<tool",
    "_call>",
    "<func",
    "tion=",
]
FRAGMENT_TEXT = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=14).map("".join)
ODD_TEXT = st.text(max_size=200) | FRAGMENT_TEXT
