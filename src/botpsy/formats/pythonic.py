"""The pythonic format: ``[get_weather(city="Paris"), set_timer(minutes=5)]`` (BFCL prompt mode).

The model answers with nothing but a Python list of calls with keyword arguments
and literal values; pycall.py reads it with ``ast`` (literals only, never
evaluated). Functions are described as JSON in the system turn like the other
formats, so the three differ only in how calls are written.
"""

from __future__ import annotations

from botpsy.formats.chatml import ChatMLFormat
from botpsy.formats.grammar import pythonic_grammar
from botpsy.formats.pycall import render_call_list
from botpsy.formats.syntaxes import PythonicSyntax
from botpsy.types import ToolCall, ToolSpec


class PythonicFormat(ChatMLFormat):
    """Python call lists in the answer text."""

    name = "pythonic"
    syntax = PythonicSyntax()
    call_instructions = (
        "When you call functions, answer only with a Python list of calls that use keyword "
        "arguments and literal values, and write nothing else:\n"
        '[function_name(argument_name="value", other_argument=1), other_function(flag=True)]'
    )

    def render_calls(self, calls: list[ToolCall]) -> str:
        return render_call_list(calls) if calls else ""

    def call_prefix(self) -> str:
        return "["

    def call_grammar(
        self, tools: list[ToolSpec], tool_choice: str, parallel: bool = True
    ) -> str:
        return pythonic_grammar(tools, tool_choice, parallel)
