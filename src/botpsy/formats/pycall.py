"""Pythonic tool calls: ``[get_weather(city="Paris"), set_timer(minutes=5)]``.

This is the BFCL prompt-mode syntax. Calls are read with Python's ``ast`` and
only literal values are accepted (``ast.literal_eval`` semantics, never
evaluation); JSON spellings ``true``/``false``/``null`` are tolerated since small
models mix the two. Positional arguments are mapped to parameter names when the
tool's schema is known. A call on its own line without the list brackets is
recovered and reported as ``missing_opener``.
"""

from __future__ import annotations

import ast
import keyword
import re
import warnings
from typing import Any

from botpsy.formats.calls import (
    NEED_MORE,
    NOT_A_CALL,
    CallOutcome,
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
from botpsy.formats.spans import (
    FENCE,
    balance,
    closing_fence_end,
    fence_body_start,
    json_text,
    strip_fences,
)
from botpsy.types import ParseErrorKind, ToolCall

_LIST_HEAD = re.compile(r"\[\s*(?:([A-Za-z_][\w.]*)\s*)?")
_LINE_HEAD = re.compile(r"[ \t]*([A-Za-z_][\w.]*)")
_JSON_NAMES = {"true": True, "false": False, "null": None}
_PARSE_FAILURES = (SyntaxError, ValueError, RecursionError, MemoryError)


# ---------------------------------------------------------------- rendering


def py_literal(value: Any) -> str:
    """A JSON value as a Python literal (strings double-quoted, like JSON)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json_text(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{py_literal(str(k))}: {py_literal(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def is_keyword_name(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


def render_call(call: ToolCall) -> str:
    """``name(a=1, b="x")``; argument names that are not identifiers go in ``**{...}``."""
    if not all(is_keyword_name(part) for part in call.name.split(".")):
        raise ValueError(
            f"the pythonic format needs a dotted identifier as tool name, got {call.name!r}"
        )
    plain = {k: v for k, v in call.arguments.items() if is_keyword_name(k)}
    other = {k: v for k, v in call.arguments.items() if k not in plain}
    parts = [f"{k}={py_literal(v)}" for k, v in plain.items()]
    if other:
        parts.append("**" + py_literal(other))
    return f"{call.name}({', '.join(parts)})"


def render_call_list(calls: list[ToolCall]) -> str:
    return "[" + ", ".join(render_call(c) for c in calls) + "]"


# ---------------------------------------------------------------- extents


def _list_extent(text: str, start: int, stop: int, final: bool) -> Extent:
    head = _LIST_HEAD.match(text, start, stop)
    if head is None:
        return NOT_A_CALL
    if head.end() >= stop:
        return NOT_A_CALL if final else NEED_MORE
    if head.group(1) is None or text[head.end()] != "(":
        return NOT_A_CALL
    scan = balance(text, start, stop)
    if scan.end is None:
        return Extent(ExtentKind.span, stop, closed=False) if final else NEED_MORE
    return Extent(ExtentKind.span, scan.end, closed=True)


def _line_extent(text: str, start: int, stop: int, final: bool) -> Extent:
    """A bare call that fills its line: ``get_weather(city="Paris")``."""
    head = _LINE_HEAD.match(text, start, stop)
    if head is None:
        return NOT_A_CALL
    if head.end() >= stop:
        return NOT_A_CALL if final else NEED_MORE
    if text[head.end()] != "(":
        return NOT_A_CALL
    scan = balance(text, head.end(), stop)
    if scan.end is None:
        return Extent(ExtentKind.span, stop, closed=False) if final else NEED_MORE
    newline = text.find("\n", scan.end, stop)
    if text[scan.end : newline if newline >= 0 else stop].strip():
        return NOT_A_CALL
    if newline < 0 and not final:
        return NEED_MORE
    return Extent(ExtentKind.span, scan.end, closed=True)


def py_extent(text: str, start: int, stop: int, final: bool) -> Extent:
    """How far a pythonic call candidate (list, fenced block, or bare line) reaches."""
    if not text.startswith(FENCE, start):
        inner = _list_extent if text.startswith("[", start) else _line_extent
        return inner(text, start, stop, final)
    body = fence_body_start(text, start, stop)
    while body is not None and body < stop and text[body].isspace():
        body += 1
    if body is None or body >= stop:
        return NOT_A_CALL if final else NEED_MORE
    inner = _list_extent if text[body] == "[" else _line_extent
    found = inner(text, body, stop, final)
    if found.kind is not ExtentKind.span or not found.closed:
        return found
    end = closing_fence_end(text, found.end, stop, final)
    return NEED_MORE if end is None else Extent(ExtentKind.span, end, closed=True)


# ---------------------------------------------------------------- decoding


class _NotLiteral(ValueError):
    """An argument that is an expression rather than a literal value."""


class _JsonNames(ast.NodeTransformer):
    """Reads ``true``/``false``/``null`` as the constants a JSON-minded model meant."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in _JSON_NAMES:
            return ast.copy_location(ast.Constant(_JSON_NAMES[node.id]), node)
        return node


def _literal(node: ast.expr, name: str) -> Any:
    try:
        value = ast.literal_eval(_JsonNames().visit(node))
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError) as exc:
        raise _NotLiteral(f"argument {name} is not a literal value: {_source(node)}") from exc
    return _json_value(value, name)


