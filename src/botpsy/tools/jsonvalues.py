"""Small helpers about JSON values and schemas shared by coercion and validation:
a value's JSON type, a schema's allowed types, argument paths, and plain-English
descriptions of what a schema expects (the words a small model reads when its
call was wrong)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

Path = Sequence[str | int]

FORMAT_WORDS = {
    "date-time": "an ISO 8601 date-time string (e.g. 2025-01-31T09:00:00)",
    "date": "an ISO 8601 date string (YYYY-MM-DD)",
    "time": "an ISO 8601 time string (HH:MM:SS)",
    "email": "an email address string",
    "uri": "a URI string",
}
_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "object": "an object",
    "array": "a list",
}
_PLURALS = {
    "string": "strings",
    "integer": "integers",
    "number": "numbers",
    "boolean": "booleans (true/false)",
    "object": "objects",
    "array": "lists",
}


def json_type(value: Any) -> str:
    """The JSON type name of a Python value (``bool`` is not an integer here)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def allowed_types(schema: Any) -> list[str]:
    """The JSON types a schema accepts, from ``type`` or from ``anyOf``/``oneOf`` branches;
    empty when it accepts anything (or says nothing about types)."""
    if not isinstance(schema, dict):
        return []
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [t for t in declared if isinstance(t, str)]
    found: list[str] = []
    for branch in schema.get("anyOf", []) + schema.get("oneOf", []):
        found += [t for t in allowed_types(branch) if t not in found]
    return found


def branch_for(schema: dict[str, Any], json_kind: str) -> dict[str, Any]:
    """The part of ``schema`` that applies to values of type ``json_kind``
    (the matching ``anyOf`` branch, or the schema itself)."""
    for branch in schema.get("anyOf", []) + schema.get("oneOf", []):
        if json_kind in allowed_types(branch):
            return branch
    return schema


def path_text(path: Path) -> str:
    """``["items", 0, "name"]`` -> ``items[0].name``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def where(path: Path) -> str:
    """How a message names the place of a value: ``argument 'due'`` or ``the arguments``."""
    return f"argument '{path_text(path)}'" if path else "the arguments"


def show(value: Any, limit: int = 80) -> str:
    """A short JSON rendering of a value for an error message."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(schema: Any) -> str:
    """What a schema expects, in words: ``an integer``, ``one of "low", "high"``..."""
    if not isinstance(schema, dict):
        return "any value" if schema is not False else "nothing"
    if "enum" in schema:
        return "one of " + ", ".join(show(v) for v in schema["enum"])
    if "const" in schema:
        return "exactly " + show(schema["const"])
    declared = schema.get("type")
    if isinstance(declared, str):
        return _describe_type(declared, schema)
    if isinstance(declared, list) and declared:
        return " or ".join(_describe_type(t, schema) for t in declared)
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        return " or ".join(describe(b) for b in branches)
    return "any value"


def _describe_type(kind: str, schema: dict[str, Any]) -> str:
    if kind == "string" and schema.get("format") in FORMAT_WORDS:
        return FORMAT_WORDS[schema["format"]]
    if kind == "array":
        return _describe_array(schema)
    if kind == "object" and isinstance(schema.get("properties"), dict) and schema["properties"]:
        keys = list(schema["properties"])
        listed = ", ".join(f"'{k}'" for k in keys[:6]) + (", ..." if len(keys) > 6 else "")
        return f"an object with keys {listed}"
    return _TYPE_WORDS.get(kind, f"a {kind}")


def _describe_array(schema: dict[str, Any]) -> str:
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list) and prefix:
        return f"a list of {len(prefix)} items ({', '.join(describe(p) for p in prefix)})"
    items = schema.get("items")
    if not isinstance(items, dict) or not items:
        return "a list"
    kind = items.get("type")
    if isinstance(kind, str) and "enum" not in items and "format" not in items:
        return f"a list of {_PLURALS.get(kind, kind)}"
    return f"a list whose items are each {describe(items)}"
