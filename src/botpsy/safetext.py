"""Text that UTF-8 cannot encode, found and made safe in one place.

A Python string may hold lone surrogates (``"\\ud800"``): JSON's ``\\uD800`` escape
decodes to one, a file name that is not UTF-8 comes back from the OS as one
(``surrogateescape``), and so does a command-line argument in a bad encoding.
Nothing downstream accepts them: SQLite, pydantic's JSON output and the model's
tokenizer all encode to UTF-8 and raise. botpsy therefore either refuses such
text with a clear error (the HTTP API: ``lone_surrogate`` says where) or keeps it
in an escaped form that is plain text (``storable``: ``\\ud800`` as six
characters), so that odd input never crashes a turn or loses the rest of a row.
"""

from __future__ import annotations

from typing import Any


def lone_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate in ``text``, or None."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def storable(text: str) -> str:
    """``text`` with each lone surrogate replaced by its ``\\udXXX`` escape (plain
    text); any other text comes back unchanged (the same object)."""
    if lone_surrogate(text) is None:
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def storable_value(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, strings) with every string and key storable."""
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, dict):
        return {storable(k) if isinstance(k, str) else k: storable_value(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [storable_value(v) for v in value]
    return value
