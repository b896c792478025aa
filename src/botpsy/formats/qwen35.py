"""The qwen35 format: Qwen3.5's XML calls.

A call is::

    <tool_call>
    <function=NAME>
    <parameter=ARG>
    VALUE
    </parameter>
    </function>
    </tool_call>

with string values raw and other values as JSON. Reading values back uses the
tool schemas when ``parse``/``stream_parser`` are given the tools (xmlcall.py).
Reasoning goes in ``<think>...</think>`` before the answer.
"""

from __future__ import annotations

from botpsy.formats.chatml import ChatMLFormat
from botpsy.formats.grammar import qwen35_grammar
from botpsy.formats.scan import CALL_CLOSE, CALL_OPEN
from botpsy.formats.syntaxes import TaggedSyntax
from botpsy.formats.xmlcall import FUNCTION_CLOSE, PARAMETER_CLOSE, render_value
from botpsy.types import ToolCall, ToolSpec


def render_call(call: ToolCall) -> str:
    params = "".join(
        f"<parameter={key}>\n{render_value(value)}\n{PARAMETER_CLOSE}\n"
        for key, value in call.arguments.items()
    )
    return f"{CALL_OPEN}\n<function={call.name}>\n{params}{FUNCTION_CLOSE}\n{CALL_CLOSE}"


class Qwen35Format(ChatMLFormat):
    """XML ``<function=...>``/``<parameter=...>`` calls inside ``<tool_call>``."""

    name = "qwen35"
    syntax = TaggedSyntax()
    call_instructions = (
        "To call a function, write one block per call in exactly this layout:\n"
        f"{CALL_OPEN}\n<function=function_name>\n<parameter=argument_name>\nvalue\n"
        f"{PARAMETER_CLOSE}\n{FUNCTION_CLOSE}\n{CALL_CLOSE}\n"
        "Write string values as plain text and every other value as JSON. Give every "
        "required argument. Any explanation goes before the calls, never after them."
    )

    def render_calls(self, calls: list[ToolCall]) -> str:
        return "\n".join(render_call(c) for c in calls)

    def call_grammar(
        self, tools: list[ToolSpec], tool_choice: str, parallel: bool = True
    ) -> str:
        return qwen35_grammar(tools, tool_choice, parallel)
