"""GBNF grammars (llama.cpp syntax) that force well-formed calls.

Used when ``tool_choice`` is ``"required"`` or names a tool: decoding is
constrained to one or more calls of the allowed tools whose arguments follow
each tool's JSON schema (required keys present, enum values, types). The JSON
parts come from llama-cpp-python's schema converter (imported lazily: it is only
needed on a llama.cpp backend). Every grammar starts at the call opener, so the
backend can force a call from the first generated token.

A type list (``{"type": ["string", "null"], "pattern": ...}``, how optional
arguments are often declared) is spread into one ``anyOf`` branch per type before
conversion: llama-cpp-python's converter reads a type list as bare types and drops
every other keyword, so a nullable argument's ``pattern``, ``enum`` or ``items``
went unenforced (a narrowed retry could write the refused ``due`` again).

A forced call must end, even from a model that would rather write whitespace
forever (a random Qwen3.5 did, until its token budget ran out): a string value's
whitespace (qwen35 parameter text, JSON strings) comes in runs of at most
``MAX_SPACES`` spaces or tabs around at most two line breaks (the bound llama.cpp's
own JSON grammars put on whitespace), and a ``maxLength`` bounds the value's length. Enum
values are literals, and numbers take at most 16 digits per part (the converter's
rules).

Known limits: string values in the qwen35 grammar may not contain ``</``
(it would end the parameter), and string ``pattern``/``format`` constraints
are only enforced in JSON positions.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from botpsy.formats.pycall import is_keyword_name
from botpsy.formats.scan import CALL_CLOSE, CALL_OPEN
from botpsy.formats.xmlcall import FUNCTION_CLOSE, PARAMETER_CLOSE, deref, schema_types
from botpsy.tools.jsonvalues import branch_for
from botpsy.types import ToolSpec

NL = "\n"
MAX_SPACES = 20  # spaces or tabs in a row inside a string value (qwen35 text, JSON strings)
_HSPACE = f"[ \\t\\r]{{0,{MAX_SPACES}}}"


def _whitespace_rule(name: str) -> str:
    """A run of whitespace: spaces and tabs around at most two line breaks (the bound
    llama.cpp's own JSON grammars put on whitespace between tokens)."""
    return f'{name} ::= [ \\t\\r]{{1,{MAX_SPACES}}} | {_HSPACE} "\\n" {_HSPACE} ("\\n" {_HSPACE})?'

_RULE_CHARS = re.compile(r"[^A-Za-z0-9-]+")
_JSON_BOOLEAN = re.compile(r"^boolean ::= .*$", re.MULTILINE)
_JSON_NULL = re.compile(r"^null ::= .*$", re.MULTILINE)
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def select_tools(tools: list[ToolSpec], tool_choice: str) -> list[ToolSpec]:
    """The tools a forced call may use; ``ValueError`` for "auto"/"none" or an unknown name."""
    if tool_choice in ("auto", "none"):
        raise ValueError(f"tool_choice {tool_choice!r} does not force a call; no grammar applies")
    if not tools:
        raise ValueError("a call grammar needs at least one tool")
    if tool_choice == "required":
        return list(tools)
    chosen = [spec for spec in tools if spec.name == tool_choice]
    if not chosen:
        known = ", ".join(spec.name for spec in tools)
        raise ValueError(f"tool_choice {tool_choice!r} is not one of the tools: {known}")
    return chosen


def literal(text: str) -> str:
    """``text`` as a GBNF string literal."""
    out = "".join(_ESCAPES.get(c, c if c >= " " else f"\\x{ord(c):02x}") for c in text)
    return f'"{out}"'


# Characters a schema pattern may hold as they are; every other one goes in a class of its own.
_PLAIN_IN_PATTERN = frozenset(" @_,:;!'-/#%&=<>~`")
# Characters no one-character class can hold as llama-cpp-python's converter copies it
_ANY_IN_PATTERN = frozenset('"\\^]')


def pattern_literal(text: str) -> str:
    """``text`` as a JSON-schema ``pattern`` that matches it alone and that llama.cpp can
    read once llama-cpp-python has converted it. Punctuation goes in a one-character class
    (``[.]``, ``[+]``), never behind a backslash: the converter copies ``\\.`` into the
    GBNF string, where it is no valid escape, and llama.cpp refuses the whole grammar (a
    phone number's "+" or a title's "." then failed the turn). A quote, backslash, caret
    or closing bracket, which no such class can hold, matches any character."""
    return "".join(c if c.isalnum() or c in _PLAIN_IN_PATTERN
                   else "." if c in _ANY_IN_PATTERN else f"[{c}]" for c in text)


def rule_name(*parts: str | int) -> str:
    return _RULE_CHARS.sub("-", "-".join(str(p) for p in parts)).strip("-").lower()


def _converter(prop_order: list[str] | None = None) -> Any:
    from llama_cpp.llama_grammar import SchemaConverter

    order = {name: index for index, name in enumerate(prop_order or [])}
    return SchemaConverter(prop_order=order, allow_fetch=False, dotall=False, raw_pattern=False)


def _grammar(
    converter: Any,
    rules: list[str],
    separator: str,
    opener: str = "",
    closer: str = "",
    parallel: bool = True,
) -> str:
    """The converter's rules plus ours, with a root of one ``call`` (or more when
    ``parallel``)."""
    more = f" ({literal(separator)} call)*" if parallel else ""
    root = f"root ::= {literal(opener)} call{more} {literal(closer)}"
    return "\n".join([root, *rules, bounded_json_strings(converter.format_grammar())]) + "\n"


_JSON_STRING = 'string ::= "\\"" char* "\\"" space'
_JSON_STRING_RULES = [
    # a JSON string's characters without raw whitespace, which comes in bounded runs
    'string ::= "\\"" json-ws? (json-char+ (json-ws json-char+)* json-ws?)? "\\"" space',
    'json-char ::= [^"\\\\\\x09\\x0A\\x0D\\x20] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})',
    _whitespace_rule("json-ws"),
]


def bounded_json_strings(grammar: str) -> str:
    """The converter's unbounded JSON ``string`` rule with whitespace in bounded runs, as the
    qwen35 values have (a schema's ``maxLength`` gets its own rule and stays as it is)."""
    lines = grammar.splitlines()
    if _JSON_STRING not in lines:
        return grammar
    index = lines.index(_JSON_STRING)
    return "\n".join([*lines[:index], *_JSON_STRING_RULES, *lines[index + 1 :]]) + "\n"


def json_grammar(schema: dict[str, Any]) -> str:
    """A grammar for one JSON value that ``schema`` accepts (structured output)."""
    converter = _converter()
    prepared = spread_type_lists(accept_anything(copy.deepcopy(schema)))
    converter.visit(converter.resolve_refs(prepared, "response"), "")
    return converter.format_grammar()


def _parameters(converter: Any, spec: ToolSpec, index: int) -> dict[str, Any]:
    """A copy of the tool's parameter schema with its type lists spread and its ``$ref``s
    registered in the converter (which rewrites refs in place, so the ToolSpec is never
    touched)."""
    params = spread_type_lists(accept_anything(copy.deepcopy(spec.parameters or {})))
    return converter.resolve_refs(params, rule_name("tool", index))


# Keywords whose value is one schema, a list of schemas, or a name -> schema mapping.
_SUBSCHEMA = ("items", "additionalProperties", "not")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions")


def accept_anything(schema: Any) -> Any:
    """``schema`` with each ``true`` subschema (JSON Schema for "any value") written as
    ``{}``, the form llama-cpp-python's converter reads; in place."""
    if not isinstance(schema, dict):
        return schema
    for key in _SUBSCHEMA:
        if schema.get(key) is True:
            schema[key] = {}
        accept_anything(schema.get(key))
    for key in _SUBSCHEMA_LISTS:
        branches = schema.get(key) or []
        for index, branch in enumerate(branches):
            branches[index] = {} if branch is True else accept_anything(branch)
    for key in _SUBSCHEMA_MAPS:
        subs = schema.get(key) or {}
        for name, sub in subs.items():
            subs[name] = {} if sub is True else accept_anything(sub)
    return schema


def spread_type_lists(schema: Any) -> Any:
    """``schema`` with every ``{"type": [A, B, ...], ...}`` (one with no union of its own)
    rewritten in place as ``{"anyOf": [{"type": A, ...}, {"type": B, ...}]}``, each branch
    keeping the other keywords (a ``null`` branch keeps none: nothing applies to null)."""
    if not isinstance(schema, dict):
        return schema
    for key in _SUBSCHEMA:
        spread_type_lists(schema.get(key))
    for key in _SUBSCHEMA_LISTS:
        for branch in schema.get(key) or []:
            spread_type_lists(branch)
    for key in _SUBSCHEMA_MAPS:
        for sub in (schema.get(key) or {}).values():
            spread_type_lists(sub)
    types = schema.get("type")
    if not isinstance(types, list) or any(k in schema for k in ("anyOf", "oneOf", "$ref")):
        return schema
    rest = {k: v for k, v in schema.items() if k != "type"}
    schema.clear()
    schema["anyOf"] = [{"type": t} if t == "null" else {**rest, "type": t} for t in types]
    return schema


def _properties(params: dict[str, Any]) -> list[tuple[str, Any, bool]]:
    """(name, schema, required) for each parameter, in schema order."""
    required = set(params.get("required") or [])
    return [(k, v, k in required) for k, v in (params.get("properties") or {}).items()]


# ---------------------------------------------------------------- hermes


def hermes_grammar(tools: list[ToolSpec], tool_choice: str, parallel: bool = True) -> str:
    """``<tool_call>\\n{"name": ..., "arguments": {...}}\\n</tool_call>``, one or more."""
    chosen = select_tools(tools, tool_choice)
    converter = _converter(["name", "arguments"])
    branches = [
        {
            "type": "object",
            "properties": {
                "name": {"const": spec.name},
                "arguments": _parameters(converter, spec, index),
            },
            "required": ["name", "arguments"],
        }
        for index, spec in enumerate(chosen)
    ]
    converter.visit({"anyOf": branches}, "call-json")
    call = f"call ::= {literal(CALL_OPEN + NL)} call-json {literal(NL + CALL_CLOSE)}"
    return _grammar(converter, [call], NL, parallel=parallel)


# ---------------------------------------------------------------- qwen35

_XML_TEXT_RULES = [
    # One character of a value: "<" only when "/" does not follow (that ends the value).
    'xml-char ::= [^<\\x09\\x0A\\x0D\\x20] | "<" [^/]',
    "xml-any ::= xml-char | [ \\t\\r\\n]",
    _whitespace_rule("xml-ws"),
    "xml-text ::= xml-ws? (xml-char+ (xml-ws xml-char+)* xml-ws?)?",
]


def _xml_string(target: Any, name: str, rules: list[str]) -> str:
    """A string value: at most ``maxLength`` characters when the schema says, else text
    whose whitespace runs are bounded."""
    branch = branch_for(target, "string") if isinstance(target, dict) else {}
    longest = branch.get("maxLength")
    if not isinstance(longest, int) or longest < 0:
        return "xml-text"
    shortest = min(max(int(branch.get("minLength") or 0), 0), longest)
    rules.append(f"{name} ::= xml-any{{{shortest},{longest}}}")
    return name


def _xml_value(converter: Any, schema: Any, target: Any, name: str, rules: list[str]) -> str:
    """The rule for one parameter value: raw text for strings, JSON otherwise;
    ``target`` is the schema with its ``$ref`` followed."""
    enum = branch_for(target, "string").get("enum") if isinstance(target, dict) else None
    if enum and all(isinstance(v, str) for v in enum):
        rules.append(f"{name} ::= " + " | ".join(literal(v) for v in enum))
        return name
    types = schema_types(target)
    if not types or "string" in types:
        return _xml_string(target, name, rules)
    return converter.visit(schema, name)


def _xml_function(converter: Any, spec: ToolSpec, index: int, rules: list[str]) -> str:
    """Rules for one ``<function=...>`` block; returns the block's rule name."""
    items = []
    params = _parameters(converter, spec, index)
    for key, schema, required in _properties(params):
        param = rule_name("p", index, spec.name, key)
        name = rule_name("v", index, spec.name, key)
        value = _xml_value(converter, schema, deref(schema, params), name, rules)
        opener, closer = literal(f"<parameter={key}>{NL}"), literal(f"{NL}{PARAMETER_CLOSE}{NL}")
        rules.append(f"{param} ::= {opener} {value} {closer}")
        items.append(param if required else f"{param}?")
    function = rule_name("f", index, spec.name)
    opener, closer = literal(f"<function={spec.name}>{NL}"), literal(FUNCTION_CLOSE + NL)
    rules.append(f"{function} ::= {opener} {' '.join(items)} {closer}")
    return function


def qwen35_grammar(tools: list[ToolSpec], tool_choice: str, parallel: bool = True) -> str:
    """``<tool_call>\\n<function=NAME>\\n<parameter=ARG>\\nVALUE\\n</parameter>\\n...``."""
    chosen = select_tools(tools, tool_choice)
    converter = _converter()
    rules = list(_XML_TEXT_RULES)
    functions = [_xml_function(converter, spec, i, rules) for i, spec in enumerate(chosen)]
    rules.append(
        f"call ::= {literal(CALL_OPEN + NL)} ({' | '.join(functions)}) {literal(CALL_CLOSE)}"
    )
    return _grammar(converter, rules, NL, parallel=parallel)


# ---------------------------------------------------------------- pythonic


def _keyword_arguments(items: list[str], required: list[bool]) -> str:
    """Comma-separated keyword arguments where optional ones may be left out."""
    first_required = next((i for i, needed in enumerate(required) if needed), None)
    if first_required is None:  # all optional: any subset in order, possibly none
        starts = [
            " ".join([items[i], *(f'(", " {it})?' for it in items[i + 1 :])])
            for i in range(len(items))
        ]
        return f"({' | '.join(f'({s})' for s in starts)})?" if starts else ""
    head = [f'({it} ", ")?' for it in items[:first_required]]
    tail = [
        (f'", " {it}' if needed else f'(", " {it})?')
        for it, needed in zip(items[first_required + 1 :], required[first_required + 1 :])
    ]
    return " ".join([*head, items[first_required], *tail])


def _python_call(converter: Any, spec: ToolSpec, index: int, rules: list[str]) -> str:
    """Rules for one ``name(arg=value, ...)`` call; returns the call's rule name."""
    if not all(is_keyword_name(part) for part in spec.name.split(".")):
        raise ValueError(f"the pythonic format cannot call {spec.name!r}: not an identifier")
    items, required = [], []
    for key, schema, needed in _properties(_parameters(converter, spec, index)):
        if not is_keyword_name(key):
            raise ValueError(
                f"the pythonic grammar needs identifier argument names, {spec.name} has {key!r}"
            )
        value = converter.visit(schema, rule_name("v", index, spec.name, key))
        items.append(f"{literal(key + '=')} {value}")
        required.append(needed)
    function = rule_name("f", index, spec.name)
    arguments = _keyword_arguments(items, required)
    rules.append(f'{function} ::= {literal(spec.name + "(")} {arguments} ")"')
    return function


def pythonic_grammar(tools: list[ToolSpec], tool_choice: str, parallel: bool = True) -> str:
    """``[name(arg=value, ...), ...]`` with Python literal constants."""
    chosen = select_tools(tools, tool_choice)
    converter = _converter()
    rules: list[str] = []
    functions = [_python_call(converter, spec, i, rules) for i, spec in enumerate(chosen)]
    rules.append(f"call ::= {' | '.join(functions)}")
    grammar = _grammar(converter, rules, ", ", "[", "]", parallel=parallel)
    # Python spells the JSON constants True/False/None, as render_call writes them.
    grammar = _JSON_BOOLEAN.sub('boolean ::= ("True" | "False") space', grammar)
    return _JSON_NULL.sub('null ::= "None" space', grammar)
