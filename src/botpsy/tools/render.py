"""Tool return values as the short text a small model reads back.

Strings pass through; everything else becomes compact JSON (pydantic models,
dataclasses, datetimes and enums included). Small-model contexts are short, so
long results are cut with a visible marker that says how much was left out.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import to_jsonable_python

DEFAULT_MAX_CHARS = 4000


def to_text(value: Any) -> str:
    """A compact JSON (or plain text) rendering of a tool's return value."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    try:
        jsonable = to_jsonable_python(value, fallback=str)
    except (TypeError, ValueError):  # e.g. circular structures
        return str(value)
    return json.dumps(jsonable, ensure_ascii=False, separators=(",", ":"))


def _marker(kept: int, total: int) -> str:
    return f"…[truncated: showing {kept} of {total} chars]"


def truncate(text: str, max_chars: int | None) -> str:
    """``text`` cut to at most ``max_chars`` characters, marker included (only a
    ``max_chars`` shorter than the marker itself yields the bare marker)."""
    if max_chars is None or len(text) <= max_chars:
        return text
    total = len(text)
    # The marker's length depends on the count it shows: start from a marker that
    # is surely long enough, then take back the characters it did not need.
    keep = max(0, max_chars - len(_marker(max_chars, total)))
    while keep + 1 + len(_marker(keep + 1, total)) <= max_chars:
        keep += 1
    return text[:keep] + _marker(keep, total)


def render_result(value: Any, max_chars: int | None = DEFAULT_MAX_CHARS) -> str:
    """Rendering and truncation together: what goes into the tool message."""
    return truncate(to_text(value), max_chars)
