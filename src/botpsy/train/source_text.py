"""Parameters that take their value as source text: the same tool as a Java or JavaScript
binding declares it.

Why: SDKs bridged to a model (a Java service, a JavaScript front end, a code generator)
often declare every parameter a string and expect the value as code: ``"true"``, ``"42"``,
``"new int[]{1, 2}"``, ``"[30, 60]"``. A model trained only on JSON-typed tools writes
``true`` and ``42`` there, and the binding rejects the call: the shipped smol adapter
made 8 such type errors in the first 20 BFCL Java and JavaScript cases each (a boolean or
a number where the schema said string). A share of the samples rewrites their tools in
this style so the declared type, not the value's look, decides how a value is written.

``to_source_text`` rewrites a sample consistently: every tool's non-string parameters
become strings that name the language and the original type, and the calls (and the
references the grader compares) carry the values as that language writes them. String
parameters keep their values. Samples under the on-device assistant's prompt are left
alone: its tools are JSON-typed.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from botpsy.rewards import ReferenceCall
from botpsy.train.sample import TrainSample
from botpsy.types import Message, ToolSpec

LANGUAGES = ("Java", "JavaScript")

# Java's element type names for arrays of JSON scalars.
_JAVA_ELEMENTS = {"integer": "int", "number": "double", "boolean": "boolean", "string": "String"}
_JAVA_SCALARS = {"integer": "int", "number": "double", "boolean": "boolean"}


def _rewritten(schema: dict[str, Any], language: str) -> bool:
    """Whether a parameter changes: typed, not a string, and (in Java) no object."""
    kind = schema.get("type")
    if not isinstance(kind, str) or kind == "string":  # untyped, a union, or text already
        return False
    if kind == "object":
        return language == "JavaScript"
    if kind == "array":
        items = schema.get("items") or {}
        return language == "JavaScript" or items.get("type") in _JAVA_ELEMENTS
    return kind in _JAVA_SCALARS


def _type_word(schema: dict[str, Any], language: str) -> str:
    kind = schema["type"]
    if language == "JavaScript":
        return {"integer": "number"}.get(kind, kind)
    if kind == "array":
        return f"{_JAVA_ELEMENTS[(schema.get('items') or {})['type']]}[]"
    return _JAVA_SCALARS[kind]


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value) if isinstance(value, float) else str(value)


def source_text(value: Any, schema: dict[str, Any], language: str) -> Any:
    """``value`` as ``language`` writes it for a parameter of ``schema``; ``""`` (the
    reference's "may be omitted") stays as it is."""
    if value == "" or not _rewritten(schema, language):
        return value
    if language == "JavaScript":
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        element = _JAVA_ELEMENTS[(schema.get("items") or {})["type"]]
        return f"new {element}[]{{{', '.join(_scalar(v) for v in value)}}}"
    return value if isinstance(value, str) else _scalar(value)


def _sentences(text: str | None, note: str) -> str:
    """``note`` after ``text``, which gets a full stop if it lacks one."""
    text = (text or "").rstrip()
    if text and not text.endswith((".", "?", "!")):
        text += "."
    return f"{text} {note}".strip()


def _properties(spec: ToolSpec | None) -> dict[str, Any]:
    return (spec.parameters.get("properties") or {}) if spec else {}


def _parameters(params: dict[str, Any], language: str) -> dict[str, Any]:
    properties = {}
    for key, schema in (params.get("properties") or {}).items():
        if _rewritten(schema, language):
            note = f"Given as {language} source text ({_type_word(schema, language)})."
            schema = {"type": "string", "description": _sentences(schema.get("description"), note)}
        properties[key] = schema
    return {**params, "properties": properties}


def _tool(spec: ToolSpec, language: str) -> ToolSpec:
    return spec.model_copy(
        update={
            "description": f"{spec.description.rstrip()} (a {language} method)",
            "parameters": _parameters(spec.parameters, language),
        }
    )


def _arguments(args: dict[str, Any], spec: ToolSpec | None, language: str) -> dict[str, Any]:
    props = _properties(spec)
    return {key: source_text(value, props.get(key, {}), language) for key, value in args.items()}


def _message(message: Message, specs: dict[str, ToolSpec], language: str) -> Message:
    if not message.tool_calls:
        return message
    calls = [
        call.model_copy(
            update={"arguments": _arguments(call.arguments, specs.get(call.name), language)}
        )
        for call in message.tool_calls
    ]
    return message.model_copy(update={"tool_calls": calls})


def _reference(ref: ReferenceCall, specs: dict[str, ToolSpec], language: str) -> ReferenceCall:
    props = _properties(specs.get(ref.name))
    arguments = {
        key: [source_text(_first_alternatives(v), props.get(key, {}), language) for v in values]
        for key, values in ref.arguments.items()
    }
    schemas = {
        key: ({"type": "string"} if _rewritten(props.get(key, {}), language) else schema)
        for key, schema in ref.schemas.items()
    }
    return dataclasses.replace(ref, arguments=arguments, schemas=schemas)


def _first_alternatives(value: Any) -> Any:
    """An object reference value as the call writes it: a reference lists each field's
    accepted values (``{"adults": [1]}``), the call's source text holds one
    (``{"adults": 1}``), so the text is written from each field's first alternative."""
    if isinstance(value, dict):
        return {k: _first_alternatives(v[0] if isinstance(v, list) and v else v)
                for k, v in value.items()}
    if isinstance(value, list):  # objects inside an array list their fields' values too
        return [_first_alternatives(v) for v in value]
    return value


def is_source_text(sample: TrainSample) -> bool:
    """Whether ``to_source_text`` rewrote ``sample`` (its tools say which language)."""
    return any(
        t.description.endswith(f"(a {language} method)")
        for t in sample.tools
        for language in LANGUAGES
    )


def to_source_text(sample: TrainSample, language: str) -> TrainSample:
    """``sample`` with its tools declared as ``language`` bindings and its calls' values
    written as that language's source text."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; known: {list(LANGUAGES)}")
    specs = {t.name: t for t in sample.tools}
    return sample.model_copy(
        update={
            "tools": [_tool(t, language) for t in sample.tools],
            "messages": [_message(m, specs, language) for m in sample.messages],
            "reference_calls": [_reference(r, specs, language) for r in sample.reference_calls],
        }
    )
