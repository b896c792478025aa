"""Qwen3.5 XML tool calls: ``<function=NAME>`` with ``<parameter=ARG>`` blocks.

Values are written raw when they are strings and as JSON otherwise, so reading
them back needs a rule: with the tool's schema, the parameter's declared type
decides (a ``string`` parameter keeps ``42`` as text); without it, a value is
JSON when it parses and text when it does not. Missing ``</parameter>`` or
``</function>`` closers are tolerated (the next opener ends the block) and
reported; a function cut off by the end of the output is not recovered.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from botpsy.formats.calls import (
    NEED_MORE,
    NOT_A_CALL,
    Decoded,
    Extent,
    ExtentKind,
    Region,
    ToolIndex,
    failure,
    finish_decoded,
    not_a_call,
    parse_error,
)
from botpsy.formats.spans import json_text
from botpsy.tools.jsonvalues import allowed_types, json_type
from botpsy.types import ParseError, ParseErrorKind, ToolCall, ToolSpec

FUNCTION_OPEN = re.compile(r"<function\s*=\s*([^>\n]*)>")
PARAMETER_OPEN = re.compile(r"<parameter\s*=\s*([^>\n]*)>")
FUNCTION_CLOSE = "</function>"
PARAMETER_CLOSE = "</parameter>"
_PY_LITERALS = {"True": True, "False": False, "None": None}
_UNSAFE_RAW = re.compile(r"</?(?:parameter|function|tool_call)\b|<\|[^|<>\s]{1,40}\|>|</?think>")
_ESCAPED_LT = "\\u003c"


def render_value(value: Any) -> str:
    """A parameter value as the format writes it: strings raw, the rest as JSON.

    A string holding chat markup (``</parameter>``, ``<|im_end|>``...) cannot be
    written raw without ending the block; it is written as a JSON string whose
    ``<`` are escaped (``\\u003c``), which ``coerce_value`` reads back.
    """
    if isinstance(value, str) and not _UNSAFE_RAW.search(value) and _ESCAPED_LT not in value:
        return value
    return json_text(value)


def _escaped_string(raw: str) -> str | None:
    """The string a markup-escaped JSON string literal stands for, else None."""
    if _ESCAPED_LT not in raw or not raw.startswith('"'):
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def schema_types(schema: Any) -> list[str]:
    """Declared JSON types, falling back to the types of ``enum``/``const`` values."""
    types = allowed_types(schema)
    if types or not isinstance(schema, dict):
        return types
    values = schema.get("enum", []) + ([schema["const"]] if "const" in schema else [])
    return sorted({json_type(v) for v in values})


def deref(schema: Any, root: Any) -> Any:
    """The schema a local ``$ref`` (``#/$defs/X``, any prefix before ``#``) points to."""
    for _ in range(8):  # a few hops; cycles end here
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if not isinstance(ref, str) or "#/" not in ref:
            return schema
        target = root
        for part in ref.split("#", 1)[1].split("/")[1:]:
            if not isinstance(target, dict) or part not in target:
                return schema
            target = target[part]
        schema = target
    return schema


def coerce_value(raw: str, schema: Any) -> Any:
    """The typed value of a raw parameter text (see the module docstring for the rule)."""
    types = schema_types(schema)
    if types == ["string"]:
        escaped = _escaped_string(raw)
        return raw if escaped is None else escaped
    try:
        value = json.loads(raw, parse_constant=_reject_constant)
    except ValueError:
        stripped = raw.strip()
        if not types or stripped not in _PY_LITERALS:
            return raw
        value = _PY_LITERALS[stripped]
    kind = json_type(value)
    if not types or kind in types or (kind == "integer" and "number" in types):
        return value
    return raw


def _clean_name(text: str) -> str:
    return text.strip().strip("\"'").strip()


def _trim(value: str) -> str:
    """Drop the one newline the format puts after ``>`` and before the closer."""
    value = value.removeprefix("\n")
    return value.removesuffix("\n")


@dataclass
class _Arguments:
    values: dict[str, Any] = field(default_factory=dict)
    unclosed: bool = False  # some ``</parameter>`` was missing
    errors: list[ParseError] = field(default_factory=list)


def _parameters(inner: str, spec: ToolSpec | None) -> _Arguments:
    """The arguments written inside one function block."""
    properties = (spec.parameters.get("properties") or {}) if spec else {}
    opens = list(PARAMETER_OPEN.finditer(inner))
    found = _Arguments()
    for index, match in enumerate(opens):
        end = opens[index + 1].start() if index + 1 < len(opens) else len(inner)
        segment = inner[match.end() : end]
        close = segment.rfind(PARAMETER_CLOSE)
        if close < 0:
            found.unclosed = True
            segment = segment.rstrip()
        value = _trim(segment[:close] if close >= 0 else segment)
        key = _clean_name(match.group(1))
        if not key:
            found.errors.append(
                parse_error(ParseErrorKind.bad_arguments, "parameter without a name", match.group())
            )
            continue
        schema = deref(properties.get(key), spec.parameters if spec else None)
        found.values[key] = coerce_value(value, schema)
    return found


def _function(
    region: Region, match: re.Match[str], end: int, last: bool, tools: ToolIndex | None
) -> Decoded:
    """One ``<function=...>`` block (up to ``end``) as a call or an error."""
    raw = region.body[match.start() : end]
    chunk = region.body[match.end() : end]
    close = chunk.rfind(FUNCTION_CLOSE)
    if close < 0 and last and region.cut_off:
        return Decoded(
            errors=[parse_error(ParseErrorKind.truncated, "output ended inside a tool call", raw)],
            leftover=raw,
        )
    name = _clean_name(match.group(1))
    if not name:
        return Decoded(
            errors=[parse_error(ParseErrorKind.missing_name, "function without a name", raw)],
            leftover=raw,
        )
    found = _parameters(chunk[:close] if close >= 0 else chunk, (tools or {}).get(name))
    decoded = Decoded(calls=[ToolCall(name=name, arguments=found.values)], errors=found.errors)
    if close >= 0:
        decoded.leftover = chunk[close + len(FUNCTION_CLOSE) :].strip()
    if (close < 0 and region.closed) or found.unclosed:
        decoded.errors.append(
            parse_error(
                ParseErrorKind.unclosed_tag,
                "missing </parameter> or </function>",
                raw,
                recovered=True,
            )
        )
    return decoded


def decode_xml(region: Region, tools: ToolIndex | None) -> Decoded:
    """The calls of a region holding ``<function=...>`` blocks."""
    opens = list(FUNCTION_OPEN.finditer(region.body))
    if not region.tagged and not _looks_complete(region):
        if region.cut_off:
            return failure(region, ParseErrorKind.truncated, "output ended inside a tool call")
        return not_a_call(region)
    decoded = Decoded()
    leftovers = [region.body[: opens[0].start()].strip()] if opens else []
    for index, match in enumerate(opens):
        end = opens[index + 1].start() if index + 1 < len(opens) else len(region.body)
        one = _function(region, match, end, index == len(opens) - 1, tools)
        decoded.calls += one.calls
        decoded.errors += one.errors
        leftovers.append(one.leftover)
    decoded.leftover = "\n".join(part for part in leftovers if part)
    if not decoded.calls:
        decoded.leftover = region.raw
    return finish_decoded(region, decoded, primary=False)


def _looks_complete(region: Region) -> bool:
    """An untagged ``<function=`` in prose counts as a call only when it has a
    closer or a parameter (``use <function=name>`` in a sentence is not a call)."""
    return FUNCTION_CLOSE in region.body or PARAMETER_OPEN.search(region.body) is not None


def xml_extent(text: str, start: int, stop: int, final: bool) -> Extent:
    """How far an untagged ``<function=...>`` block starting at ``start`` reaches.

    The opener must end its line, as the format writes it; ``<function=x> is``
    inside a sentence is prose.
    """
    opener = FUNCTION_OPEN.match(text, start, stop)
    after = text[opener.end() : stop].lstrip(" \t") if opener else ""
    if opener is None and "\n" in text[start:stop]:
        return NOT_A_CALL
    if opener is None or not after:
        return Extent(ExtentKind.span, stop, closed=False) if final else NEED_MORE
    if not after.startswith("\n"):
        return NOT_A_CALL
    following = FUNCTION_OPEN.search(text, start + 1, stop)
    limit = following.start() if following else stop
    close = text.find(FUNCTION_CLOSE, start, limit)
    if close >= 0:
        return Extent(ExtentKind.span, close + len(FUNCTION_CLOSE), closed=True)
    if following is not None or final:
        return Extent(ExtentKind.span, limit, closed=False)
    return NEED_MORE
