"""JSON tool calls: ``{"name": ..., "arguments": {...}}`` and the ways small models bend it.

Accepted shapes: one object or several (a list, or objects one after another),
OpenAI's ``{"function": {...}}`` wrapper, ``parameters``/``args`` for
``arguments``, arguments given as a JSON string, code fences. Broken JSON
(single quotes, trailing commas, Python literals, a missing brace) goes through
``json_repair``; a repair is accepted only when it yields an object with a name,
and it is reported (``invalid_json``, ``recovered=True``). A call cut off by the
end of the output is never repaired: its arguments may be incomplete.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import json_repair

from botpsy.formats.calls import (
    NEED_MORE,
    NOT_A_CALL,
    CallOutcome,
    Decoded,
    Extent,
    ExtentKind,
    Region,
    failure,
    finish_decoded,
    not_a_call,
    parse_error,
)
from botpsy.formats.spans import FENCE, balance, closing_fence_end, fence_body_start, strip_fences
from botpsy.types import ParseError, ParseErrorKind, ToolCall

NAME_KEYS = ("name", "function", "tool_name")
ARGUMENT_KEYS = ("arguments", "parameters", "args")
# How a JSON call object may begin once whitespace is removed; enough to tell a
# call from JSON data in prose (``{"city": ...}`` is not a call).
_HEADS = tuple(
    f"{{{quote}{key}{quote}:" for key in (*NAME_KEYS, "type", "id") for quote in ('"', "'", "")
)
_HEAD_WINDOW = 400  # characters after which an undecided head counts as prose
_SPACE = re.compile(r"\s+")


def _head_state(text: str) -> ExtentKind:
    """Whether ``text`` (starting at ``{``, ``[`` or a fence) begins a JSON call."""
    compact = _SPACE.sub("", text[:_HEAD_WINDOW])
    if compact.startswith(FENCE):
        compact = re.sub(r"\A```[A-Za-z_]*", "", compact)
        if not compact:
            return ExtentKind.wait
    elif FENCE.startswith(compact):
        return ExtentKind.wait
    compact = compact.removeprefix("[")
    if not compact:
        return ExtentKind.wait
    if any(compact.startswith(head) for head in _HEADS):
        return ExtentKind.span
    if any(head.startswith(compact) for head in _HEADS) and len(text) < _HEAD_WINDOW:
        return ExtentKind.wait
    return ExtentKind.no


def json_extent(text: str, start: int, stop: int, final: bool) -> Extent:
    """How far an untagged JSON call starting at ``start`` reaches."""
    head = _head_state(text[start:stop])
    if head is ExtentKind.wait:
        return NOT_A_CALL if final else NEED_MORE
    if head is ExtentKind.no:
        return NOT_A_CALL
    fenced = text.startswith(FENCE, start)
    body = fence_body_start(text, start, stop) if fenced else start
    body = _skip_space(text, body, stop) if body is not None else None
    if body is None or body >= stop:
        return NOT_A_CALL if final else NEED_MORE
    scan = balance(text, body, stop)
    if scan.end is None:
        return Extent(ExtentKind.span, stop, closed=False) if final else NEED_MORE
    end = closing_fence_end(text, scan.end, stop, final) if fenced else scan.end
    return NEED_MORE if end is None else Extent(ExtentKind.span, end, closed=True)


def _skip_space(text: str, pos: int, stop: int) -> int:
    while pos < stop and text[pos].isspace():
        pos += 1
    return pos


@dataclass(frozen=True)
class _Item:
    """One JSON value of a call body and the text it was read from (kept for errors)."""

    value: Any
    raw: str


@dataclass(frozen=True)
class _Values:
    """JSON values read from a call body; ``repaired`` when json_repair had to fix them."""

    items: list[_Item]
    repaired: bool = False


def _strict_items(body: str) -> list[_Item] | None:
    """Every JSON value in ``body`` (separated by whitespace or commas), or None."""
    decoder = json.JSONDecoder()
    items, pos = [], 0
    while True:
        while pos < len(body) and (body[pos].isspace() or body[pos] == ","):
            pos += 1
        if pos == len(body):
            return items
        try:
            value, end = decoder.raw_decode(body, pos)
        except (ValueError, RecursionError):
            return None
        items.append(_Item(value, body[pos:end]))
        pos = end


def _repaired_value(body: str) -> Any:
    """What json_repair makes of ``body``: an object or a list of values, else None."""
    try:
        value = json_repair.loads(body)
    except (ValueError, TypeError, IndexError, KeyError, RecursionError):
        return None  # json_repair is heuristic: a failure just means "not repairable"
    if isinstance(value, dict):
        return value
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return value
    return None


def _flatten(items: list[_Item]) -> list[_Item]:
    """One level of lists unwrapped: ``[{call}, {call}]`` is two calls."""
    flat: list[_Item] = []
    for item in items:
        if isinstance(item.value, list):
            flat.extend(_Item(v, item.raw) for v in item.value)
        else:
            flat.append(item)
    return flat


def _read_values(region: Region, body: str) -> _Values | None:
    """The values of a region's body: strict JSON, else repaired JSON.

    A region without its closer (``</tool_call>`` or, untagged, its last brace)
    is read only when nothing but the call's own outer brackets is missing, so
    that no argument can have been cut; such a body is then read strictly (no
    repair: it is a guess on cut text) and must hold its arguments key.
    """
    missing = "" if region.closed else _missing_closers(body)
    if missing is None:
        return None
    strict = _strict_items(body + missing)
    if missing:
        if strict is None:
            return None
        items = [_Item(i.value, region.raw) for i in _flatten(strict)]
        complete = all(isinstance(i.value, dict) and _argument_key(i.value) for i in items)
        return _Values(items) if complete else None
    if strict is not None:
        return _Values(_flatten(strict))
    repaired = _repaired_value(body)
    if repaired is None:
        return None
    return _Values(_flatten([_Item(repaired, region.raw)]), repaired=True)


def _missing_closers(body: str) -> str | None:
    """The brackets to append when only the outer call brackets are open; None when
    the body ends inside a string or inside the arguments."""
    start = _skip_space(body, 0, len(body))
    if body[start : start + 1] not in ("{", "["):
        return ""
    scan = balance(body, start, len(body))
    if scan.end is not None:
        return ""
    outer = "[{" if body[start] == "[" else "{"
    if scan.in_string or not outer.startswith(scan.open_stack):
        return None
    return scan.closers()


def _argument_key(obj: dict[str, Any]) -> str | None:
    inner = obj.get("function") if isinstance(obj.get("function"), dict) else obj
    return next((key for key in ARGUMENT_KEYS if key in inner), None)


def value_to_call(value: Any, raw: str, *, require_arguments: bool) -> CallOutcome | None:
    """A call from one decoded JSON value; None when the value is not call-shaped.

    ``require_arguments`` (for JSON found in prose) asks for an arguments key so
    that data such as ``{"name": "Bob"}`` is not taken for a call.
    """
    if not isinstance(value, dict):
        return None
    inner = value["function"] if isinstance(value.get("function"), dict) else value
    name = next((inner[k] for k in NAME_KEYS if isinstance(inner.get(k), str)), None)
    key = _argument_key(value)
    if require_arguments and key is None and inner is value:
        return None
    if name is None or not name.strip():
        return CallOutcome(
            error=parse_error(ParseErrorKind.missing_name, "call without a name", raw)
        )
    arguments = inner.get(key) if key else None
    parsed = _arguments(arguments, raw)
    if isinstance(parsed, ParseError):
        return CallOutcome(error=parsed)
    return CallOutcome(call=ToolCall(name=name.strip(), arguments=parsed))


def _arguments(value: Any, raw: str) -> dict[str, Any] | ParseError:
    """The arguments object; a JSON string is decoded (models often double-encode)."""
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        strict = _strict_items(value)
        decoded = strict[0].value if strict and len(strict) == 1 else _repaired_value(value)
        if isinstance(decoded, dict):
            return decoded
        return parse_error(
            ParseErrorKind.bad_arguments, "arguments string is not a JSON object", raw
        )
    if isinstance(value, dict):
        return value
    return parse_error(
        ParseErrorKind.bad_arguments,
        f"arguments must be a JSON object, got {type(value).__name__}",
        raw,
    )


def decode_json(region: Region) -> Decoded:
    """The calls of a region that holds JSON (tagged, or a JSON candidate in prose)."""
    body = strip_fences(region.body).strip()
    if not body:
        if not region.tagged:
            return not_a_call(region)
        kind = ParseErrorKind.truncated if region.cut_off else ParseErrorKind.missing_name
        return failure(region, kind, "empty tool call")
    values = _read_values(region, body)
    if values is None:
        if region.cut_off:
            return failure(region, ParseErrorKind.truncated, "output ended inside a tool call")
        if not region.closed:
            return failure(
                region,
                ParseErrorKind.unclosed_tag,
                "tool call ended before its arguments were complete",
            )
        if not region.tagged:
            return not_a_call(region)
        return failure(region, ParseErrorKind.invalid_json, "tool call body is not JSON")
    decoded = _collect(values.items, region)
    if not decoded.is_call:
        if not region.tagged:
            return not_a_call(region)
        return failure(region, ParseErrorKind.missing_name, "no call object in the tool call")
    if values.repaired and decoded.calls:
        decoded.errors.insert(
            0,
            parse_error(
                ParseErrorKind.invalid_json, "broken JSON repaired", region.raw, recovered=True
            ),
        )
    return finish_decoded(region, decoded, primary=False)


def _collect(items: list[_Item], region: Region) -> Decoded:
    """Calls and errors of each value; the text of the other values goes back to the content."""
    decoded = Decoded()
    failed: list[str] = []
    for item in items:
        outcome = value_to_call(item.value, item.raw, require_arguments=not region.tagged)
        if outcome is None and region.tagged:
            outcome = CallOutcome(
                error=parse_error(ParseErrorKind.missing_name, "not a call object", item.raw)
            )
        if outcome is None:  # JSON data next to calls in prose: it stays in the content
            failed.append(item.raw)
            continue
        if outcome.call is not None:
            decoded.calls.append(outcome.call)
        elif outcome.error is not None:
            decoded.errors.append(outcome.error)
            failed.append(outcome.error.raw)
    if failed:
        kept = list(dict.fromkeys(failed))  # list members share their list's text
        decoded.leftover = region.raw if not decoded.calls else "\n".join(kept)
    return decoded
