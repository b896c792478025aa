"""The two call syntaxes the scanner is run with.

``TaggedSyntax`` serves both hermes (JSON) and qwen35 (XML): inside
``<tool_call>`` either body is accepted, because a model fine-tuned on one often
slips into the other and a call must not be lost for it. Outside tags it
recovers bare JSON call objects and bare ``<function=...>`` blocks.
``PythonicSyntax`` reads call lists in prose (its normal form) and bare call lines.
"""

from __future__ import annotations

import re

from botpsy.formats.calls import Decoded, Extent, Region, ToolIndex, failure
from botpsy.formats.jsoncall import decode_json, json_extent
from botpsy.formats.pycall import decode_python, py_extent
from botpsy.formats.spans import FENCE, strip_fences
from botpsy.formats.xmlcall import FUNCTION_OPEN, PARAMETER_OPEN, decode_xml, xml_extent
from botpsy.types import ParseErrorKind

FUNCTION_START = "<function="


class TaggedSyntax:
    """JSON or XML calls, normally inside ``<tool_call>`` tags."""

    candidate_re = re.compile(r"<function\s*=|```|[\[{]")
    hold_prefixes = (FUNCTION_START, FENCE)
    call_openers = ("<tool_call>", FUNCTION_START)

    def extent(self, text: str, start: int, stop: int, final: bool) -> Extent:
        if text.startswith("<function", start):
            return xml_extent(text, start, stop, final)
        return json_extent(text, start, stop, final)

    def decode(self, region: Region, tools: ToolIndex | None) -> Decoded:
        if FUNCTION_OPEN.search(region.body):
            return decode_xml(region, tools)
        if region.tagged and PARAMETER_OPEN.search(region.body):
            return failure(region, ParseErrorKind.missing_name, "parameters without <function=...>")
        return decode_json(region)


class PythonicSyntax:
    """``[f(a=1), g(b="x")]`` lists in the answer, or single calls on their own line."""

    candidate_re = re.compile(r"\[|```|^[ \t]*[A-Za-z_]", re.MULTILINE)
    hold_prefixes = (FENCE,)
    call_openers = ("<tool_call>",)

    def extent(self, text: str, start: int, stop: int, final: bool) -> Extent:
        return py_extent(text, start, stop, final)

    def decode(self, region: Region, tools: ToolIndex | None) -> Decoded:
        if region.tagged and strip_fences(region.body).strip().startswith("{"):
            return decode_json(region)
        return decode_python(region, tools)
