"""The hermes format: JSON calls in ``<tool_call>`` tags.

Used by Qwen2.5, Qwen3, Hermes and SmolLM2 fine-tunes.

A call is ``<tool_call>\\n{"name": ..., "arguments": {...}}\\n</tool_call>``, one
block per call; tool results go back in ``<tool_response>`` blocks of a user turn
(see chatml.py for the conventions every format shares).
"""

from __future__ import annotations

from botpsy.formats.chatml import ChatMLFormat
from botpsy.formats.grammar import hermes_grammar
from botpsy.formats.scan import CALL_CLOSE, CALL_OPEN
from botpsy.formats.spans import json_text
from botpsy.formats.syntaxes import TaggedSyntax
from botpsy.types import ToolCall, ToolSpec


class HermesFormat(ChatMLFormat):
    """JSON tool calls inside ``<tool_call></tool_call>``."""

    name = "hermes"
    syntax = TaggedSyntax()
    call_instructions = (
        "To call a function, write a JSON object with its name and arguments inside "
        "<tool_call></tool_call> tags, one block per call:\n"
        f'{CALL_OPEN}\n{{"name": "function_name", "arguments": {{"argument_name": "value"}}}}\n'
        f"{CALL_CLOSE}"
    )

    def render_calls(self, calls: list[ToolCall]) -> str:
        return "\n".join(
            f"{CALL_OPEN}\n{json_text({'name': c.name, 'arguments': c.arguments})}\n{CALL_CLOSE}"
            for c in calls
        )

    def call_grammar(
        self, tools: list[ToolSpec], tool_choice: str, parallel: bool = True
    ) -> str:
        return hermes_grammar(tools, tool_choice, parallel)