def _json_value(value: Any, name: str) -> Any:
    """A literal as JSON data: tuples become lists; sets, bytes and complex are refused."""
    if isinstance(value, (list, tuple)):
        return [_json_value(v, name) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise _NotLiteral(f"argument {name} has a dict with non-string keys")
        return {k: _json_value(v, name) for k, v in value.items()}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise _NotLiteral(f"argument {name} is a {type(value).__name__}, not a JSON value")


def _source(node: ast.expr) -> str:
    try:
        return ast.unparse(node)[:80]
    except (ValueError, RecursionError):  # pragma: no cover - unparse of a parsed tree
        return type(node).__name__


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _arguments(node: ast.Call, tools: ToolIndex | None) -> dict[str, Any]:
    """Keyword (and, with a schema, positional) literal arguments of one call."""
    name = _dotted(node.func) or ""
    spec = (tools or {}).get(name)
    order = list((spec.parameters.get("properties") or {}).keys()) if spec else []
    arguments: dict[str, Any] = {}
    for index, arg in enumerate(node.args):
        if index >= len(order):
            raise _NotLiteral("positional argument without a known parameter name")
        arguments[order[index]] = _literal(arg, order[index])
    for kw in node.keywords:
        value = _literal(kw.value, kw.arg or "**")
        if kw.arg is not None:
            arguments[kw.arg] = value
        elif isinstance(value, dict):
            arguments.update(value)
        else:
            raise _NotLiteral("** needs a dict")
    return arguments


def _call(node: ast.expr, source: str, tools: ToolIndex | None) -> CallOutcome:
    raw = ast.get_source_segment(source, node) or source
    if not isinstance(node, ast.Call):
        return CallOutcome(
            error=parse_error(ParseErrorKind.bad_arguments, "not a function call", raw)
        )
    name = _dotted(node.func)
    if name is None:
        return CallOutcome(
            error=parse_error(ParseErrorKind.missing_name, "call without a name", raw)
        )
    try:
        arguments = _arguments(node, tools)
    except _NotLiteral as exc:
        return CallOutcome(error=parse_error(ParseErrorKind.bad_arguments, str(exc), raw))
    return CallOutcome(call=ToolCall(name=name, arguments=arguments))


def _parse(source: str) -> ast.Expression:
    """``ast.parse`` without the warnings odd escapes in model text would print."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, mode="eval")


def _close_list(source: str) -> str | None:
    """A call list missing only its final ``]``, closed; None if more is missing."""
    if not source.startswith("["):
        return None
    scan = balance(source, 0, len(source))
    if scan.end is None and scan.open_stack == "[" and not scan.in_string:
        return source + "]"
    return None


def decode_python(region: Region, tools: ToolIndex | None) -> Decoded:
    """The calls of a pythonic region (a call list, a fenced one, or a bare call line)."""
    source = strip_fences(region.body).strip()
    is_list = source.startswith("[")
    lenient = not region.tagged and not is_list  # a bare line may just be prose
    if not source:
        return (
            failure(region, ParseErrorKind.missing_name, "empty tool call")
            if region.tagged
            else not_a_call(region)
        )
    closed_list = None if region.closed else _close_list(source)
    if not region.closed and closed_list is None and region.at_eof:
        return failure(region, ParseErrorKind.truncated, "output ended inside a tool call")
    try:
        tree = _parse(closed_list or source)
    except _PARSE_FAILURES:
        if lenient:
            return not_a_call(region)
        return failure(region, ParseErrorKind.syntax_error, "call list is not valid Python")
    nodes = tree.body.elts if isinstance(tree.body, (ast.List, ast.Tuple)) else [tree.body]
    decoded = _collect(nodes, closed_list or source, region, tools)
    if lenient and not decoded.calls and not _names_known_tool(nodes, tools):
        return not_a_call(region)
    if closed_list is not None and decoded.calls and not region.tagged:
        decoded.errors.append(
            parse_error(
                ParseErrorKind.unclosed_tag,
                "call list without its closing ]",
                region.raw,
                recovered=True,
            )
        )
    return finish_decoded(region, decoded, primary=is_list)


def _collect(
    nodes: list[ast.expr], source: str, region: Region, tools: ToolIndex | None
) -> Decoded:
    decoded = Decoded()
    failed: list[str] = []
    for node in nodes:
        outcome = _call(node, source, tools)
        if outcome.call is not None:
            decoded.calls.append(outcome.call)
        elif outcome.error is not None:
            decoded.errors.append(outcome.error)
            failed.append(outcome.error.raw)
    decoded.leftover = region.raw if failed and not decoded.calls else "\n".join(failed)
    return decoded


def _names_known_tool(nodes: list[ast.expr], tools: ToolIndex | None) -> bool:
    return any(isinstance(n, ast.Call) and _dotted(n.func) in (tools or {}) for n in nodes)
