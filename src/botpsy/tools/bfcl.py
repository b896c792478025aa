"""BFCL function documents as plain JSON schema.

BFCL writes parameter types in its own vocabulary (``dict``, ``float``,
``tuple``, ``any``) and, for its Java and JavaScript categories, in those
languages' words (``String``, ``HashMap``, ``long``...). ``bfcl_parameters``
maps them onto JSON-schema types so that prompts, validation and training see
one dialect; the original document stays on the Tool for BFCL's own checker.
"""

from __future__ import annotations

from typing import Any

# BFCL / Java / JavaScript type name (lower-cased) -> JSON schema type; None = any value.
BFCL_TYPES: dict[str, str | None] = {
    "dict": "object",
    "object": "object",
    "hashmap": "object",
    "map": "object",
    "float": "number",
    "double": "number",
    "number": "number",
    "integer": "integer",
    "int": "integer",
    "long": "integer",
    "short": "integer",
    "byte": "integer",
    "string": "string",
    "str": "string",
    "char": "string",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "arraylist": "array",
    "list": "array",
    "tuple": "array",
    "set": "array",
    "null": "null",
    "any": None,
    "": None,
}
# Non-standard keys BFCL adds that mean nothing to a JSON-schema reader.
_DROPPED = ("optional",)


class BfclDocError(ValueError):
    """A BFCL function document that cannot be read as a tool."""


def is_bfcl_doc(doc: Any) -> bool:
    """Whether ``doc`` looks like a BFCL function doc (its parameters are a ``dict``)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("parameters"), dict):
        return False
    return str(doc["parameters"].get("type", "")).lower() == "dict"


def bfcl_parameters(parameters: Any, where: str = "parameters") -> dict[str, Any]:
    """A BFCL parameter schema (any nesting) rewritten in JSON-schema types."""
    if not isinstance(parameters, dict):
        raise BfclDocError(f"{where} must be an object, got {type(parameters).__name__}")
    out: dict[str, Any] = {}
    for key, value in parameters.items():
        if key in _DROPPED:
            continue
        if key == "type":
            mapped = _json_type(value, where)
            if mapped is not None:
                out["type"] = mapped
        elif key == "properties" and isinstance(value, dict):
            out[key] = {
                name: bfcl_parameters(sub, f"{where}.{name}") for name, sub in value.items()
            }
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = bfcl_parameters(value, f"{where}[]")
        else:
            out[key] = value
    return out


def _json_type(value: Any, where: str) -> str | list[str] | None:
    if isinstance(value, list):
        mapped = [_json_type(v, where) for v in value]
        return None if None in mapped else mapped  # type: ignore[return-value]
    if not isinstance(value, str) or value.strip().lower() not in BFCL_TYPES:
        known = ", ".join(sorted(k for k in BFCL_TYPES if k))
        raise BfclDocError(f"{where}: unknown type {value!r} (known: {known})")
    return BFCL_TYPES[value.strip().lower()]
