"""Unambiguous repairs of tool arguments, driven by the parameter schema.

Small models often quote numbers (``"5"``), write booleans as strings, or send a
list as a JSON string. When the intended value is certain, it is converted and
the change is reported; anything else (``"five"``, a bare value for a list) is
left alone for validation to reject with a message the model can act on.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from botpsy.tools.jsonvalues import Path, allowed_types, branch_for, json_type, show, where

_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_NOT_A_LITERAL = object()


def _literal(text: str) -> Any:
    """The JSON value a string plainly spells, or ``_NOT_A_LITERAL``."""
    stripped = text.strip()
    if stripped.lower() in ("true", "false"):
        return stripped.lower() == "true"
    if _INT.fullmatch(stripped):
        return int(stripped)
    if _FLOAT.fullmatch(stripped):
        number = float(stripped)
        return number if math.isfinite(number) else _NOT_A_LITERAL
    if stripped[:1] in ("[", "{"):
        try:
            return json.loads(stripped)
        except ValueError:
            return _NOT_A_LITERAL
    return _NOT_A_LITERAL


def _accepts(types: list[str], kind: str) -> bool:
    return kind in types or (kind == "integer" and "number" in types)


class Coercer:
    """Applies the repairs to one set of arguments and keeps a note of each."""

    def __init__(self) -> None:
        self.notes: list[str] = []

    def coerce(self, value: Any, schema: Any, path: Path = ()) -> Any:
        """``value`` with the unambiguous repairs ``schema`` allows; never mutates it."""
        types = allowed_types(schema)
        if not types:
            return value
        repaired = self._scalar(value, types)
        if repaired is not value and json_type(repaired) != json_type(value):
            self.notes.append(
                f"{where(path)}: {show(value, 40)} -> {show(repaired, 40)} "
                f"({json_type(value)} to {json_type(repaired)})"
            )
        return self._inside(repaired, schema, path)

    def _scalar(self, value: Any, types: list[str]) -> Any:
        kind = json_type(value)
        if kind == "string" and "string" not in types:
            parsed = _literal(value)
            if parsed is _NOT_A_LITERAL or not _accepts(types, json_type(parsed)):
                return value
            value, kind = parsed, json_type(parsed)
        if kind == "integer" and "integer" not in types and "number" in types:
            return float(value)
        if kind == "number" and "number" not in types and "integer" in types:
            return int(value) if value.is_integer() else value
        return value

    def _inside(self, value: Any, schema: dict[str, Any], path: Path) -> Any:
        kind = json_type(value)
        if kind not in ("array", "object"):
            return value
        schema = branch_for(schema, kind)
        if kind == "array":
            return [self.coerce(item, self._item_schema(schema, i), (*path, i))
                    for i, item in enumerate(value)]
        properties = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        return {key: self.coerce(item, properties.get(key, extra), (*path, key))
                for key, item in value.items()}

    @staticmethod
    def _item_schema(schema: dict[str, Any], index: int) -> Any:
        prefix = schema.get("prefixItems")
        if isinstance(prefix, list) and index < len(prefix):
            return prefix[index]
        return schema.get("items")
